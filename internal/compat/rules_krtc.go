package compat

import "github.com/confer-platform/confer/internal/release"

// krtcRules are the value rules of room management (docs/krtc.md): a room
// record takes max_join_mt 32 and 64 from 5.2.0.2.0, as conferences do
// (seed 000 "Limits" 2, seed 001 5.2.0.2.0), and room_type 2, a
// forwarding (SFU) room whose conference has conf_type 2, from 6.1.0.2.0
// (seed 001 6.1.0.2.0: conf_type 2 added). The 4K and H.265 renames of
// 5.1.0.1.0 name krtc's create, modify and read in Rules; the list needs
// them too.
func krtcRules() []Rule {
	var rs []Rule
	add := adder(&rs)
	rooms := []string{"krtc.rooms.create", "krtc.rooms.update"}
	list := []string{"krtc.rooms.list"}
	add(ToReply, anyDepth(list, release.R5_1_0_1_0, ValueChanged, "resolution", 19, 16, "seed 001 5.1.0.1.0: 4K resolution 19 became 16 (room list)"))
	add(ToReply, anyDepth(list, release.R5_1_0_1_0, ValueChanged, "format", 7, 6, "seed 001 5.1.0.1.0: H.265 format 7 became 6 (room list)"))
	for _, v := range []int{32, 64} {
		add(ToRequest, anyDepth(rooms, release.R5_2_0_2_0, ValueAdded, "max_join_mt", nil, v,
			"seed 000 Limits 2, seed 001 5.2.0.2.0: max_join_mt gains 32 and 64 (room record)"))
	}
	add(ToRequest, anyDepth(rooms, release.R6_1_0_2_0, ValueAdded, "room_type", nil, 2,
		"seed 001 6.1.0.2.0: conf_type 2 (SFU) added; room_type 2 is a forwarding room (Confer)"))
	return rs
}
