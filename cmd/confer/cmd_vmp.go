package main

import (
	"flag"
	"fmt"

	"github.com/confer-platform/confer/sdk"
)

// vmpCommands are the commands on the picture composition of a conference.
func vmpCommands() []*command {
	return []*command{
		{
			name: "vmp start", args: "CONF_ID [MT_ID...]", min: 1, max: -1,
			summary: "Start a picture composition: automatic, or custom with the given terminals",
			example: "confer vmp start 1110000\nconfer vmp start 1110000 3 4 --layout 2",
			setup:   setupVMPStart,
		},
		{
			name: "vmp show", args: "CONF_ID", min: 1, max: 1, summary: "Show the picture composition of a conference",
			example: "confer vmp show 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				id := fs.String("vmp-id", "1", "composition `id`")
				return detail(func(a *app, c *sdk.Client, args []string) error {
					_, err := c.VCConfsVMPsGet(a.capture(), args[0], *id)
					return err
				})
			},
		},
		{
			name: "vmp stop", args: "CONF_ID", min: 1, max: 1, summary: "Stop the picture composition of a conference",
			example: "confer vmp stop 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				id := fs.String("vmp-id", "1", "composition `id`")
				return change(func(a *app, c *sdk.Client, args []string) error {
					return c.VCConfsVMPsDelete(a.capture(), args[0], *id)
				}, func(args []string) string {
					return fmt.Sprintf("Stopped the composition of conference %s.", args[0])
				})
			},
		},
	}
}

func setupVMPStart(fs *flag.FlagSet) runFunc {
	layout := fs.Int("layout", 0, "layout `style` (see docs/cli.md); default chosen by the number of terminals")
	broadcast := fs.Bool("broadcast", true, "broadcast the composition to the terminals")
	names := fs.Bool("names", true, "show the terminal names")
	voice := fs.Bool("voice-hint", false, "identify the sound source")
	build := func(args []string) (*sdk.VCConfsVMPsCreateRequest, error) {
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
		return req, nil
	}
	return prepared(build, func(req *sdk.VCConfsVMPsCreateRequest) runFunc {
		return change(func(a *app, c *sdk.Client, args []string) error {
			return c.VCConfsVMPsCreate(a.capture(), args[0], req)
		}, func(args []string) string {
			kind := "an automatic"
			if req.Mode == 1 {
				kind = "a custom"
			}
			return fmt.Sprintf("Started %s composition (layout %d) in conference %s.", kind, req.Layout, args[0])
		})
	})
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
