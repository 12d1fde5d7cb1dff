package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// The batch statements of PostgreSQL find each record by the primary key
// on a database without statistics (this machine runs autovacuum off;
// any table grows between two analyses): a hash join read every record
// for each batch of terminals, so a batch got slower as terminals
// accumulated (docs/benchmarks.md "Fifth pass").
func TestBatchStatementsUseThePrimaryKey(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testdb.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	err = db.Atomic(ctx, func(tx store.Tx) error {
		var rs []store.Record
		for i := range 3000 {
			rs = append(rs, store.Record{Kind: "mt", ID: fmt.Sprint(i), DomainMoid: "d1", OwnerMoid: fmt.Sprint(i / 64),
				State: "online", Data: []byte(`{}`), CreatedAt: at, UpdatedAt: at})
		}
		return tx.(*atomicTx).CreateRecords(rs)
	})
	if err != nil {
		t.Fatal(err)
	}
	var analysed bool
	if err := db.rdb.QueryRowContext(ctx, "SELECT last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'records'").Scan(&analysed); err != nil {
		t.Fatal(err)
	}
	if analysed {
		t.Log("records has been analysed (autovacuum on): the plans below are those of a database with statistics")
	}
	read := make([]any, 0, 48)
	for i := range 16 {
		read = append(read, "mt", fmt.Sprint(i*100), "d1")
	}
	swap := make([]any, 0, 10*swapRecordsArgs)
	for i := range 10 {
		swap = append(swap, i, "mt", fmt.Sprint(i*100), "d1", 0, `{"x":1}`, "online", 0, 1, nil)
	}
	for _, c := range []struct {
		name  string
		query string
		args  []any
	}{
		{"GetRecords of 16", manyQueriesPG[4], read},
		{"SwapRecords of 10", swapRecordsHead + swapRecordsRow + strings.Repeat(", "+swapRecordsRow, 9) + swapRecordsTail, swap},
	} {
		rows, err := db.rdb.QueryContext(ctx, "EXPLAIN "+db.d.q(c.query), c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if strings.Contains(text, "Seq Scan on records") || !strings.Contains(text, "records_pkey") {
			t.Errorf("%s reads records without the primary key:\n%s", c.name, text)
		}
	}
}
