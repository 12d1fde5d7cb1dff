package vc

import (
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

// The checks of the terminals and channels a media feature names (the
// conference composition's panes, vmp_config.go; the self compositions',
// TV walls', mix's and batch polls' members) as plain functions over the
// typed state they read, paneState, which mdView.panes builds from the
// conference's terminals. pane_rules_test.go checks them without HTTP or
// store.

// paneTerm is a terminal as the checks read it: whether it is in the call,
// and how many video send and receive channels it has (v_snd_chn,
// v_rcv_chn).
type paneTerm struct {
	Online     bool
	Send, Recv int
}

// paneState is what the checks read of a running conference: its id, its
// terminals by mt_id (a subordinate's by its cascaded mt_id, "4.1") and
// the instant a poll's rotation starts from.
type paneState struct {
	ConfID string
	Terms  map[string]paneTerm
	Now    time.Time
}

// panes is the view's state for the checks, built once per view.
func (v *mdView) panes() paneState {
	if v.ps == nil {
		s := paneState{ConfID: v.conf.ID(), Terms: make(map[string]paneTerm, len(v.byID)), Now: v.now}
		for id, t := range v.byID {
			snd, rcv := t.Channels("v_snd_chn"), t.Channels("v_rcv_chn")
			s.Terms[id] = paneTerm{Online: t.Rec.State == engine.StateOnline, Send: len(snd), Recv: len(rcv)}
		}
		v.ps = &s
	}
	return *v.ps
}

// member checks that id names an online terminal of the conference: 12104
// when the conference has none, 20401 when it is not in the call. path
// names the parameter for the description.
func (s paneState) member(path, id string) error {
	t, ok := s.Terms[id]
	if !ok {
		return wire.Errorf(wire.CodeMTNotFound, "%s: terminal %s does not exist in conference %s", path, id, s.ConfID)
	}
	if !t.Online {
		return wire.Errorf(CodeMtUnreachable, "%s: terminal %s of conference %s is not online", path, id, s.ConfID)
	}
	return nil
}

// channel checks a terminal video channel: 0 chooses automatically, 1 to
// n name the terminal's channels of kind (v_snd_chn or v_rcv_chn); 20054
// for a channel the terminal lacks.
func (s paneState) channel(path, id string, idx int, kind string) error {
	n := s.Terms[id].Send
	if kind == "v_rcv_chn" {
		n = s.Terms[id].Recv
	}
	if idx < 0 || idx > n {
		return wire.Errorf(CodeMtChannel, "%s: terminal %s has no video channel %d (it has %d)", path, id, idx, n)
	}
	return nil
}

// idList reads the mt_id of each element of the list path: each not
// empty, an online terminal of the conference; repeated terminals count
// once.
func (s paneState) idList(ids []string, path string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for i, id := range ids {
		p := fmt.Sprintf("%s[%d].mt_id", path, i)
		if id == "" {
			return nil, wire.InvalidParam(p, "must name a terminal")
		}
		if err := s.member(p, id); err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// singlePoll checks a single-channel poll ({num, keep_time, poll_index,
// members}) and returns its stored form {num, keep_time, mt_ids} with its
// rotation. poll_index is the 1-based terminal to poll first (default 1);
// 0 carries on from the terminal old shows now (the first when old is
// nil).
func (s paneState) singlePoll(po pollRequest, path string, old *engine.SinglePoll) (*engine.SinglePoll, error) {
	num, keep, err := mdRoundsKeepOf(po.Num, po.KeepTime, path, 0)
	if err != nil {
		return nil, err
	}
	ids, err := s.idList(po.MtIDs, path+".members")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, wire.InvalidParam(path+".members", "must name the terminals to poll")
	}
	idx, err := mdAtLeastOf(po.PollIndex, path+".poll_index", 0, 0)
	if err != nil {
		return nil, err
	}
	if idx > len(ids) {
		return nil, wire.InvalidParam(path+".poll_index", fmt.Sprintf("%d is beyond the %d terminals", idx, len(ids)))
	}
	rot := mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: s.Now}
	switch {
	case idx > 0:
		rot.Origin = idx - 1
	case old != nil:
		oldIDs := old.MtIDs
		if cur, done := rotOfStored(old.Num, old.KeepTime, old.Rot).at(len(oldIDs), s.Now); !done {
			for i, id := range ids {
				if id == oldIDs[cur] {
					rot.Origin = i
				}
			}
		}
	}
	return &engine.SinglePoll{Num: num, KeepTime: keep, MtIDs: ids, Rot: rot.stored()}, nil
}
