package rtc

import (
	"context"

	"github.com/confer-platform/confer/internal/media"
)

var _ media.ParticipantHost = (*Backend)(nil)

// Hosts returns the participants of conf this node's SFU holds; ok is
// false when another node owns the conference's media. A conference no
// node owns is answered here: nothing holds its participants.
func (b *Backend) Hosts(ctx context.Context, conf string) (map[string]bool, bool, error) {
	if b.Owners != nil {
		_, self, err := b.Owners.Owner(ctx, conf, false)
		if err != nil || !self {
			return nil, false, err
		}
	}
	held := map[string]bool{}
	for _, mt := range b.SFU.Participants(conf) {
		held[mt] = true
	}
	return held, true, nil
}
