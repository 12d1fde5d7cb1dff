package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// Conferences, terminals, speaker and chairman.
func init() {
	register(
		&command{
			name: "confs list", summary: "List the running conferences",
			example: "confer confs list\nconfer confs list --json | jq -r '.confs[].conf_id'",
			setup: func(fs *flag.FlagSet) runFunc {
				start := fs.Int("start", 0, "index of the first conference")
				count := fs.Int("count", 0, "number of conferences, 0 for all")
				own := fs.Bool("own", false, "only the conferences related to me (API-Level 2 and later)")
				return func(a *app, _ []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					req := &sdk.VCConfsListRequest{Start: sdk.Int(*start), Count: sdk.Int(*count)}
					if *own {
						req.OwnConf = sdk.Int(1)
					}
					r, err := c.VCConfsList(a.capture(), req)
					if err != nil {
						return err
					}
					return a.show(func() {
						rows := [][]string{}
						for _, cf := range r.Confs {
							rows = append(rows, []string{cf.ConfID, cf.Name, cf.StartTime, durationText(cf.Duration), itoa(cf.Bitrate), itoa(cf.MaxJoinMt)})
						}
						a.table([]string{"CONF_ID", "NAME", "START_TIME", "DURATION", "BITRATE", "MAX_JOIN_MT"}, rows)
					})
				}
			},
		},
		&command{
			name: "confs show", args: "CONF_ID", min: 1, max: 1, summary: "Show the details of a conference",
			example: "confer confs show 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if _, err := c.VCConfsGet(a.capture(), args[0]); err != nil {
						return err
					}
					return a.show(func() { a.keyValues(a.raw) })
				}
			},
		},
		&command{
			name: "confs create", summary: "Create (start) a conference, optionally calling terminals",
			example: `confer confs create --name "Weekly sync" --duration 60 --mt 10.0.0.21 --mt e164:1234567
confer confs create --template 5 --public-template
confer confs create --name Review --set max_join_mt=32 --set mute=1`,
			setup: setupConfsCreate,
		},
		&command{
			name: "confs end", args: "CONF_ID", min: 1, max: 1, summary: "End a conference",
			example: "confer confs end 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if _, err := c.MCConfsDelete(a.capture(), args[0]); err != nil {
						return err
					}
					return a.done("Ended conference %s.", args[0])
				}
			},
		},
	)
	registerMts()
	registerRole("speaker")
	registerRole("chairman")
}

func durationText(min int) string {
	if min == 0 {
		return "permanent"
	}
	return fmt.Sprintf("%dmin", min)
}

func setupConfsCreate(fs *flag.FlagSet) runFunc {
	name := fs.String("name", "", "conference `name` (required unless --template or --room)")
	duration := fs.Int("duration", 60, "duration in `minutes`, 0 for a permanent conference")
	bitrate := fs.Int("bitrate", 2048, "conference bitrate in `kbps`")
	var mts multi
	fs.Var(&mts, "mt", "invite a terminal (repeatable): an IP address, an E.164 number, alias@ip, or e164:/tel:/ip:/alias:/moid: `account`")
	protocol := fs.String("protocol", "h323", "call `protocol` of the invited terminals: h323 or sip")
	manual := fs.Bool("manual", false, "do not call the terminals automatically")
	maxJoin := fs.Int("max-join-mt", 0, "maximum joining terminals: 8, 32, 64 or 192 (default the platform's)")
	password := fs.String("password", "", "conference `password`")
	template := fs.String("template", "", "create from this personal template `id`")
	public := fs.Bool("public-template", false, "--template names a public template")
	room := fs.String("room", "", "create from this virtual meeting room `id`")
	var sets multi
	fs.Var(&sets, "set", "set any other parameter of mc.confs.create: `name=value` (repeatable; JSON values allowed)")
	return func(a *app, _ []string) error {
		explicit := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
		req := &sdk.MCConfsCreateRequest{}
		switch {
		case *template != "" && *room != "":
			return usagef("give --template or --room, not both")
		case *template != "":
			req.CreateType, req.TemplateID = sdk.Int(3), template
			if *public {
				req.CreateType = sdk.Int(2)
			}
		case *room != "":
			req.CreateType, req.TemplateID = sdk.Int(4), room
		case *name == "":
			return usagef("--name is required for an instant conference")
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
			return err
		}
		for _, m := range mts {
			t, acc, err := parseAccount(m)
			if err != nil {
				return err
			}
			req.InviteMembers = append(req.InviteMembers, sdk.MCConfsCreateRequestInviteMember{Name: acc, Account: acc, AccountType: t, Protocol: proto})
		}
		if err := applySets(req, sets); err != nil {
			return err
		}
		c, err := a.connect()
		if err != nil {
			return err
		}
		r, err := c.MCConfsCreate(a.capture(), req)
		if err != nil {
			return err
		}
		if r == nil || r.ConfID == "" {
			return a.done("Created the conference.")
		}
		return a.done("Created conference %s (meeting id %s).", r.ConfID, r.MeetingID)
	}
}

func registerMts() {
	register(
		&command{
			name: "mts list", args: "CONF_ID", min: 1, max: 1, summary: "List the terminals of a conference",
			example: "confer mts list 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					r, err := c.VCConfsMtsList(a.capture(), args[0])
					if err != nil {
						return err
					}
					return a.show(func() {
						rows := [][]string{}
						for _, mt := range r.Mts {
							rows = append(rows, []string{mt.MtID, mt.Alias, mt.E164, mt.IP, yesNo(mt.Online), yesNo(mt.Mute), yesNo(mt.Silence), itoa(mt.Bitrate)})
						}
						a.table([]string{"MT_ID", "ALIAS", "E164", "IP", "ONLINE", "MUTE", "SILENCE", "BITRATE"}, rows)
					})
				}
			},
		},
		&command{
			name: "mts add", args: "CONF_ID ACCOUNT...", min: 2, max: -1, summary: "Add terminals to a conference and call them",
			example: "confer mts add 1110000 10.0.0.21 e164:1234567 --protocol sip",
			setup: func(fs *flag.FlagSet) runFunc {
				bitrate := fs.Int("bitrate", 2048, "call bitrate in `kbps`")
				protocol := fs.String("protocol", "h323", "call `protocol`: h323 or sip")
				return func(a *app, args []string) error {
					proto, err := protocolValue(*protocol)
					if err != nil {
						return err
					}
					req := &sdk.VCConfsMtsAddRequest{}
					for _, s := range args[1:] {
						t, acc, err := parseAccount(s)
						if err != nil {
							return err
						}
						req.Mts = append(req.Mts, sdk.VCConfsMtsAddRequestMt{Account: acc, AccountType: t, Bitrate: *bitrate, Protocol: proto})
					}
					c, err := a.connect()
					if err != nil {
						return err
					}
					r, err := c.VCConfsMtsAdd(a.capture(), args[0], req)
					if err != nil {
						return err
					}
					if a.g.json || a.g.debug || r == nil || len(r.Mts) == 0 {
						return a.done("Added %d terminal(s) to conference %s.", len(req.Mts), args[0])
					}
					rows := [][]string{}
					for _, mt := range r.Mts {
						rows = append(rows, []string{itoa(mt.MtID), mt.Account})
					}
					a.table([]string{"MT_ID", "ACCOUNT"}, rows)
					return nil
				}
			},
		},
		mtsChange("drop", "Remove terminals from a conference", "confer mts drop 1110000 3 4",
			func(a *app, c *sdk.Client, conf string, ids []string) error {
				req := &sdk.VCConfsMtsDeleteRequest{}
				for _, id := range ids {
					req.Mts = append(req.Mts, sdk.VCConfsMtsDeleteRequestMt{MtID: id})
				}
				return c.VCConfsMtsDelete(a.capture(), conf, req)
			}, "Removed"),
		mtsChange("call", "Call terminals of a conference again", "confer mts call 1110000 3",
			func(a *app, c *sdk.Client, conf string, ids []string) error {
				req := &sdk.VCConfsOnlineMtsCallRequest{}
				for _, id := range ids {
					req.Mts = append(req.Mts, sdk.VCConfsOnlineMtsCallRequestMt{MtID: id})
				}
				return c.VCConfsOnlineMtsCall(a.capture(), conf, req)
			}, "Calling"),
		mtsChange("hangup", "Hang up terminals of a conference (they stay in its list)", "confer mts hangup 1110000 3",
			func(a *app, c *sdk.Client, conf string, ids []string) error {
				req := &sdk.VCConfsOnlineMtsHangupRequest{}
				for _, id := range ids {
					req.Mts = append(req.Mts, sdk.VCConfsOnlineMtsHangupRequestMt{MtID: id})
				}
				return c.VCConfsOnlineMtsHangup(a.capture(), conf, req)
			}, "Hung up"),
		&command{
			name: "mts mute", args: "CONF_ID MT_ID...", min: 2, max: -1, summary: "Mute (or with --off unmute) the microphones of terminals",
			example: "confer mts mute 1110000 3\nconfer mts mute 1110000 3 --off",
			setup: func(fs *flag.FlagSet) runFunc {
				off := fs.Bool("off", false, "unmute")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					v := 1
					if *off {
						v = 0
					}
					for _, id := range args[1:] {
						if err := c.VCConfsMtsMuteUpdate(a.capture(), args[0], id, &sdk.VCConfsMtsMuteUpdateRequest{Value: v}); err != nil {
							return err
						}
					}
					verb := "Muted"
					if *off {
						verb = "Unmuted"
					}
					return a.done("%s terminal(s) %s of conference %s.", verb, strings.Join(args[1:], ", "), args[0])
				}
			},
		},
	)
}

// mtsChange is a command acting on terminals by mt_id.
func mtsChange(verb, summary, example string, call func(a *app, c *sdk.Client, conf string, ids []string) error, past string) *command {
	return &command{
		name: "mts " + verb, args: "CONF_ID MT_ID...", min: 2, max: -1, summary: summary, example: example,
		setup: func(fs *flag.FlagSet) runFunc {
			return func(a *app, args []string) error {
				c, err := a.connect()
				if err != nil {
					return err
				}
				if err := call(a, c, args[0], args[1:]); err != nil {
					return err
				}
				return a.done("%s terminal(s) %s of conference %s.", past, strings.Join(args[1:], ", "), args[0])
			}
		},
	}
}

// registerRole adds the show, set and clear commands of the speaker or
// the chairman.
func registerRole(role string) {
	get := func(a *app, c *sdk.Client, conf string) (string, error) {
		if role == "speaker" {
			r, err := c.VCConfsSpeakerGet(a.capture(), conf)
			if err != nil {
				return "", err
			}
			return r.MtID, nil
		}
		r, err := c.VCConfsChairmanGet(a.capture(), conf)
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
	register(
		&command{
			name: role + " show", args: "CONF_ID", min: 1, max: 1, summary: "Show the " + role + " of a conference",
			example: "confer " + role + " show 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					mt, err := get(a, c, args[0])
					if err != nil {
						return err
					}
					return a.show(func() {
						if mt == "" {
							fmt.Fprintf(a.out, "Conference %s has no %s.\n", args[0], role)
							return
						}
						a.table([]string{"CONF_ID", strings.ToUpper(role)}, [][]string{{args[0], mt}})
					})
				}
			},
		},
		&command{
			name: role + " set", args: "CONF_ID MT_ID", min: 2, max: 2, summary: "Make an online terminal the " + role,
			example: "confer " + role + " set 1110000 3",
			setup: func(fs *flag.FlagSet) runFunc {
				var force *bool
				if role == "speaker" {
					force = fs.Bool("force-broadcast", false, "force the broadcast of the speaker (API-Level 2 and later)")
				}
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					var fb *int
					if force != nil && *force {
						fb = sdk.Int(1)
					}
					if err := set(a, c, args[0], args[1], fb); err != nil {
						return err
					}
					return a.done("Terminal %s is the %s of conference %s.", args[1], role, args[0])
				}
			},
		},
		&command{
			name: role + " clear", args: "CONF_ID", min: 1, max: 1, summary: "Cancel the " + role + " of a conference",
			example: "confer " + role + " clear 1110000",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if err := set(a, c, args[0], "", nil); err != nil {
						return err
					}
					return a.done("Conference %s has no %s now.", args[0], role)
				}
			},
		},
	)
}
