package sip

// SetJoinedHook runs f when Events.Joined returned a caller's mt_id,
// before the call knows it (the engine already shows the caller online);
// the returned func removes it.
func SetJoinedHook(f func(conf, mt string)) (restore func()) {
	testHookJoined.Store(&f)
	return func() { testHookJoined.Store(nil) }
}

// Acked is how many calls of conf got their ACK: a caller that sent it is
// past its INVITE transaction (a SIPp scenario then waits for its cue).
func (u *UA) Acked(conf string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for _, c := range u.byID {
		c.mu.Lock()
		if c.conf == conf && c.acked {
			n++
		}
		c.mu.Unlock()
	}
	return n
}
