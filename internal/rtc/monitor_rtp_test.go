package rtc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
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
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media/ivfwriter"
	"github.com/pion/webrtc/v4/pkg/media/oggwriter"

	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wire"
)

// rtpSink is a monitoring client's RTP port: it counts what arrives and
// writes the packets into a file (IVF for VP8, Ogg for Opus) for ffprobe.
type rtpSink struct {
	conn    *net.UDPConn
	packets atomic.Int64
	mu      sync.Mutex
	pts     map[uint8]bool
	ssrcs   map[uint32]bool
	done    chan struct{}
	flushed chan struct{} // the reader reached a flush marker
}

// flushMarker is what flush sends the sink: too short to be RTP.
var flushMarker = []byte("flush")

func newSink(t *testing.T, write func(*rtp.Packet) error) *rtpSink {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s := &rtpSink{conn: conn, pts: map[uint8]bool{}, ssrcs: map[uint32]bool{}, done: make(chan struct{}), flushed: make(chan struct{}, 1)}
	go func() {
		defer close(s.done)
		buf := make([]byte, 1500)
		for {
			n, err := conn.Read(buf)
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if err == nil && bytes.Equal(buf[:n], flushMarker) {
				s.flushed <- struct{}{}
				continue
			}
			var p rtp.Packet
			if err != nil || p.Unmarshal(buf[:n]) != nil {
				continue
			}
			s.mu.Lock()
			s.pts[p.PayloadType], s.ssrcs[p.SSRC] = true, true
			s.mu.Unlock()
			s.packets.Add(1)
			_ = write(&p)
		}
	}()
	t.Cleanup(func() { conn.Close(); <-s.done })
	return s
}

func (s *rtpSink) port() int { return s.conn.LocalAddr().(*net.UDPAddr).Port }

// flush waits until the sink has counted every datagram queued at its
// socket before the call (the event, where a sleep guessed how long the
// packets already on their way take): it sends the sink a marker, which
// the reader reaches after them. A loopback datagram is in the socket's
// queue when its send returns, so once a sender is closed every packet it
// wrote is counted after flush.
func (s *rtpSink) flush(t *testing.T) {
	t.Helper()
	c, err := net.DialUDP("udp", nil, s.conn.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write(flushMarker); err != nil {
		t.Fatal(err)
	}
	<-s.flushed // until go test's -timeout: loopback does not lose the marker
}

// close ends the reading, so that the file can be closed and read.
func (s *rtpSink) close() { s.conn.Close(); <-s.done }

// TestMonitorSendsRTP: a console monitors a WHIP publisher's video and
// audio (reference 05 "监控操作", two monitors, mode 0 and 1) and gets
// plain RTP at its destinations, VP8 with payload type 96 and Opus with
// 111, one SSRC each, which ffprobe reads as the publisher's picture and
// sound. A stopped monitor and one left without heartbeat stop sending; a
// destination outside --monitor-rtp-nets is refused and stores nothing.
func TestMonitorSendsRTP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 10) // skips without ffmpeg
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "monitored")
	vcPath := "/api/v1/vc/confs/" + conf
	tok := rtcToken(t, c, conf, map[string]any{"name": "camera", "role": "publish"})
	pub := publishMedia(t, tok["whip_url"].(string), tok["token"].(string), packets)
	mt := onlineTerminal(t, c, conf, "camera")

	ivf, err := ivfwriter.New(filepath.Join(dir, "monitor.ivf"))
	if err != nil {
		t.Fatal(err)
	}
	ogg, err := oggwriter.New(filepath.Join(dir, "monitor.ogg"), 48000, 2)
	if err != nil {
		t.Fatal(err)
	}
	video := newSink(t, ivf.WriteRTP)
	audio := newSink(t, ogg.WriteRTP)
	dst := func(s *rtpSink) map[string]any { return map[string]any{"ip": "127.0.0.1", "port": s.port()} }
	testserver.MustOK(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 0, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": dst(video)})))
	testserver.MustOK(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 1, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": dst(audio)})))
	testserver.MustOK(t, c.Do("POST", vcPath+"/neediframe/monitors", testserver.Params(t, map[string]any{"dst": dst(video)})))

	pub.send(t, 0, 10*time.Second)
	waitFor(t, "the monitors' packets", func() bool { return video.packets.Load() > 100 && audio.packets.Load() > 100 })
	video.close()
	audio.close()
	if err := ivf.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ogg.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name string
		sink *rtpSink
		pt   uint8
	}{{"video", video, 96}, {"audio", audio, 111}} {
		if len(s.sink.pts) != 1 || !s.sink.pts[s.pt] || len(s.sink.ssrcs) != 1 {
			t.Errorf("%s monitor: payload types %v, SSRCs %v; want %d and one SSRC", s.name, s.sink.pts, s.sink.ssrcs, s.pt)
		}
	}
	if p := rectest.ProbeFile(t, filepath.Join(dir, "monitor.ivf")); len(p.Streams) != 1 || p.Streams[0].Codec != "vp8" {
		t.Errorf("the video monitor's stream: %+v", p.Streams)
	}
	// The pictures decode at the publisher's size (the IVF header's own
	// size is only what the writer declares).
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=width,height",
		"-of", "csv=p=0", filepath.Join(dir, "monitor.ivf")).CombinedOutput()
	frames := strings.Fields(string(out))
	want := fmt.Sprintf("%d,%d", rectest.Width, rectest.Height)
	if err != nil || len(frames) < 50 || frames[0] != want || frames[len(frames)-1] != want {
		t.Errorf("the video monitor's decoded pictures: %d (%v), want 50 or more of %s: %.200s", len(frames), err, want, out)
	}
	if p := rectest.ProbeFile(t, filepath.Join(dir, "monitor.ogg")); len(p.Streams) != 1 ||
		p.Streams[0].Codec != "opus" || p.Duration() < 5*time.Second {
		t.Errorf("the audio monitor's stream: %+v, %v", p.Streams, p.Duration())
	}

	// Stopped (DELETE) and left without heartbeat: nothing more is sent.
	video2 := newSink(t, func(*rtp.Packet) error { return nil })
	audio2 := newSink(t, func(*rtp.Packet) error { return nil })
	testserver.MustOK(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 0, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": dst(video2)})))
	testserver.MustOK(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 1, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": dst(audio2)})))
	pub.round = 1
	pub.send(t, 0, 2*time.Second)
	waitFor(t, "the new monitors' packets", func() bool { return video2.packets.Load() > 10 && audio2.packets.Load() > 10 })
	testserver.MustOK(t, c.Do("DELETE", vcPath+"/monitors/127.0.0.1/"+strconv.Itoa(video2.port()), nil))
	env.Advance(t, vc.MonitorTimeout+time.Second)
	env.Tick(t)
	video2.flush(t) // the packets already on their way are counted
	audio2.flush(t)
	v, a := video2.packets.Load(), audio2.packets.Load()
	pub.round = 2
	pub.send(t, 0, 2*time.Second) // 2 s in real time: a sender left running would send hundreds
	video2.flush(t)
	audio2.flush(t)
	if dv, da := video2.packets.Load()-v, audio2.packets.Load()-a; dv > 0 || da > 0 {
		t.Errorf("after DELETE and the heartbeat's timeout: %d video and %d audio packets arrived, want none", dv, da)
	}
	if n := monitorCount(t, c, vcPath); n != 0 {
		t.Errorf("%d monitors listed, want none", n)
	}

	// A destination on the internet is refused (--monitor-rtp-nets) and
	// nothing is stored.
	r := c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 0, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": map[string]any{"ip": "8.8.8.8", "port": 6000}}))
	testserver.MustFail(t, r, wire.CodeInvalidParam)
	if n := monitorCount(t, c, vcPath); n != 0 {
		t.Errorf("%d monitors listed after a refused one, want none", n)
	}
	if r.HTTP.StatusCode != http.StatusOK {
		t.Errorf("HTTP status of a refused monitor = %d, want 200 with success 0", r.HTTP.StatusCode)
	}
}

// TestMonitorAtSessionLimit: a monitor the node cannot open a sender for
// (the SFU at --rtc-max-sessions) is refused with 20511 and taken back:
// no monitor is listed without its media.
func TestMonitorAtSessionLimit(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{MaxSessions: 1}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "full")
	vcPath := "/api/v1/vc/confs/" + conf
	tok := rtcToken(t, c, conf, map[string]any{"name": "desk", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string))
	mt := onlineTerminal(t, c, conf, "desk")
	testserver.MustFail(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 1, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": map[string]any{"ip": "127.0.0.1", "port": 7000}})), vc.CodeMonitorMedia)
	if n := monitorCount(t, c, vcPath); n != 0 {
		t.Errorf("%d monitors listed after a refused one, want none", n)
	}
}

// TestMonitorAfterRestart: the senders are the node's and the monitors
// the store's; after conferd restarts on the same database, the console's
// next heartbeat brings its monitor's stream back (here the composition,
// the broadcast, of a publisher who joined the restarted node).
func TestMonitorAfterRestart(t *testing.T) {
	t.Parallel()
	dsn := testdb.SQLite(t)
	opt := testserver.Options{RTC: &sfu.Config{}}
	a := testserver.StartNode(t, dsn, nil, opt)
	ca := a.LoggedIn(t)
	conf := startConf(t, ca, "restarted")
	vcPath := "/api/v1/vc/confs/" + conf
	tok := rtcToken(t, ca, conf, map[string]any{"name": "desk", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string))
	sink := newSink(t, func(*rtp.Packet) error { return nil })
	dst := map[string]any{"ip": "127.0.0.1", "port": sink.port()}
	testserver.MustOK(t, ca.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 1, "src": map[string]any{"type": 2}, "dst": dst})))
	waitFor(t, "the monitor's packets", func() bool { return sink.packets.Load() > 20 })

	a.Kill()
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	// A node started again in place of one: StartNode gives each node a
	// media URL of its own (a listener's), so the conference's media
	// owner, the old listener, is forgotten as the old node's would be.
	if err := b.Store.DeleteRecord(context.Background(), rtc.KindOwner, "", conf); err != nil {
		t.Fatal(err)
	}
	cb := b.LoggedIn(t)
	tok = rtcToken(t, cb, conf, map[string]any{"name": "desk again", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string))
	sink.flush(t) // the killed node's last packets are counted before
	before := sink.packets.Load()
	testserver.MustOK(t, cb.Do("POST", vcPath+"/monitors_heartbeat", testserver.Params(t, map[string]any{
		"monitors": []any{dst}})))
	waitFor(t, "the monitor's packets after the restart", func() bool { return sink.packets.Load() > before+20 })
}

// TestMonitorOnTheMediaOwner: with two nodes on one database, a monitor
// started, asked for a key frame and stopped through the node that does
// not hold the conference's media is sent by the node that does (the
// owner: docs/media-nodes.md), and no session of its is opened
// on the other.
func TestMonitorOnTheMediaOwner(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	opt := testserver.Options{RTC: &sfu.Config{}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "owned by A")
	vcPath := "/api/v1/vc/confs/" + conf
	tok := rtcToken(t, ca, conf, map[string]any{"name": "desk", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string)) // A owns the media
	mt := onlineTerminal(t, ca, conf, "desk")
	sink := newSink(t, func(*rtp.Packet) error { return nil })
	dst := map[string]any{"ip": "127.0.0.1", "port": sink.port()}
	onA := a.Srv.SFU().Sessions()
	testserver.MustOK(t, cb.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 1, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": dst})))
	waitFor(t, "the monitor's packets from A", func() bool { return sink.packets.Load() > 20 })
	if n := b.Srv.SFU().Sessions(); n != 0 || a.Srv.SFU().Sessions() != onA+1 {
		t.Errorf("sessions: B %d, A %d; want 0 and %d (the sender on A)", n, a.Srv.SFU().Sessions(), onA+1)
	}
	testserver.MustOK(t, cb.Do("POST", vcPath+"/neediframe/monitors", testserver.Params(t, map[string]any{"dst": dst})))
	testserver.MustOK(t, cb.Do("POST", vcPath+"/monitors_heartbeat", testserver.Params(t, map[string]any{"monitors": []any{dst}})))
	if n := a.Srv.SFU().Sessions(); n != onA+1 {
		t.Errorf("A holds %d sessions after a heartbeat, want %d: one sender per monitor", n, onA+1)
	}

	// Stopped through B: A's next tick ends its sender.
	testserver.MustOK(t, cb.Do("DELETE", vcPath+"/monitors/127.0.0.1/"+strconv.Itoa(sink.port()), nil))
	a.Tick(t)
	waitFor(t, "A's sender closed", func() bool { return a.Srv.SFU().Sessions() == onA })
	sink.flush(t) // the packets already on their way are counted
	n := sink.packets.Load()
	// The thing under test is an absence: 300 ms of the publisher's
	// media (a packet every 10 ms) in which a sender left open would
	// show; then what it sent is counted.
	time.Sleep(300 * time.Millisecond)
	sink.flush(t)
	if d := sink.packets.Load() - n; d > 0 {
		t.Errorf("%d packets after the monitor stopped, want none", d)
	}
}

// TestMonitorToFFmpeg: a standard RTP receiver as the console. ffmpeg
// listens at the monitor's destination with an SDP that describes what
// docs/live.md promises (VP8 on payload type 96, H.264 on 106) and copies
// what arrives into a file, which ffprobe reads as the publisher's
// pictures: a WHIP publisher in VP8, then one in H.264.
func TestMonitorToFFmpeg(t *testing.T) {
	t.Parallel()
	for _, k := range []struct {
		name, mime, rtpmap, probe, ext string
		packets                        func(t testing.TB, dir string, seconds int) []rectest.Packet
	}{
		{"VP8", webrtc.MimeTypeVP8, "96 VP8/90000", "vp8", "webm", rectest.Packets},
		{"H264", webrtc.MimeTypeH264, "106 H264/90000\r\na=fmtp:106 packetization-mode=1", "h264", "mkv", rectest.H264Packets},
	} {
		t.Run(k.name, func(t *testing.T) {
			dir := t.TempDir()
			packets := k.packets(t, dir, 10) // skips without ffmpeg
			env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
			c := env.LoggedIn(t)
			conf := startConf(t, c, "to ffmpeg")
			tok := rtcToken(t, c, conf, map[string]any{"name": "camera", "role": "publish"})
			video := publishVideo(t, tok["whip_url"].(string), tok["token"].(string), k.mime)
			mt := onlineTerminal(t, c, conf, "camera")

			port := rtpPortPair(t)
			pt, _, _ := strings.Cut(k.rtpmap, " ")
			sdp := fmt.Sprintf("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=monitor\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"+
				"m=video %d RTP/AVP %s\r\na=rtpmap:%s\r\n", port, pt, k.rtpmap)
			sdpFile, out := filepath.Join(dir, "monitor.sdp"), filepath.Join(dir, "monitor."+k.ext)
			if err := os.WriteFile(sdpFile, []byte(sdp), 0o600); err != nil {
				t.Fatal(err)
			}
			ff := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-protocol_whitelist", "file,udp,rtp",
				"-i", sdpFile, "-t", "3", "-c", "copy", "-y", out)
			var ffLog strings.Builder
			ff.Stdout, ff.Stderr = &ffLog, &ffLog
			if err := ff.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- ff.Wait() }()
			t.Cleanup(func() {
				_ = ff.Process.Kill()
				<-done
			})
			// ffmpeg binds its port as it reads the SDP: wait for it.
			waitFor(t, "ffmpeg listening", func() bool {
				c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(port))
				if err == nil {
					c.Close()
				}
				return err != nil
			})
			testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/monitors", testserver.Params(t, map[string]any{
				"mode": 0, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": map[string]any{"ip": "127.0.0.1", "port": port}})))
			go func() { // real time: ffmpeg stops after 3 s of media
				start := time.Now()
				for _, pk := range packets {
					if !pk.Video {
						continue
					}
					if d := pk.At - time.Since(start); d > 0 {
						time.Sleep(d)
					}
					if video.WriteRTP(pk.Packet) != nil {
						return
					}
				}
			}()
			select {
			case err := <-done:
				done <- err
				if err != nil {
					t.Fatalf("ffmpeg: %v\n%s", err, ffLog.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("ffmpeg did not finish in 20 s:\n%s", ffLog.String())
			}
			p := rectest.ProbeFile(t, out)
			if v, ok := p.Stream("video"); !ok || v.Codec != k.probe || v.Width != rectest.Width || v.Height != rectest.Height || p.Duration() < 2*time.Second {
				t.Errorf("ffmpeg's file: %+v, %v", p.Streams, p.Duration())
			}
		})
	}
}

// publishVideo publishes one video track of mime over WHIP and returns it.
func publishVideo(t *testing.T, url, token, mime string) *webrtc.TrackLocalStaticRTP {
	t.Helper()
	pc := newPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: mime, ClockRate: 90000}, "video", "pub")
	if err != nil {
		t.Fatal(err)
	}
	s, err := pc.AddTrack(tr)
	if err != nil {
		t.Fatal(err)
	}
	go func() { // read RTCP (key frame requests) so that it flows
		for {
			if _, _, err := s.ReadRTCP(); err != nil {
				return
			}
		}
	}()
	if code, _, body := offer(t, pc, url, token); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", code, body)
	}
	waitFor(t, "the publisher connected", func() bool { return pc.ConnectionState() == webrtc.PeerConnectionStateConnected })
	return tr
}

// rtpPortPair is an even port free for RTP with the next one free for
// RTCP, as an RTP receiver binds them.
func rtpPortPair(t *testing.T) int {
	t.Helper()
	for i := 0; i < 100; i++ {
		a, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := a.LocalAddr().(*net.UDPAddr).Port
		a.Close()
		if p%2 != 0 || p > 65000 {
			continue
		}
		if b, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(p+1)); err == nil {
			b.Close()
			return p
		}
	}
	t.Fatal("no free RTP port pair")
	return 0
}

// monitorCount is the number of monitors the conference at vcPath lists.
func monitorCount(t *testing.T, c *testserver.Client, vcPath string) int {
	t.Helper()
	return len(testserver.MustOK(t, c.Do("GET", vcPath+"/monitors", nil))["monitors"].([]any))
}
