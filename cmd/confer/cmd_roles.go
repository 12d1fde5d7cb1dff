package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// roleCommands are the show, set and clear commands of the speaker or the
// chairman.
func roleCommands(role string) []*command {
	get := func(a *app, c *sdk.Client, args []string) (string, error) {
		if role == "speaker" {
			r, err := c.VCConfsSpeakerGet(a.capture(), args[0])
			if err != nil {
				return "", err
			}
			return r.MtID, nil
		}
		r, err := c.VCConfsChairmanGet(a.capture(), args[0])
		if err != nil {
			return "", err
		}
		return r.MtID, nil
	}
	set := func(a *app, c *sdk.Client, conf, mt string, force *int) error {
		if role == "speaker" {
			return c.VCConfsSpeakerUpdate(a.capture(), conf, &sdk.VCConfsSpeakerUpdateRequest{MtID: mt, ForceBroadcast: force})
		}
		return c.VCConfsChairmanUpdate(a.capture(), conf, &sdk.VCConfsChairmanUpdateRequest{MtID: mt})
	}
	return []*command{
		{
			name: role + " show", args: "CONF_ID", min: 1, max: 1, summary: "Show the " + role + " of a conference",
			example: "confer " + role + " show 1110000",
			setup: noFlags(query(get, func(a *app, args []string, mt string) {
				if mt == "" {
					fmt.Fprintf(a.out, "Conference %s has no %s.\n", args[0], role)
					return
				}
				a.table([]string{"CONF_ID", strings.ToUpper(role)}, [][]string{{args[0], mt}})
			})),
		},
		{
			name: role + " set", args: "CONF_ID MT_ID", min: 2, max: 2, summary: "Make an online terminal the " + role,
			example: "confer " + role + " set 1110000 3",
			setup: func(fs *flag.FlagSet) runFunc {
				var force *bool
				if role == "speaker" {
					force = fs.Bool("force-broadcast", false, "force the broadcast of the speaker (API-Level 2 and later)")
				}
				return change(func(a *app, c *sdk.Client, args []string) error {
					var fb *int
					if force != nil && *force {
						fb = sdk.Int(1)
					}
					return set(a, c, args[0], args[1], fb)
				}, func(args []string) string {
					return fmt.Sprintf("Terminal %s is the %s of conference %s.", args[1], role, args[0])
				})
			},
		},
		{
			name: role + " clear", args: "CONF_ID", min: 1, max: 1, summary: "Cancel the " + role + " of a conference",
			example: "confer " + role + " clear 1110000",
			setup: noFlags(change(func(a *app, c *sdk.Client, args []string) error {
				return set(a, c, args[0], "", nil)
			}, func(args []string) string {
				return fmt.Sprintf("Conference %s has no %s now.", args[0], role)
			})),
		},
	}
}
