package rtc

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/store"
)

// A conference's media lives on one node (docs/media-nodes.md).
// The first node that touches a conference's media plane (a WHIP or WHEP
// request, a join page's state, or a control the engine sends it) records
// itself as its owner in the shared store: record kind rtc_owner, id the
// conference number, with the owner's media URL and a random key. Other
// nodes answer its WHIP, WHEP, join page and state requests with 307 to
// the owner's URL and pass the engine's controls to the owner's SFU
// (POST /rtc/owner/{conf_id}, authenticated with the key, which only
// readers of the store know). The record goes when the conference ends.
//
// Ownership is a lease (owner_lease.go): the record holds its end
// (until, and the record's due time), the owner renews it, and once it
// lapses another node takes the conference over (issue 35 item 5).

// KindOwner is the record kind of a conference's media owner.
const KindOwner = "rtc_owner"

// PathOwner is where an owner takes the controls other nodes pass on.
const PathOwner = "/rtc/owner/"

// stateOwned is the owner record's state.
const stateOwned = "owned"

type ownerDoc struct {
	URL string `json:"url"`
	Key string `json:"key"`
	SIP string `json:"sip,omitempty"` // its SIP user agent's host:port (owner_sip.go)
	// Until is the lease's end (UNIX ms); a record without one (written
	// before leases) counts as lapsed.
	Until int64 `json:"until,omitempty"`
	// Controls is the control envelope the owner takes: controlsByName,
	// or absent for a node of the previous release (owner_legacy.go).
	Controls int `json:"controls,omitempty"`
}

// lapsed tells whether the owner's lease has ended at now.
func (d ownerDoc) lapsed(now time.Time) bool { return d.Until == 0 || now.UnixMilli() >= d.Until }

// Owners decides and finds the node that owns a conference's media.
type Owners struct {
	Store store.Store
	Clock clock.Clock
	// Client carries controls to the owner (bounded by ownerTimeout).
	Client *http.Client
	// Lease is how long an owner's record holds without renewal
	// (DefaultLease when 0): another node takes the conference over when
	// it lapses (conferd --media-lease).
	Lease time.Duration
	// Log receives takeovers and losses (slog.Default when nil).
	Log *slog.Logger
	// TookOver, when set, is called (in its own goroutine) for a
	// conference this node took over from a node whose lease lapsed: what
	// the conference shows and hears is told to this node's SFU again.
	TookOver func(ctx context.Context, confID string)
	// Lost, when set, is called for a conference this node owned and
	// another node now owns (this node could not renew in time): its
	// sessions here end, and their clients come back through the new owner.
	Lost func(confID string)

	mu      sync.Mutex
	self    string // this node's media URL; "" serves every conference here
	key     string
	sipAddr string          // this node's SIP address for callers sent here (SetSIP)
	monitor MonitorHook     // monitors' senders passed here (owner_monitor.go)
	hosted  HostedHook      // recordings passed here (owner_hosted.go)
	held    map[string]bool // conferences this node owns, renewed by RunLeases
}

// ownerTimeout bounds one control passed to the owner.
const ownerTimeout = 10 * time.Second

// SetSelf sets the URL at which other nodes and clients reach this node's
// media plane (conferd --media-url); "" turns ownership off (one node).
func (o *Owners) SetSelf(url string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.self = strings.TrimSuffix(url, "/")
	if o.key == "" {
		var b [24]byte
		_, _ = rand.Read(b[:])
		o.key = hex.EncodeToString(b[:])
	}
}

func (o *Owners) me() (string, string) {
	if o == nil {
		return "", ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.self, o.key
}

// ownerTries bounds Owner's reads when other nodes race it for a lapsed
// lease; past it the caller is told to retry (media.ErrMoving).
const ownerTries = 3

// Owner returns the owner of confID's media: self when it is this node
// (or ownership is off). With claim, a conference that no node owns, or
// whose owner's lease lapsed, becomes this node's. Without claim, a
// conference whose owner's lease lapsed is answered as no node's (self,
// an empty doc): nothing holds its participants.
func (o *Owners) Owner(ctx context.Context, confID string, claim bool) (d ownerDoc, self bool, err error) {
	me, key := o.me()
	if me == "" {
		return ownerDoc{}, true, nil
	}
	for try := 0; try < ownerTries; try++ {
		rec, err := o.Store.GetRecord(ctx, KindOwner, "", confID)
		if err == nil {
			if err := json.Unmarshal(rec.Data, &d); err != nil {
				return d, false, err
			}
			now := o.Clock.Now()
			switch {
			case d.URL == me:
				o.hold(confID)
				return d, true, nil
			case !d.lapsed(now):
				return d, false, nil
			case !claim:
				return ownerDoc{}, true, nil
			}
			if d, won, err := o.takeOver(ctx, rec, now); err != nil || won {
				return d, won, err
			}
			continue // another node took it, or is taking it: read again
		}
		if !errors.Is(err, store.ErrNotFound) {
			return d, false, err
		}
		if !claim {
			return ownerDoc{}, true, nil
		}
		now := o.Clock.Now()
		d = ownerDoc{URL: me, Key: key, SIP: o.sip(), Until: now.Add(o.lease()).UnixMilli(), Controls: controlsByName}
		data, _ := json.Marshal(d)
		err = o.Store.CreateRecord(ctx, store.Record{Kind: KindOwner, ID: confID, State: stateOwned, Data: data,
			DueAt: time.UnixMilli(d.Until), CreatedAt: now, UpdatedAt: now})
		if errors.Is(err, store.ErrDuplicate) {
			continue // another node came first: it owns the conference
		}
		if err == nil {
			o.hold(confID)
		}
		return d, err == nil, err
	}
	return ownerDoc{}, false, media.ErrMoving
}

// Release forgets the owner of an ended conference.
func (o *Owners) Release(ctx context.Context, confID string) error {
	if me, _ := o.me(); me == "" {
		return nil
	}
	o.drop(confID)
	err := o.Store.DeleteRecord(ctx, KindOwner, "", confID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// Locate is the SFU's redirect hook (sfu.Config.Locate): the owner's URL
// when another node owns the conference, "" to serve it here.
func (o *Owners) Locate(ctx context.Context, confID string, claim bool) (string, error) {
	d, self, err := o.Owner(ctx, confID, claim)
	if err != nil || self {
		return "", err
	}
	return d.URL, nil
}

// control is one engine -> media control passed to the owner: a
// method of Controls by its name with its arguments after the conference
// (controls.go), or one of the ops dial, sip_apply, monitor and hosted.
type control struct {
	Op   string            `json:"op"`
	Args []json.RawMessage `json:"args,omitempty"` // a Controls method's arguments after conf
	MtID string            `json:"mt_id,omitempty"`
	// dial and sip_apply (owner_sip.go): the SIP user agent's work.
	Callee  *media.Callee  `json:"callee,omitempty"`
	Control *media.Control `json:"control,omitempty"`
	// monitor (owner_monitor.go): the monitor's domain and key.
	Domain   string `json:"domain,omitempty"`
	Key      string `json:"key,omitempty"`
	KeyFrame bool   `json:"key_frame,omitempty"`
	// hosted (owner_hosted.go): a recording's action.
	Hosted *Hosted `json:"hosted,omitempty"`
	// The previous release's controls (owner_legacy.go).
	legacyControl
}

// remote passes controls to the owner node of one conference.
type remote struct {
	ctx    context.Context
	client *http.Client
	owner  ownerDoc
}

func (r remote) send(conf string, c control) error {
	_, err := r.do(conf, c)
	return err
}

// do passes a control and returns the body of a 200 reply.
func (r remote) do(conf string, c control) ([]byte, error) {
	body, _ := json.Marshal(c)
	ctx, cancel := context.WithTimeout(r.ctx, ownerTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.owner.URL+PathOwner+conf, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+r.owner.Key)
	client := r.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// The owner is out of reach: it may have stopped, and another
		// node takes its conferences over once its lease lapses.
		return nil, fmt.Errorf("rtc: passing %s to the owner %s: %w: %w", c.Op, r.owner.URL, media.ErrMoving, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxControl))
	switch resp.StatusCode {
	case http.StatusOK, http.StatusNoContent:
		return msg, nil
	case http.StatusNotFound:
		return nil, sfu.ErrNotFound
	case http.StatusNotImplemented:
		return nil, media.ErrUnsupported
	case http.StatusGone:
		return nil, ErrNoMonitor // owner_monitor.go
	case http.StatusConflict:
		pe := &platformError{}
		if json.Unmarshal(msg, pe) == nil && pe.Code != 0 {
			return nil, pe // owner_hosted.go
		}
	case http.StatusForbidden:
		// No longer the owner: another node took the conference over
		// since the record was read (or the key changed with a restart).
		return nil, fmt.Errorf("rtc: %s refused by %s, no longer the owner: %w", c.Op, r.owner.URL, media.ErrMoving)
	}
	return nil, fmt.Errorf("rtc: the owner %s refused %s: %d %s", r.owner.URL, c.Op, resp.StatusCode, strings.TrimSpace(string(msg)))
}

// maxControl bounds a control's body.
const maxControl = 64 << 10

// Handler serves POST /rtc/owner/{conf_id}: a control another node's
// engine sent for a conference this node owns, applied to sf and to the
// node's SIP user agent sp (nil: none): a method of Controls by its name
// (controls.go), or a SIP, monitor or hosted op.
func (o *Owners) Handler(sf *sfu.SFU, sp SIP) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		conf := strings.TrimPrefix(r.URL.Path, PathOwner)
		d, self, err := o.Owner(r.Context(), conf, false)
		if err != nil {
			http.Error(w, "owner record unreadable", http.StatusServiceUnavailable)
			return
		}
		_, key := o.me()
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !self || d.Key == "" || subtle.ConstantTimeCompare([]byte(got), []byte(d.Key)) != 1 || key == "" {
			http.Error(w, "not the owner of this conference, or a wrong key", http.StatusForbidden)
			return
		}
		c, err := decodeControl(http.MaxBytesReader(w, r.Body, maxControl))
		if err != nil {
			http.Error(w, "body must be a JSON control", http.StatusBadRequest)
			return
		}
		switch c.Op {
		case "dial", "sip_apply":
			sipControl(w, r, sp, conf, c)
			return
		case "monitor":
			o.monitorControl(w, r, conf, c)
			return
		case "hosted":
			o.hostedControl(w, r, conf, c)
			return
		}
		handled, err := applyControl(nodeControls{SFU: sf, sip: sp}, conf, c)
		switch {
		case !handled:
			http.Error(w, "unknown control "+c.Op, http.StatusBadRequest)
		case errors.Is(err, errBadControl):
			http.Error(w, err.Error(), http.StatusBadRequest)
		case errors.Is(err, sfu.ErrNotFound):
			http.Error(w, "no such participant", http.StatusNotFound)
		case err != nil:
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
}
