package engine

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Participants with nothing behind them (issue 35 item 4): a terminal
// that joined on its own (DocParticipant: the join page, WHIP, WHEP, a
// playback) is online only while the media plane holds it. After the
// node's restart, kill -9 or SIGTERM, the media plane holds nothing, and
// no Left will ever come. The engine asks the media plane which
// participants it holds (media.ParticipantHost) every staleEvery; a
// terminal found missing twice, staleGrace apart, is taken offline as a
// lost connection (Left with lost): within about 10 s of the start.

// staleEvery is how often the participants are checked; staleGrace how
// long one must stay missing (a join is stored before the media plane
// lists it).
const (
	staleEvery = 2 * time.Second
	staleGrace = 3 * time.Second
)

// staleKey is a terminal of a conference.
type staleKey struct{ conf, mt string }

// runDueStale takes offline the participants the media plane no longer
// holds.
func (e *Engine) runDueStale(ctx context.Context) error {
	host, ok := e.media.(media.ParticipantHost)
	if !ok {
		return nil
	}
	now := e.clk.Now()
	e.mu.Lock()
	if now.Sub(e.staleAt) < staleEvery {
		e.mu.Unlock()
		return nil
	}
	e.staleAt = now
	e.mu.Unlock()
	recs, _, err := e.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, States: []string{StateOnline}})
	if err != nil {
		return err
	}
	byConf := map[string][]string{} // conf_id: its participants online in the store
	mark := []byte(DocParticipant)
	for _, rec := range recs {
		if !bytes.Contains(rec.Data, mark) {
			continue
		}
		t, err := DecodeTerminal(rec)
		if err != nil || t.Own.Participant.Value == "" {
			continue
		}
		byConf[rec.OwnerMoid] = append(byConf[rec.OwnerMoid], t.MtID())
	}
	missing := map[staleKey]time.Time{}
	var lost []staleKey
	for conf, mts := range byConf {
		held, ok, err := host.Hosts(ctx, conf)
		if err != nil {
			e.log.Warn("media: which participants the media plane holds", "conf_id", conf, "err", err)
			continue
		}
		if !ok {
			continue // another node carries it
		}
		e.mu.Lock()
		for _, mt := range mts {
			if held[mt] {
				continue
			}
			k := staleKey{conf, mt}
			since, seen := e.stale[k]
			switch {
			case !seen:
				missing[k] = now
			case now.Sub(since) >= staleGrace:
				lost = append(lost, k)
			default:
				missing[k] = since
			}
		}
		e.mu.Unlock()
	}
	e.mu.Lock()
	e.stale = missing // a terminal found again, or gone from the store, is forgotten
	e.mu.Unlock()
	var errs []error
	for _, k := range lost {
		e.log.Info("media: a participant the media plane no longer holds goes offline", "conf_id", k.conf, "mt_id", k.mt)
		// A terminal updated within staleGrace (a client that rejoined
		// as it, engine.rejoin, while the media plane was asked) stays.
		fresh := func(t Terminal) bool { return e.clk.Now().Sub(t.Rec.UpdatedAt) < staleGrace }
		if err := e.leave(ctx, k.conf, k.mt, true, fresh); err != nil && !errors.Is(err, ErrNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
