package sip_test

import (
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/testserver"
)

// room creates a virtual meeting room and returns its number (e164).
func (e *sipEnv) room(t *testing.T, name string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"name": name, "max_join_mt": 8, "call_mode": 0, "duration": 0,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	for k, v := range extra {
		body[k] = v
	}
	id := testserver.MustOK(t, e.api.Do("POST", "/api/v1/mc/virtual_meeting_rooms", testserver.Params(t, body)))["id"].(string)
	r := testserver.MustOK(t, e.api.Do("GET", "/api/v1/mc/virtual_meeting_rooms/"+id, nil))
	return fmt.Sprint(r["e164"])
}

// A virtual meeting room's number with no conference running starts the
// room's conference on the first call and joins the caller (issue 39,
// meeting-room behaviour): SIPp dials the room, the conference runs under
// the room's number, made from the room, and the caller is listed in it.
// An exclusive room is not started by a call (404).
func TestRoomStartsOnFirstCall(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	number := e.room(t, "sip room", nil)
	s := startSIPp(t, scenario(t, "uac_room.xml", nil), e.addr(), "-s", number)
	s.wait(t)
	conf := testserver.MustOK(t, e.api.Do("GET", "/api/v1/vc/confs/"+number, nil))
	if conf["meeting_room_name"] != "sip room" {
		t.Errorf("the conference started by the call: meeting_room_name %v", conf["meeting_room_name"])
	}
	if m := e.mtByAlias(t, number, "SIPp Room"); m == nil || fmt.Sprint(m["protocol"]) != "1" {
		t.Errorf("the caller in the room's conference: %v", m)
	}

	exclusive := e.room(t, "exclusive room", map[string]any{"exclusive": 1})
	p := newPeer(t, e.addr())
	if res := p.callWith(exclusive, audioSDP(p.port()+2, "sendrecv")); res.code() != 404 {
		t.Fatalf("a call to an exclusive room: %s", res.first)
	}
	if r := e.api.Do("GET", "/api/v1/vc/confs/"+exclusive, nil); r.OK() {
		t.Fatalf("an exclusive room's conference started by a call: %s", r.Raw)
	}
}
