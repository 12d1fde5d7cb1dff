package vc

import "sync"

// confLocks queue this node's read-modify-writes of one conference
// (ctlUpdate): without them, concurrent controls of one conference read
// the same version, one swap wins and the others read and try again, so n
// concurrent controls cost n² reads and decodings (a retry storm:
// server.BenchmarkSpeakerChangeOneConf, docs/benchmarks.md 2026-11-26).
// Writers on other nodes, and the engine's own writes, still meet as a
// conflict and a retry; the swap stays the only guard of correctness.
type confLocks struct {
	mu sync.Mutex
	m  map[string]*confLock
}

type confLock struct {
	mu    sync.Mutex
	users int // holders and waiters; the entry goes when none is left
}

// lock takes the lock of key and returns its release.
func (c *confLocks) lock(key string) func() {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*confLock{}
	}
	l := c.m[key]
	if l == nil {
		l = &confLock{}
		c.m[key] = l
	}
	l.users++
	c.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		c.mu.Lock()
		if l.users--; l.users == 0 {
			delete(c.m, key)
		}
		c.mu.Unlock()
	}
}
