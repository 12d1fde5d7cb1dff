package vc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// TV walls as configured devices (Confer's extension, issue 41;
// docs/live.md "TV walls"). An administrator registers the domain's
// walls (vc.tv_walls.create); from the first one on, the domain's walls
// are exactly those registered, not the simulated set (hdu_registry.go).
// A registered wall is a screen that shows its page /wall/{hdu_id}: it is
// online while that page is open, which polls the wall's state
// (WallSeen), as a decoder device is online while it is connected, and a
// conference can start only an online wall (20051).

// wallSeenEvery is how often a wall page's polls are written to the
// store; wallOnlineFor how long a wall stays online after its page was
// last seen.
const (
	wallSeenEvery = 5 * time.Second
	wallOnlineFor = 20 * time.Second
)

// docSeen is a registered wall's last sight of its page (Unix ms).
const docSeen = "seen"

// wallDoc is a registered wall's document as registering writes it. A
// sighting (WallSeen) rewrites the decoded document, keeping the members
// that older releases or tests stored (online).
type wallDoc struct {
	Name string `json:"hdu_name"`
	Seen int64  `json:"seen"` // docSeen
}

var hduIDPattern = regexp.MustCompile(`^[0-9]{1,6}_[0-9]{1,6}$`)

// registerWall answers vc.tv_walls.create: decode, wallRegistration,
// write.
func (m *Module) registerWall(ctx context.Context, r *api.Request) (*model.VCTvWallsCreateReply, error) {
	if !r.Principal.Admin {
		return nil, wire.Errorf(wire.CodeNoPermission, "only an administrator of the user domain may register TV walls")
	}
	var q model.VCTvWallsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	if err := wallRegistration(q); err != nil {
		return nil, err
	}
	id, name := q.HDUID, q.HDUName
	data, err := record.Encode(wallDoc{Name: name})
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	err = m.st.CreateRecord(ctx, store.Record{Kind: KindHDU, ID: id, DomainMoid: r.Principal.DomainMoid,
		Data: data, CreatedAt: now, UpdatedAt: now})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, wire.InvalidParam("hdu_id", "is already a TV wall of the user domain")
	}
	if err != nil {
		return nil, err
	}
	return &model.VCTvWallsCreateReply{HDUID: id, Page: "/wall/" + id}, nil
}

// wallRegistration checks a wall's registration: its hdu_id digits, an
// underscore and digits (the device and its channel, reference 05 item
// 67), its name 1 to 64 bytes (90400).
func wallRegistration(q model.VCTvWallsCreateRequest) error {
	if !hduIDPattern.MatchString(q.HDUID) {
		return wire.InvalidParam("hdu_id", "must be digits, an underscore and digits, e.g. 3_0")
	}
	if q.HDUName == "" || len(q.HDUName) > 64 {
		return wire.InvalidParam("hdu_name", "must be 1 to 64 bytes")
	}
	return nil
}

// removeWall answers vc.tv_walls.delete: a wall a running conference
// uses is refused (20058).
func (m *Module) removeWall(ctx context.Context, r *api.Request) error {
	if !r.Principal.Admin {
		return wire.Errorf(wire.CodeNoPermission, "only an administrator of the user domain may remove TV walls")
	}
	id := r.Path("hdu_id")
	if _, err := m.st.GetRecord(ctx, KindHDU, r.Principal.DomainMoid, id); errors.Is(err, store.ErrNotFound) {
		return wire.Errorf(CodeHDUNotFound, "TV wall %s is not registered", id)
	} else if err != nil {
		return err
	}
	by, _, err := m.hduOccupants(ctx, r.Principal.DomainMoid)
	if err != nil {
		return err
	}
	if c := by[id]; c != "" {
		return wire.Errorf(CodeHDUOccupied, "TV wall %s is in use by conference %s", id, c)
	}
	if err := m.st.DeleteRecord(ctx, KindHDU, r.Principal.DomainMoid, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// WallSeen notes that the page of the domain's wall hduID asked for its
// state: a registered wall is online while it does (internal/wall).
func (m *Module) WallSeen(ctx context.Context, domain, hduID string) {
	rec, err := m.st.GetRecord(ctx, KindHDU, domain, hduID)
	if err != nil {
		return // the simulated set, or no such wall
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		return
	}
	now := m.clk.Now()
	seen, _ := record.IntOK(doc[docSeen])
	if now.Sub(time.UnixMilli(int64(seen))) < wallSeenEvery {
		return
	}
	doc[docSeen] = now.UnixMilli()
	if rec.Data, err = shape.Encode(doc); err != nil {
		return
	}
	rec.UpdatedAt = now
	_ = m.st.SwapRecord(ctx, rec) // another poll or node wrote it meanwhile: as good
}

// storedWall is a registered wall's document as the wall list reads it:
// its name as record.Str reads it, seen and online as record.IntOK does,
// each with its presence.
type storedWall struct {
	Name   record.Text `json:"hdu_name"`
	Seen   wallNum     `json:"seen"` // docSeen
	Online wallNum     `json:"online"`
}

// wallNum is a number member of a wall's document: whether it is there
// (null too), and its value as record.IntOK reads it.
type wallNum struct {
	n         int
	there, ok bool
}

// UnmarshalJSON reads the member as record.IntOK does.
func (w *wallNum) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	w.there = true
	w.n, w.ok = record.IntOK(v)
	return nil
}

// decodeWall reads a registered wall's document.
func decodeWall(data []byte) (storedWall, error) {
	var w storedWall
	err := json.Unmarshal(data, &w)
	return w, err
}

// online tells whether a registered wall's document says it is online at
// now: its page seen lately, or (a record without docSeen, written by an
// older release or a test) its online flag.
func (w storedWall) online(now time.Time) bool {
	if w.Seen.there {
		return w.Seen.n > 0 && now.Sub(time.UnixMilli(int64(w.Seen.n))) <= wallOnlineFor
	}
	return !w.Online.ok || w.Online.n == 1
}
