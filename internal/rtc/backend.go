package rtc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/store"
)

// Backend is the media plane of a node as the engine drives it
// (media.Backend): participants who arrived on their own (browsers, WHIP
// publishers, WHEP viewers) live in the SFU; numbers the engine dials go to
// Dialled (the simulated backend). Conference-wide settings go to both.
type Backend struct {
	SFU     *sfu.SFU
	Dialled media.Backend
	// Owners, when set, passes the SFU controls of a conference that
	// another node owns to that node (owner.go).
	Owners *Owners
	SIP    SIP // nil: no SIP user agent (conferd --no-sip)
}

// SIP is the node's SIP user agent (internal/sip) as the backend routes
// to it: numbers it Routes are real SIP terminals (docs/sip.md "Which
// numbers are called"); the others stay with Dialled.
type SIP interface {
	Routes(ctx context.Context, c media.Callee) bool
	Dial(ctx context.Context, conf, mt string, c media.Callee) (media.Identity, error)
	Hangup(conf, mt string) bool
	Apply(conf, mt string, c media.Control) (bool, error)
	EndConference(conf string)
}

// media returns the SFU controls of conf: this node's SFU, or the owner
// node's. With claim, a conference no node owns becomes this node's.
func (b *Backend) media(ctx context.Context, conf string, claim bool) (Controls, error) {
	if b.Owners == nil {
		return b.SFU, nil
	}
	d, self, err := b.Owners.Owner(ctx, conf, claim)
	if err != nil {
		return nil, err
	}
	if self {
		return b.SFU, nil
	}
	return remote{ctx: context.WithoutCancel(ctx), client: b.Owners.Client, owner: d}, nil
}

var _ media.Backend = (*Backend)(nil)

// Dial calls a number: a SIP terminal through the user agent of the node
// that owns the conference's media (owner_sip.go), any other through
// Dialled; the SFU calls no one.
func (b *Backend) Dial(ctx context.Context, conf, mt string, c media.Callee) (media.Identity, error) {
	if b.SIP != nil && b.SIP.Routes(ctx, c) {
		return b.dialSIP(ctx, conf, mt, c)
	}
	return b.Dialled.Dial(ctx, conf, mt, c)
}

// dialSIP places a SIP call on the node that owns the conference's media.
func (b *Backend) dialSIP(ctx context.Context, conf, mt string, c media.Callee) (media.Identity, error) {
	m, err := b.media(ctx, conf, true)
	if err != nil {
		return media.Identity{}, err
	}
	if r, ok := m.(remote); ok {
		if id, err := r.Dial(conf, mt, c); !errors.Is(err, errNoSIPRoute) {
			return id, err
		}
	}
	return b.SIP.Dial(ctx, conf, mt, c)
}

var _ media.ChannelReader = (*Backend)(nil)

// Channels returns the channels of a participant or SIP call whose media
// this node's SFU carries (a SIP call is a local participant of the SFU);
// a terminal of the dialled plane or of a conference another node owns
// has none here.
func (b *Backend) Channels(ctx context.Context, conf, mt string) ([]media.Channel, bool) {
	m, err := b.media(ctx, conf, false)
	if err != nil {
		return nil, false
	}
	if _, ok := m.(remote); ok {
		return nil, false
	}
	chs, ok := b.SFU.Channels(conf, mt)
	if !ok {
		return nil, false
	}
	out := make([]media.Channel, len(chs))
	for i, c := range chs {
		out[i] = media.Channel{Kind: channelKinds[c.Kind], Send: c.Send, MimeType: c.MimeType, Fmtp: c.Fmtp,
			Width: c.Width, Height: c.Height, Bitrate: c.Bitrate, LossPct: c.LossPct, JitterMs: c.JitterMs, Reported: c.Reported}
	}
	return out, true
}

var channelKinds = map[sfu.ChannelKind]media.ChannelKind{
	sfu.ChannelAudio: media.ChannelAudio, sfu.ChannelVideo: media.ChannelVideo, sfu.ChannelScreen: media.ChannelContent,
}

var _ media.BatchDialer = (*Backend)(nil)

// DialBatch calls a batch's numbers as Dial does, in order: SIP terminals
// one by one through the user agent, the others together when Dialled
// places batches (media.BatchDialer), whose writes it returns.
func (b *Backend) DialBatch(ctx context.Context, conf string, calls []media.Call) ([]media.Identity, func(store.Tx) error, error) {
	ids := make([]media.Identity, len(calls))
	var rest []media.Call
	var at []int // indexes of rest in calls
	var placed []media.Call
	fail := func(err error) ([]media.Identity, func(store.Tx) error, error) {
		// No call of a failed batch stays placed (media.BatchDialer).
		for _, c := range placed {
			_ = b.Hangup(context.WithoutCancel(ctx), conf, c.MtID)
		}
		return nil, nil, err
	}
	for i, c := range calls {
		if b.SIP != nil && b.SIP.Routes(ctx, c.Callee) {
			id, err := b.dialSIP(ctx, conf, c.MtID, c.Callee)
			if err != nil {
				return fail(err)
			}
			ids[i], placed = id, append(placed, c)
			continue
		}
		rest, at = append(rest, c), append(at, i)
	}
	bd, ok := b.Dialled.(media.BatchDialer)
	if !ok || len(rest) == 0 {
		for k, c := range rest {
			id, err := b.Dialled.Dial(ctx, conf, c.MtID, c.Callee)
			if err != nil {
				return fail(err)
			}
			ids[at[k]], placed = id, append(placed, c)
		}
		return ids, nil, nil
	}
	got, write, err := bd.DialBatch(ctx, conf, rest)
	if err != nil {
		return fail(err)
	}
	for k, id := range got {
		ids[at[k]] = id
	}
	return ids, write, nil
}

// Hangup ends a SIP call (CANCEL or BYE, and its bridge), closes a
// participant's sessions, or hangs up a dialled call.
func (b *Backend) Hangup(ctx context.Context, conf, mt string) error {
	if b.SIP != nil && b.SIP.Hangup(conf, mt) {
		return nil
	}
	m, err := b.media(ctx, conf, false)
	if err != nil {
		return err
	}
	if err := m.Hangup(conf, mt); !errors.Is(err, sfu.ErrNotFound) {
		return err
	}
	return b.Dialled.Hangup(ctx, conf, mt)
}

// Apply applies a per-terminal control: those the SFU acts on
// (terminalControls: mute, silence and video off act on what the SFU
// forwards) reach the SFU of the conference's media owner, kept for a
// participant who joins later under that mt_id; every control also
// reaches the dialled plane.
func (b *Backend) Apply(ctx context.Context, conf, mt string, c media.Control) error {
	if b.SIP != nil {
		handled, err := b.SIP.Apply(conf, mt, c)
		if !handled && (c.Kind == media.ControlCamera || c.Kind == media.ControlKeyFrame) {
			handled, err = b.remoteSIPApply(ctx, conf, mt, c) // a SIP call of the owner node
		}
		if handled && err != nil {
			return err // camera control of a SIP terminal (FECC): unsupported
		}
	}
	var err error
	if apply := terminalControls[c.Kind]; apply != nil {
		var m Controls
		if m, err = b.media(ctx, conf, true); err == nil {
			err = apply(m, conf, mt, c)
		}
	}
	return errors.Join(err, b.Dialled.Apply(ctx, conf, mt, c))
}

// remoteSIPApply passes a SIP control to the owner node, when another
// node owns the conference's media.
func (b *Backend) remoteSIPApply(ctx context.Context, conf, mt string, c media.Control) (bool, error) {
	m, err := b.media(ctx, conf, false)
	if err != nil {
		return false, err
	}
	if r, ok := m.(remote); ok {
		return r.SIPApply(conf, mt, c)
	}
	return false, nil
}

// SetBroadcast tells the SFU whom everyone sees: the speaker, else the
// member the conference poll shows, and the composition's panes.
func (b *Backend) SetBroadcast(ctx context.Context, conf string, bc media.Broadcast) error {
	s := sfu.Broadcast{Speaker: bc.Speaker, Layout: bc.Layout, Chairman: bc.Chairman, ShowNames: bc.ShowNames}
	if s.Speaker == "" {
		s.Speaker = bc.Poll
	}
	s.Panes = panesByIndex(bc.Panes)
	for _, sc := range bc.Selves {
		s.Selves = append(s.Selves, sfu.SelfComposition{MtID: sc.MtID, Wall: sc.Wall, Layout: sc.Layout,
			Panes: panesByIndex(sc.Panes), ShowNames: sc.ShowNames})
	}
	m, err := b.media(ctx, conf, true)
	if err == nil {
		err = m.SetBroadcast(conf, s)
	}
	return errors.Join(err, b.Dialled.SetBroadcast(ctx, conf, bc))
}

// panesByIndex are a composition's panes as mt_ids by channel index (""
// an empty pane); nil for none.
func panesByIndex(panes []media.Pane) []string {
	var out []string
	for _, p := range panes {
		for len(out) <= p.Index {
			out = append(out, "")
		}
		if p.Index >= 0 {
			out[p.Index] = p.MtID
		}
	}
	return out
}

// SetMix forwards only the mix members' audio while a mix with chosen
// members runs.
func (b *Backend) SetMix(ctx context.Context, conf string, m media.Mix) error {
	var members []string
	if !m.All {
		members = append([]string{}, m.Members...)
	}
	mc, err := b.media(ctx, conf, true)
	if err == nil {
		err = mc.SetMix(conf, members, m.Smart)
	}
	return errors.Join(err, b.Dialled.SetMix(ctx, conf, m))
}

// SetDual names the terminal whose screen share is the dual stream.
func (b *Backend) SetDual(ctx context.Context, conf, mt string) error {
	m, err := b.media(ctx, conf, true)
	if err == nil {
		err = m.SetDual(conf, mt)
	}
	return errors.Join(err, b.Dialled.SetDual(ctx, conf, mt))
}

// EndConference closes every session of the conference.
func (b *Backend) EndConference(ctx context.Context, conf string) error {
	if b.SIP != nil {
		b.SIP.EndConference(conf)
	}
	m, err := b.media(ctx, conf, false)
	if err == nil {
		err = m.EndConference(conf)
	}
	if b.Owners != nil && err == nil {
		err = b.Owners.Release(ctx, conf)
	}
	return errors.Join(err, b.Dialled.EndConference(ctx, conf))
}

// RunDue runs the dialled plane's time-driven work (media.DueRunner).
func (b *Backend) RunDue(ctx context.Context) error {
	if d, ok := b.Dialled.(media.DueRunner); ok {
		return d.RunDue(ctx)
	}
	return nil
}
