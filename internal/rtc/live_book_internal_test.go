package rtc

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/media"
)

// The book's bookkeeping (live_book.go) without an SFU: small real
// implementations of the interfaces it takes (monitorOpener, watchers,
// Pusher) record what the book asked of the media.

// bookTap is a monitor's sender: it counts its key frame requests and
// closes, and ends on its own with end (the SFU closed it).
type bookTap struct {
	spec   media.MonitorSpec
	mu     sync.Mutex
	keys   int
	closes int
	done   chan struct{}
	once   sync.Once
}

func (t *bookTap) RequestKeyFrame() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.keys++
}

func (t *bookTap) Done() <-chan struct{} { return t.done }

func (t *bookTap) Close() {
	t.mu.Lock()
	t.closes++
	t.mu.Unlock()
	t.end()
}

func (t *bookTap) end() { t.once.Do(func() { close(t.done) }) }

func (t *bookTap) counts() (keys, closes int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.keys, t.closes
}

// bookTaps opens bookTaps and keeps every one it opened; fail makes the
// next opens fail.
type bookTaps struct {
	mu     sync.Mutex
	opened []*bookTap
	fail   error
}

func (o *bookTaps) OpenMonitor(_ context.Context, _ string, s media.MonitorSpec) (media.Tap, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail != nil {
		return nil, o.fail
	}
	t := &bookTap{spec: s, done: make(chan struct{})}
	o.opened = append(o.opened, t)
	return t, nil
}

func (o *bookTaps) all() []*bookTap {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.opened)
}

// open is how many of the taps opened are not closed.
func (o *bookTaps) open() int {
	n := 0
	for _, t := range o.all() {
		if _, c := t.counts(); c == 0 {
			n++
		}
	}
	return n
}

// bookViewers is the watching viewers: a count by conference and tag,
// and the tags whose viewers the book closed.
type bookViewers struct {
	mu     sync.Mutex
	n      map[[2]string]int
	closed []string // conf_id/tag
}

func (v *bookViewers) Watchers(confID, tag string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.n[[2]string{confID, tag}]
}

func (v *bookViewers) CloseWatchers(confID, tag string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	k := [2]string{confID, tag}
	n := v.n[k]
	delete(v.n, k)
	v.closed = append(v.closed, confID+"/"+tag)
	return n
}

// bookPusher records the pushes running, by conf_id/rec_id; fail makes
// the next starts fail.
type bookPusher struct {
	mu      sync.Mutex
	running map[string]string // the URL
	stops   []string
	fail    error
}

func (p *bookPusher) Start(confID, recID, url string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return p.fail
	}
	p.running[confID+"/"+recID] = url
	return nil
}

func (p *bookPusher) Stop(confID, recID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, confID+"/"+recID)
	p.stops = append(p.stops, confID+"/"+recID)
}

func newTestBook() (*liveBook, *bookTaps, *bookViewers, *bookPusher) {
	taps, viewers, push := &bookTaps{}, &bookViewers{n: map[[2]string]int{}}, &bookPusher{running: map[string]string{}}
	return newLiveBook(taps, viewers, push), taps, viewers, push
}

func monitorTo(dst string) media.MonitorSpec {
	return media.MonitorSpec{Name: "monitor " + dst, Dst: dst, Source: media.MonitorTerminal, MtID: "1"}
}

// TestBookSendMonitor: a monitor's sender is opened with a key frame
// request, kept (and asked for a key frame only when the caller asks) by
// the same monitor, replaced by another monitor to the same destination,
// and closed once by a stop; a failed open leaves the destination with
// no sender.
func TestBookSendMonitor(t *testing.T) {
	b, taps, _, _ := newTestBook()
	ctx := context.Background()
	const dst = "127.0.0.1:5004"
	if err := b.SendMonitor(ctx, "d", "c1", "k1", monitorTo(dst), false); err != nil {
		t.Fatal(err)
	}
	if !b.MonitorSending("d", "c1", dst) || b.MonitorSending("d", "c2", dst) || b.MonitorSending("e", "c1", dst) {
		t.Error("the sender is not known by its domain, conference and destination alone")
	}
	first := taps.all()[0]
	if k, c := first.counts(); k != 1 || c != 0 || first.spec.Dst != dst {
		t.Errorf("opened sender: %d key frame requests, %d closes, spec %+v; want 1, 0", k, c, first.spec)
	}

	// The same monitor again: the sender is kept.
	if err := b.SendMonitor(ctx, "d", "c1", "k1", monitorTo(dst), false); err != nil {
		t.Fatal(err)
	}
	if err := b.SendMonitor(ctx, "d", "c1", "k1", monitorTo(dst), true); err != nil {
		t.Fatal(err)
	}
	if n := len(taps.all()); n != 1 {
		t.Errorf("%d senders opened for one monitor, want 1", n)
	}
	if k, _ := first.counts(); k != 2 {
		t.Errorf("%d key frame requests after a repeat without and one with keyFrame, want 2", k)
	}

	// Another monitor to the destination replaces the sender.
	if err := b.SendMonitor(ctx, "d", "c1", "k2", monitorTo(dst), false); err != nil {
		t.Fatal(err)
	}
	all := taps.all()
	if len(all) != 2 {
		t.Fatalf("%d senders opened, want 2", len(all))
	}
	if _, c := first.counts(); c != 1 {
		t.Errorf("the replaced sender closed %d times, want 1", c)
	}
	second := all[1]
	if k, c := second.counts(); k != 1 || c != 0 {
		t.Errorf("the replacement: %d key frame requests, %d closes; want 1, 0", k, c)
	}

	// A stop closes it once; a second stop does nothing.
	b.StopMonitor("d", "c1", dst)
	b.StopMonitor("d", "c1", dst)
	if _, c := second.counts(); c != 1 || b.MonitorSending("d", "c1", dst) {
		t.Errorf("after the stops: closed %d times, sending %v; want 1, false", c, b.MonitorSending("d", "c1", dst))
	}

	// A sender that cannot open: the error, and no sender (the one of
	// another monitor was stopped first).
	if err := b.SendMonitor(ctx, "d", "c1", "k3", monitorTo(dst), false); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("no such destination")
	taps.mu.Lock()
	taps.fail = refused
	taps.mu.Unlock()
	if err := b.SendMonitor(ctx, "d", "c1", "k4", monitorTo(dst), false); !errors.Is(err, refused) {
		t.Errorf("open failed: err = %v", err)
	}
	if b.MonitorSending("d", "c1", dst) || taps.open() != 0 {
		t.Errorf("after a failed open: sending %v, %d senders open; want false, 0", b.MonitorSending("d", "c1", dst), taps.open())
	}
}

// TestBookSweepMonitors: the sweep ends the senders the SFU closed and
// those whose monitor is no longer live, reading each conference's live
// monitors once, and keeps the others; an error reading them is
// returned.
func TestBookSweepMonitors(t *testing.T) {
	b, taps, _, _ := newTestBook()
	ctx := context.Background()
	send := func(conf, key, dst string) *bookTap {
		t.Helper()
		if err := b.SendMonitor(ctx, "d", conf, key, monitorTo(dst), false); err != nil {
			t.Fatal(err)
		}
		all := taps.all()
		return all[len(all)-1]
	}
	kept := send("c1", "live", "127.0.0.1:6000")
	ended := send("c1", "live2", "127.0.0.1:6002") // its tap ends on its own
	stale := send("c1", "gone", "127.0.0.1:6004")  // its monitor is no longer live
	other := send("c2", "live", "127.0.0.1:6000")  // another conference, same destination
	ended.end()
	reads := map[string]int{}
	live := func(_ context.Context, domain, confID string) (map[string]bool, error) {
		reads[domain+"/"+confID]++
		return map[string]bool{"live": true, "live2": true}, nil
	}
	if err := b.SweepMonitors(ctx, live); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(reads, map[string]int{"d/c1": 1, "d/c2": 1}) {
		t.Errorf("live monitors read %v, want once per conference with a live sender", reads)
	}
	for _, c := range []struct {
		name    string
		tap     *bookTap
		dst     string
		conf    string
		sending bool
	}{
		{"kept", kept, "127.0.0.1:6000", "c1", true},
		{"ended", ended, "127.0.0.1:6002", "c1", false},
		{"stale", stale, "127.0.0.1:6004", "c1", false},
		{"other", other, "127.0.0.1:6000", "c2", true},
	} {
		_, closes := c.tap.counts()
		wantCloses := 1
		if c.sending {
			wantCloses = 0
		}
		if s := b.MonitorSending("d", c.conf, c.dst); s != c.sending || closes != wantCloses {
			t.Errorf("%s: sending %v, closed %d times; want %v, %d", c.name, s, closes, c.sending, wantCloses)
		}
	}

	broken := errors.New("store down")
	if err := b.SweepMonitors(ctx, func(context.Context, string, string) (map[string]bool, error) { return nil, broken }); !errors.Is(err, broken) {
		t.Errorf("sweep with a failing read: err = %v", err)
	}
	if !b.MonitorSending("d", "c1", "127.0.0.1:6000") {
		t.Error("a sweep that could not read the live monitors ended a sender")
	}
}

// TestBookWatchedTags: the sweep closes the viewers of the tags that may
// no longer be watched and stops the push of a broadcast that ended,
// forgets those tags and a conference left without any, and keeps the
// others; LiveViewers counts the viewers of live broadcasts' tags only.
func TestBookWatchedTags(t *testing.T) {
	b, _, viewers, push := newTestBook()
	ctx := context.Background()
	b.Watched("d", "c1", media.TagLive("r1"))
	b.Watched("d", "c1", media.TagLive("r1")) // twice: one tag
	b.Watched("d", "c1", media.TagLive("r2"))
	b.Watched("d", "c1", media.TagMonitor("m1"))
	b.Watched("d", "c2", media.TagWall("h1"))
	viewers.n[[2]string{"c1", media.TagLive("r1")}] = 3
	viewers.n[[2]string{"c1", media.TagLive("r2")}] = 1
	viewers.n[[2]string{"c1", media.TagMonitor("m1")}] = 2
	want := map[[2]string]int{{"c1", "r1"}: 3, {"c1", "r2"}: 1}
	if got := b.LiveViewers(); !maps.Equal(got, want) {
		t.Errorf("LiveViewers = %v, want %v", got, want)
	}

	// r2 ended and the monitor's tag is no longer watched; c2 ended.
	var asked []string
	ok := func(_ context.Context, domain, confID string) (map[string]bool, error) {
		asked = append(asked, domain+"/"+confID)
		if confID == "c1" {
			return map[string]bool{media.TagLive("r1"): true}, nil
		}
		return nil, nil
	}
	if err := b.SweepWatched(ctx, ok); err != nil {
		t.Fatal(err)
	}
	slices.Sort(asked)
	if !slices.Equal(asked, []string{"d/c1", "d/c2"}) {
		t.Errorf("asked %v, want each watched conference once", asked)
	}
	slices.Sort(viewers.closed)
	if want := []string{"c1/" + media.TagLive("r2"), "c1/" + media.TagMonitor("m1"), "c2/" + media.TagWall("h1")}; !slices.Equal(viewers.closed, want) {
		t.Errorf("viewers closed of %v, want %v", viewers.closed, want)
	}
	if want := []string{"c1/r2"}; !slices.Equal(push.stops, want) {
		t.Errorf("pushes stopped %v, want %v (the ended broadcast's only)", push.stops, want)
	}
	if got, want := b.LiveViewers(), map[[2]string]int{{"c1", "r1"}: 3}; !maps.Equal(got, want) {
		t.Errorf("LiveViewers after the sweep = %v, want %v", got, want)
	}
	b.mu.Lock()
	_, c2 := b.watched["c2"]
	tags := slices.Sorted(maps.Keys(b.watched["c1"].tags))
	b.mu.Unlock()
	if c2 || !slices.Equal(tags, []string{media.TagLive("r1")}) {
		t.Errorf("book after the sweep: c2 kept %v, c1's tags %v", c2, tags)
	}

	broken := errors.New("store down")
	if err := b.SweepWatched(ctx, func(context.Context, string, string) (map[string]bool, error) { return nil, broken }); !errors.Is(err, broken) {
		t.Errorf("sweep with a failing read: err = %v", err)
	}
	if got := b.LiveViewers(); len(got) != 1 {
		t.Errorf("a sweep that could not read forgot tags: LiveViewers = %v", got)
	}
}

// TestBookRTMPPush: a push started is registered as its broadcast's
// watched tag (so the sweep stops it with the broadcast), one that could
// not start is not; StopRTMP stops one push, DropRTMP every push of a
// conference and no other's; a node without a pusher pushes nothing.
func TestBookRTMPPush(t *testing.T) {
	b, _, _, push := newTestBook()
	if !b.CanPush() {
		t.Fatal("CanPush = false with a pusher")
	}
	for _, p := range [][3]string{{"c1", "r1", "rtmp://a/1"}, {"c1", "r2", "rtmp://a/2"}, {"c2", "r3", "rtmp://a/3"}} {
		if err := b.PushRTMP("d", p[0], p[1], p[2]); err != nil {
			t.Fatal(err)
		}
	}
	refused := errors.New("ffmpeg failed")
	push.fail = refused
	if err := b.PushRTMP("d", "c3", "r4", "rtmp://a/4"); !errors.Is(err, refused) {
		t.Errorf("a push that fails to start: err = %v", err)
	}
	push.fail = nil
	want := map[[2]string]int{{"c1", "r1"}: 0, {"c1", "r2"}: 0, {"c2", "r3"}: 0}
	if got := b.LiveViewers(); !maps.Equal(got, want) {
		t.Errorf("broadcasts watched = %v, want %v (the pushes started)", got, want)
	}

	b.StopRTMP("c1", "r1")
	if _, ok := push.running["c1/r1"]; ok || len(push.running) != 2 {
		t.Errorf("after StopRTMP of c1/r1 the pushes are %v", push.running)
	}
	b.DropRTMP("c1")
	if !maps.Equal(push.running, map[string]string{"c2/r3": "rtmp://a/3"}) {
		t.Errorf("after DropRTMP of c1 the pushes are %v, want c2's only", push.running)
	}
	b.DropRTMP("c9") // a conference without pushes
	if len(push.running) != 1 {
		t.Errorf("DropRTMP of another conference stopped %v", push.stops)
	}

	none := newLiveBook(&bookTaps{}, &bookViewers{n: map[[2]string]int{}}, nil)
	if none.CanPush() {
		t.Error("CanPush = true without a pusher")
	}
	if err := none.PushRTMP("d", "c1", "r1", "rtmp://a/1"); err != nil {
		t.Errorf("PushRTMP without a pusher: %v", err)
	}
	none.StopRTMP("c1", "r1")
	none.DropRTMP("c1")
	if got := none.LiveViewers(); len(got) != 0 {
		t.Errorf("a node without a pusher watches %v after a push", got)
	}
}

// TestBookConcurrentMonitors: starts of several monitors to a few
// destinations, repeats, stops and sweeps all at once (run with -race)
// leave at most one sender per destination, and once every destination
// is stopped no tap the book opened is left open, none closed twice.
func TestBookConcurrentMonitors(t *testing.T) {
	b, taps, _, _ := newTestBook()
	ctx := context.Background()
	dsts := []string{"127.0.0.1:7000", "127.0.0.1:7002", "127.0.0.1:7004"}
	live := func(context.Context, string, string) (map[string]bool, error) {
		return map[string]bool{"k0": true, "k1": true, "k2": true}, nil // k3 is not live: the sweep ends it
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			<-start
			for i := range 50 {
				dst := dsts[(g+i)%len(dsts)]
				switch i % 5 {
				case 4:
					b.StopMonitor("d", "c1", dst)
				case 3:
					if err := b.SweepMonitors(ctx, live); err != nil {
						t.Error(err)
					}
				default:
					if err := b.SendMonitor(ctx, "d", "c1", fmt.Sprint("k", (g+i)%4), monitorTo(dst), i%2 == 0); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	close(start)
	wg.Wait()
	if n := taps.open(); n > len(dsts) {
		t.Errorf("%d senders open for %d destinations", n, len(dsts))
	}
	b.mu.Lock()
	for id, s := range b.senders {
		if _, c := s.tap.(*bookTap).counts(); c != 0 {
			t.Errorf("the book's sender %s is closed", id)
		}
	}
	b.mu.Unlock()
	for _, dst := range dsts {
		b.StopMonitor("d", "c1", dst)
	}
	for i, tap := range taps.all() {
		if _, c := tap.counts(); c != 1 {
			t.Errorf("tap %d (to %s) closed %d times, want 1", i, tap.spec.Dst, c)
		}
	}
}
