package vc

import (
	"slices"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

func TestSpeakerChange(t *testing.T) {
	for _, tc := range []struct {
		vad  int
		mtID string
		want int
	}{
		{0, "2", 0},
		{0, "", 0},
		{1, "2", CodeVADCannotSetSpeaker},
		{1, "", CodeVADCannotCancelSpeaker},
	} {
		if got := code(t, speakerChange("1234567", tc.vad, tc.mtID)); got != tc.want {
			t.Errorf("speakerChange(vad %d, %q) = %d, want %d", tc.vad, tc.mtID, got, tc.want)
		}
	}
}

func TestVADChange(t *testing.T) {
	for _, tc := range []struct {
		state, iv int
		want      vadSetting
		code      int
	}{
		{1, 5, vadSetting{State: 1, Interval: 5}, 0},
		{1, 4, vadSetting{}, wire.CodeInvalidParam},
		{1, 0, vadSetting{}, wire.CodeInvalidParam},
		{0, 0, vadSetting{State: 0, Interval: 0, Keep: true}, 0},
		{0, 3, vadSetting{State: 0, Interval: 3, Keep: true}, 0},
		{0, 9, vadSetting{State: 0, Interval: 9}, 0},
	} {
		got, err := vadChange(model.VCConfsVADUpdateRequest{State: tc.state, Vacinterval: tc.iv})
		if code(t, err) != tc.code || err == nil && got != tc.want {
			t.Errorf("vadChange(state %d, vacinterval %d) = %+v, %v; want %+v, code %d", tc.state, tc.iv, got, err, tc.want, tc.code)
		}
	}
}

func TestVIPIDs(t *testing.T) {
	vip := func(id, cascade string) model.VCConfsViplistUpdateRequestMt {
		e := model.VCConfsViplistUpdateRequestMt{MtID: model.Some(id)}
		if cascade != "-" {
			e.CascadeID = model.Some(cascade)
		}
		return e
	}
	q := func(mts ...model.VCConfsViplistUpdateRequestMt) model.VCConfsViplistUpdateRequest {
		return model.VCConfsViplistUpdateRequest{Mts: mts}
	}
	many := q()
	for range vipMax + 1 {
		many.Mts = append(many.Mts, vip("1", "0"))
	}
	for _, tc := range []struct {
		name string
		q    model.VCConfsViplistUpdateRequest
		want []string
		code int
	}{
		{"none clears", q(), []string{}, 0},
		{"local, in order", q(vip("3", "0"), vip("1", "-"), vip("2", "")), []string{"3", "1", "2"}, 0},
		{"more than 8", many, nil, wire.CodeInvalidParam},
		{"no mt_id", q(vip("", "0")), nil, wire.CodeInvalidParam},
		{"twice", q(vip("1", "0"), vip("1", "0")), nil, wire.CodeInvalidParam},
		{"another cascade", q(vip("1", "2")), nil, wire.CodeInvalidParam},
	} {
		got, err := vipIDs(tc.q)
		if code(t, err) != tc.code || err == nil && !slices.Equal(got, tc.want) {
			t.Errorf("%s: vipIDs = %v, %v; want %v, code %d", tc.name, got, err, tc.want, tc.code)
		}
	}
}
