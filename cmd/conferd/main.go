// Command conferd is the Confer platform server.
//
//	conferd [serve] [--addr :8080] [--db confer-data/confer.db] [--release 6.1.0.4.0]
//	conferd license import --db D --key K --secret S
//	conferd account create --db D --username U --password P [--domain NAME] [--admin]
//	conferd account logout --db D --username U
//	conferd terminal add|list|remove|apply --db D ...
//	conferd conference pending|approve|reject --db D [--conf-id N]
//	conferd migrate --from DB --to DB [--force]
//	conferd version
//	conferd help [command]
//
// See README.md and docs/operations.md.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitUsage is the exit status for bad flags, an unknown release or an
// unreachable database.
const exitUsage = 2

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if wantsHelp(args) { // help.go
		return help(ctx, args, stdout, stderr)
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") { // as `conferd version`
		return printVersion(stdout)
	}
	if len(args) == 0 || len(args[0]) > 0 && args[0][0] == '-' {
		return serve(ctx, args, stdout, stderr)
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stdout, stderr)
	case "license":
		if len(args) > 1 && args[1] == "import" {
			return licenseImport(ctx, args[2:], stdout, stderr)
		}
	case "account":
		if len(args) > 1 && args[1] == "create" {
			return accountCreate(ctx, args[2:], stdout, stderr)
		}
		if len(args) > 1 && args[1] == "logout" {
			return accountLogout(ctx, args[2:], stdout, stderr) // logout.go
		}
		if len(args) > 1 && args[1] == "password" {
			return accountPassword(ctx, args[2:], stdout, stderr) // account_access.go
		}
		if len(args) > 1 && args[1] == "unlock" {
			return accountUnlock(ctx, args[2:], stdout, stderr)
		}
	case "conference":
		return conferenceCmd(ctx, args[1:], stdout, stderr)
	case "terminal":
		return terminalCmd(ctx, args[1:], stdout, stderr)
	case "migrate":
		return migrate(ctx, args[1:], stdout, stderr)
	case "version": // version.go
		return printVersion(stdout)
	}
	if g, ok := groupUsage(args[0]); ok { // help.go
		if len(args) == 1 {
			fmt.Fprintf(stderr, "conferd: %s needs a subcommand\n%s", args[0], g)
		} else {
			fmt.Fprintf(stderr, "conferd: unknown %s command %q\n%s", args[0], args[1], g)
		}
		return exitUsage
	}
	fmt.Fprintf(stderr, "conferd: unknown command %q\n%s", args[0], usage)
	return exitUsage
}
