package robust

import (
	"sort"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// platformWide are the endpoints whose path names something every user
// domain shares, by design. They are still called with domain A's values
// and their replies must not show any of A's objects.
var platformWide = map[string]string{
	"system.token.heartbeat":                            "an account_token belongs to the API license, not to a user domain (seed 000 \"Authentication\")",
	"nms.platform_domains.physicals.list":               "the platform domain is shared by every user domain (docs/nms.md)",
	"nms.platform_domains.logicals.list":                "the platform domain is shared by every user domain (docs/nms.md)",
	"nms.platform_domains.mediaresources.get":           "the platform domain is shared by every user domain (docs/nms.md)",
	"nms.physicals.logicals.list":                       "servers are platform devices (docs/nms.md)",
	"nms.physicals.detail.get":                          "servers are platform devices (docs/nms.md)",
	"nms.mediaresources.portinfo.get":                   "media resources are platform devices (docs/nms.md)",
	"nms.servers.unrepaired_warnings.list":              "servers are platform devices (docs/nms.md)",
	"nms.service_domains.terminal_online_statistic.get": "the one service domain holds every user domain; the statistics are the caller's domain's (docs/nms.md)",
	"nms.service_domains.meetings.list":                 "the one service domain holds every user domain; the meetings are the caller's domain's (docs/nms.md)",
}

// ownActions are the lists that show the caller's domain's own requests,
// whose parameters B chose: B's attempts on A's ids are B's actions. Their
// entries must all be B's (checked by account), not free of A's ids.
var ownActions = map[string]bool{
	"amc.audit.list": true, // the stored audit trail (docs/operations.md "Audit trail")
}

// notFound are the codes that say "does not exist" or "no permission"
// (docs/errors.md; vrs codes from reference A5).
var notFound = map[int]bool{
	12103: true, // conference does not exist
	12104: true, // terminal does not exist
	12105: true, // TV wall does not exist
	19001: true, // user does not exist
	19903: true, // group (department) does not exist
	20005: true, // no permission
	22008: true, // device does not exist
	24018: true, // meeting file does not exist
	24203: true, // room does not exist (vrs)
	99992: true, // user domain does not exist
	99996: true, // virtual meeting room does not exist
	99998: true, // template does not exist
	8:     true, // vrs: wrong input (an unknown folder)
	9:     true, // vrs: no permission
	32:    true, // vrs: program does not exist
	24104: true, // vrs_id is not a recording server of the caller's domain (vc recorders)
}

// namesPathParam tells whether a 90400 reply refuses a path parameter
// itself, the way some modules answer an unknown object.
func namesPathParam(rep reply, params []string) bool {
	d, _ := rep.body["description"].(string)
	for _, p := range params {
		if strings.HasPrefix(d, "parameter "+p+":") && strings.Contains(d, "does not exist") {
			return true
		}
	}
	return false
}

// TestIsolation checks that user domains do not see each other. Domain A
// holds an object of every kind a catalogue path names; for every endpoint
// whose path names an object, B's administrator calls it with A's ids and
// must get "does not exist" or "no permission", never success, and no
// reply may show A's objects. B's list replies show none of A's objects,
// also when B passes A's ids as query parameters. The endpoints come from
// the catalogue, so a new one is covered (or fails, when its path
// parameter has no fixture yet) without a change here.
func TestIsolation(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		alice := env.Account(t, "domain-a", "alice", true)
		alice.Level = "3"
		bob := env.Account(t, "domain-b", "bob", true)
		bob.Level = "3"
		a := build(t, env, alice, "alice", "alpha", 1)
		a.platformIDs(t, env.LoggedIn(t)) // the platform's administrator (docs/nms.md)
		cb, ca := newCaller(env, bob), newCaller(env, alice)
		gb := &gen{w: a, token: bob.Token} // B's requests carrying A's ids

		// What would betray A's data: the names of its objects and the ids
		// long enough not to occur by chance. A reply may echo an id the
		// request itself sent ("conference 1110001 does not exist").
		markers := append([]string{}, a.names...)
		for k, id := range a.ids {
			if len(id) >= 6 && k != "hdu" && k != "p_server_moid" && k != "server_moid" && k != "mediaresource_moid" && k != "monitor_ip" {
				markers = append(markers, id)
			}
		}
		markers = append(markers, a.domain)
		leak := func(r request, rep reply) string {
			for _, m := range markers {
				if strings.Contains(string(rep.raw), m) && !strings.Contains(r.path+r.query+string(r.body), m) {
					return m
				}
			}
			return ""
		}

		named, lists, seen := 0, 0, 0
		var names []string
		for i := range catalog.All() {
			ep := &catalog.All()[i]
			if !ep.ExistsAt(release.Latest) || ep.MinLevel > release.Latest.Level() {
				continue // answers 90505 to every caller
			}
			params := pathParams(ep.Path)
			if len(params) == 0 {
				continue
			}
			for _, p := range params {
				if a.pathValue(ep, p, alice.Token) == "" {
					t.Errorf("%s: no fixture for path parameter %s: give the world of internal/robust one", ep.Name, p)
				}
			}
			named++
			names = append(names, ep.Name)
			path := fillPath(ep.Path, func(n string) string { return a.pathValue(ep, n, alice.Token) }, false)
			body := gb.object(ep.Params, true)
			if dst, ok := body["dst"].(map[string]any); ok && dst["mt_id"] != nil {
				dst["mt_id"] = "3" // a terminal cannot view itself
			}
			r := gb.encode(ep, path, body, nil)
			rep := cb.send(r.method, r.path, r.query, r.body, r.ctype, nil)
			if msg := envelopeProblem(rep); msg != "" {
				t.Errorf("%s as B: %s", ep.Name, msg)
				continue
			}
			if m := leak(r, rep); m != "" {
				t.Errorf("%s as B with A's ids shows A's %q: %.300s", ep.Name, m, rep.raw)
			}
			if why, ok := platformWide[ep.Name]; ok {
				t.Logf("%s: platform-wide (%s): %.80s", ep.Name, why, rep.raw)
				continue
			}
			if rep.code() == wire.CodeInvalidParam && namesPathParam(rep, params) {
				continue // e.g. "parameter id: meeting-room area 1 does not exist" (mc areas)
			}
			if rep.ok() || !notFound[rep.code()] {
				t.Errorf("%s as B with A's ids = %.300s, want a does-not-exist or no-permission code", ep.Name, rep.raw)
			}
		}
		for name := range platformWide {
			if _, ok := catalog.Lookup(name); !ok {
				t.Errorf("platformWide names %s, which the catalogue lacks", name)
			}
		}

		// Lists (GET without path parameters): B's replies show nothing of
		// A, with neutral parameters and with A's ids as parameters. A's own
		// replies show A's objects, so the check has teeth.
		neutral := &gen{w: &world{domain: "", ids: map[string]string{"folder": "1"}}, token: bob.Token}
		for i := range catalog.All() {
			ep := &catalog.All()[i]
			if ep.Method != "GET" || ep.Public || len(pathParams(ep.Path)) > 0 || !ep.ExistsAt(release.Latest) || ep.MinLevel > release.Latest.Level() {
				continue
			}
			lists++
			for _, g := range []*gen{neutral, gb} {
				r := g.encode(ep, ep.Path, g.object(ep.Params, false), nil)
				rep := cb.send(r.method, r.path, r.query, r.body, r.ctype, nil)
				if msg := envelopeProblem(rep); msg != "" {
					t.Errorf("%s as B: %s", ep.Name, msg)
				} else if ownActions[ep.Name] {
					entries, _ := rep.body["entries"].([]any)
					for _, e := range entries {
						if acct := e.(map[string]any)["account"]; acct != "bob" {
							t.Errorf("%s as B shows an action of %v: %v", ep.Name, acct, e)
						}
					}
				} else if m := leak(r, rep); m != "" {
					t.Errorf("%s as B shows A's %q: %.300s", ep.Name, m, rep.raw)
				}
			}
			ga := &gen{w: &world{domain: a.domain, ids: map[string]string{"folder": "1"}}, token: alice.Token}
			r := ga.encode(ep, ep.Path, ga.object(ep.Params, false), nil)
			if rep := ca.send(r.method, r.path, r.query, r.body, r.ctype, nil); leak(r, rep) != "" {
				seen++
			}
		}
		if seen < 10 {
			t.Errorf("only %d of %d lists show A's objects to A: the markers are wrong", seen, lists)
		}
		sort.Strings(names)
		t.Logf("%d endpoints name an object, %d platform-wide; %d lists (%d show A's objects to A)", named, len(platformWide), lists, seen)
	})
}
