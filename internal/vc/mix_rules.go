package vc

import (
	"fmt"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The mixer's rules (mix.go), plain functions over the running mix
// (issue 40): the query's answer, the members an addition and a removal
// leave. mix_rules_test.go checks them without HTTP or store.

// mixReply is the running mix's query answer: its mode and its members
// with their call aliases (account).
func mixReply(mix *engine.Mix, account func(mtID string) string) *model.VCConfsMixsGetReply {
	out := &model.VCConfsMixsGetReply{Mode: mix.Mode, Members: make([]model.VCConfsMixsGetReplyMember, len(mix.MtIDs))}
	for i, id := range mix.MtIDs {
		out.Members[i] = model.VCConfsMixsGetReplyMember{Account: account(id), MtID: id}
	}
	return out
}

// mixAdded is the members have with ids added after them; members
// already mixed stay where they are.
func mixAdded(have, ids []string) []string {
	out := append([]string(nil), have...)
	in := map[string]bool{}
	for _, id := range out {
		in[id] = true
	}
	for _, id := range ids {
		if !in[id] {
			out = append(out, id)
			in[id] = true
		}
	}
	return out
}

// mixRemoved is the members have without ids, and ids in their order: an
// empty mt_id is 90400, a terminal the conference lacks (known false)
// 12104, one that is not mixed 20814.
func mixRemoved(confID string, have, ids []string, known func(mtID string) bool) (kept, order []string, err error) {
	gone := leftSet{}
	for i, id := range ids {
		path := fmt.Sprintf("members[%d].mt_id", i)
		if id == "" {
			return nil, nil, wire.InvalidParam(path, "must name a terminal")
		}
		if !known(id) {
			return nil, nil, wire.Errorf(wire.CodeMTNotFound, "%s: terminal %s does not exist in conference %s", path, id, confID)
		}
		gone[id] = true
		order = append(order, id)
	}
	kept, _ = mdWithout(have, gone)
	for _, id := range order {
		if !mixHas(have, id) {
			return nil, nil, wire.Errorf(CodeMixNotMember, "members: terminal %s is not a mixing member of conference %s", id, confID)
		}
	}
	return kept, order, nil
}
