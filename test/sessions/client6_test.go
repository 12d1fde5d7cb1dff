package sessions

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
)

// TestPublishedClient6 plays the session of a published Python client of
// the 6.x platform (issue 21 item 5): it sends API-Level 3, creates an
// instant conference with a start_time, which the platform's creation does
// not have and ignores (reference 04 "创建会议"), adds a terminal without
// call_mode, starts its dual stream 3 s later, hangs it up and ends the
// conference.
func TestPublishedClient6(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) { client6(t, dsn) })
}

func client6(t *testing.T, dsn string) {
	s := start(t, dsn, "6.1.0.4.0", "3")
	s.login()
	id, _ := s.call("create", "POST", "/api/v1/mc/confs", map[string]any{"name": "weekly", "start_time": "2026-11-25 05:10:00",
		"location": "room 3", "duration": 240, "conf_type": 0}, has("conf_id:s", "meeting_id:s"))["conf_id"].(string)
	conf := "/api/v1/vc/confs/" + id
	s.call("info", "GET", conf, nil, equals("name", "weekly"), equals("duration", 240), equals("call_mode", 2))
	s.call("add terminal", "POST", conf+"/mts", map[string]any{"mts": []any{mtEntry(terminals[0])}}, equals("error_code", 0), has("mts.mt_id:i")) // an integer here (reference 05 "批量添加终端")
	list := s.call("terminals", "GET", conf+"/mts", nil, count("mts", 1))
	mt := mtID(list, terminals[0])
	s.env.Advance(t, time.Second) // 3 s after adding
	s.call("dual stream", "PUT", conf+"/dualstream", map[string]any{"mt_id": mt})
	s.call("dual stream?", "GET", conf+"/dualstream", nil, equals("mt_id", mt))
	s.call("hang up", "DELETE", conf+"/online_mts", mts(mt))
	s.call("end", "DELETE", "/api/v1/mc/confs/"+id, nil)
	s.call("list", "GET", "/api/v1/vc/confs", nil, count("confs", 0))
	s.report("6.x client, API-Level 3")
}
