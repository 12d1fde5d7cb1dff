package sfu

import (
	"testing"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// Media flows through the ICE UDP port read and written in batches
// (the default), and through pion's plain path with PlainUDP; the port's
// counts say which one carried it.
func TestBatchedUDPPort(t *testing.T) {
	t.Parallel()
	for _, plain := range []bool{false, true} {
		name := map[bool]string{false: "batched", true: "plain"}[plain]
		t.Run(name, func(t *testing.T) {
			rg := newRig(t, func(c *Config) { c.PlainUDP = plain })
			a := rg.publish("c1", idA, false, "")
			a.run(idA, &sendOpts{level: 30})
			sub := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
			sub.flowing(t, "audio/65", 50)
			sub.flowing(t, "video/65", 50)
			st := rg.sfu.Stats().UDP
			switch {
			case plain || !udpbatch.Supported:
				if st != (udpbatch.Stats{}) {
					t.Errorf("plain port counted %+v", st)
				}
			case st.Read < 100 || st.Wrote < 100 || st.ReadCalls > st.Read || st.WriteCalls > st.Wrote:
				t.Errorf("batched port: %+v", st)
			default:
				t.Logf("batched port: %+v", st)
			}
		})
	}
}
