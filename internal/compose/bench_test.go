//go:build linux

package compose

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
	"golang.org/x/sys/unix"
)

// The compositor's figures (docs/benchmarks.md "Composed pictures"). The
// CPU is counted in steady state: from the end of a warm-up (processes
// started, first key frames decoded) to the end of the run, from
// /proc of this process and of its ffmpeg children, and of the ffmpeg
// that the peer runs; both are divided by the same wall time.

const (
	benchWarm = 3  // seconds before counting
	benchSecs = 10 // seconds counted
)

// h264Source is secs seconds of testsrc2 at 640×360 30 fps in H.264
// (constrained baseline, as a terminal sends), as a file and as RTP
// packets by frame.
func h264Source(b *testing.B, ff string, secs int) (string, [][]*rtp.Packet) {
	dir := b.TempDir()
	src := filepath.Join(dir, "src.h264")
	if out, err := exec.Command(ff, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
		fmt.Sprintf("testsrc2=s=640x360:r=30:d=%d", secs), "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
		"-profile:v", "baseline", "-b:v", "600k", "-g", "60", "-x264-params", "aud=1", "-f", "h264", "-y", src).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	var aus [][]byte
	for len(data) > 0 {
		i := audAt(data, 1)
		if i < 0 {
			aus = append(aus, data)
			break
		}
		aus = append(aus, data[:i])
		data = data[i:]
	}
	pay := &codecs.H264Payloader{}
	frames := make([][]*rtp.Packet, len(aus))
	seq := uint16(0)
	for i, au := range aus {
		pls := pay.Payload(mtu, au)
		for k, pl := range pls {
			frames[i] = append(frames[i], &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 102, SequenceNumber: seq,
				Timestamp: uint32(i * 3000), Marker: k == len(pls)-1}, Payload: pl})
			seq++
		}
	}
	return src, frames
}

// fourPanes is a running compositor of 4 H.264 inputs in layout 5 with
// one 1280×720 H.264 output at 1.5 Mb/s.
type fourPanes struct {
	c   *Compositor
	ins []*Input
	out *Output
}

func newFourPanes(b *testing.B, sink Sink) *fourPanes {
	c, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	fp := &fourPanes{c: c}
	scene := Scene{Layout: 5}
	for p := 0; p < 4; p++ {
		id := fmt.Sprint(p)
		fp.ins = append(fp.ins, c.Input(id, map[uint8]string{102: "video/H264"}, nil))
		scene.Panes = append(scene.Panes, Pane{Input: id})
	}
	c.SetScene(scene)
	if sink == nil {
		sink = sinkFunc(func(*rtp.Packet) {})
	}
	if fp.out, err = c.Output(OutputSpec{MimeType: "video/H264", Width: 1280, Height: 720, Bitrate: 1_500_000, PayloadType: 102}, sink); err != nil {
		b.Fatal(err)
	}
	return fp
}

// feed gives frame i to each pane.
func (fp *fourPanes) feed(f []*rtp.Packet) {
	for _, in := range fp.ins {
		for _, p := range f {
			_, _ = in.WriteRTP(&p.Header, p.Payload)
		}
	}
}

// BenchmarkFourPanes measures, side by side, the CPU the compositor
// takes to compose 4 H.264 sources of 640×360 at 30 fps into 1280×720
// H.264 at 1.5 Mb/s, and an ffmpeg command line that does the same with
// xstack (the practical floor of decode+scale+encode on the machine),
// alternately, rounds times (run with -benchtime 1x; CONFER_BENCH_ROUNDS,
// default 2).
func BenchmarkFourPanes(b *testing.B) {
	ff, err := FindFFmpeg("")
	if err != nil {
		b.Skip(err)
	}
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("CONFER_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	src, frames := h264Source(b, ff, benchWarm+benchSecs+1)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		var ours, theirs, sent, theirFPS, dropped float64
		for r := 0; r < rounds; r++ {
			// Confer's compositor.
			fp := newFourPanes(b, nil)
			start := time.Now()
			var cpu0 time.Duration
			var parts0 map[string]time.Duration
			var t0 time.Time
			var sent0, drop0 uint64
			for i, f := range frames {
				if d := time.Duration(i)*time.Second/30 - time.Since(start); d > 0 {
					time.Sleep(d)
				}
				if i == benchWarm*30 {
					// The children first, this process last: the
					// scan of /proc is the benchmark's, not the
					// compositor's, and stays out of the window.
					parts0 = cpuParts(os.Getpid(), false)
					cpu0, t0 = parts0["self"]+parts0["decoder"]+parts0["encoder"], time.Now()
					sent0, _, drop0 = fp.out.Stats()
				}
				fp.feed(f)
			}
			parts1 := cpuParts(os.Getpid(), true) // this process first
			cpu1, wall := parts1["self"]+parts1["decoder"]+parts1["encoder"], time.Since(t0)
			s1, _, d1 := fp.out.Stats()
			fp.c.Close()
			o := (cpu1 - cpu0).Seconds() / wall.Seconds()

			// ffmpeg's xstack, same inputs, layout, size, codec and bitrate.
			args := []string{"-hide_banner", "-loglevel", "error"}
			for p := 0; p < 4; p++ {
				args = append(args, "-threads", "1", "-re", "-r", "30", "-f", "h264", "-i", src)
			}
			args = append(args, "-filter_complex", "[0:v][1:v][2:v][3:v]xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0")
			args = append(append(args, x264Args(1_500_000, 60)...), "-f", "h264", "pipe:1")
			cmd := exec.Command(ff, args...)
			var errb bytes.Buffer
			var pics audCounter // its pictures, counted as ours are
			cmd.Stderr, cmd.Stdout = &errb, &pics
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			time.Sleep(benchWarm * time.Second)
			f0, ft0, p0 := treeCPU(cmd.Process.Pid), time.Now(), pics.n.Load()
			time.Sleep(benchSecs * time.Second)
			f1, fwall, p1 := treeCPU(cmd.Process.Pid), time.Since(ft0), pics.n.Load()
			if err := cmd.Wait(); err != nil {
				b.Fatalf("ffmpeg xstack: %v: %s", err, errb.String())
			}
			th := (f1 - f0).Seconds() / fwall.Seconds()
			ofps, tfps := float64(s1-sent0)/wall.Seconds(), float64(p1-p0)/fwall.Seconds()
			b.Logf("round %d: Confer %.1f %% of a core (Go process %.1f, 4 decoders %.1f, encoder %.1f), %.1f pictures/s sent, %d dropped; "+
				"ffmpeg xstack %.1f %% of a core, %.1f pictures/s; ratio %.2f, per picture %.2f",
				r+1, o*100, share(parts1["self"]-parts0["self"], wall), share(parts1["decoder"]-parts0["decoder"], wall),
				share(parts1["encoder"]-parts0["encoder"], wall), ofps, d1-drop0, th*100, tfps, o/th, (o/ofps)/(th/tfps))
			ours, theirs = ours+o, theirs+th
			sent, theirFPS, dropped = sent+ofps, theirFPS+tfps, dropped+float64(d1-drop0)
		}
		k := float64(rounds)
		b.Logf("FourPanes, %d rounds: Confer %.1f %% of a core at %.1f pictures/s (%.0f dropped a round), ffmpeg xstack %.1f %% at %.1f pictures/s: "+
			"ratio %.2f, per picture %.2f (target ≤ 1.2)", rounds, ours/k*100, sent/k, dropped/k, theirs/k*100, theirFPS/k,
			ours/theirs, (ours/sent)/(theirs/theirFPS))
		b.ReportMetric(ours/k*100, "confer-cpu-%")
		b.ReportMetric(theirs/k*100, "ffmpeg-cpu-%")
		b.ReportMetric(ours/theirs, "ratio")
		b.ReportMetric((ours/sent)/(theirs/theirFPS), "ratio-per-picture")
		b.ReportMetric(sent/k, "out-fps")
		b.ReportMetric(theirFPS/k, "ffmpeg-fps")
		b.ReportMetric(dropped/k, "dropped")
	}
}

// audCounter counts the access unit delimiters (pictures) of an H.264
// stream written to it.
type audCounter struct {
	n    atomic.Uint64
	tail []byte
}

func (a *audCounter) Write(p []byte) (int, error) {
	b := append(a.tail, p...)
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte{0, 0, 0, 1, 9})
		if k < 0 {
			break
		}
		a.n.Add(1)
		i += k + 5
	}
	a.tail = append(a.tail[:0], b[max(0, len(b)-4):]...)
	return len(p), nil
}

// treeCPU is the CPU time of process pid and of its live children, from
// /proc (clock ticks of 10 ms).
func treeCPU(pid int) time.Duration {
	total := procCPU(pid)
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		if ppid, _ := procStat(child, 3); ppid == pid {
			total += procCPU(child)
		}
	}
	return total
}

// cpuParts is the CPU time of process pid ("self") and of its ffmpeg
// children by role ("decoder": reading a stream and writing YUV4MPEG2,
// "encoder": reading raw pictures); selfFirst reads pid's before
// scanning /proc for the children, else after, so that a window opened
// with false and closed with true does not count the scans.
func cpuParts(pid int, selfFirst bool) map[string]time.Duration {
	parts := map[string]time.Duration{}
	if selfFirst {
		parts["self"] = procCPU(pid)
	}
	ents, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		if ppid, _ := procStat(child, 3); ppid == pid {
			kids = append(kids, child)
		}
	}
	for _, child := range kids {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child))
		role := "decoder"
		if bytes.Contains(cmd, []byte("rawvideo")) {
			role = "encoder"
		}
		parts[role] += procCPU(child)
	}
	if !selfFirst {
		parts["self"] = procCPU(pid)
	}
	return parts
}

func share(d, wall time.Duration) float64 { return 100 * d.Seconds() / wall.Seconds() }

func procCPU(pid int) time.Duration {
	u, _ := procStat(pid, 13)
	s, _ := procStat(pid, 14)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// procStat is field i (0-based, after the command) of /proc/pid/stat.
func procStat(pid, i int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	// The command, in parentheses, may hold spaces.
	if j := strings.LastIndexByte(s, ')'); j >= 0 {
		s = s[j+2:]
	}
	f := strings.Fields(s)
	if i-2 < 0 || i-2 >= len(f) {
		return 0, fmt.Errorf("stat of %d: no field %d", pid, i)
	}
	return strconv.Atoi(f[i-2])
}

// BenchmarkPictureTransport compares the two ways a decoder's pictures
// reach the Go process (docs/composition.md "Pipes"): 4 decoders of
// 640×360 H.264 paced at 30 fps (ffmpeg -re) writing YUV4MPEG2, read by
// readY4M from a 1 MiB pipe and from a loopback TCP connection whose
// low-water mark is a picture. Reported per variant: CPU of the Go
// process and of the decoders (getrusage, so it is run on its own) per
// second of pictures, and the Go process's voluntary context switches
// per picture. CONFER_BENCH_SECS sets the seconds (default 10).
func BenchmarkPictureTransport(b *testing.B) {
	ff, err := FindFFmpeg("")
	if err != nil {
		b.Skip(err)
	}
	secs := 10
	if n, err := strconv.Atoi(os.Getenv("CONFER_BENCH_SECS")); err == nil && n > 0 {
		secs = n
	}
	src, _ := h264Source(b, ff, secs)
	defer func() { pictureSockets = true }()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for _, sockets := range []bool{false, true, false, true} {
			pictureSockets = sockets
			var self0, kids0 unix.Rusage
			_ = unix.Getrusage(unix.RUSAGE_SELF, &self0)
			_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &kids0)
			var wg sync.WaitGroup
			var pics atomic.Uint64
			for range 4 {
				p, err := start(ff, 0, true, "-re", "-threads", "1", "-r", "30", "-f", "h264", "-i", src,
					"-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", "-flush_packets", "1", "pipe:1")
				if err != nil {
					b.Fatal(err)
				}
				_ = p.stdin.Close()
				wg.Add(1)
				go func() {
					defer wg.Done()
					var f *Frame
					_ = readY4M(p.pictures, func(w, h int) *Frame {
						if f == nil {
							f = NewFrame(w, h)
						}
						return f
					}, func(*Frame) { pics.Add(1) }, nil)
					<-p.done
				}()
			}
			wg.Wait()
			var self1, kids1 unix.Rusage
			_ = unix.Getrusage(unix.RUSAGE_SELF, &self1)
			_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &kids1)
			cpu := func(a, b unix.Rusage) float64 {
				return float64(b.Utime.Nano()+b.Stime.Nano()-a.Utime.Nano()-a.Stime.Nano()) / 1e9
			}
			per := float64(pics.Load()) / 120 // seconds of 4 panes at 30 fps
			name := "pipe"
			if sockets {
				name = "socket"
			}
			b.Logf("%s: %d pictures; Go process %.2f %% of a core, decoders %.2f %%; Go %.1f voluntary context switches a picture",
				name, pics.Load(), 100*cpu(self0, self1)/per, 100*cpu(kids0, kids1)/per, float64(self1.Nvcsw-self0.Nvcsw)/float64(pics.Load()))
		}
	}
}
