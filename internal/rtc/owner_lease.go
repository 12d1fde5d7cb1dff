package rtc

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// The owner's lease (issue 35 item 5, docs/media-nodes.md "Failover"). The
// rtc_owner record holds the lease's end (ownerDoc.Until, and the
// record's due time). The owner renews it once a third of the lease has
// passed (RenewLeases, run every second or so by the node's background
// work); a node that finds it lapsed (in RenewLeases, through the
// record's due time, or when it serves a WHIP or WHEP offer or a control
// that claims) takes the conference over: a claim named by the record's
// version (store.Claimer, the claims of time-driven work) lets one of
// several nodes try, and a swap at that version writes it, so an owner
// that renews meanwhile keeps its conference. A node whose record now
// names another node drops the conference's sessions it still holds
// (Lost): their clients come back through the new owner.

// DefaultLease is how long an owner's record holds without renewal: with
// the renewal every third of it, a conference whose owner stops is taken
// over within the lease and a second of the takeover's round.
const DefaultLease = 8 * time.Second

func (o *Owners) lease() time.Duration {
	if o.Lease > 0 {
		return o.Lease
	}
	return DefaultLease
}

func (o *Owners) log() *slog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return slog.Default()
}

// hold marks confID as this node's, renewed by RenewLeases.
func (o *Owners) hold(confID string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.held == nil {
		o.held = map[string]bool{}
	}
	o.held[confID] = true
}

// drop forgets confID as this node's.
func (o *Owners) drop(confID string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.held, confID)
}

func (o *Owners) heldConfs() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.held))
	for c := range o.held {
		out = append(out, c)
	}
	return out
}

// mine is this node's owner document with a lease from now.
func (o *Owners) mine(now time.Time) ownerDoc {
	me, key := o.me()
	return ownerDoc{URL: me, Key: key, SIP: o.sip(), Until: now.Add(o.lease()).UnixMilli(), Controls: controlsByName}
}

// write swaps rec to d at the version read; ErrConflict when another
// node wrote it meanwhile.
func (o *Owners) write(ctx context.Context, rec store.Record, d ownerDoc, now time.Time) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	rec.Data, rec.State, rec.DueAt, rec.UpdatedAt = data, stateOwned, time.UnixMilli(d.Until), now
	return o.Store.SwapRecord(ctx, rec)
}

// takeOver makes a conference whose owner's lease lapsed this node's;
// won is false when another node claimed or wrote it first.
func (o *Owners) takeOver(ctx context.Context, rec store.Record, now time.Time) (d ownerDoc, won bool, err error) {
	var old ownerDoc
	_ = json.Unmarshal(rec.Data, &old)
	if c, ok := o.Store.(store.Claimer); ok {
		name := KindOwner + "/" + rec.ID + "@" + strconv.FormatInt(rec.Version, 10)
		mine, err := c.Claim(ctx, name, now, now.Add(o.lease()))
		if err != nil || !mine {
			return ownerDoc{}, false, err
		}
	}
	d = o.mine(now)
	switch err := o.write(ctx, rec, d, now); {
	case errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrNotFound):
		return ownerDoc{}, false, nil
	case err != nil:
		return ownerDoc{}, false, err
	}
	o.hold(rec.ID)
	o.log().Warn("rtc: took over a conference's media: its owner's lease lapsed", "conf_id", rec.ID,
		"previous_owner", old.URL, "lapsed_at", time.UnixMilli(old.Until).UTC())
	if f := o.TookOver; f != nil {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), ownerTimeout)
			defer cancel()
			f(ctx, rec.ID)
		}()
	}
	return d, true, nil
}

// RenewLeases renews the leases of the conferences this node owns once a
// third of the lease has passed, takes over the conferences whose
// owner's lease lapsed, and drops the sessions of conferences another
// node took from this one. The node's background work runs it every
// RenewEvery.
func (o *Owners) RenewLeases(ctx context.Context) error {
	me, _ := o.me()
	if me == "" {
		return nil
	}
	now := o.Clock.Now()
	var errs []error
	for _, conf := range o.heldConfs() {
		rec, err := o.Store.GetRecord(ctx, KindOwner, "", conf)
		if errors.Is(err, store.ErrNotFound) {
			o.drop(conf) // the conference ended
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var d ownerDoc
		if err := json.Unmarshal(rec.Data, &d); err != nil {
			errs = append(errs, err)
			continue
		}
		if d.URL != me {
			o.drop(conf)
			o.log().Warn("rtc: another node took over a conference's media: this node's lease lapsed", "conf_id", conf, "owner", d.URL)
			if f := o.Lost; f != nil {
				f(conf)
			}
			continue
		}
		if time.UnixMilli(d.Until).Sub(now) > o.lease()*2/3 {
			continue
		}
		if err := o.write(ctx, rec, o.mine(now), now); err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
			errs = append(errs, err)
		}
	}
	due, err := o.Store.DueRecords(ctx, KindOwner, stateOwned, now)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, rec := range due {
		var d ownerDoc
		if err := json.Unmarshal(rec.Data, &d); err != nil {
			continue
		}
		switch {
		case d.URL == me: // this node's, from before its restart
			if err := o.write(ctx, rec, o.mine(now), now); err == nil {
				o.hold(rec.ID)
			} else if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
				errs = append(errs, err)
			}
		case d.lapsed(now):
			if _, _, err := o.takeOver(ctx, rec, now); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// RenewEvery is how often the node's background work runs RenewLeases:
// a sixth of the lease, between a quarter of a second and a second.
func (o *Owners) RenewEvery() time.Duration {
	return min(max(o.lease()/6, 250*time.Millisecond), time.Second)
}

// RunLeases runs RenewLeases every RenewEvery until ctx ends. Leases are
// kept apart from the node's other time-driven work (Server.Tick), so
// that a slow round of that work does not let them lapse.
func (o *Owners) RunLeases(ctx context.Context) {
	t := time.NewTicker(o.RenewEvery())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := o.RenewLeases(ctx); err != nil && ctx.Err() == nil {
			o.log().Warn("rtc: renewing the media owner's leases", "err", err)
		}
	}
}
