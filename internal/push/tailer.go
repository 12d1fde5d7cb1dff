package push

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/url"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// eventBatch is how many events one read of the log takes.
const eventBatch = 256

// tailer turns the event log into messages. Its state belongs to the Run
// goroutine alone.
type tailer struct {
	s   *Server
	seq int64

	confs map[string]*confState    // by domain + "\x00" + conf_id: running conferences seen
	last  map[string]string        // channel -> content of its last update (conference and terminal channels)
	calls map[string]callState     // terminal record key -> its last call state seen
	reads *stepReads               // the records of the step being handled (stepread.go)
	sups  map[string][]cascadeView // superiors read in this step (superiorsOf)
}

// confState is a running conference's last document: decoded, or only
// its bytes while nobody watched the conference's channels (decoded when
// someone does, so that the next change is compared with it).
type confState struct {
	doc  storedDoc
	data []byte
	// published: some channel under the conference may have an entry
	// in tailer.last.
	published bool
}

// previous returns the conference's last document ({} before its first).
func (st *confState) previous() (storedDoc, error) {
	switch {
	case st.doc != nil:
		return st.doc, nil
	case st.data != nil:
		return decodeDoc(st.data)
	}
	return storedDoc{}, nil
}

type callState struct {
	failed   bool
	attempts int
}

func newTailer(s *Server) *tailer {
	return &tailer{s: s, confs: map[string]*confState{}, last: map[string]string{}, calls: map[string]callState{}}
}

// run starts at the newest event (what happened before is the state that
// clients read with GET), then publishes every event after it in order.
func (t *tailer) run(ctx context.Context) {
	l := t.listen(ctx)
	for {
		seq, err := t.s.cfg.Events.LastEventSeq(ctx)
		if err == nil {
			t.seq = seq
			t.preload(ctx)
			t.s.done.Store(seq)
			break
		}
		if ctx.Err() != nil {
			return
		}
		t.s.log.Warn("push: reading the event log", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(t.s.opt.Poll):
		}
	}
	poll := time.NewTimer(l.interval(t.s.opt))
	defer poll.Stop()
	failing := false
	var last time.Time // the start of the last step
	for {
		last = time.Now()
		n, err := t.step(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil && !failing {
			t.s.log.Warn("push: reading the event log", "err", err)
		}
		failing = err != nil
		if n == eventBatch {
			continue
		}
		if failing {
			poll.Reset(t.s.opt.Poll) // retry soon, woken or not
		} else {
			poll.Reset(l.interval(t.s.opt))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.s.wake:
			t.spaceOut(ctx, last)
		case <-l.c():
			l.update(t)
			t.spaceOut(ctx, last)
		case <-poll.C:
		}
	}
}

// spaceOut waits, after a wake-up, until Options.StepGap has passed
// since the last step started: the changes of a burst then go in one
// step rather than a step each (a step is a read of the log and one of
// its records; at 4,000 changes a second a step carried three). A change
// reaches subscribers at most StepGap later.
func (t *tailer) spaceOut(ctx context.Context, last time.Time) {
	wait := t.s.opt.StepGap - time.Since(last)
	if wait <= 0 {
		return
	}
	tm := time.NewTimer(wait)
	defer tm.Stop()
	select {
	case <-ctx.Done():
	case <-tm.C:
	}
}

// preload remembers the documents of the running conferences, so that
// the first change of each after a start is compared with its real
// previous state.
func (t *tailer) preload(ctx context.Context) {
	recs, _, err := t.s.cfg.Store.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{engine.StateRunning}})
	if err != nil {
		t.s.log.Warn("push: reading running conferences", "err", err)
		return
	}
	for _, rec := range recs {
		t.confs[confKey(rec.DomainMoid, rec.ID)] = &confState{data: rec.Data}
	}
}

// step publishes the events after the last one handled.
func (t *tailer) step(ctx context.Context) (int, error) {
	clear(t.sups) // kept for one step: read after its events (superiorsOf)
	evs, err := t.s.cfg.Events.EventsSince(ctx, t.seq, eventBatch)
	if err != nil {
		return 0, err
	}
	t.readStep(ctx, evs)
	defer func() { t.reads = nil }()
	for _, ev := range evs {
		if err := t.handle(ctx, ev); err != nil && ctx.Err() == nil {
			t.s.log.Warn("push: publishing an event", "seq", ev.Seq, "kind", ev.Kind, "id", ev.ID, "err", err)
		}
		t.seq = ev.Seq
	}
	t.s.done.Store(t.seq)
	return len(evs), nil
}

func (t *tailer) handle(ctx context.Context, ev store.Event) error {
	switch ev.Kind {
	case record.KindConf:
		return t.conf(ctx, ev)
	case record.KindMT:
		return t.terminal(ctx, ev)
	case store.KindNotice:
		t.notification(ev)
	}
	return nil
}

func confKey(domain, confID string) string { return domain + "\x00" + confID }

// domainBase is the channel prefix of a user domain.
func domainBase(domain string) string { return "/userdomains/" + domain }

// conf publishes a conference's change: the list when it starts or ends,
// the conference itself, and each conference-wide channel whose part of
// the document changed.
func (t *tailer) conf(ctx context.Context, ev store.Event) error {
	key := confKey(ev.DomainMoid, ev.ID)
	base := domainBase(ev.DomainMoid)
	confCh := base + expand(pathConf, map[string]string{"conf_id": ev.ID})
	st := t.confs[key]
	if ev.Op == store.OpDelete || ev.State != engine.StateRunning {
		if st == nil || (ev.Op != store.OpDelete && ev.State != engine.StateEnded) {
			return nil // booked or pending, or never seen running
		}
		delete(t.confs, key)
		for ch := range t.last {
			if strings.HasPrefix(ch, confCh+"/") {
				delete(t.last, ch)
			}
		}
		t.publishDelete(confCh)
		t.publishUpdate(ctx, base+pathConfs, ev.DomainMoid, listSource(), false)
		return nil
	}
	rec, err := t.record(ctx, record.KindConf, ev.DomainMoid, ev.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // deleted since: its own event follows
	}
	if err != nil {
		return err
	}
	if rec.State != engine.StateRunning {
		return nil // ended since: its own event follows
	}
	started := st == nil
	if started {
		st = &confState{}
		t.confs[key] = st
		t.publishUpdate(ctx, base+pathConfs, ev.DomainMoid, listSource(), false)
	}
	if !t.s.watched(confCh) {
		// Nobody would receive anything below: keep the bytes, decode
		// nothing (what publishUpdate does for each unwatched channel,
		// forgetting its last content, is done here at once).
		st.doc, st.data = nil, rec.Data
		if st.published {
			delete(t.last, confCh)
			for ch := range t.last {
				if strings.HasPrefix(ch, confCh+"/") {
					delete(t.last, ch)
				}
			}
			st.published = false
		}
		return nil
	}
	prev, err := st.previous()
	if err != nil {
		return err
	}
	doc, err := decodeDoc(rec.Data)
	if err != nil {
		return err
	}
	st.doc, st.data, st.published = doc, nil, true
	confParams := map[string]string{"conf_id": ev.ID}
	t.publishUpdate(ctx, confCh, ev.DomainMoid, source{endpoint: endpointConf, params: confParams,
		fallback: func() wire.Object { return projectFor(endpointConf, rec.Data) }}, true)
	for _, cp := range confParts {
		before, after := cp.Parts(prev), cp.Parts(doc)
		for _, k := range sortedKeys(after) {
			p := after[k]
			if old, ok := before[k]; ok && old.value == p.value {
				continue
			}
			params := map[string]string{"conf_id": ev.ID}
			for n, v := range p.params {
				params[n] = v
			}
			t.publishUpdate(ctx, confCh+expand(cp.Path, p.params), ev.DomainMoid,
				source{endpoint: cp.Endpoint, params: params, pick: cp.Pick}, true)
		}
		for _, k := range sortedKeys(before) {
			if _, ok := after[k]; !ok {
				t.publishDelete(confCh + expand(cp.Path, before[k].params))
			}
		}
	}
	return nil
}

// terminal publishes a terminal's change, and a notification when a call
// of it failed.
func (t *tailer) terminal(ctx context.Context, ev store.Event) error {
	confID, mtID, ok := strings.Cut(ev.ID, "/")
	if !ok {
		return nil
	}
	params := map[string]string{"conf_id": confID, "mt_id": mtID}
	base := domainBase(ev.DomainMoid)
	ch := base + expand(pathMT, params)
	key := confKey(ev.DomainMoid, ev.ID)
	if ev.Op == store.OpDelete {
		delete(t.calls, key)
		t.publishDelete(ch)
		return t.cascadeTerminal(ctx, ev.DomainMoid, confID, mtID, true)
	}
	if err := t.cascadeTerminal(ctx, ev.DomainMoid, confID, mtID, false); err != nil {
		return err
	}
	rec, err := t.record(ctx, record.KindMT, ev.DomainMoid, ev.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // removed since: its own event follows
	}
	if err != nil {
		return err
	}
	doc, err := decodeDoc(rec.Data)
	if err != nil {
		return err
	}
	t.publishUpdate(ctx, ch, ev.DomainMoid, source{endpoint: endpointMT, params: params,
		fallback: func() wire.Object { return projectFor(endpointMT, rec.Data) }}, true)

	attempts, _ := doc.int(mtAttempts)
	outcome, _ := doc.int(mtOutcome)
	redial := doc.isTrue(mtRedial)
	failed := attempts > 0 && media.Outcome(outcome) != media.Answered &&
		(rec.State == engine.StateIdle || (rec.State == engine.StateCalling && redial))
	prev, seen := t.calls[key]
	if !seen && ev.Op == store.OpCreate {
		seen = true // a new terminal: no failure before this one
	}
	t.calls[key] = callState{failed: failed, attempts: attempts}
	if failed && seen && (!prev.failed || prev.attempts != attempts) {
		n := callFailure{ErrorCode: callFailureCode(media.Outcome(outcome)), Method: "notify"}
		if c, ok := doc.int(engine.DocOccupyCode); ok && c != 0 {
			n.ErrorCode = c // busy in another conference (engine/occupancy.go)
		}
		if a, ok := doc.str("account"); ok {
			n.Mt.Account = model.Some(a)
		}
		if at, ok := doc.int("account_type"); ok {
			n.Mt.AccountType = model.Some(at)
		}
		if n.ErrorCode == engine.CodeOccupiedHere { // 07 "添加终端失败通知": only with 20423
			name, _ := doc.str(engine.DocOccupyConfName)
			n.OccupyConfName = model.Some(name)
		}
		t.s.publish(base+expand(pathMTsNotify, params), func(int) any { return n })
	}
	return nil
}

// listSource is the conference list's content: the whole list.
func listSource() source {
	return source{endpoint: endpointConfs, query: url.Values{"count": {"0"}}}
}

// source says how to build an update's content.
type source struct {
	endpoint string
	params   map[string]string
	query    url.Values
	fallback func() wire.Object // the content when no handler serves the endpoint
	pick     func(reply wire.Object, params map[string]string) (wire.Object, bool)
}

// publishUpdate publishes {"method": "update", ...content} on ch, the
// content being the GET reply of the channel's resource as a client at
// its API-Level would read it. With dedupe, an update whose content equals
// the last one published on ch is left out. Nothing is read when nobody
// listens.
func (t *tailer) publishUpdate(ctx context.Context, ch, domain string, src source, dedupe bool) {
	if !t.s.hasSubscribers(ch) {
		delete(t.last, ch)
		return
	}
	res := t.s.cfg.Resources
	var reply wire.Object
	err := ErrNoHandler
	if res != nil {
		reply, err = res.Get(ctx, domain, src.endpoint, src.params, src.query)
	}
	switch {
	case errors.Is(err, ErrNoHandler):
		reply = wire.Object{}
		if src.fallback != nil {
			reply = src.fallback()
		}
		src.pick = nil
	case errors.Is(err, ErrGone):
		return
	case err != nil:
		t.s.log.Warn("push: reading a resource", "endpoint", src.endpoint, "err", err)
		return
	}
	seen := any(reply)
	if src.pick != nil {
		el, ok := src.pick(reply, src.params)
		if !ok {
			return
		}
		seen = el
	}
	if dedupe { // an update whose content the channel has just had is left out
		j := jsonOf(seen)
		if t.last[ch] == j {
			return
		}
		t.last[ch] = j
	}
	t.s.publish(ch, func(level int) any {
		content := reply
		if res != nil {
			content = res.Reshape(src.endpoint, level, reply)
		}
		if src.pick != nil {
			content, _ = src.pick(content, src.params)
		}
		return updateData(content)
	})
}

// updateData is an update's data: {"method": "update"} followed by the
// members of its content (the GET reply as the client's release shapes
// it, or the element of it that the channel shows).
func updateData(content wire.Object) json.RawMessage {
	if len(content) == 0 {
		return json.RawMessage(`{"method":"update"}`)
	}
	if _, ok := content["method"]; ok { // no reply has one: the update's method wins
		content = maps.Clone(content)
		delete(content, "method")
	}
	data, _ := withMethod("update", mustJSON(content))
	return data
}

// publishDelete publishes {"method": "delete"} on ch.
func (t *tailer) publishDelete(ch string) {
	delete(t.last, ch)
	t.s.publish(ch, func(int) any { return deleteMessage })
}

// deleteMessage is the data of a delete.
var deleteMessage = json.RawMessage(`{"method":"delete"}`)

// projectFor shapes a stored document with an endpoint's reply schema, as
// the vc handlers do.
func projectFor(endpoint string, data []byte) wire.Object {
	ep, ok := catalog.Lookup(endpoint)
	if !ok {
		return wire.Object{}
	}
	doc, err := shape.Decode(data)
	if err != nil {
		return wire.Object{}
	}
	return shape.Project(doc, ep.Reply)
}
