package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/sdk"
)

// The completion scripts ask confer itself for the candidates of the word
// being completed (confer __complete -- WORDS...), so they follow the
// command table and the catalogue.
const bashCompletion = `# bash completion for confer. Load it with:
#   source <(confer completion bash)
_confer_complete() {
	local cur="${COMP_WORDS[COMP_CWORD]}"
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$(confer __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "$cur"))
}
complete -o default -F _confer_complete confer
`

const zshCompletion = `#compdef confer
# zsh completion for confer (through bashcompinit). Install it with:
#   confer completion zsh > "${fpath[1]}/_confer"
autoload -U +X bashcompinit && bashcompinit
` + bashCompletion

func runCompletion(a *app, args []string) error {
	switch args[0] {
	case "bash":
		fmt.Fprint(a.out, bashCompletion)
	case "zsh":
		fmt.Fprint(a.out, zshCompletion)
	default:
		return usagef("no completion for %q: bash or zsh", args[0])
	}
	return nil
}

// complete returns the candidates for the last of words (the word being
// completed, possibly empty), given the words before it.
func complete(words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	var pos []string // positional words before cur
	before := words[:len(words)-1]
	for i := 0; i < len(before); i++ {
		w := before[i]
		if strings.HasPrefix(w, "-") {
			if name := strings.TrimLeft(w, "-"); !strings.Contains(name, "=") && globalValued[name] {
				i++
			}
			continue
		}
		pos = append(pos, w)
	}
	var cmd *command
	used := 0
	for n := min(2, len(pos)); n >= 1 && cmd == nil; n-- {
		if c := find(strings.Join(pos[:n], " ")); c != nil && !c.hidden {
			cmd, used = c, n
		}
	}
	var cands []string
	switch {
	case strings.HasPrefix(cur, "-"):
		fs := flag.NewFlagSet("confer", flag.ContinueOnError)
		var g globals
		g.register(fs)
		if cmd != nil {
			cmd.setup(fs)
		}
		fs.VisitAll(func(f *flag.Flag) { cands = append(cands, "--"+f.Name) })
	case cmd == nil && len(pos) == 0:
		seen := map[string]bool{}
		for _, c := range commands {
			if c.hidden {
				continue
			}
			w := strings.Fields(c.name)[0]
			if !seen[w] {
				seen[w] = true
				cands = append(cands, w)
			}
		}
	case cmd == nil && len(pos) == 1 && isGroup(pos[0]):
		for _, c := range commands {
			if strings.HasPrefix(c.name, pos[0]+" ") {
				cands = append(cands, strings.TrimPrefix(c.name, pos[0]+" "))
			}
		}
	case cmd != nil && cmd.name == "help":
		cands = commandNames()
	case cmd != nil && cmd.name == "completion":
		cands = []string{"bash", "zsh"}
	case cmd != nil && cmd.name == "call":
		cands = completeCall(pos[used:])
	}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, cur) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// completeCall completes the arguments of confer call: the method, the
// path patterns of the catalogue, then the parameter names.
func completeCall(args []string) []string {
	switch len(args) {
	case 0:
		return []string{"GET", "POST", "PUT", "DELETE"}
	case 1:
		var out []string
		for _, ep := range sdk.Endpoints() {
			if ep.Method == strings.ToUpper(args[0]) {
				out = append(out, ep.Path)
			}
		}
		return out
	}
	ep, _, ok := sdk.MatchEndpoint(args[0], strings.SplitN(args[1], "?", 2)[0])
	if !ok {
		return nil
	}
	e, ok := catalog.Lookup(ep.Name)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range e.Params {
		if p.Name == "account_token" {
			continue
		}
		sep := "="
		if p.Kind == catalog.Object || p.Kind == catalog.Array {
			sep = ":="
		}
		out = append(out, p.Name+sep)
	}
	return out
}
