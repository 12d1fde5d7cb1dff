package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// Picture composition, polling and recording.
func init() {
	register(
		&command{
			name: "vmp start", args: "CONF_ID [MT_ID...]", min: 1, max: -1,
			summary: "Start a picture composition: automatic, or custom with the given terminals",
			example: "confer vmp start 1110000\nconfer vmp start 1110000 3 4 --layout 2",
			setup: func(fs *flag.FlagSet) runFunc {
				layout := fs.Int("layout", 0, "layout `style` (see docs/cli.md); default chosen by the number of terminals")
				broadcast := fs.Bool("broadcast", true, "broadcast the composition to the terminals")
				names := fs.Bool("names", true, "show the terminal names")
				voice := fs.Bool("voice-hint", false, "identify the sound source")
				return func(a *app, args []string) error {
					mts := args[1:]
					req := &sdk.VCConfsVMPsCreateRequest{Mode: 2, Layout: *layout, Broadcast: b2i(*broadcast), ShowMtName: b2i(*names),
						VoiceHint: b2i(*voice), Members: []sdk.VCConfsVMPsCreateRequestMember{}}
					if len(mts) > 0 {
						req.Mode = 1 // custom
						for i, mt := range mts {
							req.Members = append(req.Members, sdk.VCConfsVMPsCreateRequestMember{ChnIdx: i, MemberType: sdk.Int(1), MtID: sdk.String(mt)})
						}
					}
					if req.Layout == 0 {
						req.Layout = defaultLayout(len(mts))
					}
					c, err := a.connect()
					if err != nil {
						return err
					}
					if err := c.VCConfsVMPsCreate(a.capture(), args[0], req); err != nil {
						return err
					}
					kind := "an automatic"
					if req.Mode == 1 {
						kind = "a custom"
					}
					return a.done("Started %s composition (layout %d) in conference %s.", kind, req.Layout, args[0])
				}
			},
		},
		&command{
			name: "vmp show", args: "CONF_ID", min: 1, max: 1, summary: "Show the picture composition of a conference",
			example: "confer vmp show 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				id := fs.String("vmp-id", "1", "composition `id`")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if _, err := c.VCConfsVMPsGet(a.capture(), args[0], *id); err != nil {
						return err
					}
					return a.show(func() { a.keyValues(a.raw) })
				}
			},
		},
		&command{
			name: "vmp stop", args: "CONF_ID", min: 1, max: 1, summary: "Stop the picture composition of a conference",
			example: "confer vmp stop 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				id := fs.String("vmp-id", "1", "composition `id`")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if err := c.VCConfsVMPsDelete(a.capture(), args[0], *id); err != nil {
						return err
					}
					return a.done("Stopped the composition of conference %s.", args[0])
				}
			},
		},
		&command{
			name: "poll start", args: "CONF_ID MT_ID...", min: 2, max: -1, summary: "Poll terminals: broadcast each in turn",
			example: "confer poll start 1110000 3 4 5 --keep-time 20",
			setup: func(fs *flag.FlagSet) runFunc {
				keep := fs.Int("keep-time", 10, "`seconds` on each terminal")
				num := fs.Int("num", 0, "number of rounds, 0 for no end")
				mode := fs.String("mode", "video", "poll `mode`: video or av (audio and video)")
				return func(a *app, args []string) error {
					m, err := pollMode(*mode)
					if err != nil {
						return err
					}
					req := &sdk.VCConfsPollStartRequest{Mode: m, Num: *num, KeepTime: *keep}
					for _, mt := range args[1:] {
						req.Members = append(req.Members, sdk.VCConfsPollStartRequestMember{MtID: sdk.String(mt)})
					}
					c, err := a.connect()
					if err != nil {
						return err
					}
					if err := c.VCConfsPollStart(a.capture(), args[0], req); err != nil {
						return err
					}
					return a.done("Polling %d terminal(s) in conference %s, %d s each.", len(args)-1, args[0], *keep)
				}
			},
		},
		&command{
			name: "poll show", args: "CONF_ID", min: 1, max: 1, summary: "Show the poll of a conference",
			example: "confer poll show 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if _, err := c.VCConfsPollGet(a.capture(), args[0]); err != nil {
						return err
					}
					return a.show(func() { a.keyValues(a.raw) })
				}
			},
		},
		pollState("stop", 0, "Stop the poll of a conference", "Stopped"),
		pollState("pause", 1, "Pause the poll of a conference", "Paused"),
		pollState("resume", 2, "Resume the poll of a conference", "Resumed"),
		&command{
			name: "record start", args: "CONF_ID [MT_ID...]", min: 1, max: -1,
			summary: "Record a conference, or the given terminals",
			example: "confer record start 1110000 --name weekly-2026-03-01\nconfer record start 1110000 3 --name room-a --live",
			setup: func(fs *flag.FlagSet) runFunc {
				name := fs.String("name", "", "recording file `name` (default conference number and time)")
				vrs := fs.String("vrs", "", "recording server `id` (default the first of the user domain)")
				live := fs.Bool("live", false, "broadcast live as well")
				liveOnly := fs.Bool("live-only", false, "broadcast live without recording")
				publish := fs.Bool("publish", false, "publish the recording")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					req := &sdk.VCConfsRecordersCreateRequest{VideoName: *name, RecorderType: 1, PublishMode: b2i(*publish),
						RecorderMode: 1, MainStream: 1, VRSID: *vrs}
					if req.VideoName == "" {
						req.VideoName = args[0] + "-" + strings.NewReplacer(":", "", "-", "").Replace(timestamp())
					}
					switch {
					case *liveOnly:
						req.RecorderMode = 2
					case *live:
						req.RecorderMode = 3
					}
					if len(args) > 1 {
						req.RecorderType = 2
						for _, mt := range args[1:] {
							req.Members = append(req.Members, sdk.VCConfsRecordersCreateRequestMember{MtID: sdk.String(mt)})
						}
					}
					if req.VRSID == "" {
						if l, err := c.VCVRSList(a.ctx); err == nil {
							for _, v := range l.VRS {
								if v.VRSID != "" {
									req.VRSID = v.VRSID
									break
								}
							}
						}
					}
					r, err := c.VCConfsRecordersCreate(a.capture(), args[0], req)
					if err != nil {
						return err
					}
					id := ""
					if r != nil {
						id = r.RecID
					}
					return a.done("Recording %q started in conference %s (rec_id %s).", req.VideoName, args[0], id)
				}
			},
		},
		&command{
			name: "record list", args: "CONF_ID", min: 1, max: 1, summary: "List the recordings of a conference",
			example: "confer record list 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					r, err := c.VCConfsRecordersList(a.capture(), args[0])
					if err != nil {
						return err
					}
					return a.show(func() {
						rows := [][]string{}
						for _, rc := range r.Recorders {
							rows = append(rows, []string{rc.RecID, rc.VideoName, recType(rc.RecorderType), recState(rc.State), recMode(rc.RecorderMode), fmt.Sprintf("%ds", rc.CurrentProgress)})
						}
						a.table([]string{"REC_ID", "NAME", "TYPE", "STATE", "MODE", "PROGRESS"}, rows)
					})
				}
			},
		},
		&command{
			name: "record stop", args: "CONF_ID REC_ID", min: 2, max: 2, summary: "Stop a recording",
			example: "confer record stop 1110000 1",
			setup: func(fs *flag.FlagSet) runFunc {
				mode := fs.String("mode", "", "what to stop: record, live or both (default what the recording does)")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					m := map[string]int{"record": 1, "live": 2, "both": 3}[*mode]
					if *mode != "" && m == 0 {
						return usagef("--mode %q: want record, live or both", *mode)
					}
					if m == 0 {
						m = 1
						if r, err := c.VCConfsRecordersGet(a.ctx, args[0], args[1]); err == nil && r.RecorderMode != 0 {
							m = r.RecorderMode
						}
					}
					if err := c.VCConfsRecordersDelete(a.capture(), args[0], args[1], &sdk.VCConfsRecordersDeleteRequest{RecorderMode: m}); err != nil {
						return err
					}
					return a.done("Stopped recording %s of conference %s.", args[1], args[0])
				}
			},
		},
	)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// defaultLayout picks a composition layout for n pictures (reference A2):
// 1 one picture, 2 two equal, 4 three, 5 four, 6 five, 7 six; automatic
// compositions (n 0) get 5.
func defaultLayout(n int) int {
	switch {
	case n == 1:
		return 1
	case n == 2:
		return 2
	case n == 3:
		return 4
	case n == 0 || n == 4:
		return 5
	case n == 5:
		return 6
	}
	return 7
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

func pollState(verb string, value int, summary, past string) *command {
	return &command{
		name: "poll " + verb, args: "CONF_ID", min: 1, max: 1, summary: summary,
		example: "confer poll " + verb + " 1110000",
		setup: func(fs *flag.FlagSet) runFunc {
			mode := fs.String("mode", "", "poll `mode`: video or av (default the running poll's)")
			return func(a *app, args []string) error {
				c, err := a.connect()
				if err != nil {
					return err
				}
				m := 0
				if *mode != "" {
					if m, err = pollMode(*mode); err != nil {
						return err
					}
				} else if p, err := c.VCConfsPollGet(a.ctx, args[0]); err == nil && (p.Mode == 1 || p.Mode == 3) {
					m = p.Mode
				} else {
					m = 1
				}
				if err := c.VCConfsPollStateUpdate(a.capture(), args[0], &sdk.VCConfsPollStateUpdateRequest{Value: value, Mode: m}); err != nil {
					return err
				}
				return a.done("%s the poll of conference %s.", past, args[0])
			}
		},
	}
}

func recType(t int) string {
	switch t {
	case 1:
		return "conference"
	case 2:
		return "terminals"
	}
	return itoa(t)
}

func recState(s int) string {
	switch s {
	case 0:
		return "stopped"
	case 1:
		return "recording"
	case 2:
		return "paused"
	case 3:
		return "calling"
	case 4:
		return "preparing"
	}
	return itoa(s)
}

func recMode(m int) string {
	switch m {
	case 1:
		return "record"
	case 2:
		return "live"
	case 3:
		return "record+live"
	}
	return itoa(m)
}
