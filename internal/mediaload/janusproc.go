package mediaload

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// Janus is a Janus gateway started with a generated configuration: the
// VideoRoom and AudioBridge plugins and the HTTP transport on loopback
// only, ICE on the loopback interface, no event handlers, loggers or other
// plugins.
type Janus struct {
	URL  string // the HTTP API, http://127.0.0.1:PORT/janus
	Dir  string // configuration and log
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// JanusOptions tune the started gateway.
type JanusOptions struct {
	Binary     string // default: janus on PATH
	Port       int    // HTTP API port; 0 picks a free one
	EventLoops int    // janus.jcfg event_loops; 0: a thread per handle (Janus's default)
	DebugLevel int    // 0..7; Janus's default 4 logs a line per event
}

// StartJanus writes the configuration into dir and starts Janus; Stop ends
// it. Plugins, transports, event handlers and loggers are loaded from
// folders of dir holding links to the two modules used, next to the
// package's own folders (janus --version's layout on Debian).
func StartJanus(ctx context.Context, dir string, o JanusOptions) (*Janus, error) {
	bin := o.Binary
	if bin == "" {
		bin = "janus"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("janus not found (Debian package janus): %w", err)
	}
	lib, err := janusLibDir()
	if err != nil {
		return nil, err
	}
	if o.Port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		o.Port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	for _, d := range []string{"conf", "plugins", "transports", "events", "loggers"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	links := map[string]string{
		"plugins/libjanus_videoroom.so":   "plugins/libjanus_videoroom.so",
		"plugins/libjanus_audiobridge.so": "plugins/libjanus_audiobridge.so",
		"transports/libjanus_http.so":     "transports/libjanus_http.so",
	}
	for link, target := range links {
		os.Remove(filepath.Join(dir, link))
		if err := os.Symlink(filepath.Join(lib, target), filepath.Join(dir, link)); err != nil {
			return nil, err
		}
	}
	loops := ""
	if o.EventLoops > 0 {
		loops = "\tevent_loops = " + strconv.Itoa(o.EventLoops) + "\n"
	}
	files := map[string]string{
		"janus.jcfg": fmt.Sprintf(`general: {
	configs_folder = %q
	plugins_folder = %q
	transports_folder = %q
	events_folder = %q
	loggers_folder = %q
	debug_level = %d
	session_timeout = 0
%s}
certificates: {
}
media: {
	rtp_port_range = "20000-60000"
}
nat: {
	ice_enforce_list = "lo"
}
plugins: {
}
transports: {
}
events: {
	broadcast = false
}
loggers: {
}
`, filepath.Join(dir, "conf"), filepath.Join(dir, "plugins"), filepath.Join(dir, "transports"),
			filepath.Join(dir, "events"), filepath.Join(dir, "loggers"), o.DebugLevel, loops),
		"janus.transport.http.jcfg": fmt.Sprintf(`general: {
	json = "plain"
	base_path = "/janus"
	http = true
	port = %d
	ip = "127.0.0.1"
	https = false
}
admin: {
	admin_http = false
	admin_https = false
}
`, o.Port),
		"janus.plugin.videoroom.jcfg":   "general: {\n}\n",
		"janus.plugin.audiobridge.jcfg": "general: {\n}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, "conf", name), []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	log, err := os.Create(filepath.Join(dir, "janus.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, "-C", filepath.Join(dir, "conf", "janus.jcfg"), "-F", filepath.Join(dir, "conf"), "-o")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	log.Close()
	j := &Janus{URL: fmt.Sprintf("http://127.0.0.1:%d/janus", o.Port), Dir: dir, cmd: cmd, done: make(chan struct{})}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); close(j.done) }()
	for {
		resp, err := http.Get(j.URL + "/info")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return j, nil
			}
		}
		select {
		case err := <-exited:
			b, _ := os.ReadFile(filepath.Join(dir, "janus.log"))
			return nil, fmt.Errorf("janus exited (%v): %.2000s", err, b)
		case <-ctx.Done():
			cmd.Process.Kill()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PID is the gateway's process id, for --server-pid.
func (j *Janus) PID() int { return j.cmd.Process.Pid }

// Stop ends the gateway (SIGTERM, then SIGKILL after 5 seconds).
func (j *Janus) Stop() {
	j.cmd.Process.Signal(os.Interrupt)
	select {
	case <-j.done:
	case <-time.After(5 * time.Second):
		j.cmd.Process.Kill()
		<-j.done
	}
}

// janusLibDir is the folder holding plugins/ and transports/ of the
// installed Janus.
func janusLibDir() (string, error) {
	for _, d := range []string{"/usr/lib/x86_64-linux-gnu/janus", "/usr/lib/aarch64-linux-gnu/janus", "/usr/lib/janus", "/usr/local/lib/janus", "/opt/janus/lib/janus"} {
		if _, err := os.Stat(filepath.Join(d, "plugins", "libjanus_videoroom.so")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("janus's plugins folder (with libjanus_videoroom.so) not found")
}
