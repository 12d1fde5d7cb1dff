package sip

import (
	"math"
	"strings"

	"github.com/confer-platform/confer/internal/audio/g711"
)

// G.711 terminals send no RFC 6464 level; the bridge measures it from the
// samples (a G.711 byte decodes by table, no transcoding of the stream) so
// that voice activation sees SIP speakers too. Other codecs (G.722, Opus)
// would need a decoder: their calls report no level (docs/sip.md "Limits").

var ulawTable, alawTable [256]int16

func init() {
	for i := range 256 {
		ulawTable[i] = g711.UlawToLinear(byte(i))
		alawTable[i] = g711.AlawToLinear(byte(i))
	}
}

// g711Level is the RFC 6464 level (0 loudest, 127 silence: -dBov) of a
// G.711 payload; ok false for another codec.
func g711Level(codec string, payload []byte) (uint8, bool) {
	var table *[256]int16
	switch {
	case strings.EqualFold(codec, "PCMU"):
		table = &ulawTable
	case strings.EqualFold(codec, "PCMA"):
		table = &alawTable
	default:
		return 127, false
	}
	if len(payload) == 0 {
		return 127, true
	}
	var sum float64
	for _, b := range payload {
		s := float64(table[b])
		sum += s * s
	}
	rms := math.Sqrt(sum / float64(len(payload)))
	if rms < 1 {
		return 127, true
	}
	db := -20 * math.Log10(rms/32768)
	return uint8(min(max(db, 0), 127)), true
}
