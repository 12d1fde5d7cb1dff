package main

import (
	"flag"

	"github.com/confer-platform/confer/sdk"
)

// Templates (mc) and RTC rooms (krtc).
func init() {
	register(
		&command{
			name: "templates list", summary: "List the personal templates, or with --public the public ones",
			example: "confer templates list\nconfer templates list --public --json",
			setup: func(fs *flag.FlagSet) runFunc {
				public := fs.Bool("public", false, "public templates of the user domain")
				return func(a *app, _ []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					var rows [][]string
					if *public {
						r, err := c.MCPublicTemplatesList(a.capture(), &sdk.MCPublicTemplatesListRequest{Count: sdk.Int(0)})
						if err != nil {
							return err
						}
						for _, t := range r.PublicTemplates {
							rows = append(rows, []string{t.TemplateID, t.Name, itoa(t.Bitrate), itoa(t.MaxJoinMt)})
						}
					} else {
						r, err := c.MCPersonalTemplatesList(a.capture(), &sdk.MCPersonalTemplatesListRequest{Count: sdk.Int(0)})
						if err != nil {
							return err
						}
						for _, t := range r.PersonalTemplates {
							rows = append(rows, []string{t.TemplateID, t.Name, itoa(t.Bitrate), itoa(t.MaxJoinMt)})
						}
					}
					return a.show(func() {
						a.table([]string{"TEMPLATE_ID", "NAME", "BITRATE", "MAX_JOIN_MT"}, rows)
					})
				}
			},
		},
		&command{
			name: "templates show", args: "TEMPLATE_ID", min: 1, max: 1, summary: "Show a template",
			example: "confer templates show 3\nconfer templates show 1 --public",
			setup: func(fs *flag.FlagSet) runFunc {
				public := fs.Bool("public", false, "a public template")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if *public {
						_, err = c.MCPublicTemplatesGet(a.capture(), args[0])
					} else {
						_, err = c.MCPersonalTemplatesGet(a.capture(), args[0])
					}
					if err != nil {
						return err
					}
					return a.show(func() { a.keyValues(a.raw) })
				}
			},
		},
		&command{
			name: "templates delete", args: "TEMPLATE_ID", min: 1, max: 1, summary: "Delete a template",
			example: "confer templates delete 3",
			setup: func(fs *flag.FlagSet) runFunc {
				public := fs.Bool("public", false, "a public template (administrators)")
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if *public {
						_, err = c.MCPublicTemplatesDelete(a.capture(), args[0])
					} else {
						_, err = c.MCPersonalTemplatesDelete(a.capture(), args[0])
					}
					if err != nil {
						return err
					}
					return a.done("Deleted template %s.", args[0])
				}
			},
		},
		&command{
			name: "rooms list", summary: "List the RTC rooms (room management, krtc)",
			example: "confer rooms list",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, _ []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					r, err := c.KRTCRoomsList(a.capture(), &sdk.KRTCRoomsListRequest{Count: sdk.Int(0)})
					if err != nil {
						return err
					}
					return a.show(func() {
						rows := [][]string{}
						for _, rm := range r.Rooms {
							rows = append(rows, []string{rm.RoomID, rm.RoomName, rm.MeetingID, itoa(rm.MaxJoinMt)})
						}
						a.table([]string{"ROOM_ID", "NAME", "MEETING_ID", "MAX_JOIN_MT"}, rows)
					})
				}
			},
		},
		&command{
			name: "rooms show", args: "ROOM_ID", min: 1, max: 1, summary: "Show an RTC room",
			example: "confer rooms show 4f1c2a",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if _, err := c.KRTCRoomsGet(a.capture(), args[0]); err != nil {
						return err
					}
					return a.show(func() { a.keyValues(a.raw) })
				}
			},
		},
		&command{
			name: "rooms create", summary: "Create an RTC room",
			example: "confer rooms create --name \"Huddle 1\" --max-join-mt 192\nconfer rooms create --name Lab --set bitrate=4096",
			setup: func(fs *flag.FlagSet) runFunc {
				name := fs.String("name", "", "room `name` (required)")
				maxJoin := fs.Int("max-join-mt", 0, "maximum joining terminals, e.g. 192 (default the platform's)")
				var sets multi
				fs.Var(&sets, "set", "set another field of the room record: `name=value` (repeatable)")
				return func(a *app, _ []string) error {
					if *name == "" {
						return usagef("--name is required")
					}
					req := &sdk.KRTCRoomsCreateRequest{RoomName: *name}
					if *maxJoin > 0 {
						req.MaxJoinMt = sdk.Int(*maxJoin)
					}
					if err := applySets(req, sets); err != nil {
						return err
					}
					c, err := a.connect()
					if err != nil {
						return err
					}
					r, err := c.KRTCRoomsCreate(a.capture(), req)
					if err != nil {
						return err
					}
					if r == nil {
						return a.done("Created room %q.", *name)
					}
					return a.done("Created room %s (meeting id %s).", r.RoomID, r.MeetingID)
				}
			},
		},
		&command{
			name: "rooms delete", args: "ROOM_ID", min: 1, max: 1, summary: "Delete an RTC room",
			example: "confer rooms delete 4f1c2a",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, args []string) error {
					c, err := a.connect()
					if err != nil {
						return err
					}
					if _, err := c.KRTCRoomsDelete(a.capture(), args[0]); err != nil {
						return err
					}
					return a.done("Deleted room %s.", args[0])
				}
			},
		},
	)
}
