package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// terminalCmd manages the terminal directory of the simulated media
// backend: conferd terminal add|list|remove.
func terminalCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		g, _ := groupUsage("terminal")
		fmt.Fprint(stderr, g)
		return exitUsage
	}
	if args[0] == "apply" { // terminal_apply.go
		return terminalApply(ctx, args[1:], stdout, stderr)
	}
	fs := newFlagSet("terminal "+args[0], stderr)
	db := dbFlag(fs)
	account := fs.String("account", "", "what calls name the terminal by: E.164 number, alias or IP")
	alias := fs.String("alias", "", "terminal alias")
	e164 := fs.String("e164", "", "terminal E.164 number")
	ip := fs.String("ip", "", "terminal IP address")
	accountType := fs.Int("account-type", 5, "account type (reference 05)")
	mtType := fs.Int("type", 1, "terminal type: 1 ordinary, 3 telephone, 5 satellite")
	behaviour := fs.String("behaviour", "answer", "how it answers a call: answer, offline, busy or noanswer")
	answer := fs.Duration("answer-after", 2*time.Second, "ringing time before it answers")
	if fs.Parse(args[1:]) != nil {
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	switch args[0] {
	case "add":
		switch *behaviour {
		case "answer", "offline", "busy", "noanswer":
		default:
			fmt.Fprintf(stderr, "conferd: --behaviour %q: want answer, offline, busy or noanswer\n", *behaviour)
			return exitUsage
		}
		if *account == "" {
			*account = firstOf(*e164, *alias, *ip)
		}
		if *account == "" {
			fmt.Fprintln(stderr, "conferd: terminal add needs --account, --e164, --alias or --ip")
			return exitUsage
		}
		e := store.DirectoryEntry{Account: *account, Alias: *alias, E164: *e164, IP: *ip, AccountType: *accountType,
			MtType: *mtType, Behaviour: *behaviour, AnswerAfter: *answer}
		if err := st.PutDirectoryEntry(ctx, e); err != nil {
			fmt.Fprintf(stderr, "conferd: terminal add: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "terminal %s: %s\n", e.Account, e.Behaviour)
	case "list":
		es, err := st.ListDirectory(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "conferd: terminal list: %v\n", err)
			return 1
		}
		for _, e := range es {
			fmt.Fprintf(stdout, "%s\talias=%s e164=%s ip=%s type=%d %s after %s\n", e.Account, e.Alias, e.E164, e.IP, e.MtType, e.Behaviour, e.AnswerAfter)
		}
	case "remove":
		if err := st.DeleteDirectoryEntry(ctx, *account); err != nil {
			fmt.Fprintf(stderr, "conferd: terminal remove %s: %v\n", *account, err)
			return 1
		}
	default:
		fmt.Fprintf(stderr, "conferd: unknown terminal command %q\n", args[0])
		return exitUsage
	}
	return 0
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
