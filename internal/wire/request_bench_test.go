package wire

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// benchCreateParams is a conference creation with eight invited members,
// as a scheduling portal sends it.
const benchCreateParams = `{"create_type":1,"name":"Weekly sync","duration":60,"bitrate":2048,"call_mode":2,"max_join_mt":32,` +
	`"video_formats":[{"format":4,"resolution":12,"frame":30,"bitrate":2048}],"invite_members":[` +
	`{"name":"Room 1","account":"10.0.0.1","account_type":7,"protocol":0},{"name":"Room 2","account":"10.0.0.2","account_type":7,"protocol":0},` +
	`{"name":"Room 3","account":"10.0.0.3","account_type":7,"protocol":0},{"name":"Room 4","account":"10.0.0.4","account_type":7,"protocol":0},` +
	`{"name":"Room 5","account":"10.0.0.5","account_type":7,"protocol":0},{"name":"Room 6","account":"10.0.0.6","account_type":7,"protocol":0},` +
	`{"name":"Room 7","account":"10.0.0.7","account_type":7,"protocol":0},{"name":"Room 8","account":"10.0.0.8","account_type":7,"protocol":0}]}`

// BenchmarkReadArgsParams decodes a form body carrying params (a POST).
func BenchmarkReadArgsParams(b *testing.B) {
	body := url.Values{"account_token": {"0123456789abcdef0123456789abcdef"}, "params": {benchCreateParams}}.Encode()
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for i := 0; i < b.N; i++ {
		r, _ := http.NewRequest("POST", "/api/v1/mc/confs", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if _, err := ReadArgs(r, DefaultMaxBody); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadArgsQuery decodes a GET's query string.
func BenchmarkReadArgsQuery(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, _ := http.NewRequest("GET", "/api/v1/vc/confs?start=0&count=20&account_token=0123456789abcdef0123456789abcdef", nil)
		if _, err := ReadArgs(r, DefaultMaxBody); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteSuccess encodes a success envelope of a list of 20
// conference-like objects (about 18 KB, as GET /api/v1/vc/confs?count=20).
func BenchmarkWriteSuccess(b *testing.B) {
	confs := make([]any, 20)
	for i := range confs {
		confs[i] = Object{"conf_id": "1110000", "name": "Weekly sync of the platform team", "start_time": "2026-03-01T09:00:00+08:00",
			"end_time": "2026-03-01T10:00:00+08:00", "duration": 60, "bitrate": 2048, "closed_conf": 0, "safe_conf": 0,
			"encrypted_type": 0, "conf_type": 0, "call_mode": 2, "call_times": 3, "call_interval": 20, "mute": 0, "silence": 0,
			"video_quality": 0, "dual_mode": 1, "voice_activity_detection": 0, "cascade_mode": 1, "public_conf": 0,
			"max_join_mt": 8, "auto_end": 0, "creator": Object{"name": "admin", "account": "admin", "account_type": 1, "telephone": "", "mobile": ""},
			"meeting_id": "8a7f0c4e2b1d4c3f9e6a5b4c3d2e1f0a", "conf_level": 3, "video_formats": []any{Object{"format": 4, "resolution": 12, "frame": 30, "bitrate": 2048}}}
	}
	reply := Object{"total": 100, "confs": confs}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		WriteJSON(discardWriter{}, Success(reply))
	}
}

type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (discardWriter) WriteHeader(int)             {}
