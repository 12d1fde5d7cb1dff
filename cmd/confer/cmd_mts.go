package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// mtsCommands are the commands on the terminals of a conference.
func mtsCommands() []*command {
	return []*command{
		{
			name: "mts list", args: "CONF_ID", min: 1, max: 1, summary: "List the terminals of a conference",
			example: "confer mts list 1110000",
			setup: noFlags(query(byID((*sdk.Client).VCConfsMtsList), func(a *app, _ []string, r *sdk.VCConfsMtsListReply) {
				a.table([]string{"MT_ID", "ALIAS", "E164", "IP", "ONLINE", "MUTE", "SILENCE", "BITRATE"},
					rowsOf(r.Mts, func(mt sdk.VCConfsMtsListReplyMt) []string {
						return []string{mt.MtID, mt.Alias, mt.E164, mt.IP, yesNo(mt.Online), yesNo(mt.Mute), yesNo(mt.Silence), itoa(mt.Bitrate)}
					}))
			})),
		},
		{
			name: "mts add", args: "CONF_ID ACCOUNT...", min: 2, max: -1, summary: "Add terminals to a conference and call them",
			example: "confer mts add 1110000 10.0.0.21 e164:1234567 --protocol sip",
			setup:   setupMtsAdd,
		},
		mtsChange("drop", "Remove terminals from a conference", "confer mts drop 1110000 3 4",
			func(a *app, c *sdk.Client, conf string, ids []string) error {
				mts := each(ids, func(id string) sdk.VCConfsMtsDeleteRequestMt {
					return sdk.VCConfsMtsDeleteRequestMt{MtID: id}
				})
				return c.VCConfsMtsDelete(a.capture(), conf, &sdk.VCConfsMtsDeleteRequest{Mts: mts})
			}, "Removed"),
		mtsChange("call", "Call terminals of a conference again", "confer mts call 1110000 3",
			func(a *app, c *sdk.Client, conf string, ids []string) error {
				mts := each(ids, func(id string) sdk.VCConfsOnlineMtsCallRequestMt {
					return sdk.VCConfsOnlineMtsCallRequestMt{MtID: id}
				})
				return c.VCConfsOnlineMtsCall(a.capture(), conf, &sdk.VCConfsOnlineMtsCallRequest{Mts: mts})
			}, "Calling"),
		mtsChange("hangup", "Hang up terminals of a conference (they stay in its list)", "confer mts hangup 1110000 3",
			func(a *app, c *sdk.Client, conf string, ids []string) error {
				mts := each(ids, func(id string) sdk.VCConfsOnlineMtsHangupRequestMt {
					return sdk.VCConfsOnlineMtsHangupRequestMt{MtID: id}
				})
				return c.VCConfsOnlineMtsHangup(a.capture(), conf, &sdk.VCConfsOnlineMtsHangupRequest{Mts: mts})
			}, "Hung up"),
		{
			name: "mts mute", args: "CONF_ID MT_ID...", min: 2, max: -1, summary: "Mute (or with --off unmute) the microphones of terminals",
			example: "confer mts mute 1110000 3\nconfer mts mute 1110000 3 --off",
			setup: func(fs *flag.FlagSet) runFunc {
				off := fs.Bool("off", false, "unmute")
				return change(func(a *app, c *sdk.Client, args []string) error {
					v := 1
					if *off {
						v = 0
					}
					for _, id := range args[1:] {
						if err := c.VCConfsMtsMuteUpdate(a.capture(), args[0], id, &sdk.VCConfsMtsMuteUpdateRequest{Value: v}); err != nil {
							return err
						}
					}
					return nil
				}, func(args []string) string {
					if *off {
						return mtsDone("Unmuted", args)
					}
					return mtsDone("Muted", args)
				})
			},
		},
	}
}

func setupMtsAdd(fs *flag.FlagSet) runFunc {
	bitrate := fs.Int("bitrate", 2048, "call bitrate in `kbps`")
	protocol := fs.String("protocol", "sip", "call `protocol`: sip or h323 (H.323 is answered by simulated terminals only)")
	build := func(args []string) (*sdk.VCConfsMtsAddRequest, error) {
		proto, err := protocolValue(*protocol)
		if err != nil {
			return nil, err
		}
		req := &sdk.VCConfsMtsAddRequest{}
		for _, s := range args[1:] {
			t, acc, err := parseAccount(s)
			if err != nil {
				return nil, err
			}
			req.Mts = append(req.Mts, sdk.VCConfsMtsAddRequestMt{Account: acc, AccountType: t, Bitrate: *bitrate, Protocol: proto})
		}
		return req, nil
	}
	return prepared(build, func(req *sdk.VCConfsMtsAddRequest) runFunc {
		return request(func(a *app, c *sdk.Client, args []string) (*sdk.VCConfsMtsAddReply, error) {
			return c.VCConfsMtsAdd(a.capture(), args[0], req)
		}, func(a *app, args []string, r *sdk.VCConfsMtsAddReply) error {
			if a.g.json || a.g.debug || r == nil || len(r.Mts) == 0 {
				return a.done("Added %d terminal(s) to conference %s.", len(req.Mts), args[0])
			}
			a.table([]string{"MT_ID", "ACCOUNT"}, rowsOf(r.Mts, func(mt sdk.VCConfsMtsAddReplyMt) []string {
				return []string{itoa(mt.MtID), mt.Account}
			}))
			return nil
		})
	})
}

// mtsChange is a command acting on terminals by mt_id: call makes the
// request for the terminals ids of the conference conf.
func mtsChange(verb, summary, example string, call func(a *app, c *sdk.Client, conf string, ids []string) error, past string) *command {
	return &command{
		name: "mts " + verb, args: "CONF_ID MT_ID...", min: 2, max: -1, summary: summary, example: example,
		setup: noFlags(change(func(a *app, c *sdk.Client, args []string) error {
			return call(a, c, args[0], args[1:])
		}, func(args []string) string { return mtsDone(past, args) })),
	}
}

// mtsDone words the outcome of a change on the terminals args[1:] of the
// conference args[0].
func mtsDone(past string, args []string) string {
	return fmt.Sprintf("%s terminal(s) %s of conference %s.", past, strings.Join(args[1:], ", "), args[0])
}
