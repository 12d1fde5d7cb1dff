package vc

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The start's and the change's generated requests of a composition decode
// the same parameters alike, so that vmpRequestOf reads both through the
// change's type (vmp_config.go).
func TestVMPRequestsDecodeAlike(t *testing.T) {
	n := func(i int) json.Number { return json.Number(strconv.Itoa(i)) }
	for _, params := range []map[string]any{
		{"mode": n(1), "layout": n(2), "broadcast": n(1), "voice_hint": n(0), "show_mt_name": n(1),
			"members": []any{map[string]any{"chn_idx": n(0), "member_type": n(1), "mt_id": "2", "mt_chn_idx": n(1)},
				map[string]any{"chn_idx": n(1), "members_type": n(6), "poll": map[string]any{"num": n(0), "keep_time": n(5),
					"poll_index": n(2), "members": []any{map[string]any{"mt_id": "3"}}}}}},
		{"mode": n(4), "layout": n(5), "broadcast": n(0), "voice_hint": n(1), "show_mt_name": n(0), "except_self": n(1),
			"mt_name_style": map[string]any{"font_size": n(2), "font_color": "#FF0000", "position": n(3)},
			"members":       []any{map[string]any{"chn_idx": n(0), "member_type": n(1), "mt_id": "1"}},
			"poll":          map[string]any{"num": n(2), "keep_time": n(9), "members": []any{map[string]any{"mt_id": "4"}}}},
	} {
		var c model.VCConfsVMPsCreateRequest
		var u model.VCConfsVMPsUpdateRequest
		if err := c.Decode(&wire.Args{Params: params}); err != nil {
			t.Fatal(err)
		}
		if err := u.Decode(&wire.Args{Params: params}); err != nil {
			t.Fatal(err)
		}
		if c.MtNameStyle == nil { // absent: the zero style in both
			c.MtNameStyle = &model.VCConfsVMPsCreateRequestMtNameStyle{}
		}
		cj, _ := json.Marshal(c)
		uj, _ := json.Marshal(u)
		if string(cj) != string(uj) {
			t.Errorf("%v: the start decodes %s, the change %s", params, cj, uj)
		}
		q, err := vmpRequestOf(&wire.Args{Params: params})
		if err != nil || len(q.Members) != len(params["members"].([]any)) || !q.ModeSent {
			t.Errorf("vmpRequestOf(%v) = %+v, %v", params, q, err)
		}
	}
}

func TestVMPRunning(t *testing.T) {
	running := engine.Conference{VMP: &engine.VMP{Mode: 1}}
	for _, tc := range []struct {
		name  string
		c     engine.Conference
		vmpID string
		start int // vmpStartable's code
		run   int // vmpRunning's code
	}{
		{"none runs", engine.Conference{}, vmpMain, 0, CodeVMPNotStarted},
		{"the main one runs", running, vmpMain, CodeVMPStarted, 0},
		{"another id", running, "2", CodeVMPStarted, CodeVMPNotStarted},
	} {
		if got := code(t, vmpStartable(tc.c)); got != tc.start {
			t.Errorf("%s: vmpStartable = %d, want %d", tc.name, got, tc.start)
		}
		cfg, err := vmpRunning(tc.c, tc.vmpID)
		if got := code(t, err); got != tc.run || err == nil && cfg != tc.c.VMP {
			t.Errorf("%s: vmpRunning(%q) = %v, %d; want code %d", tc.name, tc.vmpID, cfg, got, tc.run)
		}
	}
}
