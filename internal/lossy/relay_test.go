package lossy

import (
	"encoding/binary"
	"net"
	"testing"
	"time"
)

// TestRelayLosesAndReorders: 1000 numbered datagrams through a relay with
// 5 % loss and 20 ms of jitter: about 5 % never arrive, and some arrive
// after a later one.
func TestRelayLosesAndReorders(t *testing.T) {
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	r := New(t, Options{Loss: 0.05, Jitter: 20 * time.Millisecond, Seed: 7})
	r.SetTarget(sink.LocalAddr().(*net.UDPAddr))
	client, err := net.DialUDP("udp4", nil, r.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	const n, batch = 1000, 20
	got, late, last := 0, 0, -1
	buf := make([]byte, 16)
	for i := 0; i < n; i += batch {
		// A batch at a time: the sink's socket buffer holds it.
		for k := i; k < i+batch; k++ {
			var b [4]byte
			binary.BigEndian.PutUint32(b[:], uint32(k))
			if _, err := client.Write(b[:]); err != nil {
				t.Fatal(err)
			}
		}
		for {
			if sent, _ := r.Stats(); sent == int64(i+batch) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		for {
			if _, lost := r.Stats(); got+int(lost) == i+batch {
				break
			}
			k, _, err := sink.ReadFromUDP(buf)
			if err != nil {
				t.Fatal(err)
			}
			x := int(binary.BigEndian.Uint32(buf[:k]))
			if x < last {
				late++
			}
			last = max(last, x)
			got++
		}
	}
	_, lost := r.Stats()
	if lost < n*2/100 || lost > n*8/100 {
		t.Errorf("lost %d of %d, want about 5 %%", lost, n)
	}
	if late == 0 {
		t.Error("no datagram was overtaken with 20 ms of jitter")
	}
}
