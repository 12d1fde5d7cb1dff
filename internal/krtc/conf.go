package krtc

import (
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// roomFields are the members of a room's conference that the room's
// settings give (docs/krtc.md), written at creation and at each change.
type roomFields struct {
	Bitrate         int          `json:"bitrate"`
	ConfType        int          `json:"conf_type"`
	MaxJoinMt       int          `json:"max_join_mt"`
	MeetingRoomName string       `json:"meeting_room_name"`
	Name            string       `json:"name"`
	VideoFormats    []roomFormat `json:"video_formats"`
}

// roomFormat is the one main video format of a room's conference.
type roomFormat struct {
	Bitrate    int `json:"bitrate"`
	Format     int `json:"format"`
	Frame      int `json:"frame"`
	Resolution int `json:"resolution"`
}

func fieldsOf(room model.Room) roomFields {
	return roomFields{Name: room.RoomName, MeetingRoomName: room.RoomName, MaxJoinMt: room.MaxJoinMt, Bitrate: room.Bitrate,
		ConfType:     confType(room.RoomType),
		VideoFormats: []roomFormat{{Format: room.Format, Resolution: room.Resolution, Frame: room.Frame, Bitrate: room.Bitrate}}}
}

// roomConf is the creation document of a room's conference: an instant
// conference with enable_rtc that holds its ports (docs/krtc.md), calls
// nobody and starts without features; its members in name order.
type roomConf struct {
	AutoEnd    int                               `json:"auto_end"`
	CallMode   int                               `json:"call_mode"`
	CreateType int                               `json:"create_type"`
	Creator    model.VCConfsListReplyConfCreator `json:"creator"`
	Duration   int                               `json:"duration"`
	EnableRTC  int                               `json:"enable_rtc"`
	// InviteMembers is empty: [] (a list of no member).
	InviteMembers     []struct{} `json:"invite_members"`
	InvitedMtNum      int        `json:"invited_mt_num"`
	KRTCRoomID        string     `json:"krtc_room_id"`
	MixEnable         int        `json:"mix_enable"`
	NeedPassword      int        `json:"need_password"`
	PlatformID        string     `json:"platform_id"`
	PollEnable        int        `json:"poll_enable"`
	PreoccupyResource int        `json:"preoccupy_resource"`
	PublicConf        int        `json:"public_conf"`
	UserDomainMoid    string     `json:"user_domain_moid"`
	UserDomainName    string     `json:"user_domain_name"`
	VmpEnable         int        `json:"vmp_enable"`
	roomFields
}

// document is the conference's document in the form the engine takes
// (engine.Spec.Doc): roomConf's members in name order
// (TestRoomConfStoredBytes).
func (c roomConf) document() ([]byte, error) { return record.Encode(c) }

// setFields writes a room's settings into its running conference's
// document, each member in the form a stored document holds it.
func setFields(c *engine.Conference, room model.Room) {
	f := fieldsOf(room)
	c.SetBitrate(f.Bitrate)
	c.SetConfType(f.ConfType)
	c.SetMaxJoinMt(f.MaxJoinMt)
	c.SetMeetingRoomName(f.MeetingRoomName)
	c.SetName(f.Name)
	c.SetMember("video_formats", f.VideoFormats)
}
