package main

import (
	"flag"
	"fmt"

	"github.com/confer-platform/confer/sdk"
)

// confsCommands are the commands on running conferences.
func confsCommands() []*command {
	return []*command{
		{
			name: "confs list", summary: "List the running conferences",
			example: "confer confs list\nconfer confs list --json | jq -r '.confs[].conf_id'",
			setup: func(fs *flag.FlagSet) runFunc {
				start := fs.Int("start", 0, "index of the first conference")
				count := fs.Int("count", 0, "number of conferences, 0 for all")
				own := fs.Bool("own", false, "only the conferences related to me (API-Level 2 and later)")
				return query(func(a *app, c *sdk.Client, _ []string) (*sdk.VCConfsListReply, error) {
					req := &sdk.VCConfsListRequest{Start: sdk.Int(*start), Count: sdk.Int(*count)}
					if *own {
						req.OwnConf = sdk.Int(1)
					}
					return c.VCConfsList(a.capture(), req)
				}, func(a *app, _ []string, r *sdk.VCConfsListReply) {
					a.table([]string{"CONF_ID", "NAME", "START_TIME", "DURATION", "BITRATE", "MAX_JOIN_MT"},
						rowsOf(r.Confs, func(cf sdk.VCConfsListReplyConf) []string {
							return []string{cf.ConfID, cf.Name, cf.StartTime, durationText(cf.Duration), itoa(cf.Bitrate), itoa(cf.MaxJoinMt)}
						}))
				})
			},
		},
		{
			name: "confs show", args: "CONF_ID", min: 1, max: 1, summary: "Show the details of a conference",
			example: "confer confs show 1110000",
			setup:   noFlags(detail(ignore(byID((*sdk.Client).VCConfsGet)))),
		},
		{
			name: "confs create", summary: "Create (start) a conference, optionally calling terminals",
			example: `confer confs create --name "Weekly sync" --duration 60 --mt 10.0.0.21 --mt e164:1234567
confer confs create --template 5 --public-template
confer confs create --name Review --set max_join_mt=32 --set mute=1`,
			setup: setupConfsCreate,
		},
		{
			name: "confs end", args: "CONF_ID", min: 1, max: 1, summary: "End a conference",
			example: "confer confs end 1110000",
			setup: noFlags(change(ignore(byID((*sdk.Client).MCConfsDelete)), func(args []string) string {
				return fmt.Sprintf("Ended conference %s.", args[0])
			})),
		},
	}
}

func durationText(min int) string {
	if min == 0 {
		return "permanent"
	}
	return fmt.Sprintf("%dmin", min)
}

func setupConfsCreate(fs *flag.FlagSet) runFunc {
	name := fs.String("name", "", "conference `name` (required unless --template or --room)")
	duration := fs.Int("duration", 0, "duration in `minutes`; 0 (the default, as the API's) keeps the conference until it is ended")
	bitrate := fs.Int("bitrate", 2048, "conference bitrate in `kbps`")
	var mts multi
	fs.Var(&mts, "mt", "invite a terminal (repeatable): an IP address, an E.164 number, alias@ip, or e164:/tel:/ip:/alias:/moid: `account`")
	protocol := fs.String("protocol", "sip", "call `protocol` of the invited terminals: sip or h323 (H.323 is answered by simulated terminals only)")
	manual := fs.Bool("manual", false, "do not call the terminals automatically")
	maxJoin := fs.Int("max-join-mt", 0, "maximum joining terminals: 8, 32, 64 or 192 (default the platform's)")
	password := fs.String("password", "", "conference `password`")
	template := fs.String("template", "", "create from this personal template `id`")
	public := fs.Bool("public-template", false, "--template names a public template")
	room := fs.String("room", "", "create from this virtual meeting room `id`")
	var sets multi
	fs.Var(&sets, "set", "set any other parameter of mc.confs.create: `name=value` (repeatable; JSON values allowed)")
	build := func([]string) (*sdk.MCConfsCreateRequest, error) {
		explicit := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
		req := &sdk.MCConfsCreateRequest{}
		switch {
		case *template != "" && *room != "":
			return nil, usagef("give --template or --room, not both")
		case *template != "":
			req.CreateType, req.TemplateID = sdk.Int(3), template
			if *public {
				req.CreateType = sdk.Int(2)
			}
		case *room != "":
			req.CreateType, req.TemplateID = sdk.Int(4), room
		case *name == "":
			return nil, usagef("--name is required for an instant conference")
		default:
			req.CreateType = sdk.Int(1)
		}
		instant := *template == "" && *room == ""
		if *name != "" {
			req.Name = name
		}
		if instant || explicit["duration"] {
			req.Duration = sdk.Int(*duration)
		}
		if instant || explicit["bitrate"] {
			req.Bitrate = sdk.Int(*bitrate)
		}
		if instant || explicit["manual"] {
			req.CallMode = sdk.Int(2)
			if *manual {
				req.CallMode = sdk.Int(0)
			}
		}
		if *maxJoin > 0 {
			req.MaxJoinMt = sdk.Int(*maxJoin)
		}
		if *password != "" {
			req.Password = password
		}
		proto, err := protocolValue(*protocol)
		if err != nil {
			return nil, err
		}
		for _, m := range mts {
			t, acc, err := parseAccount(m)
			if err != nil {
				return nil, err
			}
			req.InviteMembers = append(req.InviteMembers, sdk.MCConfsCreateRequestInviteMember{Name: acc, Account: acc, AccountType: t, Protocol: proto})
		}
		if err := applySets(req, sets); err != nil {
			return nil, err
		}
		return req, nil
	}
	return prepared(build, func(req *sdk.MCConfsCreateRequest) runFunc {
		return request(func(a *app, c *sdk.Client, _ []string) (*sdk.MCConfsCreateReply, error) {
			return c.MCConfsCreate(a.capture(), req)
		}, func(a *app, _ []string, r *sdk.MCConfsCreateReply) error {
			if r == nil || r.ConfID == "" {
				return a.done("Created the conference.")
			}
			return a.done("Created conference %s (meeting id %s).", r.ConfID, r.MeetingID)
		})
	})
}
