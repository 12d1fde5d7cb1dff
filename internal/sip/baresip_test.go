package sip_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/browsertest"
)

// baresip (Debian package baresip) is the softphone of issue 26's "Done
// when": it registers, dials, is called and plays media as a user's
// softphone does. It runs headless: a sine tone as microphone
// (ausine), a test pattern as camera (fakevideo), the decoded audio
// it receives dumped to WAV (sndfile), the decoded video it receives
// saved as PNG on demand (snapshot), driven over its TCP control
// interface (ctrl_tcp, netstring-framed JSON).
const baresipModules = "/usr/lib/baresip/modules"

func needBaresip(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("baresip"); err != nil {
		t.Skip("baresip is not installed (apt-get install baresip): softphone test skipped")
	}
	for _, m := range []string{"ctrl_tcp", "menu", "sndfile", "snapshot", "fakevideo", "avcodec", "opus", "ausine"} {
		if _, err := os.Stat(filepath.Join(baresipModules, m+".so")); err != nil {
			t.Skip("baresip's module " + m + " is missing in " + baresipModules + ": softphone test skipped")
		}
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed (apt-get install ffmpeg): softphone test skipped")
	}
}

type baresip struct {
	dir  string // its configuration folder and working directory
	ctrl net.Conn
	rd   *bufio.Reader

	events []map[string]any // read while waiting for a response
}

// startBaresip runs baresip with one account, e164@registrar with the
// password, auto-answering calls. Its SIP port is chosen free for UDP and
// TCP (baresip binds both); another process may still take it before
// baresip binds, so a start that fails with "Address already in use" is
// tried again on other ports (CI: TestSoftphone failed so once).
func startBaresip(t *testing.T, registrar, e164, password string) *baresip {
	t.Helper()
	for attempt := 1; ; attempt++ {
		b, log, err := tryBaresip(t, registrar, e164, password)
		if err == nil {
			return b
		}
		if attempt < 3 && strings.Contains(log, "Address already in use") {
			continue
		}
		t.Fatalf("baresip's control port did not open: %v\nbaresip's log:\n%s", err, tail(log))
	}
}

// tryBaresip starts baresip once; on failure it returns its log.
func tryBaresip(t *testing.T, registrar, e164, password string) (*baresip, string, error) {
	t.Helper()
	dir := t.TempDir()
	sipPort, ctrlPort := freeUDPTCPPort(t), freeTCPPort(t)
	config := strings.Join([]string{
		"poll_method epoll",
		"sip_listen 127.0.0.1:" + itoa(sipPort),
		"sip_trans_def udp",
		"audio_source ausine,440",
		"audio_alert ausine,440",
		"audio_player aubridge,nil",
		"video_source fakevideo,nil",
		"video_display fakevideo,nil",
		"video_size 320x240",
		"video_fps 15",
		"video_bitrate 300000",
		"module_path " + baresipModules,
		"module g711.so", "module opus.so", "module ausine.so", "module sndfile.so",
		"module avcodec.so", "module fakevideo.so", "module snapshot.so",
		"module_app account.so", "module_app menu.so", "module_app ctrl_tcp.so",
		"ctrl_tcp_listen 127.0.0.1:" + itoa(ctrlPort),
		"snd_path " + dir,
		"opus_bitrate 32000",
		"",
	}, "\n")
	account := "<sip:" + e164 + "@" + registrar + ";transport=udp>;auth_pass=" + password +
		";regint=600;audio_codecs=opus/48000/2,PCMU,PCMA;answermode=auto\n"
	for name, body := range map[string]string{"config": config, "accounts": account} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	logf, err := os.Create(filepath.Join(dir, "baresip.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("baresip", "-f", dir, "-v")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{}) // baresip ended (a port taken, a module failed)
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
		_ = logf.Close()
	}
	readLog := func() string {
		out, _ := os.ReadFile(logf.Name())
		return string(out)
	}
	b := &baresip{dir: dir}
	// Until its control port opens or it ends (or fails to start): events,
	// never a budget of seconds, which a loaded machine overran.
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+itoa(ctrlPort))
		if err == nil {
			b.ctrl, b.rd = c, bufio.NewReader(c)
			break
		}
		ended := false
		select {
		case <-exited:
			ended = true
		default:
		}
		if ended || browsertest.Expired(t) || strings.Contains(readLog(), "init failed") {
			stop()
			return nil, readLog(), err
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() {
		_ = b.ctrl.Close()
		stop()
		if t.Failed() {
			t.Logf("baresip's log:\n%s", tail(readLog()))
		}
	})
	return b, "", nil
}

// freeUDPTCPPort is a port free on 127.0.0.1 for UDP and TCP at once.
func freeUDPTCPPort(t *testing.T) int {
	t.Helper()
	for {
		p := freePort(t)
		l, err := net.Listen("tcp", "127.0.0.1:"+itoa(p))
		if err == nil {
			l.Close()
			return p
		}
	}
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// command runs one of baresip's commands and returns its response's data;
// events read meanwhile are kept for waitEvent.
func (b *baresip) command(t *testing.T, cmd, params string) string {
	t.Helper()
	msg, _ := json.Marshal(map[string]string{"command": cmd, "params": params, "token": cmd})
	if _, err := fmt.Fprintf(b.ctrl, "%d:%s,", len(msg), msg); err != nil {
		t.Fatal(err)
	}
	for {
		m := b.read(t)
		if m["event"] == true {
			b.events = append(b.events, m)
			continue
		}
		if m["response"] == true && m["token"] == cmd {
			if m["ok"] != true {
				t.Fatalf("baresip %s %s: %v", cmd, params, m["data"])
			}
			s, _ := m["data"].(string)
			return s
		}
	}
}

// waitEvent returns the first event of the type, reading events until
// one arrives.
func (b *baresip) waitEvent(t *testing.T, typ string) map[string]any {
	t.Helper()
	for i, m := range b.events {
		if m["type"] == typ {
			b.events = append(b.events[:i:i], b.events[i+1:]...)
			return m
		}
	}
	for {
		if m := b.read(t); m["type"] == typ {
			return m
		}
	}
}

// read reads one netstring message, waiting until go test's -timeout
// nears (browsertest.Deadline), not a budget of its own: a loaded machine
// can take long to call or answer.
func (b *baresip) read(t *testing.T) map[string]any {
	t.Helper()
	_ = b.ctrl.SetReadDeadline(browsertest.Deadline(t))
	n, err := b.rd.ReadString(':')
	if err != nil {
		t.Fatalf("baresip's control: %v", err)
	}
	size, err := strconv.Atoi(strings.TrimSuffix(n, ":"))
	if err != nil {
		t.Fatalf("baresip's control: bad netstring length %q", n)
	}
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(b.rd, buf); err != nil {
		t.Fatalf("baresip's control: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf[:size], &m); err != nil {
		t.Fatalf("baresip's control: %v in %q", err, buf)
	}
	return m
}

// file returns the path of the newest file in baresip's folder whose
// name has the suffix, "" if none.
func (b *baresip) file(suffix string) string {
	ents, _ := os.ReadDir(b.dir)
	var best string
	var at time.Time
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		if fi, err := e.Info(); err == nil && (best == "" || fi.ModTime().After(at)) {
			best, at = filepath.Join(b.dir, e.Name()), fi.ModTime()
		}
	}
	return best
}
