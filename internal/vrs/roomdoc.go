package vrs

import (
	"github.com/confer-platform/confer/internal/model"
)

// roomDoc is a room's stored document: its configuration under "cfg" and
// its state beside it (recrooms.go and playrooms.go describe the state
// members). A member at its zero value is left out, as a room that never
// recorded or played had none of them; a reader takes an absent member
// as 0, as the maps read before did.
type roomDoc struct {
	Cfg roomCfg `json:"cfg"`
	// Recording rooms.
	Recstate    int   `json:"recstate,omitempty"`
	Lcaststate  int   `json:"lcaststate,omitempty"`
	RecPrggid   int   `json:"rec_prggid,omitempty"`
	RecSinceMs  int64 `json:"rec_since_ms,omitempty"`
	LiveSinceMs int64 `json:"live_since_ms,omitempty"`
	// Playback rooms.
	Playstate    int   `json:"playstate,omitempty"`
	PlayPrggid   int   `json:"play_prggid,omitempty"`
	PlayPosMs    int64 `json:"play_pos_ms,omitempty"`
	PlayAnchorMs int64 `json:"play_anchor_ms,omitempty"`
}

// roomCfg is a room's configuration: what an add or modify sent (the
// room object of vrs.recroom.create or vrs.playroom.create) and the
// server's roomid, userdomainmoid and createtime. One type holds both
// kinds' members; a kind's list shows its own (recView, playView).
type roomCfg struct {
	Roomid         int    `json:"roomid,omitempty"`
	Userdomainmoid string `json:"userdomainmoid,omitempty"`
	Createtime     int64  `json:"createtime,omitempty"`
	Roomname       string `json:"roomname,omitempty"`
	Roomno         string `json:"roomno,omitempty"`
	Roompwd        string `json:"roompwd,omitempty"`
	// Recording rooms.
	Roomtype   int    `json:"roomtype,omitempty"`
	Opertype   int    `json:"opertype,omitempty"`
	Vtype      int    `json:"vtype,omitempty"`
	Vformat    int    `json:"vformat,omitempty"`
	Vwidth     int    `json:"vwidth,omitempty"`
	Vheight    int    `json:"vheight,omitempty"`
	Vflag      int    `json:"vflag,omitempty"`
	Vframe     int    `json:"vframe,omitempty"`
	Atype      int    `json:"atype,omitempty"`
	Aformat    int    `json:"aformat,omitempty"`
	Aflag      int    `json:"aflag,omitempty"`
	Confrate   int    `json:"confrate,omitempty"`
	Preprgname string `json:"preprgname,omitempty"`
	Prgtype    int    `json:"prgtype,omitempty"`
	Bpublish   int    `json:"bpublish,omitempty"`
	Livetype   int    `json:"livetype,omitempty"`
	// Playback rooms.
	Autoplay    int    `json:"autoplay,omitempty"`
	Encrypt     int    `json:"encrypt,omitempty"`
	Encryptkey  string `json:"encryptkey,omitempty"`
	Cryptkeylen int    `json:"cryptkeylen,omitempty"`
	Prgalias    string `json:"prgalias,omitempty"`
	Prgid       int    `json:"prgid,omitempty"`
	IP          int    `json:"ip,omitempty"`
	Path        string `json:"path,omitempty"`
	Prgname     string `json:"prgname,omitempty"`
}

// recRoomCfg is the configuration a recording room's add or modify sent.
func recRoomCfg(x model.VRSRecroomCreateRequestRoom) roomCfg {
	return roomCfg{Roomname: x.Roomname, Roomno: x.Roomno, Roompwd: x.Roompwd, Roomtype: x.Roomtype,
		Opertype: x.Opertype.Value, Vtype: x.Vtype, Vformat: x.Vformat, Vwidth: x.Vwidth, Vheight: x.Vheight,
		Vflag: x.Vflag.Value, Vframe: x.Vframe, Atype: x.Atype, Aformat: x.Aformat, Aflag: x.Aflag,
		Confrate: x.Confrate, Preprgname: x.Preprgname, Prgtype: x.Prgtype, Bpublish: x.Bpublish}
}

// playRoomCfg is the configuration a playback room's add or modify sent.
func playRoomCfg(x model.VRSPlayroomCreateRequestRoom) roomCfg {
	return roomCfg{Roomname: x.Roomname, Roomno: x.Roomno, Roompwd: x.Roompwd, Autoplay: x.Autoplay,
		Encrypt: x.Encrypt, Encryptkey: x.Encryptkey, Cryptkeylen: x.Cryptkeylen, Prgalias: x.Prgalias,
		Prgid: x.Prgid, IP: x.IP, Path: x.Path, Prgname: x.Prgname}
}

// recView is a recording room's configuration as its list shows it.
func (c roomCfg) recView() *model.VRSRecroomListReplyRoomstateItemRoomcfg {
	return &model.VRSRecroomListReplyRoomstateItemRoomcfg{Roomid: c.Roomid, Userdomainmoid: c.Userdomainmoid,
		Roomname: c.Roomname, Roomno: c.Roomno, Roompwd: c.Roompwd, Roomtype: c.Roomtype, Opertype: c.Opertype,
		Vflag: c.Vflag, Vformat: c.Vformat, Vwidth: c.Vwidth, Vheight: c.Vheight, Vtype: c.Vtype, Vframe: c.Vframe,
		Atype: c.Atype, Aformat: c.Aformat, Aflag: c.Aflag, Confrate: c.Confrate, Preprgname: c.Preprgname,
		Prgtype: c.Prgtype, Bpublish: c.Bpublish, Livetype: c.Livetype, Createtime: int(c.Createtime)}
}

// playView is a playback room's configuration as its list shows it.
func (c roomCfg) playView(streamjsonpath string) *model.VRSPlayroomListReplyRoomstateItemRoomcfg {
	return &model.VRSPlayroomListReplyRoomstateItemRoomcfg{Roomid: c.Roomid, Userdomainmoid: c.Userdomainmoid,
		Streamjsonpath: streamjsonpath, Roomname: c.Roomname, Roomno: c.Roomno, Roompwd: c.Roompwd,
		Autoplay: c.Autoplay, Encrypt: c.Encrypt, Encryptkey: c.Encryptkey, Cryptkeylen: c.Cryptkeylen,
		Prgalias: c.Prgalias, Prgid: c.Prgid, IP: c.IP, Path: c.Path, Prgname: c.Prgname, Createtime: int(c.Createtime)}
}
