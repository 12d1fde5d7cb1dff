package vc

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

func TestHDUPut(t *testing.T) {
	walls := []engine.HDU{{HDUID: "1_1", Mode: 1}, {HDUID: "1_2", Mode: 2}}
	got := hduPut(walls, engine.HDU{HDUID: "1_2", Mode: 3})
	if want := []engine.HDU{{HDUID: "1_1", Mode: 1}, {HDUID: "1_2", Mode: 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("a running wall's view: %+v, want %+v", got, want)
	}
	if walls[1].Mode != 2 {
		t.Errorf("the stored walls were changed: %+v", walls)
	}
	got = hduPut(walls, engine.HDU{HDUID: "2_1", Mode: 1})
	if len(got) != 3 || got[2].HDUID != "2_1" {
		t.Errorf("a new wall: %+v", got)
	}
}

func TestHDUStopOf(t *testing.T) {
	c := engine.Conference{HDUs: []engine.HDU{{HDUID: "1_1"}, {HDUID: "1_2"}}}
	uses := map[string]string{"1_1": "hdus", "1_2": "hdus", "2_1": "hdupoll", "3_1": "hduvmps"}
	for _, tc := range []struct {
		id   string
		i    int
		code int
	}{
		{"1_2", 1, 0},
		{"2_1", -1, CodeHDUPolling},
		{"3_1", -1, CodeHDUNotFound},
		{"9_9", -1, CodeHDUNotFound},
	} {
		i, err := hduStopOf(c, uses, tc.id)
		if i != tc.i || code(t, err) != tc.code {
			t.Errorf("hduStopOf(%s) = %d, %v; want %d, %d", tc.id, i, err, tc.i, tc.code)
		}
	}
}

func TestHDUList(t *testing.T) {
	got := hduList(map[string]string{"10_1": "hdus", "2_3": "hdupoll", "2_1": "hdus", "3_1": "hduvmps"})
	var ids []string
	for _, h := range got.HDUs {
		ids = append(ids, h.HDUID)
	}
	if want := []string{"2_1", "2_3", "10_1"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("hduList = %v, want %v", ids, want)
	}
	if got := hduList(nil); got.HDUs == nil || len(got.HDUs) != 0 {
		t.Errorf("no wall: %+v, want an empty list", got.HDUs)
	}
}

func TestHDUAlias(t *testing.T) {
	if got := code(t, hduAliasCheck(strings.Repeat("a", hduNameMax))); got != 0 {
		t.Errorf("16 bytes: %d", got)
	}
	if got := code(t, hduAliasCheck(strings.Repeat("a", hduNameMax+1))); got != wire.CodeInvalidParam {
		t.Errorf("17 bytes: %d", got)
	}
	c := engine.Conference{}
	uses := map[string]string{"1_1": "hdus"}
	if err := hduAliasSet(&c, uses, "1_1", "hall"); err != nil || c.HDUAliases["1_1"] != "hall" {
		t.Errorf("set: %v, %v", err, c.HDUAliases)
	}
	if err := hduAliasSet(&c, uses, "1_1", ""); err != nil || len(c.HDUAliases) != 0 {
		t.Errorf("cleared: %v, %v", err, c.HDUAliases)
	}
	if got := code(t, hduAliasSet(&c, uses, "2_1", "x")); got != CodeHDUNotFound {
		t.Errorf("a wall not occupied: %d", got)
	}
}

func TestHDUPollRules(t *testing.T) {
	if got := hdupollReply(nil, 0, nil); !reflect.DeepEqual(*got, model.VCConfsHdupollGetReply{}) {
		t.Errorf("none runs: %+v", got)
	}
	hp := &engine.HDUPoll{PollID: 3, Mode: 2, Num: 1, KeepTime: 10, ShowMtName: 1, HDUIDs: []string{"1_1", "1_2"}, State: 1}
	got := hdupollReply(hp, 2, []string{"4", "5"})
	if got.State != 2 || got.Mode != 2 || got.KeepTime != 10 || len(got.HDUs) != 2 || got.HDUs[1].HDUID != "1_2" || len(got.Members) != 2 || got.Members[0].MtID != "4" {
		t.Errorf("hdupollReply = %+v", got)
	}

	q := model.VCConfsHdupollStartRequest{Mode: 2, HDUs: []model.VCConfsHdupollStartRequestHDU{{HDUID: "1_1"}, {HDUID: "1_2"}},
		Members: []model.VCConfsHdupollStartRequestMember{{MtID: "4"}}}
	walls, members, err := hdupollWalls(q)
	if err != nil || !reflect.DeepEqual(walls, []string{"1_1", "1_2"}) || !reflect.DeepEqual(members, []string{"4"}) {
		t.Errorf("hdupollWalls = %v, %v, %v", walls, members, err)
	}
	q.Mode = 1
	if _, members, _ := hdupollWalls(q); members != nil {
		t.Errorf("mode 1 names no members: %v", members)
	}
	q.HDUs = append(q.HDUs, model.VCConfsHdupollStartRequestHDU{HDUID: "1_1"})
	if _, _, err := hdupollWalls(q); code(t, err) != wire.CodeInvalidParam {
		t.Errorf("a wall twice: %v", err)
	}
	if _, _, err := hdupollWalls(model.VCConfsHdupollStartRequest{}); code(t, err) != wire.CodeInvalidParam {
		t.Errorf("no wall: %v", err)
	}

	now := time.UnixMilli(1_765_000_000_000)
	for _, tc := range []struct {
		name           string
		id, value, run int
		code           int
		state          int // the poll's state after, -1: gone
	}{
		{"pause", 3, 1, 1, 0, 2},
		{"resume", 3, 2, 2, 0, 1},
		{"stop", 3, 0, 1, 0, -1},
		{"another poll", 4, 1, 1, CodePollStopped, 1},
		{"ended", 3, 1, 0, CodePollStopped, 1},
	} {
		c := engine.Conference{HDUPoll: &engine.HDUPoll{PollID: 3, Num: 1, KeepTime: 10, HDUIDs: []string{"1_1"}, State: 1}}
		if tc.name == "resume" {
			c.HDUPoll.State = 2
		}
		err := hdupollStateChange(&c, tc.id, tc.value, tc.run, now)
		state := -1
		if c.HDUPoll != nil {
			state = c.HDUPoll.State
		}
		if code(t, err) != tc.code || (err == nil && state != tc.state) {
			t.Errorf("%s: hdupollStateChange = %v, state %d; want %d, %d", tc.name, err, state, tc.code, tc.state)
		}
	}
	if err := hdupollStateChange(&engine.Conference{}, 3, 1, 0, now); code(t, err) != CodePollStopped {
		t.Errorf("none runs: %v", err)
	}
}
