package robust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testserver"
)

// caller sends raw requests as a logged-in account (token and session
// cookie) and never fails the test itself: the checks decide what a reply
// may be.
type caller struct {
	base   string
	token  string
	cookie string
	level  string
	hc     *http.Client
}

func newCaller(env *testserver.Env, c *testserver.Client) *caller {
	return &caller{base: env.URL, token: c.Token, cookie: c.Cookie, level: "3",
		hc: &http.Client{Timeout: 30 * time.Second}}
}

// reply is what came back.
type reply struct {
	status int
	raw    []byte
	body   map[string]any
	err    error // transport error or a body that is not a JSON object
}

func (r reply) ok() bool { return r.body["success"] == float64(1) }

func (r reply) code() int {
	if v, ok := r.body["error_code"].(float64); ok {
		return int(v)
	}
	return -1
}

// send sends method to rawPath (already escaped: it may carry %00, %FF or
// ..) with an optional body and headers.
func (c *caller) send(method, rawPath, rawQuery string, body []byte, ctype string, header map[string]string) reply {
	target := c.base + rawPath
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		return reply{err: fmt.Errorf("build request: %w", err)}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if c.cookie != "" {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.cookie})
	}
	if c.level != "" {
		req.Header.Set("API-Level", c.level)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return reply{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, raw: raw, err: err}
	if err == nil {
		if jerr := json.Unmarshal(raw, &r.body); jerr != nil || r.body == nil {
			r.err = fmt.Errorf("reply is not a JSON object: %.200q", raw)
		}
	}
	return r
}

// envelopeProblem tells what is wrong with a reply as a platform envelope
// (seed 000 "Common rules": success, and on failure error_code and a
// description that ends with the code), "" when nothing.
func envelopeProblem(r reply) string {
	switch {
	case r.err != nil:
		return r.err.Error()
	case r.status != http.StatusOK:
		return fmt.Sprintf("HTTP %d", r.status)
	}
	s, ok := r.body["success"].(float64)
	if !ok || (s != 0 && s != 1) {
		return fmt.Sprintf("success is %v", r.body["success"])
	}
	if s == 1 {
		return ""
	}
	code := r.code()
	d, _ := r.body["description"].(string)
	if code <= 0 || !strings.HasSuffix(d, fmt.Sprintf("(%d)", code)) {
		return fmt.Sprintf("failure without a proper error_code and description: %.200s", r.raw)
	}
	return ""
}

// mustJSON marshals v or fails the test.
func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
