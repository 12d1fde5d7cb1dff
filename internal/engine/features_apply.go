package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// A Change is what a feature hook (Features.Started, Features.Joined)
// decided for a running conference; the engine applies it (Apply), so
// that the hook reads what it needs and returns without calling the
// engine back. The zero Change does nothing.
type Change struct {
	// Conf changes the conference, read afresh for each try, and reports
	// whether to write it; tree is the terminals of its subordinates at
	// every level under their cascaded mt_ids (Tree), read by the engine
	// for a conference with links (nil without); the engine writes it over the version read and
	// runs Conf again after a conflicting write. A conference that has
	// ended meanwhile ends the change without error.
	Conf func(ctx context.Context, c *Conference, tree []Terminal) (bool, error)
	// Effects decides, from the conference as written (or read, when
	// Conf wrote nothing), what the terminals and the media plane are
	// told; tree is its subordinates' terminals, as for Conf. Effects returned with an error are still applied: the error
	// reports what the hook left out.
	Effects func(ctx context.Context, c Conference, tree []Terminal) (Effects, error)
	// Notices, when set, are the notices written with the conference
	// (store.WithNotices) when Conf asks to write it: the engine asks for
	// them after each Conf that does.
	Notices func() []store.Notice
}

// Effects are a feature hook's writes to terminals and controls of the
// media plane, in the order the engine applies them: the parts of the
// recordings started, the dual stream's source, the flags, then what the participants see and hear, then the
// mutes and silences, then the terminals told again, then the cascades
// dissolved, then the superiors' features left, then the conference's
// end.
type Effects struct {
	// Parts are recording files that the hook started on this node; the
	// engine stores each part with its recording (RecordingStarted).
	Parts []RecordingStarted
	// Dual, when set, is the terminal whose dual stream the conference
	// receives ("" none; SetDual).
	Dual *string
	// Flags are terminals' mix and vmp flags to store; a terminal gone
	// meanwhile is skipped, and the first failed write stops the rest.
	Flags []TerminalFlags
	// Broadcast and Mix, when set, are what the participants see and hear
	// (SetBroadcast, SetMix).
	Broadcast *media.Broadcast
	Mix       *media.Mix
	// Mute and Silence are terminals to mute and silence (SetMute,
	// SetSilence); one no longer in the call is skipped.
	Mute, Silence []string
	// Reapply are terminals whose mute, silence and volume the media
	// plane is told again (Reapply).
	Reapply []Terminal
	// Hangup are terminals of other running conferences to hang up, and
	// Detach the subordinates that go on alone (cascade_end.go).
	Hangup []Hangup
	Detach []Detach
	// Leave are terminals that leave another running conference's
	// features too (a subordinate's terminals, under their cascaded
	// mt_ids, in its superior): the engine applies Features.Left for them
	// there. A conference that is not running is skipped.
	Leave []Leave
	// End ends the conference (auto_end, Features.Left); one that has
	// ended meanwhile is left as it is.
	End bool
}

// Leave is terminals MtIDs that left the running conference ConfID of the
// same user domain (Effects.Leave).
type Leave struct {
	ConfID string
	MtIDs  []string
}

// RecordingStarted is a file of the recording RecID that started on this
// node: the engine stores Part with the recording, and pauses the file
// (Run) when the recording is paused meanwhile (a paused recording
// continued by a new owner, docs/recording.md). A recording gone
// meanwhile keeps no file: the engine calls Drop.
type RecordingStarted struct {
	RecID string
	Part  RecordingPart
	Run   media.Running
	Drop  func()
}

// TerminalFlags are a terminal's mix, vmp, dual, inspection, rec and
// upload flags (reference 05 "终端列表" mix "是否在混音中", vmp "是否在画面合成中",
// dual "是否在发送双流", inspection "是否在选看", rec "是否在录像", upload
// "是否在上传"), each written when set.
type TerminalFlags struct {
	MtID                                    string
	Mix, VMP, Dual, Inspection, Rec, Upload model.Opt[int]
}

// apply writes the flags that are set into t's document.
func (f TerminalFlags) apply(t *Terminal) {
	d := &t.Doc
	for _, x := range [...]struct {
		field *model.Opt[int]
		v     model.Opt[int]
	}{{&d.Mix, f.Mix}, {&d.VMP, f.VMP}, {&d.Dual, f.Dual}, {&d.Inspection, f.Inspection}, {&d.Rec, f.Rec}, {&d.Upload, f.Upload}} {
		if x.v.Set {
			*x.field = x.v
		}
	}
}

// apply runs a feature hook's change on the running conference cf. The
// effects go to the conference at the version Conf left it (the media
// plane is told once per version, SetBroadcast).
func (e *Engine) apply(ctx context.Context, cf Conf, ch Change) error {
	if err := e.applyChange(ctx, cf, ch); !errors.Is(err, ErrConfNotFound) {
		return err
	}
	return nil // ended meanwhile
}

// Change runs a change that conference control decided on a request's
// path on the running conference cf, as a feature hook's is run (apply):
// the handler decides what to change, and the engine writes it once. A
// conference that has ended meanwhile ends the change without error.
func (e *Engine) Change(ctx context.Context, cf Conf, ch Change) error { return e.apply(ctx, cf, ch) }

// applyChange is apply reporting a conference that ended meanwhile
// (ErrConfNotFound).
func (e *Engine) applyChange(ctx context.Context, cf Conf, ch Change) error {
	var c Conference
	// The tree read for Conf is the tree for Effects too when the links
	// are the ones it was read by (Conf changes the conference, not the
	// terminals): a conference with links reads it once per change.
	var tree []Terminal
	var treeLinks []CascadeLink
	haveTree := false
	if ch.Conf != nil {
		var err error
		wctx, notes := ctx, (*store.Notices)(nil)
		if ch.Notices != nil {
			wctx, notes = store.WithNotices(ctx)
		}
		change := func(ctx context.Context, c *Conference) (bool, error) {
			t, err := e.treeOf(ctx, *c)
			if err != nil {
				return false, err
			}
			tree, treeLinks, haveTree = t, slices.Clone(c.Links), true
			write, err := ch.Conf(ctx, c, t)
			if write && err == nil && notes != nil {
				notes.Set(ch.Notices()...)
			}
			return write, err
		}
		if c, err = e.changeConf(wctx, cf, change); err != nil {
			return err
		}
		cf = ConfOf(c)
	}
	if ch.Effects == nil {
		return nil
	}
	if !haveTree || !slices.Equal(treeLinks, c.Links) {
		var err error
		if tree, err = e.treeOf(ctx, c); err != nil {
			return err
		}
	}
	eff, err := ch.Effects(ctx, c, tree)
	return errors.Join(err, e.Apply(ctx, cf, eff))
}

// treeOf is the terminals of c's subordinates that a feature hook decides
// from (Tree): none is read for a conference without links.
func (e *Engine) treeOf(ctx context.Context, c Conference) ([]Terminal, error) {
	if len(c.Links) == 0 {
		return nil, nil
	}
	return e.Tree(ctx, ConfOf(c))
}

// changeConf reads the running conference cf, changes it and writes it
// when change asks, again after a conflicting write.
func (e *Engine) changeConf(ctx context.Context, cf Conf, change func(context.Context, *Conference) (bool, error)) (Conference, error) {
	for {
		c, err := e.confs.Get(ctx, cf.DomainMoid, cf.ConfID, StateRunning)
		if err != nil {
			return c, err
		}
		write, err := change(ctx, &c)
		if err != nil || !write {
			return c, err
		}
		err = e.confs.Update(ctx, c)
		switch {
		case errors.Is(err, store.ErrConflict):
			continue
		case errors.Is(err, store.ErrNotFound):
			return c, ConfNotFound(cf.ConfID)
		}
		return c, err
	}
}

// Apply applies a feature's effects to the conference cf (Effects).
func (e *Engine) Apply(ctx context.Context, cf Conf, eff Effects) error {
	for _, p := range eff.Parts {
		if err := e.addPart(ctx, cf, p); err != nil {
			return err
		}
	}
	if eff.Dual != nil {
		if err := e.SetDual(ctx, cf, *eff.Dual); err != nil {
			return err
		}
	}
	for _, f := range eff.Flags {
		_, err := e.Update(ctx, cf, f.MtID, func(t *Terminal) error {
			f.apply(t)
			return nil
		})
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	var errs []error
	if eff.Broadcast != nil {
		errs = append(errs, e.SetBroadcast(ctx, cf, *eff.Broadcast))
	}
	if eff.Mix != nil {
		errs = append(errs, e.SetMix(ctx, cf, *eff.Mix))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, id := range eff.Mute {
		if _, err := e.SetMute(ctx, cf, id, true); err != nil && !errors.Is(err, ErrNotOnline) {
			return err
		}
	}
	for _, id := range eff.Silence {
		if _, err := e.SetSilence(ctx, cf, id, true); err != nil && !errors.Is(err, ErrNotOnline) {
			return err
		}
	}
	for _, t := range eff.Reapply {
		errs = append(errs, e.Reapply(ctx, cf.ConfID, t))
	}
	for _, h := range eff.Hangup {
		errs = append(errs, e.hangupIn(ctx, cf, h))
	}
	for _, d := range eff.Detach {
		errs = append(errs, e.Detach(ctx, cf.DomainMoid, d))
	}
	for _, l := range eff.Leave {
		errs = append(errs, e.leaveIn(ctx, cf, l))
	}
	if eff.End {
		if err := e.confs.End(ctx, cf.DomainMoid, cf.ConfID); !errors.Is(err, ErrConfNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// leaveIn applies Features.Left for terminals that left the running
// conference l.ConfID of cf's user domain (Effects.Leave).
func (e *Engine) leaveIn(ctx context.Context, cf Conf, l Leave) error {
	c, ok, err := e.runningConf(ctx, cf.DomainMoid, l.ConfID)
	if err != nil || !ok {
		return err
	}
	return e.apply(ctx, c, e.features.Left(ctx, c, l.MtIDs))
}

// addPart stores the part of a recording that started on this node with
// the recording, and pauses its file when the recording is paused
// (Recording.State 2).
func (e *Engine) addPart(ctx context.Context, cf Conf, p RecordingStarted) error {
	paused := false
	_, err := e.changeConf(ctx, cf, func(_ context.Context, c *Conference) (bool, error) {
		for i := range c.Recorders {
			if rc := &c.Recorders[i]; rc.RecID == p.RecID {
				rc.Parts = append(rc.Parts, p.Part)
				paused = rc.State == recStatePaused
				return true, nil
			}
		}
		return false, fmt.Errorf("conference %s has no recording %q", cf.ConfID, p.RecID)
	})
	if err != nil {
		if p.Drop != nil {
			p.Drop()
		}
		return err
	}
	if paused && p.Run != nil {
		p.Run.Pause()
	}
	return nil
}
