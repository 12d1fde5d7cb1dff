package vc_test

import (
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A speaker or chairman set while its terminal leaves (hung up by another
// node) never stays behind: the write holds only while the terminal is
// online, or the leave finds the role stored and clears it
// (control_speaker.go, ctlUpdateOnline).
func TestSpeakerRacesLeave(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		node := ctSecondNode(env)
		for i := 0; i < 15; i++ {
			k := ctStart(t, env, c, 2, 0, nil)
			var wg sync.WaitGroup
			codes := make([]int, 2)
			for j, role := range []string{"/speaker", "/chairman"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					codes[j] = k.c.Do("PUT", k.path(role), testserver.Params(t, map[string]any{"mt_id": "1"})).Code()
				}()
			}
			node.hangup(t, k, "1")
			wg.Wait()
			for j, role := range []string{"/speaker", "/chairman"} {
				if codes[j] != -1 && codes[j] != 20401 { // -1: success
					t.Fatalf("round %d: %s answered %d, want success or 20401", i, role, codes[j])
				}
				cfSame(t, role+" after the terminal left", k.get(t, role)["mt_id"], "")
			}
		}
	})
}
