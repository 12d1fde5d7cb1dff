package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// applyChannels are the notification channels of reference 07 "终端申请主
// 席/发言人/加入混音通知", by what the terminal applies for.
var applyChannels = map[string]string{"chairman": "/applychairman", "speaker": "/applyspeaker", "mix": "/applymix"}

// terminalApply is what a terminal's request for the floor would do on
// the platform, for the simulation where no real terminal exists:
//
//	conferd terminal apply --db D --conf C --mt M --for chairman|speaker|mix
//
// It checks that conference C runs and that its terminal M is online,
// then appends the notification {"method":"notify","mt_id":"M"} of
// /confs/C/apply{chairman,speaker,mix} to the store's event log; every
// running conferd on the database publishes it (docs/push.md).
func terminalApply(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("terminal apply", stderr)
	db := dbFlag(fs)
	confID := fs.String("conf", "", "the running conference (conf_id)")
	mtID := fs.String("mt", "", "the applying terminal (mt_id of the conference)")
	what := fs.String("for", "", "what the terminal applies for: chairman, speaker or mix")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	channel, ok := applyChannels[*what]
	if *confID == "" || *mtID == "" || !ok {
		fmt.Fprintln(stderr, "conferd: terminal apply needs --conf, --mt and --for chairman, speaker or mix")
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	domain, err := applyCheck(ctx, st, *confID, *mtID)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: terminal apply: %v\n", err)
		return 1
	}
	n, err := store.NewNotice(domain, *confID, channel, push.Apply{MtID: *mtID}, time.Now())
	if err == nil {
		err = st.AppendNotice(ctx, n)
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: terminal apply: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "terminal %s of conference %s applies for %s (%s)\n", *mtID, *confID, *what, channel)
	return 0
}

// applyCheck finds the running conference and its online terminal and
// returns the conference's user domain.
func applyCheck(ctx context.Context, st store.Store, confID, mtID string) (string, error) {
	running, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{engine.StateRunning}})
	if err != nil {
		return "", err
	}
	domain := ""
	for _, rec := range running {
		if rec.ID == confID {
			domain = rec.DomainMoid
		}
	}
	if domain == "" {
		return "", fmt.Errorf("conference %s is not running", confID)
	}
	t, err := st.GetRecord(ctx, record.KindMT, domain, confID+"/"+mtID)
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("conference %s has no terminal %s", confID, mtID)
	}
	if err != nil {
		return "", err
	}
	if t.State != engine.StateOnline {
		return "", fmt.Errorf("terminal %s of conference %s is not online (%s)", mtID, confID, t.State)
	}
	return domain, nil
}
