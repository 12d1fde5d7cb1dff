package validate

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
)

// BenchmarkCheckConfCreate validates a conference creation with eight
// invited members against the catalogue's mc.confs.create.
func BenchmarkCheckConfCreate(b *testing.B) {
	ep, ok := catalog.Lookup("mc.confs.create")
	if !ok {
		b.Fatal("no mc.confs.create in the catalogue")
	}
	var members []string
	for i := 1; i <= 8; i++ {
		members = append(members, `{"name":"Room","account":"10.0.0.`+string(rune('0'+i))+`","account_type":7,"protocol":0}`)
	}
	params := `{"create_type":1,"name":"Weekly sync","duration":60,"bitrate":2048,"call_mode":2,"max_join_mt":32,` +
		`"video_formats":[{"format":4,"resolution":12,"frame":30,"bitrate":2048}],"invite_members":[` + strings.Join(members, ",") + `]}`
	r, _ := http.NewRequest("POST", "/api/v1/mc/confs", strings.NewReader(url.Values{"params": {params}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	a, err := wire.ReadArgs(r, wire.DefaultMaxBody)
	if err != nil {
		b.Fatal(err)
	}
	if ps := Check(ep, a); len(ps) > 0 {
		b.Fatalf("valid request refused: %v", ps)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Check(ep, a)
	}
}
