package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/shape"
)

// The creation members' typed readers (Invited's invitees, creatorName)
// read every form of a stored document as the map readers they replaced
// did (issue 40): mapInvited and mapCreatorName are those readers.
func TestCreationReadersKeepTheMapReading(t *testing.T) {
	docs := []string{
		`{}`,
		`{"invite_members":"x","keep_calling_members":{"account":"a"},"creator":"x"}`,
		`{"invite_members":[{"account":"a","account_type":5,"protocol":1,"bitrate":1024,"x":[1]},"odd",null,7,{"account":""},{"name":"no account"},
			{"account":"b","account_type":"5","protocol":1.0,"bitrate":512.5},{"account":3},{"account":"c","bitrate":-2,"account_type":null},
			{"account":"d","account_type":{"a":1},"bitrate":1e3}],
		  "keep_calling_members":[{"account":"b"},{"account":"a","x":1},"c",null,{"name":"d"}],
		  "creator":{"name":"admin","account":"m"}}`,
		`{"invite_members":[],"keep_calling_members":null,"creator":{"name":5}}`,
		`{"creator":[{"name":"x"}],"invite_members":[{"account":"a"}],"keep_calling_members":[{"account":"a"}]}`,
		`{"creator":{"account":"m"}}`,
		`{"creator":null}`,
	}
	for _, d := range docs {
		doc, err := shape.Decode([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		c := confFromMap(t, doc)
		if got, want := Invited(c), mapInvited(doc); !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s: Invited = %s, want %s", d, g, w)
		}
		if got, want := c.CreatorName(), mapCreatorName(doc); got != want {
			t.Errorf("%s: CreatorName = %q, want %q", d, got, want)
		}
	}
	// A document just built (Create's, before it is stored) holds Go
	// numbers: read as the map readers read them too.
	fresh := map[string]any{"invite_members": []any{map[string]any{"account": "a", "account_type": 5, "protocol": int64(1), "bitrate": 2048.0}},
		"creator": map[string]any{"name": "n"}}
	if got, want := Invited(confFromMap(t, fresh)), mapInvited(fresh); !reflect.DeepEqual(got, want) {
		t.Errorf("fresh: Invited = %v, want %v", got, want)
	}
}

func mapInvited(doc map[string]any) []Member {
	list := func(v any) []any { l, _ := v.([]any); return l }
	chase := map[string]bool{}
	for _, v := range list(doc["keep_calling_members"]) {
		if m, ok := v.(map[string]any); ok {
			chase[str(m["account"])] = true
		}
	}
	var out []Member
	for _, v := range list(doc["invite_members"]) {
		m, ok := v.(map[string]any)
		if !ok || str(m["account"]) == "" {
			continue
		}
		acct := str(m["account"])
		out = append(out, Member{
			Callee:   media.Callee{Account: acct, AccountType: num(m["account_type"]), Protocol: num(m["protocol"]), Bitrate: num(m["bitrate"])},
			CallMode: -1, Chase: chase[acct], Dial: true,
		})
	}
	return out
}

func mapCreatorName(doc map[string]any) string {
	m, _ := doc["creator"].(map[string]any)
	return str(m["name"])
}
