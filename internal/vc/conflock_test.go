package vc

import (
	"sync"
	"testing"
)

// One key is held by one caller at a time, other keys are not held up, and
// an entry goes when its last user leaves.
func TestConfLocks(t *testing.T) {
	var c confLocks
	var wg sync.WaitGroup
	inside := map[string]int{}
	var mu sync.Mutex
	for i := 0; i < 64; i++ {
		key := []string{"d/1", "d/2"}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock := c.lock(key)
			mu.Lock()
			inside[key]++
			if inside[key] != 1 {
				t.Errorf("%s held by %d callers", key, inside[key])
			}
			mu.Unlock()
			mu.Lock()
			inside[key]--
			mu.Unlock()
			unlock()
		}()
	}
	wg.Wait()
	// Another key is free while one is held.
	unlock := c.lock("d/1")
	c.lock("d/2")()
	unlock()
	if len(c.m) != 0 {
		t.Fatalf("%d entries left", len(c.m))
	}
}
