package engine

import (
	"context"
	"time"

	"github.com/confer-platform/confer/internal/media"
)

// Voice activation (reference 05 items 31 and 32, "开启/关闭语音激励";
// seed 001 voice_activity_detection and vacinterval; issue 19): while a
// conference's voice_activity_detection is 1, the participant who stays
// the loudest by audio level for vacinterval seconds becomes the speaker,
// stored and pushed as any speaker change (Features.VoiceActive).

// VoicedLevel is the loudest RFC 6464 level (0 loudest, 127 silence, in
// -dBov) still taken for silence: a participant quieter than -70 dBov is
// not speaking.
const VoicedLevel = 70

// minVoiceHold is the shortest vacinterval (reference 05: at least 5 s);
// a conference is read only once a participant has been loudest that long.
const minVoiceHold = 5 * time.Second

// voiced is a conference's loudest participant and since when it is.
type voiced struct {
	mt    string
	since time.Time
}

// AudioLevels follows the loudest participant of each conference and
// makes it the speaker once it has held for the conference's vacinterval.
func (e *Engine) AudioLevels(ctx context.Context, conf string, levels []media.AudioLevel) error {
	loudest, best := "", VoicedLevel+1
	for _, l := range levels {
		if l.Level < best || (l.Level == best && l.MtID < loudest) {
			loudest, best = l.MtID, l.Level
		}
	}
	now := e.clk.Now()
	e.mu.Lock()
	v := e.voice[conf]
	if loudest == "" || v.mt != loudest {
		if loudest == "" {
			delete(e.voice, conf)
		} else {
			e.voice[conf] = voiced{mt: loudest, since: now}
		}
		e.mu.Unlock()
		return nil
	}
	e.mu.Unlock()
	held := now.Sub(v.since)
	if held < minVoiceHold {
		return nil
	}
	c, ok, err := e.running(ctx, conf)
	if err != nil || !ok {
		return err
	}
	doc, err := e.confs.Get(ctx, c.DomainMoid, c.ConfID, StateRunning)
	if err != nil {
		return nil // ended meanwhile
	}
	if doc.VoiceActivityDetection() != 1 {
		return nil
	}
	if iv := time.Duration(doc.Vacinterval()) * time.Second; held < iv {
		return nil
	}
	if st, err := e.State(ctx, c, loudest); err != nil || st != StateOnline {
		return nil // no longer in the call
	}
	return e.apply(ctx, c, e.features.VoiceActive(ctx, c, loudest))
}
