package vc

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/wire"
)

// The cascade tree's reply (cascadesReply) has the bytes of the object
// that listCascades wrote before it was typed (cascadeObject, the old
// code): an empty tree, one level, and four levels, below the two the
// schema types.
func TestCascadesReplyKeepsItsBytes(t *testing.T) {
	leaf := func(id, name, path string) cascadeConf { return cascadeConf{ConfID: id, Name: name, Path: path} }
	deep := cascadeConf{ConfID: "a", Name: "top", Subs: []cascadeConf{
		{ConfID: "b", Name: "B \"quoted\" <x>", Path: "4", Subs: []cascadeConf{
			{ConfID: "c", Name: "C", Path: "4.2", Subs: []cascadeConf{
				{ConfID: "d", Name: "D", Path: "4.2.1", Subs: []cascadeConf{leaf("e", "E", "4.2.1.3")}},
				leaf("f", "F", "4.2.5"),
			}},
		}},
		leaf("g", "", "7"),
	}}
	for name, tree := range map[string]cascadeConf{
		"alone":      {ConfID: "a", Name: "alone"},
		"one level":  {ConfID: "a", Name: "x", Subs: []cascadeConf{leaf("b", "B", "4"), leaf("c", "C", "5")}},
		"four level": deep,
	} {
		old := cascadeObject(tree)
		old["cascade_id"], old["mt_id"] = LocalCascade, LocalCascade
		want, err := json.Marshal(old)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(cascadesReply(tree).Wire())
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// cascadeObject is a node of the tree as the code before the typed reply
// wrote it.
func cascadeObject(n cascadeConf) wire.Object {
	subs := []any{}
	for _, s := range n.Subs {
		subs = append(subs, cascadeObject(s))
	}
	return wire.Object{"conf_id": n.ConfID, "name": n.Name, "cascade_id": n.Path, "mt_id": n.Path, "cascades": subs}
}
