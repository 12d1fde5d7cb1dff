package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// commands are conferd's subcommands with a line of help each, in the
// order `conferd help` lists them (README.md "Commands and flags" lists
// the same; TestReadmeListsEveryCommand keeps them in step).
var commands = []struct{ name, synopsis, about string }{
	{"serve", "conferd [serve] [--addr :8080] [--db confer-data/confer.db | postgres://...] [--release 6.1.0.4.0] [flags]",
		"Serve the platform API (the default command). Every flag may also come from an environment variable or --config (docs/operations.md)."},
	{"license import", "conferd license import --db D --key K --secret S",
		"Import an API license: the oauth_consumer_key and oauth_consumer_secret of POST /api/v1/system/token."},
	{"account create", "conferd account create --db D --username U --password P [--domain NAME] [--admin]",
		"Create an account in a user domain (made if new); --admin makes it the domain's administrator."},
	{"account logout", "conferd account logout --db D --username U",
		"End every login session of an account (the platform API has no logout; docs/api.md)."},
	{"account password", "conferd account password --db D --username U [--password-file F]",
		"Give an account a new password (F's first line, or a random one printed once); its sessions end and a lock after failed logins is lifted."},
	{"account unlock", "conferd account unlock --db D --username U",
		"Lift the lock that failed logins put on an account; its password stays."},
	{"terminal add", "conferd terminal add --db D --e164 N [--alias A] [--ip IP] [--behaviour answer|offline|busy|noanswer] [--answer-after 2s]",
		"Add or replace a terminal of the simulated media backend's directory: how it answers calls (docs/vc.md)."},
	{"terminal list", "conferd terminal list --db D", "List the terminal directory."},
	{"terminal remove", "conferd terminal remove --db D --account N", "Remove a terminal from the directory; it then answers as an unknown terminal."},
	{"terminal apply", "conferd terminal apply --db D --conf C --mt M --for chairman|speaker|mix",
		"Push a terminal's application for the floor, as a real terminal would (docs/push.md)."},
	{"conference pending", "conferd conference pending --db D", "List conferences awaiting approval (docs/amc.md)."},
	{"conference approve", "conferd conference approve --db D --conf-id N [--max-confs 100] [--max-ports 1000]",
		"Approve a pending conference: it starts, or is booked until its start time."},
	{"conference reject", "conferd conference reject --db D --conf-id N", "Reject a pending conference."},
	{"migrate", "conferd migrate --from DB --to DB [--force]",
		"Copy every row of one database into another, SQLite to PostgreSQL or back (docs/deployment.md)."},
	{"version", "conferd version", "Print the build's version and the platform releases it emulates."},
	{"help", "conferd help [command]", "Show this help, or a command's help and flags (also: conferd COMMAND --help)."},
}

// usage is the overview that `conferd help` and a bad command line print.
var usage = func() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %s\n", c.synopsis)
	}
	b.WriteString("\nRun 'conferd help COMMAND' or 'conferd COMMAND --help' for a command's flags.\n")
	return b.String()
}()

// commandUsage is the head of a command's help; the flag set prints its
// flags below it (newFlagSet).
func commandUsage(name string) string {
	for _, c := range commands {
		if c.name == name {
			return "usage: " + c.synopsis + "\n\n" + c.about + "\n\nflags:\n"
		}
	}
	return "usage: conferd " + name + " [flags]\n\nflags:\n"
}

// groupUsage lists the subcommands of a command group ("terminal").
func groupUsage(group string) (string, bool) {
	var b strings.Builder
	for _, c := range commands {
		if strings.HasPrefix(c.name, group+" ") {
			fmt.Fprintf(&b, "  %s\n      %s\n", c.synopsis, c.about)
		}
	}
	if b.Len() == 0 {
		return "", false
	}
	return "usage:\n" + b.String() + "\nRun 'conferd " + group + " SUBCOMMAND --help' for its flags.\n", true
}

// wantsHelp tells whether a command line asks for help: `help ...`, or
// -h, -help or --help anywhere before a "--".
func wantsHelp(args []string) bool {
	if len(args) > 0 && args[0] == "help" {
		return true
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// help prints the help a command line asks for, on stdout, and returns
// the exit status: 0, or 2 for an unknown command. A command's flags are
// printed by its own flag set, which the "-h" it is given makes stop
// before it does anything.
func help(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var words []string
	for i, a := range args {
		switch {
		case a == "help" && i == 0 || a == "-h" || a == "-help" || a == "--help":
		case strings.HasPrefix(a, "-") && len(words) == 0:
			words = []string{"serve"} // conferd --addr ... --help: serve's flags
		case !strings.HasPrefix(a, "-"):
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		fmt.Fprintf(stdout, "conferd %s: the Confer platform server.\n\n%s\n", buildVersion(), usage)
		var b strings.Builder
		serve(ctx, []string{"-h"}, &b, &b)
		_, flags, _ := strings.Cut(b.String(), "flags:\n")
		fmt.Fprintf(stdout, "flags of serve, the default command:\n%s", flags)
		return 0
	}
	name := words[0]
	if len(words) > 1 {
		name += " " + words[1]
	}
	for _, c := range commands {
		if c.name != name && c.name != words[0] {
			continue
		}
		switch c.name {
		case "version", "help":
			fmt.Fprint(stdout, commandUsage(c.name)+"  (none)\n")
			return 0
		}
		commandFunc(c.name)(ctx, []string{"-h"}, stdout, stdout)
		return 0
	}
	if g, ok := groupUsage(words[0]); ok {
		fmt.Fprint(stdout, g)
		return 0
	}
	fmt.Fprintf(stderr, "conferd: unknown command %q\n%s", strings.Join(words, " "), usage)
	return exitUsage
}

// commandFunc is the function that runs a command of the commands table.
func commandFunc(name string) func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	group, sub, _ := strings.Cut(name, " ")
	in := func(f func(context.Context, []string, io.Writer, io.Writer) int) func(context.Context, []string, io.Writer, io.Writer) int {
		return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			return f(ctx, append([]string{sub}, args...), stdout, stderr)
		}
	}
	switch group {
	case "license":
		return licenseImport
	case "account":
		switch sub {
		case "logout":
			return accountLogout
		case "password":
			return accountPassword
		case "unlock":
			return accountUnlock
		}
		return accountCreate
	case "terminal":
		return in(terminalCmd)
	case "conference":
		return in(conferenceCmd)
	case "migrate":
		return migrate
	}
	return serve
}
