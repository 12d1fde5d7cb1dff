package engine

import "unicode/utf8"

// The running recordings of a conference (vc's rec*.go), typed as the
// other own members (own.go): decoded once into Conference.Recorders and
// written back under their stored name, vc_recorders, in the same form,
// so that the stored JSON keeps its shape and its bytes. vrs reads them
// too (its live rooms and its count of the platform's recordings).

// Recording is a running recording, an element of vc_recorders: {rec_id,
// video_name, recorder_type, vrs_id, members, state, started_at,
// paused_at, paused_ms, publish_mode, watermark, anonymous,
// recorder_mode, main_stream, dual_stream}, with x_confer_rtmp_url for a
// broadcast pushed to RTMP and x_confer_parts once the media side records
// it (neither is shown in the platform's replies).
type Recording struct {
	RecID        string   // rec_id: a numeric string, unique across conferences
	VideoName    string   // video_name
	RecorderType int      // recorder_type: 1 the conference, 2 terminals
	VrsID        string   // vrs_id: the recording server
	Members      []string // members: [{mt_id}], the terminals of a terminal recording
	State        int      // state: 1 recording, 2 paused
	StartedAt    int64    // started_at: UNIX ms of the start
	PausedAt     int64    // paused_at: UNIX ms of the current pause, 0 when recording
	PausedMs     int64    // paused_ms: the length of the earlier pauses in ms
	PublishMode  int      // publish_mode
	Watermark    int      // watermark
	Anonymous    int      // anonymous
	RecorderMode int      // recorder_mode: 1 record, 2 live, 3 both
	MainStream   int      // main_stream
	DualStream   int      // dual_stream
	RTMPURL      string   // x_confer_rtmp_url: where a broadcast is pushed; "" not stored
	// Parts (x_confer_parts) are the files the media side records it
	// into, one per node that recorded it (vc's rec_parts.go); nil not
	// stored.
	Parts []RecordingPart
}

// RecordingPart is a part of a recording, stored as {file, node,
// started_at}.
type RecordingPart struct {
	File      string // file: relative to the recordings folder, as created (.webm)
	Node      string // node: the media URL of the node that records it ("" one node)
	StartedAt int64  // started_at: UNIX ms
}

const (
	recordersMember = "vc_recorders"
	rtmpURLMember   = "x_confer_rtmp_url"
	recPartsMember  = "x_confer_parts"
)

func readRecording(v any) (Recording, bool) {
	s := readObj(v)
	r := Recording{RecID: s.str("rec_id"), VideoName: s.str("video_name"), RecorderType: s.int("recorder_type"),
		VrsID: s.str("vrs_id"), State: s.int("state"), StartedAt: int64(s.int("started_at")),
		PausedAt: int64(s.int("paused_at")), PausedMs: int64(s.int("paused_ms")), PublishMode: s.int("publish_mode"),
		Watermark: s.int("watermark"), Anonymous: s.int("anonymous"), RecorderMode: s.int("recorder_mode"),
		MainStream: s.int("main_stream"), DualStream: s.int("dual_stream")}
	var ok bool
	r.Members, ok = storedList(s.o["members"], func(v any) (string, bool) {
		e := readObj(v)
		id := e.str("mt_id")
		return id, e.done()
	})
	s.ok, s.n = s.ok && ok, s.n+1
	if s.has(rtmpURLMember) {
		if r.RTMPURL = s.str(rtmpURLMember); r.RTMPURL == "" {
			return r, false
		}
	}
	if s.has(recPartsMember) {
		r.Parts, ok = storedList(s.o[recPartsMember], func(v any) (RecordingPart, bool) {
			e := readObj(v)
			p := RecordingPart{File: e.str("file"), Node: e.str("node"), StartedAt: int64(e.int("started_at"))}
			return p, e.done()
		})
		s.ok, s.n = s.ok && ok, s.n+1
	}
	return r, s.done()
}

func (r Recording) value() map[string]any {
	members := make([]any, len(r.Members))
	for i, id := range r.Members {
		members[i] = map[string]any{"mt_id": id}
	}
	o := map[string]any{"rec_id": r.RecID, "video_name": r.VideoName, "recorder_type": r.RecorderType, "vrs_id": r.VrsID,
		"members": members, "state": r.State, "started_at": r.StartedAt, "paused_at": r.PausedAt, "paused_ms": r.PausedMs,
		"publish_mode": r.PublishMode, "watermark": r.Watermark, "anonymous": r.Anonymous, "recorder_mode": r.RecorderMode,
		"main_stream": r.MainStream, "dual_stream": r.DualStream}
	if r.RTMPURL != "" {
		o[rtmpURLMember] = r.RTMPURL
	}
	if r.Parts != nil {
		parts := make([]any, len(r.Parts))
		for i, p := range r.Parts {
			parts[i] = map[string]any{"file": p.File, "node": p.Node, "started_at": p.StartedAt}
		}
		o[recPartsMember] = parts
	}
	return o
}

// splitRecorders moves the running recordings out of doc; nil when doc
// has none, or a list of another form (then it stays in doc as it was).
func splitRecorders(doc map[string]any) []Recording {
	l, ok := storedList(doc[recordersMember], readRecording)
	if !ok {
		return nil
	}
	delete(doc, recordersMember)
	return l
}

func recordersValue(l []Recording) []any {
	out := make([]any, len(l))
	for i, r := range l {
		out[i] = r.value()
	}
	return out
}

// cloneRecorders copies the recordings (nil stays nil).
func cloneRecorders(l []Recording) []Recording {
	if l == nil {
		return nil
	}
	out := make([]Recording, len(l))
	for i, r := range l {
		r.Members = append([]string{}, r.Members...) // always stored: read back as a list
		if r.Parts != nil {
			r.Parts = append([]RecordingPart{}, r.Parts...)
		}
		out[i] = r
	}
	return out
}

// recordersValid tells whether the recordings' strings are valid UTF-8.
func recordersValid(l []Recording) bool {
	ok := true
	for _, r := range l {
		ok = ok && utf8.ValidString(r.RecID) && utf8.ValidString(r.VideoName) && utf8.ValidString(r.VrsID) &&
			utf8.ValidString(r.RTMPURL)
		for _, id := range r.Members {
			ok = ok && utf8.ValidString(id)
		}
		for _, p := range r.Parts {
			ok = ok && utf8.ValidString(p.File) && utf8.ValidString(p.Node)
		}
	}
	return ok
}
