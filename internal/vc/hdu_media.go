package vc

import (
	"context"
	"net/url"

	"github.com/confer-platform/confer/internal/engine"
)

// A TV wall with media (docs/live.md "TV walls"): each channel of a
// started wall is a WHEP stream of what it shows, watched with ?wall=
// (live_watch.go) by the wall page (/wall/{hdu_id}, internal/wall). The
// view follows the wall's mode: 1 one channel (a terminal, the speaker,
// the chairman, the conference poll's terminal, the composition as the
// broadcast, the dual stream), 2 the four channels of the split screen,
// 3 the single-channel poll's current terminal. A wall running its own
// composition (hduvmps) shows that composed picture, one channel.

// WallChannel is one picture of a wall.
type WallChannel struct {
	Index int    `json:"chn_idx"`
	MtID  string `json:"mt_id"`
	Name  string `json:"name"`     // the terminal's alias (show_mt_name)
	WHEP  string `json:"whep_url"` // "" when the channel shows nothing
}

// WallView is what a wall shows now.
type WallView struct {
	HduID    string `json:"hdu_id"`
	ConfID   string `json:"conf_id"`
	ConfName string `json:"conf_name"`
	Mode     int    `json:"mode"`
	ShowName bool   `json:"show_mt_name"`
	// SelfComposition: the wall shows its own composition (hduvmps), one
	// composed picture.
	SelfComposition bool          `json:"self_composition"`
	Channels        []WallChannel `json:"channels"`
}

// WallView returns what wall hduID of the domain shows now; ok is false
// when no running conference of the domain has started it.
func (m *Module) WallView(ctx context.Context, domain, hduID, base string) (WallView, bool, error) {
	confs, err := m.confs.List(ctx, domain, "", engine.StateRunning)
	if err != nil {
		return WallView{}, false, err
	}
	for _, c := range confs {
		i := hduFind(c, hduID)
		if i < 0 {
			if hduvmpFind(c, hduID) >= 0 {
				// The wall's self composition (hduvmps): one picture, the
				// wall's composed picture (names drawn into it).
				q := url.Values{"composed": {"1"}, "wall": {hduID}}
				return WallView{HduID: hduID, ConfID: c.ID(), ConfName: c.Name(), Mode: 1, SelfComposition: true,
					Channels: []WallChannel{{Index: 0, WHEP: whepURL(base, c.ID(), q)}}}, true, nil
			}
			continue
		}
		v, err := m.mdLoad(ctx, c)
		if err != nil {
			return WallView{}, false, err
		}
		wall := c.HDUs[i]
		h := v.hduReply(wall)
		out := WallView{HduID: hduID, ConfID: c.ID(), ConfName: c.Name(), Mode: h.Mode,
			ShowName: h.ShowMtName == 1, Channels: []WallChannel{}}
		add := func(idx int, mtID string, q url.Values) {
			ch := WallChannel{Index: idx, MtID: mtID, Name: v.alias(mtID)}
			if q != nil {
				q.Set("wall", hduID)
				ch.WHEP = whepURL(base, c.ID(), q)
			}
			out.Channels = append(out.Channels, ch)
		}
		terminal := func(idx int, mtID string) {
			if mtID == "" {
				add(idx, "", nil)
				return
			}
			add(idx, mtID, url.Values{"mt_id": {mtID}})
		}
		switch {
		case h.Specific != nil:
			sp := h.Specific
			switch sp.MemberType {
			case "6": // the composition: the composed picture (docs/composition.md)
				add(0, "", url.Values{"composed": {"1"}})
			case "10":
				add(0, sp.MtID, url.Values{"dual": {"1"}})
			default:
				terminal(0, sp.MtID)
			}
		case h.Spilt != nil:
			for _, e := range h.Spilt.Members {
				terminal(e.ChnIdx, e.MtID)
			}
		default: // mode 3: the single-channel poll's current terminal
			id := ""
			if po := wall.Poll; po != nil {
				id, _ = v.pollShows(po)
			}
			terminal(0, id)
		}
		return out, true, nil
	}
	return WallView{}, false, nil
}

// alias is a terminal's name as a wall shows it: its alias, else its
// account.
func (v *mdView) alias(id string) string {
	t, ok := v.byID[id]
	if !ok {
		return ""
	}
	if a := t.Alias(); a != "" {
		return a
	}
	return t.Account()
}
