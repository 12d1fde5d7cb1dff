package sqlstore_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// Store benchmarks (docs/benchmarks.md): SQLite by default, PostgreSQL with
// CONFER_BENCH_POSTGRES=1 and CONFER_TEST_POSTGRES.
//
//	go test ./internal/store/sqlstore -run '^$' -bench . -benchtime 2s

func benchStore(b *testing.B) (*sqlstore.DB, store.Record) {
	dsn := testdb.SQLite(b)
	if os.Getenv("CONFER_BENCH_POSTGRES") == "1" {
		dsn = testdb.Postgres(b)
	}
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	// A conference-sized document (about 900 bytes).
	data := []byte(`{"name":"bench","bitrate":2048,"note":"` + strings.Repeat("x", 850) + `"}`)
	rec := store.Record{Kind: "bench", ID: "1", DomainMoid: "d", State: "running", Data: data, CreatedAt: now, UpdatedAt: now}
	if err := db.CreateRecord(ctx, rec); err != nil {
		b.Fatal(err)
	}
	return db, rec
}

func BenchmarkGetRecord(b *testing.B) {
	db, rec := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.GetRecord(ctx, rec.Kind, rec.DomainMoid, rec.ID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSwapRecord is one committed optimistic update with its event,
// serial: on SQLite, one fsync each (synchronous=FULL).
func BenchmarkSwapRecord(b *testing.B) {
	db, rec := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := db.GetRecord(ctx, rec.Kind, rec.DomainMoid, rec.ID)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.SwapRecord(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateRecordParallel is committed inserts from 16 goroutines:
// how writers queue on the store.
func BenchmarkCreateRecordParallel(b *testing.B) {
	db, rec := benchStore(b)
	ctx := context.Background()
	var mu sync.Mutex
	n := 1
	b.ReportAllocs()
	b.SetParallelism(8) // 16 goroutines on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			n++
			r := rec
			r.ID = "n" + itoa(n)
			mu.Unlock()
			if err := db.CreateRecord(ctx, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func itoa(n int) string {
	var buf [20]byte
	i := len(buf)
	for n > 0 || i == len(buf) {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}
