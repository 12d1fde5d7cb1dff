package compose

import (
	"bytes"
	"testing"

	"github.com/pion/rtp/codecs"
)

// An access unit packetized by pion (no delimiter: pion leaves it out; SPS and PPS aggregated in a STAP-A,
// a large slice in FU-A fragments, a small one alone) comes back whole;
// a lost first fragment is refused instead of making a broken unit.
func TestH264DepackReassemblesAccessUnits(t *testing.T) {
	slice := make([]byte, 3000)
	for i := range slice {
		slice[i] = byte(i*7 + 3)
	}
	slice[0] = 0x65 // IDR slice
	au := append([]byte{0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1f, 0xda, 0, 0, 0, 1, 0x68, 0xce, 0x3c, 0x80}, startCode...)
	au = append(append(au, slice...), 0, 0, 0, 1, 0x41, 0x9a, 0x02)
	pls := (&codecs.H264Payloader{}).Payload(1200, au)
	if len(pls) < 4 {
		t.Fatalf("%d payloads: want a STAP-A or single units and FU-A fragments", len(pls))
	}
	var d h264Depack
	var got []byte
	for _, pl := range pls {
		var err error
		if got, err = d.append(got, pl); err != nil {
			t.Fatalf("payload type %d: %v", pl[0]&0x1f, err)
		}
	}
	if !bytes.Equal(got, au) {
		t.Fatalf("reassembled %d bytes, want the %d of the access unit", len(got), len(au))
	}
	if !h264IDR(got) {
		t.Fatal("the reassembled unit is not seen as an IDR")
	}
	if sps := keyForm("video/h264", got); !bytes.Equal(sps, au[4:9]) {
		t.Fatalf("the unit's stream format is % x, want its SPS % x", sps, au[4:9])
	}
	if f := keyForm("video/h264", au[len(au)-7:]); f != nil {
		t.Fatalf("a unit without an SPS says its format is % x", f)
	}

	// The first fragment of the slice lost: its next fragment is refused.
	d = h264Depack{}
	var lostAt int
	for i, pl := range pls {
		if pl[0]&0x1f == 28 && pl[1]&0x80 != 0 {
			lostAt = i
			break
		}
	}
	if _, err := d.append(nil, pls[lostAt+1]); err == nil {
		t.Fatal("a fragment without its start was taken")
	}
}
