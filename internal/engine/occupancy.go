package engine

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// A terminal is online in at most one running conference of the platform
// (reference A3 20410 "指定终端忙, 可能在另一会议中"; 07 "添加终端失败通知"
// occupy_confname). An occupancy record per call identity names the
// terminal holding it; it is taken in the transaction that brings the
// terminal online and freed when it leaves. A record whose holder is no
// longer online in a running conference is taken over (a leak heals).
const (
	KindOccupancy   = "occupancy"
	occupancyDomain = "_platform" // no user domain: no domain's list or event sees it
	occHeld         = "held"
	occFree         = "free"
)

// Private fields of a terminal whose call found it busy in another
// conference, for the /mts failure notification (internal/push).
const (
	DocOccupyCode     = "_occupy_code"
	DocOccupyConfName = "_occupy_confname"
)

// Occupy codes: 20423 names the occupying conference (same user domain);
// 20410 does not (another domain's).
const (
	CodeOccupiedHere  = 20423
	CodeOccupiedOther = 20410
)

type holder struct {
	Domain string `json:"domain"`
	ConfID string `json:"conf_id"`
	MtID   string `json:"mt_id"`
}

// IdentityKey is a terminal's call identity: its E164 number when it has
// one, else its IP address, else its alias; "" for a cascade link.
//
// It reads the members strictly (a string member of another type is no
// identity), as earlier releases did: the key names the occupancy record
// that every node must find for the same terminal.
func IdentityKey(t Terminal) string {
	if typ := t.Doc.Type.Value; typ == TypeSubordinate || typ == TypeSuperior || t.Own.CascadeConf.Value != "" || t.Own.Participant.Value != "" {
		return ""
	}
	switch e164, ip, alias := t.Doc.E164.Value, t.Doc.IP.Value, t.Doc.Alias.Value; {
	case e164 != "":
		return "e164:" + e164
	case ip != "":
		return "ip:" + ip
	case alias != "":
		return "alias:" + alias
	}
	return ""
}

// errOccupied carries who holds a terminal.
type errOccupied struct {
	code int
	name string
}

func (errOccupied) Error() string { return "engine: the terminal is in another conference" }

// goOnline stores t (already marked online) and takes its occupancy in one
// transaction; errOccupied when another running conference has it online.
func (e *Engine) goOnline(ctx context.Context, c Conf, t *Terminal) error {
	key := IdentityKey(*t)
	if key == "" {
		return e.save(ctx, t)
	}
	data, err := encodeTerminal(*t)
	if err != nil {
		return err
	}
	t.Rec.Data, t.Rec.UpdatedAt = data, e.clk.Now()
	me := holder{c.DomainMoid, c.ConfID, t.MtID()}
	for attempt := 0; ; attempt++ {
		err = e.st.Atomic(ctx, func(tx store.Tx) error {
			if err := e.occupy(tx, key, me, c.DomainMoid); err != nil {
				return err
			}
			return tx.SwapRecord(t.Rec)
		})
		if errors.Is(err, store.ErrDuplicate) || errors.Is(err, errOccConflict) {
			if attempt < 3 {
				continue // another node took the record meanwhile: look again
			}
			return store.ErrConflict // the call settles again later (RunDue)
		}
		if err == nil {
			t.Rec.Version++
		}
		return err
	}
}

var errOccConflict = errors.New("engine: occupancy changed meanwhile")

// occupy takes key's record for me inside tx, unless a live holder has it.
func (e *Engine) occupy(tx store.Tx, key string, me holder, domain string) error {
	now := e.clk.Now()
	data, _ := json.Marshal(me)
	rec, err := tx.GetRecord(KindOccupancy, occupancyDomain, key)
	if errors.Is(err, store.ErrNotFound) {
		return tx.CreateRecord(store.Record{Kind: KindOccupancy, ID: key, DomainMoid: occupancyDomain,
			State: occHeld, Data: data, CreatedAt: now, UpdatedAt: now})
	}
	if err != nil {
		return err
	}
	var h holder
	_ = json.Unmarshal(rec.Data, &h)
	if rec.State == occHeld && (h.Domain != me.Domain || h.ConfID != me.ConfID) {
		if name, live, err := liveHolder(tx, key, h); err != nil {
			return err
		} else if live {
			if h.Domain != domain {
				return errOccupied{code: CodeOccupiedOther}
			}
			return errOccupied{code: CodeOccupiedHere, name: name}
		}
	}
	rec.State, rec.Data, rec.UpdatedAt = occHeld, data, now
	if err := tx.SwapRecord(rec); errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
		return errOccConflict
	} else if err != nil {
		return err
	}
	return nil
}

// liveHolder tells whether h is online with identity key in a running
// conference, and that conference's name.
func liveHolder(tx store.Tx, key string, h holder) (string, bool, error) {
	mt, err := tx.GetRecord(record.KindMT, h.Domain, recID(h.ConfID, h.MtID))
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil || mt.State != StateOnline {
		return "", false, err
	}
	if t, err := DecodeTerminal(mt); err != nil || IdentityKey(t) != key {
		return "", false, err
	}
	cf, err := tx.GetRecord(record.KindConf, h.Domain, h.ConfID)
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil || cf.State != StateRunning {
		return "", false, err
	}
	doc, err := shape.Decode(cf.Data)
	if err != nil {
		return "", false, err
	}
	return str(doc["name"]), true, nil
}

// release frees the occupancy of terminals that left c's call, when they
// hold it (a leaked record heals on the next join anyway).
func (e *Engine) release(ctx context.Context, c Conf, ts []Terminal) error {
	for _, t := range ts {
		key := IdentityKey(t)
		if key == "" {
			continue
		}
		for {
			rec, err := e.st.GetRecord(ctx, KindOccupancy, occupancyDomain, key)
			if errors.Is(err, store.ErrNotFound) {
				break
			}
			if err != nil {
				return err
			}
			var h holder
			_ = json.Unmarshal(rec.Data, &h)
			if rec.State != occHeld || h != (holder{c.DomainMoid, c.ConfID, t.MtID()}) {
				break
			}
			rec.State, rec.UpdatedAt = occFree, e.clk.Now()
			err = e.st.SwapRecord(ctx, rec)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			break
		}
	}
	return nil
}
