package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/sdk"
)

// Versions, events, the generic call and shell completion.
func init() {
	register(
		&command{
			name: "version", summary: "Show the version and API-Level of every module of the platform, and of confer",
			example: "confer version\nconfer version --url http://confer.example:8080 --json",
			setup:   func(fs *flag.FlagSet) runFunc { return runVersion },
		},
		&command{
			name: "watch", args: "[PATTERN...]", max: -1, long: true,
			summary: "Print pushed events live (default every conference: /confs/**) until interrupted",
			example: "confer watch\nconfer watch '/confs/1110000/**' --count 10 --json",
			setup:   setupWatch,
		},
		&command{
			name: "call", args: "METHOD PATH [NAME=VALUE | NAME:=JSON | NAME=@FILE ...]", min: 2, max: -1,
			summary: "Call any endpoint of the catalogue",
			example: `confer call GET /api/v1/vc/confs count=0
confer call PUT /api/v1/vc/confs/1110000/speaker mt_id=3
confer call POST /api/v1/vc/confs/1110000/mts 'mts:=[{"account":"10.0.0.9","account_type":7,"bitrate":2048,"protocol":0}]'
confer call POST /api/v1/mc/meeting_files/<meeting_id> file=@agenda.pdf`,
			setup: func(fs *flag.FlagSet) runFunc { return runCall },
		},
		&command{
			name: "completion", args: "bash|zsh", min: 1, max: 1, summary: "Print a shell completion script",
			example: "confer completion bash > ~/.local/share/bash-completion/completions/confer\nsource <(confer completion bash)\nconfer completion zsh > \"${fpath[1]}/_confer\"",
			setup:   func(fs *flag.FlagSet) runFunc { return runCompletion },
		},
		&command{
			name: "__complete", args: "WORD...", max: -1, hidden: true, summary: "Completion candidates (used by the completion scripts)",
			example: "confer __complete -- confs l",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					for _, c := range complete(args) {
						fmt.Fprintln(a.out, c)
					}
					return nil
				}
			},
		},
	)
}

func timestamp() string { return time.Now().Format("20060102T150405") }

// runVersion queries the version endpoint of every module (no login).
func runVersion(a *app, _ []string) error {
	c, err := a.connect()
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
		return firstErr // the platform cannot be reached
	}
	if a.g.json {
		return a.printValue(map[string]any{"confer": sdk.Version, "url": c.BaseURL(), "modules": mods})
	}
	fmt.Fprintf(a.out, "confer %s, platform %s\n\n", sdk.Version, c.BaseURL())
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
				b, _ := json.Marshal(map[string]any{"channel": ev.Channel, "data": ev.Data})
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

// runCall calls any endpoint by method and path.
func runCall(a *app, args []string) error {
	method := strings.ToUpper(args[0])
	path, query, _ := strings.Cut(args[1], "?")
	ep, pathArgs, ok := sdk.MatchEndpoint(method, path)
	if !ok {
		return usagef("no endpoint %s %s in the catalogue (see 'confer __complete -- call %s /')", method, path, method)
	}
	params, err := callParams(ep, query, args[2:])
	if err != nil {
		return err
	}
	c, err := a.connect()
	if err != nil {
		return err
	}
	var req any
	if len(params) > 0 {
		req = params
	}
	if err := c.Call(a.capture(), ep, pathArgs, req, nil); err != nil {
		return err
	}
	switch {
	case a.g.json || ep.Raw:
		a.printJSON(a.raw)
	case a.g.debug && ep.Method != "GET":
		return a.done("")
	default:
		fields := orderedFields(a.raw)
		if len(fields) <= 1 {
			fmt.Fprintln(a.out, "OK")
			return nil
		}
		a.keyValues(a.raw)
	}
	return nil
}

// callParams builds the parameters of a generic call from NAME=VALUE
// (typed by the catalogue's schema: a number for an integer parameter),
// NAME:=JSON and NAME=@FILE (a file upload for a file parameter, else the
// file's text). NAME may be dotted for members of objects: vmp.layout=2.
func callParams(ep *sdk.Endpoint, query string, pairs []string) (map[string]any, error) {
	params := map[string]any{}
	var schema []catalog.Param
	if e, ok := catalog.Lookup(ep.Name); ok {
		schema = e.Params
	}
	if query != "" {
		for _, kv := range strings.Split(query, "&") {
			pairs = append([]string{kv}, pairs...)
		}
	}
	for _, kv := range pairs {
		var val any
		name, raw, isJSON := strings.Cut(kv, ":=")
		if isJSON && !strings.Contains(name, "=") {
			if err := json.Unmarshal([]byte(raw), &val); err != nil {
				return nil, usagef("%s: not JSON: %v", name, err)
			}
		} else {
			var ok bool
			name, raw, ok = strings.Cut(kv, "=")
			if !ok || name == "" {
				return nil, usagef("%q: want NAME=VALUE, NAME:=JSON or NAME=@FILE", kv)
			}
			p := findParam(schema, name)
			switch {
			case strings.HasPrefix(raw, "@") && p != nil && p.Kind == catalog.Any && ep.Style == sdk.StyleForm:
				f, err := os.Open(raw[1:])
				if err != nil {
					return nil, err
				}
				// The file stays open until the command ends.
				val = &sdk.File{Name: baseName(raw[1:]), Content: f}
			case strings.HasPrefix(raw, "@"):
				b, err := os.ReadFile(raw[1:])
				if err != nil {
					return nil, err
				}
				val = typed(p, strings.TrimRight(string(b), "\r\n"))
			default:
				val = typed(p, raw)
			}
		}
		if err := setPath(params, name, val); err != nil {
			return nil, err
		}
	}
	return params, nil
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// findParam finds a parameter of the schema by dotted name.
func findParam(ps []catalog.Param, name string) *catalog.Param {
	head, rest, nested := strings.Cut(name, ".")
	for i := range ps {
		if ps[i].Name == head {
			if !nested {
				return &ps[i]
			}
			return findParam(ps[i].Fields, rest)
		}
	}
	return nil
}

// typed converts a command-line value by the parameter's kind.
func typed(p *catalog.Param, s string) any {
	if p == nil {
		var v any
		if json.Unmarshal(jsonValue(s), &v) == nil {
			return v
		}
		return s
	}
	switch p.Kind {
	case catalog.String:
		return s
	case catalog.Int:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	case catalog.Number:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	case catalog.Bool:
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case catalog.Object, catalog.Array, catalog.Any:
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
	}
	return s // the platform names the parameter if the value is wrong
}

// setPath stores v at a dotted name, making the objects on the way.
func setPath(m map[string]any, name string, v any) error {
	head, rest, nested := strings.Cut(name, ".")
	if !nested {
		m[head] = v
		return nil
	}
	sub, ok := m[head].(map[string]any)
	if !ok {
		if _, taken := m[head]; taken {
			return usagef("%s is set both as a value and as an object", head)
		}
		sub = map[string]any{}
		m[head] = sub
	}
	return setPath(sub, rest, v)
}
