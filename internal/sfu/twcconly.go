package sfu

import (
	"github.com/pion/interceptor"
	"github.com/pion/sdp/v3"
)

// twccOnlyFactory gives a subscriber's bandwidth estimator (pion's cc
// interceptor running GCC) only the streams stamped with transport-wide
// sequence numbers: the video. GCC records every packet it is handed, with
// two allocations each, and a subscriber's audio, not stamped
// (config.go newAPI), tells it nothing the estimate uses (issue 43:
// no allocation per forwarded audio packet).
type twccOnlyFactory struct{ inner interceptor.Factory }

func (f twccOnlyFactory) NewInterceptor(id string) (interceptor.Interceptor, error) {
	i, err := f.inner.NewInterceptor(id)
	if err != nil {
		return nil, err
	}
	return twccOnly{i}, nil
}

type twccOnly struct{ interceptor.Interceptor }

func stamped(info *interceptor.StreamInfo) bool {
	for _, e := range info.RTPHeaderExtensions {
		if e.URI == sdp.TransportCCURI {
			return true
		}
	}
	return false
}

func (t twccOnly) BindLocalStream(info *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	if !stamped(info) {
		return w
	}
	return t.Interceptor.BindLocalStream(info, w)
}

func (t twccOnly) UnbindLocalStream(info *interceptor.StreamInfo) {
	if stamped(info) {
		t.Interceptor.UnbindLocalStream(info)
	}
}
