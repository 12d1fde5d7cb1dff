package mediaload

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is USER_HZ, the unit of /proc/PID/stat's CPU times (proc(5));
// 100 on every Linux architecture Go supports.
const clockTick = 100

// ProcCPU is the CPU time (user + system) a process has used, from
// /proc/PID/stat fields 14 and 15 (proc(5)); with children, also its waited
// children's (fields 16 and 17).
func ProcCPU(pid int, children bool) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command field", pid)
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 15 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	var ticks int64
	end := 13
	if children {
		end = 15
	}
	for _, k := range f[11:end] { // fields 14 (utime), 15 (stime), 16, 17
		n, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTick, nil
}

// ProcRSS is a process's resident memory in bytes (VmRSS of
// /proc/PID/status).
func ProcRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no VmRSS", pid)
}

// LoadAvg is /proc/loadavg's three load averages (1, 5, 15 minutes).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// UDPRcvbufErrors is the count of UDP datagrams the kernel dropped for a
// full socket receive buffer (RcvbufErrors of /proc/net/snmp's Udp lines,
// this network namespace): a receiver, server or generator, falling behind.
func UDPRcvbufErrors() int64 {
	b, err := os.ReadFile("/proc/net/snmp")
	if err != nil {
		return 0
	}
	var names []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "Udp:" {
			continue
		}
		if names == nil {
			names = f
			continue
		}
		for i, n := range names {
			if n == "RcvbufErrors" && i < len(f) {
				v, _ := strconv.ParseInt(f[i], 10, 64)
				return v
			}
		}
	}
	return 0
}

// ProcUDPDrops is the datagrams dropped at the UDP sockets a process holds
// (the drops column of /proc/net/udp for the socket inodes among
// /proc/PID/fd), so that a receiver falling behind is named: the server or
// the generator.
func ProcUDPDrops(pid int) int64 {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	var drops int64
	for _, table := range []string{"udp", "udp6"} {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) >= 13 && inodes[f[9]] {
				n, _ := strconv.ParseInt(f[12], 10, 64)
				drops += n
			}
		}
	}
	return drops
}
