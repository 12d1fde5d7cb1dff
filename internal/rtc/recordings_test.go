package rtc_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/rtc"
)

// fakeRecorder records nothing: its recordings stop when told (end) or
// stopped, as the SFU's do when a disk fills or a conference ends.
type fakeRecorder struct {
	mu   sync.Mutex
	recs []*fakeRec
}

func (f *fakeRecorder) Record(_ context.Context, _ string, spec media.RecordSpec) (media.Recording, error) {
	r := &fakeRec{path: spec.Path, done: make(chan struct{})}
	f.mu.Lock()
	f.recs = append(f.recs, r)
	f.mu.Unlock()
	spec.OnWrite(100)
	return r, nil
}

type fakeRec struct {
	gate  chan struct{} // when set, Stop waits for it to close
	path  string
	once  sync.Once
	done  chan struct{}
	err   error
	mu    sync.Mutex
	stops int
}

func (r *fakeRec) Pause()                {}
func (r *fakeRec) Resume()               {}
func (r *fakeRec) Done() <-chan struct{} { return r.done }

// end stops the recording on its own, with err as why.
func (r *fakeRec) end(err error) { r.once.Do(func() { r.err = err; close(r.done) }) }

func (r *fakeRec) Stop() (media.RecordInfo, error) {
	if r.gate != nil {
		<-r.gate
	}
	r.end(nil)
	r.mu.Lock()
	r.stops++
	r.mu.Unlock()
	return media.RecordInfo{Path: r.path, Bytes: 100}, r.err
}

func (r *fakeRec) stopped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stops
}

// TestRecordingsRuntime: the media side's running recordings
// (rtc.Recordings, docs/architecture.md "Live media"): a recording that
// stops by itself calls vc's write back once, holding no lock of the
// runtime (the callback queries the runtime, which would deadlock
// otherwise: the watchdog fails the run), and is forgotten after it; one
// the runtime stops (StopRecording, DropConference, CloseRecordings)
// calls nothing back; the bound of recordings at once refuses with
// media.ErrNoRecorder, and so does a stopping node.
func TestRecordingsRuntime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fr := &fakeRecorder{}
	g := lifecycle.NewGroup()
	rs := rtc.NewRecordings(fr, g, 2, nil)
	type end struct {
		info              media.RecordInfo
		err               error
		known             bool
		running, byDomain int
	}
	ends := make(chan end, 4)
	run := func(domain, conf, id string) (media.Running, error) {
		return rs.Record(ctx, media.RecordRun{Domain: domain, Conf: conf, RecID: id, Spec: media.RecordSpec{Path: id + ".webm"},
			Ended: func(_ context.Context, info media.RecordInfo, err error) bool {
				// vc's write queries the runtime: no lock of it is held here.
				ends <- end{info: info, err: err, known: rs.Recording(id) != nil, running: rs.Running(), byDomain: rs.DomainRunning(domain)}
				return false
			}})
	}

	a, err := run("d1", "c1", "r1")
	if err != nil {
		t.Fatal(err)
	}
	if d, c := a.Of(); d != "d1" || c != "c1" || rs.Recording("r1") == nil || rs.Recording("nope") != nil {
		t.Fatalf("Of = %s %s, Recording(r1) = %v", d, c, rs.Recording("r1"))
	}
	if _, err := run("d1", "c2", "r2"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("d2", "c3", "r3"); !errors.Is(err, media.ErrNoRecorder) {
		t.Fatalf("a third recording with a bound of 2: %v, want media.ErrNoRecorder", err)
	}
	if rs.Running() != 2 || rs.DomainRunning("d1") != 2 || rs.DomainRunning("d2") != 0 || rs.Bytes() != 200 {
		t.Fatalf("running %d, d1 %d, d2 %d, bytes %d", rs.Running(), rs.DomainRunning("d1"), rs.DomainRunning("d2"), rs.Bytes())
	}

	// r1 stops by itself (a full disk): its end is stored through the
	// callback, once, and it is forgotten.
	fr.recs[0].end(media.ErrDiskFull)
	e := <-ends
	if !errors.Is(e.err, media.ErrDiskFull) || e.info.Path != "r1.webm" || !e.known || e.running != 2 || e.byDomain != 2 {
		t.Fatalf("the end called back: %+v", e)
	}

	// r2 is stopped through the runtime: its figures, and no call back.
	info, err := rs.StopRecording("r2")
	if err != nil || info == nil || info.Path != "r2.webm" || rs.Recording("r2") != nil {
		t.Fatalf("StopRecording = %v, %v", info, err)
	}
	// A second stop (two DELETEs at once) gets the same figures, from the
	// one finalisation.
	if again, err := rs.StopRecording("r2"); again == nil || *again != *info || err != nil || fr.recs[1].stopped() != 1 {
		t.Fatalf("StopRecording again = %v, %v (the file finalised %d times)", again, err, fr.recs[1].stopped())
	}
	// Every watcher has returned once the group's goroutines have.
	if err := g.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if rs.Running() != 0 || rs.Recording("r1") != nil || len(ends) != 0 {
		t.Fatalf("after the ends: running %d, r1 %v, %d more ends called back", rs.Running(), rs.Recording("r1"), len(ends))
	}

	// A conference's recordings dropped (a lost lease), then the node's
	// stop: files finalised, nothing called back.
	if _, err := run("d1", "c4", "r4"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("d1", "c5", "r5"); err != nil {
		t.Fatal(err)
	}
	rs.DropConference("c4")
	if rs.Recording("r4") != nil || rs.Recording("r5") == nil || fr.recs[2].stopped() != 1 {
		t.Fatalf("after DropConference(c4): r4 %v, r5 %v, r4 stopped %d", rs.Recording("r4"), rs.Recording("r5"), fr.recs[2].stopped())
	}
	g.Close()
	rs.CloseRecordings()
	if err := g.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if rs.Running() != 0 || fr.recs[3].stopped() != 1 || len(ends) != 0 {
		t.Fatalf("after CloseRecordings: running %d, r5 stopped %d, %d ends called back", rs.Running(), fr.recs[3].stopped(), len(ends))
	}
	if _, err := run("d1", "c6", "r6"); !errors.Is(err, media.ErrNoRecorder) || rs.Running() != 0 || fr.recs[4].stopped() != 1 {
		t.Fatalf("a recording on a stopping node: %v (running %d)", err, rs.Running())
	}
}

// TestRecordingStoppedTwiceAtOnce: while one stop finalises a file, a
// second stop of the same recording waits for it and gets its figures,
// not none (CI saw the program stored with the size of a half-finalised
// file: the second DELETE read the file from disk).
func TestRecordingStoppedTwiceAtOnce(t *testing.T) {
	t.Parallel()
	fr := &fakeRecorder{}
	rs := rtc.NewRecordings(fr, lifecycle.NewGroup(), 2, nil)
	if _, err := rs.Record(context.Background(), media.RecordRun{Domain: "d", Conf: "c", RecID: "r", Spec: media.RecordSpec{Path: "r.webm"}}); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	fr.recs[0].gate = gate
	first := make(chan *media.RecordInfo)
	go func() {
		info, _ := rs.StopRecording("r")
		first <- info
	}()
	second := make(chan *media.RecordInfo)
	go func() {
		info, _ := rs.StopRecording("r")
		second <- info
	}()
	close(gate)
	a, b := <-first, <-second
	if a == nil || b == nil || *a != *b || a.Bytes != 100 || fr.recs[0].stopped() != 1 {
		t.Fatalf("the two stops gave %v and %v; the file finalised %d times", a, b, fr.recs[0].stopped())
	}
}
