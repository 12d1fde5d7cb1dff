package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/engine"
)

// Features is conference control's part in a conference's life, which
// the engine calls (engine.Features): the features a creation set start
// with the conference (create_features.go), a terminal that joins takes
// on the conference's state (join.go) and one that leaves is dropped from
// it (leave.go), link terminals cascade conferences (cascade_link.go), and
// an ended conference's recordings become programs (rec_program.go).
// engine.New receives it (server.NewEngine).
func (m *Module) Features() engine.Features {
	return features{m: m, LocalPeers: engine.LocalPeers{Confs: m.confs}}
}

// features finds the conferences that links call in the engine
// (engine.LocalPeers), without conference control.
type features struct {
	m *Module
	engine.LocalPeers
}

func (f features) Started(_ context.Context, c engine.Conference) engine.Change {
	return f.m.createdStart(c)
}

func (f features) Joined(_ context.Context, c engine.Conf, t engine.Terminal) engine.Change {
	return f.m.onJoin(t)
}

func (f features) Left(_ context.Context, c engine.Conf, mtIDs []string) engine.Change {
	return f.m.onLeave(c, mtIDs)
}

func (f features) Ended(ctx context.Context, c engine.Conference) (engine.Effects, error) {
	return cascadeEnded(c), f.m.TimelineEnded(ctx, c)
}

func (f features) Link(_ context.Context, chain []engine.Conference, sub engine.Conference, linkID string) error {
	return linkRule(chain[0].ID(), chain, sub, linkID)
}

func (f features) VoiceActive(_ context.Context, _ engine.Conf, mt string) engine.Change {
	return f.m.voiceSpeaker(mt)
}

func (f features) DualStarted(_ context.Context, _ engine.Conf, mt string, online bool) engine.Change {
	return mediaDualStarted(mt, online)
}

func (f features) DualStopped(_ context.Context, _ engine.Conf, mt string) engine.Change {
	return mediaDualStopped(mt)
}
