package vc

import (
	"context"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

// Media state of a conference: mixing, picture compositions and TV walls
// (reference 05 items 33 to 41 and 57 to 74). Each feature is stored in the
// conference document under a key of its own, beside the vc info fields
// (mix_enable and vmp_enable are kept in step):
//
//	vc_mix        the main mixer {mode, mt_ids}: engine.Conference.Mix
//	vc_vmp        the main picture composition (vmp_id 1): engine.Conference.VMP
//	vc_selfvmps   terminal self compositions, one per terminal video channel:
//	              engine.Conference.SelfVMPs
//	vc_hdus       TV walls the conference runs {hdu_id, mode, specific, poll, spilt}:
//	              engine.Conference.HDUs
//	vc_hduvmps    TV-wall self compositions: engine.Conference.HDUVMPs
//	vc_hdupoll    the TV-wall batch poll; vc_hdupoll_seq numbers them:
//	              engine.Conference.HDUPoll and HDUPollSeq
//	vc_hdu_alias  aliases given to TV walls (hdu_id to alias): engine.Conference.HDUAliases
//
// Everything time-driven (single-channel polls, batch polls) is stored as
// a start time and read through the clock (DESIGN principle 4), so reads
// compute the current picture without a timer.

// mdView is what the media features read of a running conference at one
// instant: its document, its terminals and the clock.
type mdView struct {
	conf engine.Conference
	ts   []engine.Terminal
	byID map[string]engine.Terminal
	now  time.Time
	ps   *paneState // the checks' state (panes), once read
}

// mdLoad reads the terminals of a conference for a view.
func (m *Module) mdLoad(ctx context.Context, c engine.Conference) (*mdView, error) {
	sub, err := m.cascadeTree(ctx, c)
	if err != nil {
		return nil, err
	}
	return m.mdLoadTree(ctx, c, sub)
}

// mdRunning reads the running conference of the request (confRunning)
// and the view of its terminals (mdLoad).
func (m *Module) mdRunning(ctx context.Context, r *api.Request) (engine.Conference, *mdView, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return c, nil, err
	}
	v, err := m.mdLoad(ctx, c)
	return c, v, err
}

// mdLoadTree is mdLoad with the terminals of c's subordinates given (a
// feature hook's tree, engine.Change).
func (m *Module) mdLoadTree(ctx context.Context, c engine.Conference, sub []engine.Terminal) (*mdView, error) {
	ts, err := m.terminals(ctx, engine.ConfOf(c))
	if err != nil {
		return nil, err
	}
	v := &mdView{conf: c, ts: ts, byID: make(map[string]engine.Terminal, len(ts)), now: m.clk.Now()}
	for _, t := range ts {
		v.byID[t.MtID()] = t
	}
	// Terminals of subordinates are members by their cascaded mt_ids
	// ("4.1"); the features' automatic choices stay with local ones (ts).
	for _, t := range sub {
		v.byID[t.MtID()] = t
	}
	return v, nil
}

// terminals reads the terminals of conference c from the store, not
// through the engine: the feature hooks read with it and return to the
// engine what they decided (engine.Change), never calling it back.
func (m *Module) terminals(ctx context.Context, c engine.Conf) ([]engine.Terminal, error) {
	recs, _, err := m.st.ListRecords(ctx, engine.TerminalsQuery(c))
	if err != nil {
		return nil, err
	}
	return engine.DecodeTerminals(recs)
}

// online tells whether a terminal of the conference is in the call.
func (v *mdView) online(id string) bool {
	t, ok := v.byID[id]
	return ok && t.Rec.State == engine.StateOnline
}

// account is a terminal's call alias ("" for an unknown terminal).
func (v *mdView) account(id string) string {
	if t, ok := v.byID[id]; ok {
		return t.Account()
	}
	return ""
}

// role is id, the terminal holding a conference role (v.conf.Roles),
// when it is online.
func (v *mdView) role(id string) string {
	if id != "" && v.online(id) {
		return id
	}
	return ""
}

// onlineIDs are the online terminals in the order automatic fills take
// them: the speaker first, then by mt_id.
func (v *mdView) onlineIDs() []string {
	sp := v.role(v.conf.Roles.Speaker)
	var out []string
	if sp != "" {
		out = append(out, sp)
	}
	for _, t := range v.ts {
		if id := t.MtID(); id != sp && t.Rec.State == engine.StateOnline {
			out = append(out, id)
		}
	}
	return out
}

// member checks that id names an online terminal of the conference
// (paneState.member).
func (v *mdView) member(path, id string) error { return v.panes().member(path, id) }

// channel checks a terminal video channel (paneState.channel).
func (v *mdView) channel(path, id string, idx int, kind string) error {
	return v.panes().channel(path, id, idx, kind)
}

// mdWithout returns l without the ids in gone, and whether any was there.
func mdWithout(l []string, gone leftSet) ([]string, bool) {
	out := make([]string, 0, len(l))
	for _, s := range l {
		if !gone.has(s) {
			out = append(out, s)
		}
	}
	return out, len(out) != len(l)
}

// mdFlag is a 0/1 document value.
func mdFlag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mdPathInt reads an integer path parameter; 90400 when it is not one.
func mdPathInt(name, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, wire.InvalidParam(name, "must be a non-negative integer")
	}
	return n, nil
}

// mdNum reads an mt_id as a number, for ordering by mt_id.
func mdNum(v any) int {
	s, _ := v.(string)
	n, _ := strconv.Atoi(s)
	return n
}
