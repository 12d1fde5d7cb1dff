package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/sdk"
)

// miscCommands are the version, the events, the generic call and shell
// completion.
func miscCommands() []*command {
	return []*command{
		{
			name: "version", summary: "Show the version and API-Level of every module of the platform, and of confer",
			example: "confer version\nconfer version --url http://confer.example:8080 --json",
			setup:   noFlags(runVersion),
		},
		{
			name: "watch", args: "[PATTERN...]", max: -1, long: true,
			summary: "Print pushed events live (default every conference: /confs/**) until interrupted",
			example: "confer watch\nconfer watch '/confs/1110000/**' --count 10 --json",
			setup:   setupWatch,
		},
		{
			name: "call", args: "METHOD PATH [NAME=VALUE | NAME:=JSON | NAME=@FILE ...]", min: 2, max: -1,
			summary: "Call any endpoint of the catalogue",
			example: `confer call GET /api/v1/vc/confs count=0
confer call PUT /api/v1/vc/confs/1110000/speaker mt_id=3
confer call POST /api/v1/vc/confs/1110000/mts 'mts:=[{"account":"10.0.0.9","account_type":7,"bitrate":2048,"protocol":0}]'
confer call POST /api/v1/mc/meeting_files/<meeting_id> file=@agenda.pdf`,
			setup: noFlags(runCall),
		},
		{
			name: "completion", args: "bash|zsh", min: 1, max: 1, summary: "Print a shell completion script",
			example: "confer completion bash > ~/.local/share/bash-completion/completions/confer\nsource <(confer completion bash)\nconfer completion zsh > \"${fpath[1]}/_confer\"",
			setup:   noFlags(runCompletion),
		},
		{
			name: "__complete", args: "WORD...", max: -1, hidden: true, summary: "Completion candidates (used by the completion scripts)",
			example: "confer __complete -- confs l",
			setup: noFlags(func(a *app, args []string) error {
				for _, c := range complete(args) {
					fmt.Fprintln(a.out, c)
				}
				return nil
			}),
		},
	}
}

// runVersion prints confer's version, then queries the version endpoint
// of every module of the platform (no login needed). Without a platform
// (no profile, no --url) it prints confer's version only; a platform
// that cannot be reached is an error after confer's version.
func runVersion(a *app, _ []string) error {
	c, err := a.connect()
	if errors.Is(err, errNoProfile) {
		if a.g.json {
			return a.printValue(struct {
				Confer string `json:"confer"`
			}{cliVersion()})
		}
		fmt.Fprintf(a.out, "confer %s (no platform: run 'confer login' or give --url for its version)\n", cliVersion())
		return nil
	}
	if err != nil {
		return err
	}
	type mod struct {
		Module   string `json:"module"`
		Version  string `json:"version,omitempty"`
		APILevel int    `json:"api_level,omitempty"`
		Error    string `json:"error,omitempty"`
	}
	var mods []mod
	var firstErr error
	for _, m := range catalog.Modules {
		ep, ok := sdk.LookupEndpoint(string(m) + ".version")
		if !ok {
			continue
		}
		var out struct {
			Version  string `json:"version"`
			APILevel int    `json:"api_level"`
		}
		md := mod{Module: string(m)}
		if err := c.Call(a.ctx, ep, nil, nil, &out); err != nil {
			md.Error = err.Error()
			var pe *sdk.Error
			if errors.As(err, &pe) {
				md.Error = fmt.Sprintf("error %d: %s", pe.Code, pe.Description)
			} else if firstErr == nil {
				firstErr = err
			}
		} else {
			md.Version, md.APILevel = out.Version, out.APILevel
		}
		mods = append(mods, md)
	}
	if firstErr != nil && len(mods) > 0 && mods[0].Version == "" {
		if !a.g.json {
			fmt.Fprintf(a.out, "confer %s\n", cliVersion())
		}
		return firstErr // the platform cannot be reached
	}
	if a.g.json {
		return a.printValue(struct { // members in name order, as the map printed them
			Confer  string `json:"confer"`
			Modules []mod  `json:"modules"`
			URL     string `json:"url"`
		}{cliVersion(), mods, c.BaseURL()})
	}
	fmt.Fprintf(a.out, "confer %s, platform %s\n\n", cliVersion(), c.BaseURL())
	rows := [][]string{}
	head := []string{"MODULE", "VERSION", "API_LEVEL"}
	for _, m := range mods {
		if m.Error != "" {
			rows = append(rows, []string{m.Module, "-", "-", m.Error})
			if len(head) == 3 {
				head = append(head, "ERROR")
			}
			continue
		}
		rows = append(rows, []string{m.Module, m.Version, itoa(m.APILevel)})
	}
	a.table(head, rows)
	return nil
}

func setupWatch(fs *flag.FlagSet) runFunc {
	count := fs.Int("count", 0, "stop after this many events (0: no limit)")
	dur := fs.Duration("for", 0, "stop after this `duration` (0: until interrupted)")
	return func(a *app, args []string) error {
		c, err := a.connect()
		if err != nil {
			return err
		}
		if len(args) == 0 {
			args = []string{"/confs/**"}
		}
		ctx := a.ctx
		if *dur > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, *dur)
			defer cancel()
		}
		sub, err := c.Subscribe(ctx, args...)
		if err != nil {
			return err
		}
		defer sub.Close()
		fmt.Fprintf(a.errw, "Watching %s (user domain %s); interrupt to stop.\n", strings.Join(args, " "), sub.DomainMoid())
		n := 0
		for ev := range sub.Events() {
			if a.g.json {
				b, _ := json.Marshal(struct {
					Channel string `json:"channel"`
					Data    any    `json:"data"`
				}{ev.Channel, ev.Data})
				fmt.Fprintf(a.out, "%s\n", b)
			} else {
				line := fmt.Sprintf("%s  %-7s %s", time.Now().Format("15:04:05"), ev.Method, ev.Resource)
				if ev.Method == "notify" {
					line += "  error_code " + strconv.Itoa(ev.ErrorCode)
				}
				fmt.Fprintln(a.out, line)
			}
			n++
			if *count > 0 && n >= *count {
				return nil
			}
		}
		return sub.Err()
	}
}
