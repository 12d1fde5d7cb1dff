package sfu

import "github.com/pion/webrtc/v4"

// CapVideo caps the bitrate of the video a local endpoint receives (a SIP
// terminal's b=TIAS, b=AS or TMMBR; docs/sip-media.md "Bandwidth"): of a
// simulcast source the highest layer whose bitrate fits is forwarded
// (layerBitrate), switched on that layer's next key frame; a source of
// one layer is forwarded as it is (no transcoding) and its publisher is
// asked for the least cap of its subscribers (receiver_cap.go). bps <= 0
// lifts the cap. The dual stream is not capped.
func (l *Local) CapVideo(bps int) {
	layer := layerHigh
	if bps > 0 {
		layer = layerLow
		for i := layerHigh; i > layerLow; i-- {
			if layerBitrate[i] <= bps {
				layer = i
				break
			}
		}
	}
	for _, d := range l.sess.downs {
		if d.kind == webrtc.RTPCodecTypeVideo && d.mode != srcDual {
			d.setMaxLayer(layer)
			d.capBps.Store(int64(max(bps, 0)))
			d.mu.Lock()
			src := d.src
			d.mu.Unlock()
			src.updateCap()
		}
	}
}
