package vc

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The TV walls of a user domain (reference 05 item 67 "获取平台电视墙列表",
// GET /api/v1/vc/hdus). A TV wall (hdu_id) is one output channel of a
// decoder device, written "<device>_<channel>" as the reference requires
// ("数字+下划线+数字", e.g. 8_0). The domain's walls are its records of kind
// KindHDU (id = hdu_id; document {hdu_name, online}); a domain that has
// none has the simulated set hduDefaults: devices 1 and 2 with channels 0
// to 3, all online. A wall is occupied while a running conference of the
// domain shows something on it: a started wall (hdus), a TV-wall self
// composition (hduvmps) or a running TV-wall batch poll (hdupoll).

// KindHDU is the store record kind of a domain's TV walls.
const KindHDU = "hdu"

// hduDevice is a TV wall of the registry.
type hduDevice struct {
	ID, Name string
	Online   bool
}

// hduDefaults is the simulated set of a domain without KindHDU records.
func hduDefaults() []hduDevice {
	var out []hduDevice
	for dev := 1; dev <= 2; dev++ {
		for chn := 0; chn <= 3; chn++ {
			id := fmt.Sprintf("%d_%d", dev, chn)
			out = append(out, hduDevice{ID: id, Name: "TV wall " + id, Online: true})
		}
	}
	return out
}

// hduRegistry lists the domain's TV walls by device and channel.
func (m *Module) hduRegistry(ctx context.Context, domain string) ([]hduDevice, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: KindHDU, DomainMoid: domain})
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return hduDefaults(), nil
	}
	out := make([]hduDevice, 0, len(recs))
	for _, rec := range recs {
		w, err := decodeWall(rec.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, hduDevice{ID: rec.ID, Name: string(w.Name), Online: w.online(m.clk.Now())})
	}
	sort.Slice(out, func(i, j int) bool { return hduLess(out[i].ID, out[j].ID) })
	return out, nil
}

// hduLess orders hdu_ids by device, then channel.
func hduLess(a, b string) bool {
	ad, ac, _ := strings.Cut(a, "_")
	bd, bc, _ := strings.Cut(b, "_")
	if x, y := atoiOr(ad), atoiOr(bd); x != y {
		return x < y
	}
	if x, y := atoiOr(ac), atoiOr(bc); x != y {
		return x < y
	}
	return a < b
}

func atoiOr(s string) int { n, _ := strconv.Atoi(s); return n }

// hduUses are the TV walls a conference document occupies at v's instant,
// each with its use: "hdus", "hduvmps" or "hdupoll".
func hduUses(c engine.Conference, v *mdView) map[string]string {
	uses := map[string]string{}
	for _, h := range c.HDUs {
		uses[h.HDUID] = "hdus"
	}
	for _, h := range c.HDUVMPs {
		uses[h.HDUID] = "hduvmps"
	}
	if hp := c.HDUPoll; hp != nil && v.hdupollState(hp) != 0 {
		for _, id := range hp.HDUIDs {
			uses[id] = "hdupoll"
		}
	}
	return uses
}

// hduOccupants maps each TV wall of the domain in use to the running
// conference using it, and to the alias that conference gave it.
func (m *Module) hduOccupants(ctx context.Context, domain string) (map[string]string, map[string]string, error) {
	confs, err := m.confs.List(ctx, domain, "", engine.StateRunning)
	if err != nil {
		return nil, nil, err
	}
	by, alias := map[string]string{}, map[string]string{}
	for _, c := range confs {
		v := &mdView{conf: c, now: m.clk.Now()}
		if c.HDUPoll != nil { // its state depends on the online terminals
			if v, err = m.mdLoad(ctx, c); err != nil {
				return nil, nil, err
			}
		}
		for id := range hduUses(c, v) {
			by[id] = c.ID()
			if a := c.HDUAliases[id]; a != "" {
				alias[id] = a
			}
		}
	}
	return by, alias, nil
}

// hduClaim checks that the conference of v may use the TV walls ids for
// use: each a wall of the domain (12105), online (20051), not used by
// another running conference (20058) and, in this conference, not in
// another use (20058; a wall of the batch poll: 20056). A wall already in
// the same use is taken over.
func (m *Module) hduClaim(ctx context.Context, v *mdView, ids []string, use string, path string) error {
	devs, err := m.hduRegistry(ctx, v.conf.Rec.DomainMoid)
	if err != nil {
		return err
	}
	known := map[string]hduDevice{}
	for _, d := range devs {
		known[d.ID] = d
	}
	by, _, err := m.hduOccupants(ctx, v.conf.Rec.DomainMoid)
	if err != nil {
		return err
	}
	mine := hduUses(v.conf, v)
	for _, id := range ids {
		d, ok := known[id]
		switch {
		case !ok:
			return wire.Errorf(CodeHDUNotFound, "%s: TV wall %s does not exist", path, id)
		case !d.Online:
			return wire.Errorf(CodeHDUOffline, "%s: TV wall %s is offline", path, id)
		case by[id] != "" && by[id] != v.conf.ID():
			return wire.Errorf(CodeHDUOccupied, "%s: TV wall %s is in use by another conference", path, id)
		case mine[id] == "hdupoll" && use != "hdupoll":
			return wire.Errorf(CodeHDUPolling, "%s: TV wall %s is in the conference's TV-wall batch poll", path, id)
		case mine[id] != "" && mine[id] != use:
			return wire.Errorf(CodeHDUOccupied, "%s: TV wall %s is in use in conference %s (%s)", path, id, v.conf.ID(), mine[id])
		}
	}
	return nil
}

// hduKnown checks that a TV wall of the path exists in the domain (12105).
func (m *Module) hduKnown(ctx context.Context, domain, id string) error {
	devs, err := m.hduRegistry(ctx, domain)
	if err != nil {
		return err
	}
	for _, d := range devs {
		if d.ID == id {
			return nil
		}
	}
	return wire.Errorf(CodeHDUNotFound, "TV wall %s does not exist", id)
}

// listPlatformHDUs lists the caller's domain's TV walls with their
// occupancy; a wall shows the alias the occupying conference gave it
// (vc.confs.hdus.alias.update) as its name.
func (m *Module) listPlatformHDUs(ctx context.Context, r *api.Request) (*model.VCHDUsListReply, error) {
	devs, err := m.hduRegistry(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	by, alias, err := m.hduOccupants(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	out := model.VCHDUsListReply{HDUs: make([]model.VCHDUsListReplyHDU, len(devs))}
	for i, d := range devs {
		name := d.Name
		if a := alias[d.ID]; a != "" {
			name = a
		}
		out.HDUs[i] = model.VCHDUsListReplyHDU{HDUID: d.ID, HDUName: name, Occupy: mdFlag(by[d.ID] != ""), Online: mdFlag(d.Online)}
	}
	return &out, nil
}
