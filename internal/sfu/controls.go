package sfu

import "slices"

// Engine -> media controls. Each acts at once on what is forwarded; a
// control for a conference without participants yet is kept for them.

// change applies f to the conference's settings and re-points every down
// track.
func (s *SFU) change(confID string, f func(rm *room)) error {
	rm := s.room(confID, true)
	if rm == nil {
		return ErrClosed
	}
	rm.mu.Lock()
	f(rm)
	rm.bump()
	rm.mu.Unlock()
	rm.rewire()
	return nil
}

func (s *SFU) setFlag(confID, mtID string, set func(*flags)) error {
	return s.change(confID, func(rm *room) { set(rm.flagsOf(mtID)) })
}

// SetMute stops (or resumes) forwarding mtID's audio to everyone.
func (s *SFU) SetMute(confID, mtID string, on bool) error {
	return s.setFlag(confID, mtID, func(f *flags) { f.muted = on })
}

// SetSilence stops (or resumes) forwarding anything to mtID.
func (s *SFU) SetSilence(confID, mtID string, on bool) error {
	return s.setFlag(confID, mtID, func(f *flags) { f.silenced = on })
}

// SetVideoOff stops (or resumes) forwarding mtID's camera video.
func (s *SFU) SetVideoOff(confID, mtID string, on bool) error {
	return s.setFlag(confID, mtID, func(f *flags) { f.videoOff = on })
}

// SetVolume sets the loudspeaker volume (0..35) mtID's page plays the
// conference at (the page's state, docs/join-page.md).
func (s *SFU) SetVolume(confID, mtID string, volume int) error {
	return s.setFlag(confID, mtID, func(f *flags) { f.volume = &volume })
}

// SetBroadcast sets the speaker and the composition the pages render.
func (s *SFU) SetBroadcast(confID string, b Broadcast) error {
	b.Panes = append([]string(nil), b.Panes...)
	b.Selves = slices.Clone(b.Selves)
	for i := range b.Selves {
		b.Selves[i].Panes = slices.Clone(b.Selves[i].Panes)
	}
	return s.change(confID, func(rm *room) { rm.bc = b })
}

// SetMix forwards only the members' audio; nil forwards everyone's. The
// mixed endpoints hear the members, or with smart the loudest
// Config.MixTalkers of them (mix.go).
func (s *SFU) SetMix(confID string, members []string, smart bool) error {
	var mix map[string]bool
	if members != nil {
		mix = make(map[string]bool, len(members))
		for _, m := range members {
			mix[m] = true
		}
	}
	return s.change(confID, func(rm *room) { rm.mix, rm.mixSmart = mix, smart })
}

// SetDual makes mtID's screen share the dual stream ("" for none). One
// source at a time: the screen shares of other participants end (their
// pages see the share stop, a local member's OnScreenStopped is called;
// Events hears nothing, the engine ordered it).
func (s *SFU) SetDual(confID, mtID string) error {
	var stop []*session
	err := s.change(confID, func(rm *room) {
		rm.dual = mtID
		for x := range rm.sessions {
			switch {
			case x.member == nil || x.member.mtID == mtID:
			case x.local != nil:
				rm.dropLocalScreen(x) // a SIP terminal's content ends, not its call
			case x.dual && !x.whep:
				stop = append(stop, x)
			}
		}
	})
	for _, x := range stop {
		x.close(endEngine)
	}
	return err
}

// Hangup ends mtID's sessions; Events.Left is not called.
func (s *SFU) Hangup(confID, mtID string) error {
	rm := s.room(confID, false)
	if rm == nil {
		return ErrNotFound
	}
	rm.mu.Lock()
	m := rm.members[mtID]
	if m != nil {
		rm.removed[mtID] = true // its page says the chair removed it
	}
	rm.mu.Unlock()
	if m == nil {
		return ErrNotFound
	}
	m.owner.close(endEngine)
	return nil
}

// EndConference ends every session of the conference and forgets its
// settings; Events.Left is not called.
func (s *SFU) EndConference(confID string) error {
	s.mu.Lock()
	rm := s.rooms[confID]
	delete(s.rooms, confID)
	s.mu.Unlock()
	if rm == nil {
		return nil
	}
	rm.mu.Lock()
	var all []*session
	for x := range rm.sessions {
		all = append(all, x)
	}
	rm.mu.Unlock()
	for _, x := range all {
		x.close(endEngine)
	}
	rm.mu.Lock()
	rm.bump() // wakes the pages' long polls: the room is gone
	rm.mu.Unlock()
	return nil
}
