package mediaload

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
	"github.com/confer-platform/confer/internal/rtctest"
)

// TestAudioBridgeFigures measures Janus's AudioBridge on the workload of
// internal/mixer's BenchmarkRoom/50x4: one room of 50 Opus participants,
// 4 of them talking (the others send encoded silence), each receiving its
// mix. It reports Janus's CPU per mixed participant (docs/benchmarks.md
// "Mixed audio"). Run with CONFER_MIX_BENCH=1 (and Debian's janus);
// TestMixEndToEndFigures runs it beside conferd on the same workload.
func TestAudioBridgeFigures(t *testing.T) {
	if os.Getenv("CONFER_MIX_BENCH") == "" {
		t.Skip("a figure, not a test: CONFER_MIX_BENCH=1 runs it")
	}
	if _, err := exec.LookPath("janus"); err != nil {
		t.Skip("janus not found (Debian package janus): no AudioBridge to compare with")
	}
	audioBridgeRun(t)
}

// The mixing workload of TestAudioBridgeFigures and TestMixEndToEndFigures.
const (
	mixParticipants = 50
	mixTalkers      = 4
	mixSpan         = 20 * time.Second // measured, after mixWarmup
	mixWarmup       = 5 * time.Second
)

// mixPackets is a second of Opus packets of each talker's tone (300, 410,
// 520 and 630 Hz) and one packet of encoded silence.
func mixPackets(t *testing.T) (talk [mixTalkers][][]byte, silence []byte) {
	enc, err := audio.NewEncoder("opus")
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	for i := range talk {
		for f := 0; f < 50; f++ {
			p, _ := enc.Encode(nil, tone.Sine(300+float64(i)*110, 6000, audio.Rate, f*audio.Frame, audio.Frame))
			talk[i] = append(talk[i], p)
		}
	}
	silence, _ = enc.Encode(nil, make([]int16, audio.Frame))
	return talk, silence
}

// audioBridgeRun runs the workload through a fresh Janus and returns its
// process's CPU per mixed participant, in percent of a core.
func audioBridgeRun(t *testing.T) float64 {
	const n, talkers = mixParticipants, mixTalkers
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	jp, err := StartJanus(ctx, t.TempDir(), JanusOptions{})
	if err != nil {
		t.Fatal(err) // janus is installed: a start that fails is a defect
	}
	defer jp.Stop()
	j := &janus{base: jp.URL, client: &http.Client{}}
	admin, err := attachPlugin(ctx, j, "janus.plugin.audiobridge")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.close()
	const room = 4242
	if _, err := admin.request(ctx, map[string]any{"request": "create", "room": room, "sampling_rate": 48000}, nil); err != nil {
		t.Fatal(err)
	}
	const frames = 50
	talk, silence := mixPackets(t)
	tracks := make([]*webrtc.TrackLocalStaticRTP, n)
	for i := range tracks {
		pc := rtctest.NewPC(t)
		tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", fmt.Sprint("p", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pc.AddTrack(tr); err != nil {
			t.Fatal(err)
		}
		pc.OnTrack(func(r *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
			for {
				if _, _, err := r.ReadRTP(); err != nil {
					return
				}
			}
		})
		h, err := attachPlugin(ctx, j, "janus.plugin.audiobridge")
		if err != nil {
			t.Fatal(err)
		}
		defer h.close()
		offer, err := pc.CreateOffer(nil)
		if err != nil {
			t.Fatal(err)
		}
		sdp, err := gather(ctx, pc, offer)
		if err != nil {
			t.Fatal(err)
		}
		m, err := h.request(ctx, map[string]any{"request": "join", "room": room, "display": fmt.Sprint("p", i)},
			&webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: sdp})
		if err != nil {
			t.Fatal(err)
		}
		if m.Jsep == nil {
			t.Fatalf("join %d: no answer in %s", i, m.PluginData.Data)
		}
		if err := pc.SetRemoteDescription(*m.Jsep); err != nil {
			t.Fatal(err)
		}
		tracks[i] = tr
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for k := 0; ; k++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			for i, tr := range tracks {
				p := silence
				if i < talkers {
					p = talk[i][k%frames]
				}
				_ = tr.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(k), Timestamp: uint32(k) * 960}, Payload: p})
			}
		}
	}()
	time.Sleep(mixWarmup) // every participant connected and mixed
	c0, err := ProcCPU(jp.PID(), false)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(mixSpan)
	c1, _ := ProcCPU(jp.PID(), false)
	close(stop)
	<-done
	lst, _ := admin.request(ctx, map[string]any{"request": "listparticipants", "room": room}, nil)
	var parts struct{ Participants []json.RawMessage }
	if lst != nil {
		json.Unmarshal(lst.PluginData.Data, &parts)
	}
	pct := float64(c1-c0) / float64(mixSpan) * 100
	t.Logf("Janus AudioBridge, %d participants (%d listed), %d talking: %.1f %% of a core, %.3f %% per mixed participant (load %s)",
		n, len(parts.Participants), talkers, pct, pct/n, LoadAvg())
	return pct / n
}

// attachPlugin creates a session and a handle of plugin (attach is the
// VideoRoom's).
func attachPlugin(ctx context.Context, j *janus, plugin string) (*janusHandle, error) {
	m, err := j.post(ctx, "", janusReq{Janus: "create"})
	if err != nil {
		return nil, err
	}
	h := &janusHandle{j: j, session: m.Data.ID, stop: make(chan struct{})}
	if m, err = j.post(ctx, h.sessionPath(), janusReq{Janus: "attach", Plugin: plugin}); err != nil {
		h.close()
		return nil, err
	}
	h.handle = m.Data.ID
	return h, nil
}
