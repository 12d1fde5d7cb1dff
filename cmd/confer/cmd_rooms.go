package main

import (
	"flag"
	"fmt"

	"github.com/confer-platform/confer/sdk"
)

// roomsCommands are the commands on RTC rooms (krtc).
func roomsCommands() []*command {
	return []*command{
		{
			name: "rooms list", summary: "List the RTC rooms (room management, krtc)",
			example: "confer rooms list",
			setup: noFlags(query(func(a *app, c *sdk.Client, _ []string) (*sdk.KRTCRoomsListReply, error) {
				return c.KRTCRoomsList(a.capture(), &sdk.KRTCRoomsListRequest{Count: sdk.Int(0)})
			}, func(a *app, _ []string, r *sdk.KRTCRoomsListReply) {
				a.table([]string{"ROOM_ID", "NAME", "MEETING_ID", "MAX_JOIN_MT"},
					rowsOf(r.Rooms, func(rm sdk.KRTCRoomsListReplyRoom) []string {
						return []string{rm.RoomID, rm.RoomName, rm.MeetingID, itoa(rm.MaxJoinMt)}
					}))
			})),
		},
		{
			name: "rooms show", args: "ROOM_ID", min: 1, max: 1, summary: "Show an RTC room",
			example: "confer rooms show 4f1c2a",
			setup:   noFlags(detail(ignore(byID((*sdk.Client).KRTCRoomsGet)))),
		},
		{
			name: "rooms create", summary: "Create an RTC room",
			example: "confer rooms create --name \"Huddle 1\" --max-join-mt 192\nconfer rooms create --name Lab --set bitrate=4096",
			setup:   setupRoomsCreate,
		},
		{
			name: "rooms delete", args: "ROOM_ID", min: 1, max: 1, summary: "Delete an RTC room",
			example: "confer rooms delete 4f1c2a",
			setup: noFlags(change(ignore(byID((*sdk.Client).KRTCRoomsDelete)), func(args []string) string {
				return fmt.Sprintf("Deleted room %s.", args[0])
			})),
		},
	}
}

func setupRoomsCreate(fs *flag.FlagSet) runFunc {
	name := fs.String("name", "", "room `name` (required)")
	maxJoin := fs.Int("max-join-mt", 0, "maximum joining terminals, e.g. 192 (default the platform's)")
	var sets multi
	fs.Var(&sets, "set", "set another field of the room record: `name=value` (repeatable)")
	build := func([]string) (*sdk.KRTCRoomsCreateRequest, error) {
		if *name == "" {
			return nil, usagef("--name is required")
		}
		req := &sdk.KRTCRoomsCreateRequest{RoomName: *name}
		if *maxJoin > 0 {
			req.MaxJoinMt = sdk.Int(*maxJoin)
		}
		if err := applySets(req, sets); err != nil {
			return nil, err
		}
		return req, nil
	}
	return prepared(build, func(req *sdk.KRTCRoomsCreateRequest) runFunc {
		return request(func(a *app, c *sdk.Client, _ []string) (*sdk.KRTCRoomsCreateReply, error) {
			return c.KRTCRoomsCreate(a.capture(), req)
		}, func(a *app, _ []string, r *sdk.KRTCRoomsCreateReply) error {
			if r == nil {
				return a.done("Created room %q.", *name)
			}
			return a.done("Created room %s (meeting id %s).", r.RoomID, r.MeetingID)
		})
	})
}
