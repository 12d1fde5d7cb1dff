package engine

import "context"

// Features is what conference control (internal/vc) adds to a running
// conference's life: the compositions, mixes, polls and recordings its
// creation set, the conference's state applied to a terminal that joins
// (mute, silence, roles, its places in those features), the same dropped
// when terminals leave, the cascade links between conferences, and what
// must outlive a conference when it ends. The engine calls it at those
// moments; New receives it.
//
// Started, Joined, Left, VoiceActive, DualStarted and DualStopped return
// what they decided (a Change), Ended its Effects, and the engine applies
// it (features_apply.go): conference control does not call the engine
// back on a conference's creation or end, a terminal's arrival or
// departure, a speaker chosen by voice or a dual stream started or
// stopped, so none of these paths enters the engine twice
// (docs/architecture.md "Two call paths, traced").
type Features interface {
	// Started decides how the features that the creation of c set start,
	// when c starts running and before its invitees are called. It may
	// run twice for one start (start_pending.go): it starts only what does
	// not run.
	Started(ctx context.Context, c Conference) Change
	// Joined decides how the conference's state applies to t, whose call
	// was just answered.
	Joined(ctx context.Context, c Conf, t Terminal) Change
	// Left decides how the terminals mtIDs, which have left c's call
	// (hung up or removed), are dropped from the roles and features that
	// held them, the cascades they dissolve (Effects.Hangup,
	// Effects.Detach), the superior's features they leave too
	// (Effects.Leave) and whether c ends with them (Effects.End).
	Left(ctx context.Context, c Conf, mtIDs []string) Change
	// Ended runs after an ended conference's terminals are gone: it keeps
	// what must outlive the conference (running recordings become
	// programs) and returns how its cascades are dissolved (Effects.Hangup,
	// Effects.Detach), which the engine applies. Effects returned with an
	// error are still applied.
	Ended(ctx context.Context, c Conference) (Effects, error)

	// Peers finds the conferences that link terminals call (cascade.go);
	// LocalPeers finds this platform's, without calling conference
	// control.
	Peers
	// Link decides whether the cascade of an answered link terminal
	// linkID may be established (the engine establishes it,
	// cascade_link.go): chain is the superior and the conferences above
	// it, nearest first, sub the subordinate. An error refuses it, and
	// the call fails (wrapped in ErrRefused).
	Link(ctx context.Context, chain []Conference, sub Conference, linkID string) error
	// VoiceActive decides how terminal mt, online, becomes the speaker of
	// c, whose voice activation chose it (voice.go).
	VoiceActive(ctx context.Context, c Conf, mt string) Change
	// DualStarted decides how terminal mt, which started sending a dual
	// stream (media.Events.DualStarted) and is online or not, becomes the
	// source of c's dual stream, or refuses it (a Conf error wrapping
	// media.ErrRefused) under c's rules; DualStopped clears the source if
	// it is mt.
	DualStarted(ctx context.Context, c Conf, mt string, online bool) Change
	DualStopped(ctx context.Context, c Conf, mt string) Change
}

// NoFeatures runs conferences without conference control: nothing starts
// with them, no terminal is a link.
type NoFeatures struct{}

func (NoFeatures) Started(context.Context, Conference) Change    { return Change{} }
func (NoFeatures) Joined(context.Context, Conf, Terminal) Change { return Change{} }
func (NoFeatures) Left(context.Context, Conf, []string) Change   { return Change{} }
func (NoFeatures) Ended(context.Context, Conference) (Effects, error) {
	return Effects{}, nil
}
func (NoFeatures) Find(context.Context, string, string) (Peer, error) { return Peer{}, ErrNoPeer }
func (NoFeatures) Conf(context.Context, string, string) (Conf, bool, error) {
	return Conf{}, false, nil
}
func (NoFeatures) Link(context.Context, []Conference, Conference, string) error {
	return nil
}
func (NoFeatures) VoiceActive(context.Context, Conf, string) Change { return Change{} }
func (NoFeatures) DualStarted(context.Context, Conf, string, bool) Change {
	return Change{}
}
func (NoFeatures) DualStopped(context.Context, Conf, string) Change { return Change{} }
