package main

import (
	"context"
	"flag"

	"github.com/confer-platform/confer/sdk"
)

// The runners of the commands that talk to the platform. Each connects
// (profile and cached session), makes its request through the SDK, then
// prints: the reply (query, detail) or a done-message (change).

// call is a command's request, made on the connected client with the
// command's positional arguments; R is the reply.
type call[R any] func(a *app, c *sdk.Client, args []string) (R, error)

// action is a request whose reply the command does not print.
type action func(a *app, c *sdk.Client, args []string) error

// request returns the runner that connects, calls do and prints its reply
// with out.
func request[R any](do call[R], out func(a *app, args []string, r R) error) runFunc {
	return func(a *app, args []string) error {
		c, err := a.connect()
		if err != nil {
			return err
		}
		r, err := do(a, c, args)
		if err != nil {
			return err
		}
		return out(a, args, r)
	}
}

// query returns the runner of a command that reads: the reply as sent with
// --json, else the table.
func query[R any](do call[R], table func(a *app, args []string, r R)) runFunc {
	return request(do, func(a *app, args []string, r R) error {
		return a.show(func() { table(a, args, r) })
	})
}

// detail returns the runner of a command that shows one record: the
// members of the reply as a two-column table (see keyValues), or the
// reply with --json.
func detail(do action) runFunc {
	return query(asCall(do), func(a *app, _ []string, _ struct{}) { a.keyValues(a.raw) })
}

// change returns the runner of a command that changes something: msg
// words the outcome from the arguments (see app.done for --json and
// --debug).
func change(do action, msg func(args []string) string) runFunc {
	return request(asCall(do), func(a *app, args []string, _ struct{}) error {
		return a.done("%s", msg(args))
	})
}

// prepared returns a runner that builds the request from the command line
// first (a wrong command line is told before the profile is read), then
// runs the runner made for it.
func prepared[Q any](build func(args []string) (Q, error), run func(req Q) runFunc) runFunc {
	return func(a *app, args []string) error {
		req, err := build(args)
		if err != nil {
			return err
		}
		return run(req)(a, args)
	}
}

// byID is the call of an SDK method that takes the first argument (a
// conference, room or template id).
func byID[R any](method func(*sdk.Client, context.Context, string) (R, error)) call[R] {
	return func(a *app, c *sdk.Client, args []string) (R, error) {
		return method(c, a.capture(), args[0])
	}
}

// ignore makes an action of a call whose reply is not printed.
func ignore[R any](do call[R]) action {
	return func(a *app, c *sdk.Client, args []string) error {
		_, err := do(a, c, args)
		return err
	}
}

// asCall makes a call, with an empty reply, of an action.
func asCall(do action) call[struct{}] {
	return func(a *app, c *sdk.Client, args []string) (struct{}, error) {
		return struct{}{}, do(a, c, args)
	}
}

// noFlags is the setup of a command without flags of its own.
func noFlags(run runFunc) func(*flag.FlagSet) runFunc {
	return func(*flag.FlagSet) runFunc { return run }
}

// rowsOf makes a table row of each item.
func rowsOf[T any](items []T, row func(T) []string) [][]string {
	rows := [][]string{}
	for _, x := range items {
		rows = append(rows, row(x))
	}
	return rows
}

// each maps the arguments (terminal ids) to the items of a request.
func each[T any](ids []string, item func(id string) T) []T {
	var out []T
	for _, id := range ids {
		out = append(out, item(id))
	}
	return out
}
