package system

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/wire"
)

// The system replies were written as maps before the generated types
// (issue 40); their bytes stay those of the maps at every release.
func TestRepliesKeepTheirBytes(t *testing.T) {
	for _, rel := range release.All {
		r, err := release.Parse(rel.Name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := version(context.Background(), &api.Request{Platform: r})
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, "version "+rel.Name, got, wire.Object{"version": r.Version(), "api_level": r.Level()})
	}
	sameBytes(t, "token", &model.SystemTokenReply{AccountToken: "tok \"1\" <&>"}, wire.Object{"account_token": "tok \"1\" <&>"})
	sameBytes(t, "login", &model.SystemLoginReply{Username: "admin", Userdomainname: "默认域", Usermoid: "m1", Userdomainmoid: ""},
		wire.Object{"username": "admin", "userdomainname": "默认域", "usermoid": "m1", "userdomainmoid": ""})
}

func sameBytes(t *testing.T, name string, typed api.Reply, old wire.Object) {
	t.Helper()
	want, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(typed.Wire())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}
