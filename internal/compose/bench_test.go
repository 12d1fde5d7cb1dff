//go:build unix

package compose

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// BenchmarkFourPanes measures, side by side, the CPU the compositor takes
// to compose 4 H.264 sources of 640×360 at 30 fps into 1280×720 H.264 at
// 1.5 Mb/s, and an ffmpeg command line that does the same with xstack
// (the practical floor of decode+scale+encode on the machine), over 10 s
// each (docs/benchmarks.md "Composed pictures"; run with -benchtime 1x).
func BenchmarkFourPanes(b *testing.B) {
	ff, err := FindFFmpeg("")
	if err != nil {
		b.Skip(err)
	}
	const secs = 10
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
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		// Confer's compositor.
		before := cpuNow()
		c, err := New(Config{})
		if err != nil {
			b.Fatal(err)
		}
		scene := Scene{Layout: 5}
		var ins []*Input
		for p := 0; p < 4; p++ {
			id := fmt.Sprint(p)
			ins = append(ins, c.Input(id, map[uint8]string{102: "video/H264"}, nil))
			scene.Panes = append(scene.Panes, Pane{Input: id})
		}
		c.SetScene(scene)
		o, err := c.Output(OutputSpec{MimeType: "video/H264", Width: 1280, Height: 720, Bitrate: 1_500_000, PayloadType: 102}, sinkFunc(func(*rtp.Packet) {}))
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for i, f := range frames {
			if d := time.Duration(i)*time.Second/30 - time.Since(start); d > 0 {
				time.Sleep(d)
			}
			for _, in := range ins {
				for _, p := range f {
					_, _ = in.WriteRTP(&p.Header, p.Payload)
				}
			}
		}
		wall := time.Since(start)
		sent, _, dropped := o.Stats()
		decoded := uint64(0)
		for _, in := range ins {
			decoded += in.Frames()
		}
		c.Close()
		ours := cpuNow() - before

		// ffmpeg's xstack, same inputs, layout, size, codec and bitrate.
		args := []string{"-hide_banner", "-loglevel", "error"}
		for p := 0; p < 4; p++ {
			args = append(args, "-re", "-r", "30", "-f", "h264", "-i", src)
		}
		args = append(args, "-filter_complex", "[0:v][1:v][2:v][3:v]xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0",
			"-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-profile:v", "baseline",
			"-b:v", "1500k", "-maxrate", "1500k", "-bufsize", "750k", "-g", "60", "-f", "h264", "-y", os.DevNull)
		cmd := exec.Command(ff, args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		fstart := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("ffmpeg xstack: %v: %s", err, errb.String())
		}
		fwall := time.Since(fstart)
		theirs := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()

		b.ReportMetric(ours.Seconds()/wall.Seconds()*100, "confer-cpu-%")
		b.ReportMetric(theirs.Seconds()/fwall.Seconds()*100, "ffmpeg-cpu-%")
		b.ReportMetric(ours.Seconds()/wall.Seconds()/(theirs.Seconds()/fwall.Seconds()), "ratio")
		b.ReportMetric(float64(sent)/wall.Seconds(), "out-fps")
		b.ReportMetric(float64(dropped), "dropped")
		b.ReportMetric(float64(decoded)/4/wall.Seconds(), "in-fps")
	}
}

// cpuNow is the CPU time of this process and of its children that ended.
func cpuNow() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}
