package server_test

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// The push service reads the content of a channel through the server's
// request pipeline (docs/architecture.md "One request pipeline"): a read
// of an endpoint that the emulated release lacks, or with an invalid
// parameter, is refused with the code and description the same GET
// answers over HTTP, and no handler runs.
func TestPushReadsThroughPipeline(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		cases := []struct {
			name, release string
			endpoint      string
			path          map[string]string
			query         url.Values
			http          string // the same GET over HTTP
			code          int
		}{
			{"absent at the release", "5.0.0.4.1", "vc.confs.vad.get", map[string]string{"conf_id": "1234567"}, nil,
				"/api/v1/vc/confs/1234567/vad", wire.CodeNotSupported},
			{"invalid query parameter", "", "vc.confs.list", nil, url.Values{"count": {"many"}},
				"/api/v1/vc/confs?count=many", wire.CodeInvalidParam},
			{"invalid path parameter", "", "vc.confs.get", map[string]string{"conf_id": "12\x00"}, nil,
				"/api/v1/vc/confs/12%00", wire.CodeInvalidParam},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				env := testserver.Start(t, dsn, testserver.Options{Release: tc.release})
				c := env.LoggedIn(t)
				rel := release.Latest
				if tc.release != "" {
					rel = release.MustParse(tc.release)
				}
				if rel.HasLevels() {
					c.Level = strconv.Itoa(rel.Level()) // the level the push service reads at
				}
				want := testserver.MustFail(t, c.Do("GET", tc.http, nil), tc.code)

				_, err := env.Srv.PushResources().Get(context.Background(), "any-domain", tc.endpoint, tc.path, tc.query)
				var we *wire.Error
				if !errors.Is(err, push.ErrGone) || !errors.As(err, &we) {
					t.Fatalf("push read: %v, want the refusal of the pipeline", err)
				}
				if we.Code != tc.code || we.Error() != want {
					t.Errorf("push read refused with %q (%d), HTTP with %q (%d)", we.Error(), we.Code, want, tc.code)
				}
			})
		}
	})
}
