package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// runFunc runs a command with its positional arguments.
type runFunc func(a *app, args []string) error

// command is one entry of the command table.
type command struct {
	name     string // its words, e.g. "confs list"
	args     string // its positional arguments, e.g. "CONF_ID MT_ID..."
	summary  string
	example  string // at least one example command line
	min, max int    // number of positional arguments; max -1 for any
	long     bool   // runs until interrupted (watch): --timeout does not apply
	hidden   bool   // left out of the help (the completion helper)
	// setup declares the command's flags and returns its runner.
	setup func(fs *flag.FlagSet) runFunc
}

func (c *command) usage() string {
	u := "confer " + c.name + " [flags]"
	if c.args != "" {
		u += " " + c.args
	}
	return u
}

// commands is the command table, in the order of the help.
var commands []*command

func register(cs ...*command) { commands = append(commands, cs...) }

// groupSummaries describe the command groups in the overall help.
var groupSummaries = map[string]string{
	"confs":     "running conferences: list, show, create, end",
	"mts":       "terminals of a conference: list, add, drop, call, hangup, mute",
	"speaker":   "the speaker of a conference: show, set, clear",
	"chairman":  "the chairman of a conference: show, set, clear",
	"vmp":       "picture composition: start, show, stop",
	"poll":      "conference polling: start, show, pause, resume, stop",
	"record":    "recording: start, list, stop",
	"templates": "conference templates: list, show, delete",
	"rooms":     "RTC rooms (krtc): list, show, create, delete",
}

func find(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// globalValued are the global flags that take a value.
var globalValued = map[string]bool{"config": true, "profile": true, "url": true, "api-level": true, "timeout": true}

// lookup finds the command named by the first words of args (global flags
// may come first) and returns it with the other arguments.
func lookup(args []string) (*command, []string, []string) {
	var words []string
	var at []int
	for i := 0; i < len(args) && len(words) < 2; i++ {
		s := args[i]
		if s == "--" {
			break
		}
		if strings.HasPrefix(s, "-") && s != "-" {
			if name := strings.TrimLeft(s, "-"); !strings.Contains(name, "=") && globalValued[name] {
				i++
			}
			continue
		}
		words, at = append(words, s), append(at, i)
	}
	for n := len(words); n >= 1; n-- {
		c := find(strings.Join(words[:n], " "))
		if c == nil {
			continue
		}
		skip := map[int]bool{}
		for _, i := range at[:n] {
			skip[i] = true
		}
		var rest []string
		for i, s := range args {
			if !skip[i] {
				rest = append(rest, s)
			}
		}
		return c, rest, words[:n]
	}
	return nil, args, words
}

// isGroup tells whether name is the first word of several commands.
func isGroup(name string) bool {
	for _, c := range commands {
		if strings.HasPrefix(c.name, name+" ") {
			return true
		}
	}
	return false
}

func wantsHelp(args []string) bool {
	for _, s := range args {
		if s == "-h" || s == "-help" || s == "--help" {
			return true
		}
	}
	return false
}

// groupHelp answers a command line that names no command: the overall
// help, a group's help, or an unknown command.
func (a *app) groupHelp(words, args []string) int {
	switch {
	case len(words) == 0:
		a.overallHelp(a.out)
		return exitOK
	case isGroup(words[0]):
		w := a.out
		status := exitOK
		if !wantsHelp(args) {
			w, status = a.errw, exitUsage
			if len(words) > 1 {
				fmt.Fprintf(w, "confer: unknown command %q\n", words[0]+" "+words[1])
			} else {
				fmt.Fprintf(w, "confer: %s needs a subcommand\n", words[0])
			}
		}
		fmt.Fprintf(w, "Usage: confer %s <command> [flags] [arguments]\n\n", words[0])
		if s := groupSummaries[words[0]]; s != "" {
			fmt.Fprintf(w, "%s%s.\n\n", strings.ToUpper(s[:1]), s[1:])
		}
		fmt.Fprintln(w, "Commands:")
		for _, c := range commands {
			if strings.HasPrefix(c.name, words[0]+" ") {
				fmt.Fprintf(w, "  %-28s %s\n", strings.TrimPrefix(c.usage(), "confer "), c.summary)
			}
		}
		fmt.Fprintf(w, "\nRun 'confer %s <command> --help' for a command's flags and an example.\n", words[0])
		return status
	}
	fmt.Fprintf(a.errw, "confer: unknown command %q\nRun 'confer help' for the list of commands.\n", words[0])
	return exitUsage
}

func (a *app) overallHelp(w io.Writer) {
	fmt.Fprint(w, `Usage: confer <command> [flags] [arguments]

confer is the command-line client of the Confer platform API. Log in once
with 'confer login'; later commands use the profile and its cached session.

Commands:
`)
	shown := map[string]bool{}
	for _, c := range commands {
		if c.hidden {
			continue
		}
		first := strings.Fields(c.name)[0]
		if isGroup(first) {
			if !shown[first] {
				shown[first] = true
				fmt.Fprintf(w, "  %-12s %s\n", first, groupSummaries[first])
			}
			continue
		}
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Global flags (any command):
`)
	fs := flag.NewFlagSet("confer", flag.ContinueOnError)
	var g globals
	g.register(fs)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status: 0 success; 1 the platform refused the request (its error code
and description are printed); 2 wrong command line; 3 the platform could
not be reached or another local failure.

Run 'confer <command> --help' for a command's flags and an example.
`)
}

// commandHelp prints a command's usage, flags and example.
func (a *app) commandHelp(c *command) {
	w := a.out
	fmt.Fprintf(w, "Usage: %s\n\n%s.\n", c.usage(), c.summary)
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.setup(fs)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fmt.Fprintf(w, "\nExample:\n")
	for _, line := range strings.Split(strings.TrimSpace(c.example), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
	fmt.Fprintln(w, "\nGlobal flags: --config, --profile, --url, --json, --api-level, --debug, --method-override, --timeout (see 'confer help').")
}

// commandNames returns the names of the visible commands, sorted.
func commandNames() []string {
	var out []string
	for _, c := range commands {
		if !c.hidden {
			out = append(out, c.name)
		}
	}
	sort.Strings(out)
	return out
}

// The command table, in the order of the help.
func init() {
	register(confsCommands()...)
	register(mtsCommands()...)
	register(roleCommands("speaker")...)
	register(roleCommands("chairman")...)
	register(templatesCommands()...)
	register(roomsCommands()...)
	register(vmpCommands()...)
	register(pollCommands()...)
	register(recordCommands()...)
	register(miscCommands()...)
	register(helpCommand())
	register(loginCommands()...)
}

func helpCommand() *command {
	return &command{
		name: "help", args: "[COMMAND...]", summary: "Show the help of confer or of a command", max: -1,
		example: "confer help confs create",
		setup: func(fs *flag.FlagSet) runFunc {
			return func(a *app, args []string) error {
				if len(args) == 0 {
					a.overallHelp(a.out)
					return nil
				}
				if c := find(strings.Join(args, " ")); c != nil {
					a.commandHelp(c)
					return nil
				}
				if isGroup(args[0]) {
					a.groupHelp(args[:1], []string{"--help"})
					return nil
				}
				return usagef("unknown command %q", strings.Join(args, " "))
			}
		},
	}
}
