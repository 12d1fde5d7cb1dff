package engine

import (
	"encoding/json"
	"testing"
)

// An element of vc_recorders of another form is read leniently: numbers
// and numeric strings swap where the other is stored, members the server
// does not write are ignored, and what is unreadable even so is skipped.
func TestReadRecordingLenient(t *testing.T) {
	for _, tc := range []struct {
		elem   string
		ok     bool
		recID  string
		state  int
		member string
	}{
		{`{"rec_id":7,"state":1}`, true, "7", 1, ""},
		{`{"rec_id":"7","state":"2"}`, true, "7", 2, ""},
		{`{"rec_id":"7","members":[{"mt_id":"3"}],"future":true}`, true, "7", 0, "3"},
		{`{"rec_id":"7","state":"two"}`, false, "", 0, ""},
		{`{"rec_id":{}}`, false, "", 0, ""},
		{`"not a recording"`, false, "", 0, ""},
		{`{"rec_id":7,"state":null,"x_confer_parts":[{"file":"d/7.webm","node":"","started_at":"5"}]}`, true, "7", 0, ""},
		{`{"rec_id":"7","x_confer_rtmp_url":""}`, false, "", 0, ""},
		{`{"rec_id":"7","state":1.5}`, false, "", 0, ""},
		{`{"rec_id":"7","members":[{"mt_id":3}]}`, true, "7", 0, "3"},
	} {
		r, ok := readRecordingLenient(json.RawMessage(tc.elem))
		if ok != tc.ok || ok && (r.RecID != tc.recID || r.State != tc.state || tc.member != "" && (len(r.Members) != 1 || r.Members[0] != tc.member)) {
			t.Errorf("readRecordingLenient(%s) = %+v, %v; want rec_id %q state %d member %q, %v", tc.elem, r, ok, tc.recID, tc.state, tc.member, tc.ok)
		}
	}
}
