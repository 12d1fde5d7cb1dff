package main

import (
	"strings"
	"testing"
	"time"
)

// TestCommandRunners runs the commands built on the runners (query,
// detail, change, prepared) that the other tests do not: their output,
// exit status, and whether the command line is checked before the
// profile is read.
func TestCommandRunners(t *testing.T) {
	c := newCLI(t)
	type step struct {
		args []string
		code int
		want string // in standard output, or in standard error when the code is not 0
	}
	check := func(conf string, steps []step) {
		t.Helper()
		for _, s := range steps {
			args := make([]string, len(s.args))
			for i, a := range s.args {
				args[i] = strings.ReplaceAll(a, "CONF", conf)
			}
			want := strings.ReplaceAll(s.want, "CONF", conf)
			r := c.run(args...)
			got := r.out
			if s.code != 0 {
				got = r.err
			}
			if r.code != s.code || !strings.Contains(got, want) {
				t.Errorf("confer %s = exit %d\nstdout: %s\nstderr: %s\nwant exit %d and %q", strings.Join(args, " "), r.code, r.out, r.err, s.code, want)
			}
			c.env.Advance(t, 3*time.Second) // called terminals answer
		}
	}
	// Not logged in: the commands that build their request first name the
	// wrong flag or argument, the others ask for a login.
	check("", []step{
		{[]string{"confs", "create"}, 2, "--name is required"},
		{[]string{"mts", "add", "1", "zz"}, 2, `cannot tell the account type of "zz"`},
		{[]string{"rooms", "create"}, 2, "--name is required"},
		{[]string{"poll", "start", "1", "2", "--mode", "zz"}, 2, `poll mode "zz"`},
		{[]string{"poll", "stop", "1", "--mode", "zz"}, 2, "no profile yet"},
		{[]string{"record", "stop", "1", "2", "--mode", "zz"}, 2, "no profile yet"},
		{[]string{"vmp", "show", "1"}, 2, "no profile yet"},
	})

	c.login()
	check(c.conference("Runners"), []step{
		{[]string{"mts", "add", "CONF", "10.0.0.2"}, 0, "MT_ID  ACCOUNT\n2      10.0.0.2\n"},
		{[]string{"mts", "mute", "CONF", "1", "2"}, 0, "Muted terminal(s) 1, 2 of conference CONF.\n"},
		{[]string{"mts", "mute", "CONF", "1", "--off"}, 0, "Unmuted terminal(s) 1 of conference CONF.\n"},
		{[]string{"mts", "hangup", "CONF", "2"}, 0, "Hung up terminal(s) 2 of conference CONF.\n"},
		{[]string{"mts", "drop", "CONF", "2", "--debug"}, 0, "Valid: the platform would accept this request"},
		{[]string{"mts", "drop", "CONF", "77"}, 1, "confer: error "},
		{[]string{"vmp", "show", "CONF"}, 1, "error 20823"},
		{[]string{"vmp", "start", "CONF"}, 0, "Started an automatic composition (layout 5) in conference CONF.\n"},
		{[]string{"vmp", "show", "CONF"}, 0, "layout         5\n"},
		{[]string{"vmp", "stop", "CONF"}, 0, "Stopped the composition of conference CONF.\n"},
		{[]string{"poll", "start", "CONF", "1", "--keep-time", "20"}, 0, "Polling 1 terminal(s) in conference CONF, 20 s each.\n"},
		{[]string{"poll", "show", "CONF", "--json"}, 0, `"keep_time": 20`},
		{[]string{"poll", "pause", "CONF"}, 0, "Paused the poll of conference CONF.\n"},
		{[]string{"poll", "stop", "CONF", "--mode", "bad"}, 2, `poll mode "bad"`},
		{[]string{"record", "start", "CONF", "--name", "gold"}, 0, `Recording "gold" started in conference CONF (rec_id 1).`},
		{[]string{"record", "list", "CONF"}, 0, "gold  conference  recording  record"},
		{[]string{"record", "stop", "CONF", "1"}, 0, "Stopped recording 1 of conference CONF.\n"},
		{[]string{"rooms", "create", "--name", "Huddle"}, 0, "Created room 7000000 (meeting id "},
		{[]string{"rooms", "list"}, 0, "7000000  Huddle"},
		{[]string{"rooms", "show", "7000000"}, 0, "Huddle"},
		{[]string{"rooms", "delete", "7000000"}, 0, "Deleted room 7000000.\n"},
		{[]string{"templates", "list"}, 0, "TEMPLATE_ID  NAME  BITRATE  MAX_JOIN_MT\n"},
		{[]string{"templates", "delete", "9999999"}, 1, "confer: error "},
		{[]string{"confs", "end", "CONF"}, 0, "Ended conference CONF.\n"},
	})
}
