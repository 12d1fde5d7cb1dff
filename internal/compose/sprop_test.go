package compose

import (
	"encoding/base64"
	"image"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pion/rtp"
)

// outOfBand passes an H.264 source's packets on without its parameter
// sets, as a terminal that announces them only in its SDP
// (sprop-parameter-sets, RFC 6184 section 8.1) sends them: the first
// STAP-A of SPS and PPS becomes the fmtp line given to the input
// (SourceFormat, before any of its packets, as the SFU does), and no SPS
// or PPS reaches the input in band.
type outOfBand struct {
	mu   sync.Mutex
	in   *Input
	seq  uint16
	told bool
}

func (s *outOfBand) WriteVideo(p *rtp.Packet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pl := p.Payload
	if len(pl) == 0 {
		return
	}
	switch pl[0] & 0x1f {
	case 24: // STAP-A: the parameter sets (pion aggregates them)
		if !s.told {
			var sets []string
			for b := pl[1:]; len(b) >= 2; {
				n := int(b[0])<<8 | int(b[1])
				if 2+n > len(b) {
					break
				}
				sets = append(sets, base64.StdEncoding.EncodeToString(b[2:2+n]))
				b = b[2+n:]
			}
			s.in.SourceFormat("video/H264", "profile-level-id=42e01f;packetization-mode=1;sprop-parameter-sets="+strings.Join(sets, ","))
			s.told = true
		}
		return
	case 7, 8:
		return
	}
	if !s.told {
		return // a terminal announces its parameter sets before it sends
	}
	h := p.Header
	h.SequenceNumber = s.seq
	s.seq++
	_, _ = s.in.WriteRTP(&h, pl)
}

// TestH264ParameterSetsOnlyInSDP: an H.264 source whose SPS and PPS come
// only out of band, in the sprop-parameter-sets of its SDP (room systems
// and SIP phones that never repeat them in band), is decoded: its colour
// shows in its pane of the composed picture, beside a source that sends
// them in band. Before, no IDR of it could be decoded and its pane never
// showed.
func TestH264ParameterSetsOnlyInSDP(t *testing.T) {
	needFFmpeg(t)
	c := newCompositor(t, Config{})
	defer c.Close()
	ff, _ := FindFFmpeg("")
	pts := map[uint8]string{100: "video/H264"}
	var curA, curB atomic.Pointer[Output]
	keyOf := func(cur *atomic.Pointer[Output]) func() {
		return func() {
			if o := cur.Load(); o != nil {
				o.KeyFrame()
			}
		}
	}
	a := c.Input("a", pts, keyOf(&curA))
	b := c.Input("b", pts, keyOf(&curB))
	c.SetScene(Scene{Layout: 2, Panes: []Pane{{Input: "a"}, {Input: "b"}}})
	rx := newReceiver(t, "video/H264", 100)
	if _, err := c.Output(OutputSpec{MimeType: "video/H264", Width: 640, Height: 360, Bitrate: 800_000, PayloadType: 100}, receiver{rx}); err != nil {
		t.Fatal(err)
	}
	stopA := solidSource(t, ff, "video/H264", &outOfBand{in: a}, &curA)(image.Pt(640, 360), palette[0])
	defer stopA()
	stopB := solidSource(t, ff, "video/H264", &layerSwitch{in: b}, &curB)(image.Pt(640, 360), palette[2])
	defer stopB()
	waitPicture(t, rx, panesShow(2, []YUV{palette[0], palette[2]}))
}

// The sprop-parameter-sets of an fmtp line: each set base64, SPS and PPS
// told apart by their NAL unit type, whatever their order; a line
// without them, or with sets that do not decode, gives none.
func TestSpropParameterSets(t *testing.T) {
	sps, pps := []byte{0x67, 0x42, 0xc0, 0x1f, 0xda}, []byte{0x68, 0xce, 0x3c, 0x80}
	enc := base64.StdEncoding.EncodeToString
	gotSPS, gotPPS := spropParameterSets("packetization-mode=1; sprop-parameter-sets=" + enc(pps) + "," + enc(sps) + ";profile-level-id=42e01f")
	if string(gotSPS) != string(sps) || len(gotPPS) != 1 || string(gotPPS[0]) != string(pps) {
		t.Fatalf("got SPS % x, PPS % x", gotSPS, gotPPS)
	}
	// Unpadded base64, as some terminals write it.
	gotSPS, gotPPS = spropParameterSets("sprop-parameter-sets=" + strings.TrimRight(enc(sps), "=") + "," + strings.TrimRight(enc(pps), "="))
	if string(gotSPS) != string(sps) || len(gotPPS) != 1 {
		t.Fatalf("unpadded: got SPS % x, PPS % x", gotSPS, gotPPS)
	}
	for _, line := range []string{"", "packetization-mode=1", "sprop-parameter-sets=!!!,###", "sprop-parameter-sets="} {
		if s, p := spropParameterSets(line); s != nil || p != nil {
			t.Fatalf("%q: got SPS % x, PPS % x, want none", line, s, p)
		}
	}
}
