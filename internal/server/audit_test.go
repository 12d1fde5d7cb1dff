package server_test

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// syncBuffer is a log sink the server writes from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The audit trail (docs/operations.md "Audit trail"): a change an
// operator makes, done or refused, is one "audit" line naming the
// account, the action and its objects, and the outcome; reads are not.
func TestAuditTrail(t *testing.T) {
	logs := &syncBuffer{}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Log: logs})
	api := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "Audited", "max_join_mt": 8, "duration": 0}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id, nil))
	testserver.MustOK(t, api.Do("PUT", "/api/v1/vc/confs/"+id+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	api.Do("DELETE", "/api/v1/mc/confs/9999999", nil) // refused: no such conference
	testserver.MustOK(t, api.Do("DELETE", "/api/v1/mc/confs/"+id, nil))

	var lines []string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "msg=audit") {
			lines = append(lines, l)
		}
	}
	want := []*regexp.Regexp{
		regexp.MustCompile(`account=admin domain=\S+ action=mc\.confs\.create client=127\.0\.0\.1 error_code=0`),
		regexp.MustCompile(`action=vc\.confs\.mute\.update client=127\.0\.0\.1 conf_id=` + id + ` error_code=0`),
		regexp.MustCompile(`action=mc\.confs\.delete client=127\.0\.0\.1 conf_id=9999999 error_code=12103`),
		regexp.MustCompile(`action=mc\.confs\.delete client=127\.0\.0\.1 conf_id=` + id + ` error_code=0`),
	}
	if len(lines) != len(want) {
		t.Fatalf("%d audit lines, want %d (no line for the read):\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("audit line %d = %s\nwant it to match %s", i, lines[i], re)
		}
	}
}
