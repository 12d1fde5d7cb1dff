package compose

import "errors"

// h264Depack reassembles H.264 RTP payloads (RFC 6184: single NAL
// units, STAP-A, FU-A; packetization mode 0 and 1) into an Annex-B
// access unit, appending to the frame being assembled instead of
// returning a new slice for each packet as pion's H264Packet does: the
// compositor reassembles every pane's packets (about 4 % of its Go
// profile went to those allocations and copies).
type h264Depack struct {
	inFU bool // a fragmented unit is open
}

var errH264Payload = errors.New("compose: malformed or unsupported H.264 RTP payload")

// startCode precedes each NAL unit in Annex-B.
var startCode = []byte{0, 0, 0, 1}

// append appends the NAL units of payload to frame.
func (d *h264Depack) append(frame, payload []byte) ([]byte, error) {
	if len(payload) == 0 {
		return frame, nil
	}
	switch t := payload[0] & 0x1f; {
	case t >= 1 && t <= 23:
		if d.inFU {
			return frame, errH264Payload // the open unit lost its end
		}
		return append(append(frame, startCode...), payload...), nil
	case t == 24: // STAP-A: 16-bit sizes, each followed by a NAL unit
		if d.inFU {
			return frame, errH264Payload
		}
		for b := payload[1:]; len(b) > 0; {
			if len(b) < 2 {
				return frame, errH264Payload
			}
			n := int(b[0])<<8 | int(b[1])
			if n == 0 || 2+n > len(b) {
				return frame, errH264Payload
			}
			frame = append(append(frame, startCode...), b[2:2+n]...)
			b = b[2+n:]
		}
		return frame, nil
	case t == 28: // FU-A
		if len(payload) < 2 {
			return frame, errH264Payload
		}
		start, end := payload[1]&0x80 != 0, payload[1]&0x40 != 0
		switch {
		case start && d.inFU, !start && !d.inFU:
			return frame, errH264Payload // a fragment lost before
		case start:
			frame = append(append(frame, startCode...), payload[0]&0xe0|payload[1]&0x1f)
		}
		d.inFU = !end
		return append(frame, payload[2:]...), nil
	default:
		return frame, errH264Payload
	}
}
