package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/confer-platform/confer/sdk"
)

// recordCommands are the commands on the recordings of a conference.
func recordCommands() []*command {
	return []*command{
		{
			name: "record start", args: "CONF_ID [MT_ID...]", min: 1, max: -1,
			summary: "Record a conference, or the given terminals",
			example: "confer record start 1110000 --name weekly-2026-03-01\nconfer record start 1110000 3 --name room-a --live",
			setup:   setupRecordStart,
		},
		{
			name: "record list", args: "CONF_ID", min: 1, max: 1, summary: "List the recordings of a conference",
			example: "confer record list 1110000",
			setup: noFlags(query(byID((*sdk.Client).VCConfsRecordersList), func(a *app, _ []string, r *sdk.VCConfsRecordersListReply) {
				a.table([]string{"REC_ID", "NAME", "TYPE", "STATE", "MODE", "PROGRESS"},
					rowsOf(r.Recorders, func(rc sdk.VCConfsRecordersListReplyRecorder) []string {
						return []string{rc.RecID, rc.VideoName, enumText(recTypes, rc.RecorderType), enumText(recStates, rc.State), enumText(recModes, rc.RecorderMode), fmt.Sprintf("%ds", rc.CurrentProgress)}
					}))
			})),
		},
		{
			name: "record stop", args: "CONF_ID REC_ID", min: 2, max: 2, summary: "Stop a recording",
			example: "confer record stop 1110000 1",
			setup: func(fs *flag.FlagSet) runFunc {
				mode := fs.String("mode", "", "what to stop: record, live or both (default what the recording does)")
				return change(func(a *app, c *sdk.Client, args []string) error {
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
					return c.VCConfsRecordersDelete(a.capture(), args[0], args[1], &sdk.VCConfsRecordersDeleteRequest{RecorderMode: m})
				}, func(args []string) string {
					return fmt.Sprintf("Stopped recording %s of conference %s.", args[1], args[0])
				})
			},
		},
	}
}

func setupRecordStart(fs *flag.FlagSet) runFunc {
	name := fs.String("name", "", "recording file `name` (default conference number and time)")
	vrs := fs.String("vrs", "", "recording server `id` (default the first of the user domain)")
	live := fs.Bool("live", false, "broadcast live as well")
	liveOnly := fs.Bool("live-only", false, "broadcast live without recording")
	publish := fs.Bool("publish", false, "publish the recording")
	build := func(args []string) (*sdk.VCConfsRecordersCreateRequest, error) {
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
			req.Members = each(args[1:], func(mt string) sdk.VCConfsRecordersCreateRequestMember {
				return sdk.VCConfsRecordersCreateRequestMember{MtID: sdk.String(mt)}
			})
		}
		return req, nil
	}
	return prepared(build, func(req *sdk.VCConfsRecordersCreateRequest) runFunc {
		return request(func(a *app, c *sdk.Client, args []string) (*sdk.VCConfsRecordersCreateReply, error) {
			if req.VRSID == "" {
				req.VRSID = firstVRS(a, c)
			}
			return c.VCConfsRecordersCreate(a.capture(), args[0], req)
		}, func(a *app, args []string, r *sdk.VCConfsRecordersCreateReply) error {
			id := ""
			if r != nil {
				id = r.RecID
			}
			return a.done("Recording %q started in conference %s (rec_id %s).", req.VideoName, args[0], id)
		})
	})
}

func timestamp() string { return time.Now().Format("20060102T150405") }

// firstVRS is the first recording server of the user domain (vc.vrs.list),
// or "" when there is none or the list fails.
func firstVRS(a *app, c *sdk.Client) string {
	if l, err := c.VCVRSList(a.ctx); err == nil {
		for _, v := range l.VRS {
			if v.VRSID != "" {
				return v.VRSID
			}
		}
	}
	return ""
}

// Names of the recording enumerations (reference 05, items 48-52: recorder
// type, state, recorder mode).
var (
	recTypes  = map[int]string{1: "conference", 2: "terminals"}
	recStates = map[int]string{0: "stopped", 1: "recording", 2: "paused", 3: "calling", 4: "preparing"}
	recModes  = map[int]string{1: "record", 2: "live", 3: "record+live"}
)

// enumText names an enumeration value, or writes its number when unknown.
func enumText(names map[int]string, v int) string {
	if s, ok := names[v]; ok {
		return s
	}
	return itoa(v)
}
