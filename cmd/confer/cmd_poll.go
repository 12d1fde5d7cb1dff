package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// pollCommands are the commands on the polling of a conference.
func pollCommands() []*command {
	return []*command{
		{
			name: "poll start", args: "CONF_ID MT_ID...", min: 2, max: -1, summary: "Poll terminals: broadcast each in turn",
			example: "confer poll start 1110000 3 4 5 --keep-time 20",
			setup:   setupPollStart,
		},
		{
			name: "poll show", args: "CONF_ID", min: 1, max: 1, summary: "Show the poll of a conference",
			example: "confer poll show 1110000",
			setup:   noFlags(detail(ignore(byID((*sdk.Client).VCConfsPollGet)))),
		},
		pollState("stop", 0, "Stop the poll of a conference", "Stopped"),
		pollState("pause", 1, "Pause the poll of a conference", "Paused"),
		pollState("resume", 2, "Resume the poll of a conference", "Resumed"),
	}
}

func setupPollStart(fs *flag.FlagSet) runFunc {
	keep := fs.Int("keep-time", 10, "`seconds` on each terminal")
	num := fs.Int("num", 0, "number of rounds, 0 for no end")
	mode := fs.String("mode", "video", "poll `mode`: video or av (audio and video)")
	build := func(args []string) (*sdk.VCConfsPollStartRequest, error) {
		m, err := pollMode(*mode)
		if err != nil {
			return nil, err
		}
		members := each(args[1:], func(mt string) sdk.VCConfsPollStartRequestMember {
			return sdk.VCConfsPollStartRequestMember{MtID: sdk.String(mt)}
		})
		return &sdk.VCConfsPollStartRequest{Mode: m, Num: *num, KeepTime: *keep, Members: members}, nil
	}
	return prepared(build, func(req *sdk.VCConfsPollStartRequest) runFunc {
		return change(func(a *app, c *sdk.Client, args []string) error {
			return c.VCConfsPollStart(a.capture(), args[0], req)
		}, func(args []string) string {
			return fmt.Sprintf("Polling %d terminal(s) in conference %s, %d s each.", len(args)-1, args[0], *keep)
		})
	})
}

func pollMode(s string) (int, error) {
	switch strings.ToLower(s) {
	case "video", "1":
		return 1, nil
	case "av", "audio-video", "3":
		return 3, nil
	}
	return 0, usagef("poll mode %q: want video or av", s)
}

// pollState is the command that sets the state of the poll to value
// (vc.confs.poll.state.update), in the mode given or else the running
// poll's.
func pollState(verb string, value int, summary, past string) *command {
	return &command{
		name: "poll " + verb, args: "CONF_ID", min: 1, max: 1, summary: summary,
		example: "confer poll " + verb + " 1110000",
		setup: func(fs *flag.FlagSet) runFunc {
			mode := fs.String("mode", "", "poll `mode`: video or av (default the running poll's)")
			return change(func(a *app, c *sdk.Client, args []string) error {
				m := 1
				if *mode != "" {
					var err error
					if m, err = pollMode(*mode); err != nil {
						return err
					}
				} else if p, err := c.VCConfsPollGet(a.ctx, args[0]); err == nil && (p.Mode == 1 || p.Mode == 3) {
					m = p.Mode
				}
				return c.VCConfsPollStateUpdate(a.capture(), args[0], &sdk.VCConfsPollStateUpdateRequest{Value: value, Mode: m})
			}, func(args []string) string {
				return fmt.Sprintf("%s the poll of conference %s.", past, args[0])
			})
		},
	}
}
