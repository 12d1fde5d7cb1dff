// Package docs_test runs the documents' examples, so that they cannot rot
// (issue 22 item 1): the walk-through of README.md ("A first conversation
// with the API"), then every sh block of docs/mc.md, docs/conferences.md
// and docs/vc.md, each document in a bash of its own against a real
// server (a real HTTP listener on a fresh store: SQLite, and PostgreSQL
// when CONFER_TEST_POSTGRES is set).
package docs_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// documented are the documents whose examples run, each after the
// README's walk-through (which leaves TOKEN and cookies.txt).
var documented = []string{"mc.md", "conferences.md", "vc.md"}

// prelude wraps curl: every request is logged (so the test sees that each
// documented request ran), and a reply with success 0 or a failed
// transfer stops the script. sleep moves the server's clock instead of
// waiting: the test server runs on a fake clock (internal/clock).
const prelude = `set -euo pipefail
curl() {
	local out
	local args="$*"
	printf '%s\n' "${args//$'\n'/ }" >>"$REQUEST_LOG"
	out=$(command curl -sS --fail-with-body "$@") || { printf 'request failed: curl %s\n%s\n' "$*" "$out" >&2; return 1; }
	case $out in *'"success":0'*) printf 'platform refused: curl %s\n=> %s\n' "$*" "$out" >&2; return 1 ;; esac
	printf '%s\n' "${out//$'\n'/ }" >>"$REPLY_LOG"
	printf '%s\n' "$out"
}
sleep() { command curl -sS --fail "$CLOCK_URL?d=$1s" >/dev/null; }
`

var fence = regexp.MustCompile("(?ms)^```sh\n(.*?)^```")

// shellBlocks returns the sh blocks of a Markdown file.
func shellBlocks(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range fence.FindAllStringSubmatch(string(raw), -1) {
		out = append(out, m[1])
	}
	return out
}

// walkThrough is the README's walk-through without its line of
// placeholders (KEY=confer-...), whose values the test supplies.
func walkThrough(t *testing.T) string {
	t.Helper()
	for _, b := range shellBlocks(t, "../README.md") {
		if !strings.Contains(b, "/api/v1/system/token") {
			continue
		}
		var lines []string
		for _, l := range strings.Split(b, "\n") {
			if !strings.HasPrefix(l, "KEY=") {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	t.Fatal("README.md has no walk-through block (POST /api/v1/system/token)")
	return ""
}

func TestExamples(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: the documents' examples are bash")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed: the documents' examples use it (apt-get install curl)")
	}
	readme := walkThrough(t)
	for _, doc := range documented {
		blocks := shellBlocks(t, doc)
		if len(blocks) == 0 {
			t.Fatalf("%s has no sh example", doc)
		}
		t.Run(doc, func(t *testing.T) {
			testdb.Engines(t, func(t *testing.T, dsn string) {
				env := testserver.Start(t, dsn, testserver.Options{})
				clk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					d, err := time.ParseDuration(r.URL.Query().Get("d"))
					if err != nil {
						http.Error(w, err.Error(), http.StatusBadRequest)
						return
					}
					env.Clock.Advance(d)
					if err := env.Srv.Tick(context.Background()); err != nil {
						http.Error(w, err.Error(), http.StatusInternalServerError)
					}
				}))
				defer clk.Close()
				u, _ := url.Parse(env.URL)
				examples := strings.Join(blocks, "\n")
				script := prelude + readme + "\n" + examples
				script = strings.ReplaceAll(script, "localhost:8080", u.Host)
				dir := t.TempDir()
				log, replies := filepath.Join(dir, "requests.log"), filepath.Join(dir, "replies.log")
				cmd := exec.Command(bash, "-c", script)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "REQUEST_LOG="+log, "REPLY_LOG="+replies, "CLOCK_URL="+clk.URL,
					"KEY="+testserver.LicenseKey, "SECRET="+testserver.LicenseSecret, "PASSWORD="+testserver.AdminPassword)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: the examples fail: %v\n%s", doc, err, out)
				}
				// Every documented request ran (a block cut short by an
				// early exit 0 would not).
				raw, _ := os.ReadFile(log)
				ran := strings.Count(string(raw), "\n")
				want := countCurls(readme) + countCurls(examples)
				if ran != want {
					t.Fatalf("%s: %d requests ran, the documents show %d\n%s", doc, ran, want, out)
				}
				// The replies that comments show are the replies (shown
				// fields with shown values; "..." stands for any value).
				raw, _ = os.ReadFile(replies)
				got := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
				for _, s := range shownReplies(readme + "\n" + examples) {
					if s.request >= len(got) {
						t.Fatalf("%s: reply %d shown, %d replies", doc, s.request, len(got))
					}
					for _, pair := range s.pairs {
						if !strings.Contains(got[s.request], pair) {
							t.Errorf("%s: request %d: the reply shown has %s, the reply is %s", doc, s.request+1, pair, got[s.request])
						}
					}
				}
				t.Logf("%s: %d requests succeeded\n%s", doc, ran, out)
			})
		})
	}
}

var curlWord = regexp.MustCompile(`(^|[\s(|;])curl\s`)

// countCurls counts the curl commands of shell text, comments aside.
func countCurls(sh string) int {
	n := 0
	for _, l := range strings.Split(sh, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		n += len(curlWord.FindAllString(l, -1))
	}
	return n
}

// shown is a reply a comment shows ("# {"success":1,...}") after the
// request-th request of a script: its "field":value pairs, each value up
// to the next comma or brace, "..." and nested values aside.
type shown struct {
	request int
	pairs   []string
}

var shownPair = regexp.MustCompile(`"[a-z_]+":("[^"]*"|-?[0-9]+)`)

func shownReplies(sh string) []shown {
	var out []shown
	n := 0
	for _, l := range strings.Split(sh, "\n") {
		t := strings.TrimSpace(l)
		if c, ok := strings.CutPrefix(t, "# {"); ok && n > 0 {
			s := shown{request: n - 1}
			for _, p := range shownPair.FindAllString(c, -1) {
				if !strings.HasSuffix(p, `"..."`) {
					s.pairs = append(s.pairs, p)
				}
			}
			out = append(out, s)
			continue
		}
		if !strings.HasPrefix(t, "#") {
			n += len(curlWord.FindAllString(l, -1))
		}
	}
	return out
}
