package vrs

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The login and room creation replies were wire objects before they were
// the generated replies; no golden reply holds them, so these tests hold
// the bytes the objects wrote (issue 40).

func TestLoginReplyKeepsItsBytes(t *testing.T) {
	for name, p := range map[string]*auth.Principal{
		"admin": {AccountMoid: "a-1", Username: "admin", DomainMoid: "d-1", Admin: true},
		"user":  {AccountMoid: "a-2", Username: "carol \"c\" <x>", DomainMoid: "d-1"},
		"empty": {},
	} {
		const cookie = "c0ffee"
		role := roleUser
		if p.Admin {
			role = roleAdmin
		}
		old := wire.Object{
			"username": p.Username, "usermoid": p.AccountMoid, "userdomainmoid": p.DomainMoid,
			"rightmask": rightAll, "userrole": role, "token": cookie,
		}
		reply := loginReply(p, cookie)
		sameBytes(t, name+" POST", old, reply.Wire())
		sameBytes(t, name+" GET", old, (*model.VRSLoginGetReply)(reply).Wire())
	}
}

func TestRoomCreateReplyKeepsItsBytes(t *testing.T) {
	for _, id := range []int64{1, 42, 1<<31 - 1} {
		old := wire.Object{"roomid": id}
		sameBytes(t, "recroom", old, (&model.VRSRecroomCreateReply{Roomid: int(id)}).Wire())
		sameBytes(t, "playroom", old, (&model.VRSPlayroomCreateReply{Roomid: int(id)}).Wire())
	}
}

// sameBytes fails unless the new reply encodes as the old one did.
func sameBytes(t *testing.T, name string, old, new wire.Object) {
	t.Helper()
	want, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(new)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}
