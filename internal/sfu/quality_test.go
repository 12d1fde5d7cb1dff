package sfu

import (
	"testing"
	"time"

	"github.com/pion/rtcp"
)

// channelOf finds participant mt's channel of kind and direction.
func channelOf(rg *testRig, conf, mt string, kind ChannelKind, send bool) (Channel, bool) {
	chs, _ := rg.sfu.Channels(conf, mt)
	for _, c := range chs {
		if c.Kind == kind && c.Send == send && c.MimeType != "" {
			return c, true
		}
	}
	return Channel{}, false
}

// Call quality (issue 41): a publisher that loses every tenth video
// packet on its way in shows about 10 % loss on its sent video and none
// on its audio; a subscriber's received video carries what its receiver
// reports say.
func TestChannelQuality(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "?name=alice")
	a.run(idA, &sendOpts{level: 30, lossEvery: 10})
	sub := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
	sub.flowing(t, "video/65", 50)

	var video Channel
	waitFor(t, "the publisher's video loss measured", func() bool {
		var ok bool
		video, ok = channelOf(rg, "c1", a.mtID, ChannelVideo, true)
		return ok && video.LossPct > 0
	})
	if video.LossPct < 5 || video.LossPct > 15 || video.JitterMs < 0 {
		t.Errorf("sent video: loss %.2f %%, jitter %.2f ms; want about 10 %% (every tenth packet)", video.LossPct, video.JitterMs)
	}
	if audio, ok := channelOf(rg, "c1", a.mtID, ChannelAudio, true); !ok || audio.LossPct != 0 {
		t.Errorf("sent audio %+v, want no loss", audio)
	}
	waitFor(t, "the subscriber's receiver report", func() bool {
		c, ok := channelOf(rg, "c1", sub.mtID, ChannelVideo, false)
		return ok && c.Reported
	})
}

// rxStats counts a stream's loss per interval, across a sequence
// number's wrap-around, and its jitter in milliseconds.
func TestRxStats(t *testing.T) {
	t.Parallel()
	var s rxStats
	at := time.Unix(1000, 0)
	seq := uint16(65000)
	for i := 0; i < 2000; i++ { // 20 ms apart, 2 % lost, across the wrap
		seq++
		at = at.Add(20 * time.Millisecond)
		if i%50 == 49 {
			continue
		}
		jit := time.Duration(0)
		if i%2 == 0 {
			jit = 4 * time.Millisecond // every other packet 4 ms late
		}
		s.observe(seq, uint32(i+1)*960, at.Add(jit), 48000)
	}
	loss, jitter := s.quality(48000)
	if loss < 1 || loss > 3 {
		t.Errorf("loss %.2f %%, want 2 %%", loss)
	}
	if jitter < 2 || jitter > 6 { // |D| is 4 ms on every packet: J tends to 4 ms
		t.Errorf("jitter %.2f ms, want about 4", jitter)
	}

	var r rrStats
	if _, _, ok := r.quality(); ok {
		t.Error("a report before any")
	}
	r.note(rtcp.ReceptionReport{FractionLost: 64, Jitter: 480}, 48000, at)
	if l, j, ok := r.quality(); !ok || l != 25 || j != 10 {
		t.Errorf("report: loss %v jitter %v ok %v, want 25 %% and 10 ms", l, j, ok)
	}
}
