package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// bareEnv names the file of the body a child process started by
// --bare-process serves (the child is this binary again).
const bareEnv = "CONFER_LOAD_SERVE_BARE"

// bareHandler is the bare handler: the list reply's bytes, nothing else.
func bareHandler(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		w.Write(body)
	})
}

// bareServer is a running bare handler: in this process, or in a child
// process of its own, as wrk measures a server (--bare-process).
type bareServer struct {
	addr string
	cpu  func() time.Duration // the child's CPU; nil in process
	stop func()
}

func startBare(body []byte, separate bool) (*bareServer, error) {
	if !separate {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		srv := &http.Server{Handler: bareHandler(body)}
		go srv.Serve(ln)
		return &bareServer{addr: ln.Addr().String(), stop: func() { srv.Close() }}, nil
	}
	f, err := os.CreateTemp("", "confer-load-bare-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name()) // the child has read it once it prints its address
	if _, err := f.Write(body); err != nil {
		f.Close()
		return nil, err
	}
	f.Close()
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), bareEnv+"="+f.Name())
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = childAttr() // gone with this process where the system allows
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("the bare handler's process did not start: %w", err)
	}
	pid := cmd.Process.Pid
	return &bareServer{
		addr: strings.TrimSpace(line),
		cpu:  func() time.Duration { return processCPU(pid) },
		stop: func() { cmd.Process.Kill(); cmd.Wait() },
	}, nil
}

// serveBare is the child's side: it serves the body of file on a
// loopback port and prints the address, until it is killed.
func serveBare(file string) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr().String())
	return (&http.Server{Handler: bareHandler(body)}).Serve(ln)
}

// processCPU is the CPU (user and system) process pid has used, from
// /proc; 0 when it cannot be read.
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name, which ends with ")": utime and
	// stime are the 14th and 15th of the line, in clock ticks (100 a
	// second on Linux).
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0
	}
	return time.Duration(u+s) * 10 * time.Millisecond
}
