package push

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// countingLog counts the reads of the event log that return events and
// remembers the newest event read.
type countingLog struct {
	store.EventLog
	mu    sync.Mutex
	reads int
	seq   int64
}

func (c *countingLog) EventsSince(ctx context.Context, seq int64, limit int) ([]store.Event, error) {
	evs, err := c.EventLog.EventsSince(ctx, seq, limit)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(evs) > 0 {
		c.reads++
		c.seq = evs[len(evs)-1].Seq
	}
	return evs, err
}

func (c *countingLog) state() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads, c.seq
}

// Changes that wake the tailer faster than Options.StepGap go in a few
// steps, not a step each, and every one is read (tailer.spaceOut). The
// gap is a second here, so that the writes, each followed by a wake-up,
// all fall within the gap after the first step.
func TestStepGapGathersABurst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := sqlstore.Open(ctx, testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log := &countingLog{EventLog: db}
	s := New(Config{Events: log, Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Options: Options{StepGap: time.Second, Poll: time.Hour}})
	done := make(chan struct{})
	go func() { defer close(done); s.tail.run(ctx) }()
	defer func() { cancel(); <-done }()

	const writes = 8
	var last int64
	for i := 0; i < writes; i++ {
		r := store.Record{Kind: "conf", ID: "g" + strconv.Itoa(i), DomainMoid: "d1", State: "running",
			Data: []byte(`{}`), CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(1, 0)}
		if err := db.CreateRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
		s.Wake()
	}
	if last, err = db.LastEventSeq(ctx); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, seq := log.state(); seq >= last {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tailer read up to %d of %d", func() int64 { _, s := log.state(); return s }(), last)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if reads, _ := log.state(); reads > 3 {
		t.Errorf("%d reads of the log for %d changes woken within the gap; want at most 3", reads, writes)
	}
}
