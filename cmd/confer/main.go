// Command confer is the command-line client of the Confer platform API,
// for operators and integrators: log in once with a profile, then manage
// conferences, terminals, speaker and chairman, compositions, polls,
// recordings, templates and rooms, watch pushed events, or call any
// endpoint. It is built on the Go SDK (package sdk); docs/cli.md describes
// it. Commands that act on the store (license import, account creation,
// the terminal directory) belong to conferd.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/confer-platform/confer/sdk"
)

// Exit statuses.
const (
	exitOK        = 0
	exitPlatform  = 1 // the platform refused the request (its code and description are printed)
	exitUsage     = 2 // wrong command line
	exitTransport = 3 // the platform could not be reached, or a local failure
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &app{
		in: os.Stdin, out: os.Stdout, errw: os.Stderr, getenv: os.Getenv,
		terminal: func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
		readSecret: func() (string, error) {
			b, err := term.ReadPassword(int(os.Stdin.Fd()))
			return string(b), err
		},
	}
	os.Exit(a.run(ctx, os.Args[1:]))
}

// app is one run of the command line, with its streams and environment
// (tests give their own).
type app struct {
	in         io.Reader
	out, errw  io.Writer
	getenv     func(string) string
	terminal   func() bool            // is standard input a terminal
	readSecret func() (string, error) // reads a line from the terminal without echo
	lines      *bufio.Reader          // standard input that is not a terminal
	g          globals                // global flags
	ctx        context.Context        // the command's context (timeout, interrupt)
	raw        json.RawMessage        // the last reply, printed by --json
	client     *sdk.Client            // the command's client, once made
	prof       *profile               // the command's profile, once loaded
	profName   string                 // its name
	before     [2]string              // token and cookie before the command
	cmd        *command               // the command running
}

// globals are the flags every command accepts.
type globals struct {
	config   string
	profile  string
	url      string
	json     bool
	level    int
	debug    bool
	override bool
	timeout  time.Duration
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.config, "config", "", "configuration `folder` (default $CONFER_CONFIG, else confer under the user's configuration folder, $XDG_CONFIG_HOME)")
	fs.StringVar(&g.profile, "profile", "", "profile `name` (default $CONFER_PROFILE, else the profile of the last login)")
	fs.StringVar(&g.url, "url", "", "platform base `URL`, instead of the profile's")
	fs.BoolVar(&g.json, "json", false, "print the platform's JSON reply instead of a table")
	fs.IntVar(&g.level, "api-level", 0, "send the API-Level header with this `level` (default the profile's; 0 sends none)")
	fs.BoolVar(&g.debug, "debug", false, "debug mode: the platform validates changes and executes nothing")
	fs.BoolVar(&g.override, "method-override", false, "send PUT and DELETE as POST with _method, for proxies that block them")
	fs.DurationVar(&g.timeout, "timeout", 30*time.Second, "give up on a request after this `duration` (watch: ignored)")
}

// usageError is a wrong command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// run runs one command line and returns the exit status.
func (a *app) run(ctx context.Context, args []string) int {
	cmd, rest, words := lookup(args)
	if cmd == nil && len(words) == 0 && (slices.Contains(args, "--version") || slices.Contains(args, "-version")) {
		// confer's own version, without asking the platform (confer
		// version asks it too).
		fmt.Fprintf(a.out, "confer %s\n", cliVersion())
		return exitOK
	}
	if cmd == nil {
		return a.groupHelp(words, args)
	}
	a.cmd = cmd
	fs := flag.NewFlagSet("confer "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.g.register(fs)
	runner := cmd.setup(fs)
	pos, err := parseInterspersed(fs, rest)
	if errors.Is(err, flag.ErrHelp) {
		a.commandHelp(cmd)
		return exitOK
	}
	if err != nil {
		return a.fail(usagef("%v", err))
	}
	if len(pos) < cmd.min || cmd.max >= 0 && len(pos) > cmd.max {
		return a.fail(usagef("wrong number of arguments"))
	}
	if a.g.timeout <= 0 {
		a.g.timeout = 30 * time.Second
	}
	a.ctx = ctx
	if !cmd.long {
		var cancel context.CancelFunc
		a.ctx, cancel = context.WithTimeout(ctx, a.g.timeout)
		defer cancel()
	}
	err = runner(a, pos)
	a.saveSession()
	if err != nil {
		return a.fail(err)
	}
	return exitOK
}

// fail prints an error and returns its exit status.
func (a *app) fail(err error) int {
	var ue *usageError
	var pe *sdk.Error
	var de *sdk.DebugError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(a.errw, "confer: %s\n", ue.msg)
		if a.cmd != nil {
			fmt.Fprintf(a.errw, "usage: %s\nRun 'confer %s --help' for more.\n", a.cmd.usage(), a.cmd.name)
		}
		return exitUsage
	case errors.As(err, &de):
		if a.g.json && len(a.raw) > 0 {
			a.printJSON(a.raw)
		}
		fmt.Fprintf(a.errw, "confer: the platform would refuse this request (debug mode, nothing was executed):\n")
		for _, p := range de.Problems() {
			fmt.Fprintf(a.errw, "  %s\n", p)
		}
		return exitPlatform
	case errors.As(err, &pe):
		if a.g.json && len(a.raw) > 0 {
			a.printJSON(a.raw)
		}
		desc := pe.Description
		if desc == "" {
			desc = fmt.Sprintf("error %d", pe.Code)
		}
		fmt.Fprintf(a.errw, "confer: error %d: %s\n", pe.Code, desc)
		if errors.Is(err, sdk.ErrTokenInvalid) || errors.Is(err, sdk.ErrNotLoggedIn) {
			fmt.Fprintf(a.errw, "The session has expired: run 'confer login' again (or set CONFER_SECRET and CONFER_PASSWORD to log in again by yourself).\n")
		}
		return exitPlatform
	case errors.Is(err, sdk.ErrNoCredentials):
		fmt.Fprintf(a.errw, "confer: not logged in: run 'confer login' first\n")
		return exitPlatform
	}
	// The SDK's errors start with the package name, which is also ours.
	fmt.Fprintf(a.errw, "confer: %s\n", strings.TrimPrefix(err.Error(), "confer: "))
	return exitTransport
}

// parseInterspersed parses flags wherever they appear among the
// positional arguments; "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		if strings.HasPrefix(args[0], "-") && args[0] != "-" {
			if err := fs.Parse(args); err != nil {
				return nil, err
			}
			// fs.Parse stops at the first positional argument or after "--".
			consumed := len(args) - len(fs.Args())
			if consumed > 0 && args[consumed-1] == "--" {
				return append(pos, fs.Args()...), nil
			}
			args = fs.Args()
			continue
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return pos, nil
}
