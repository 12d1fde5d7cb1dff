package console_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// TestConsoleAudit: an administrator reads who did what in the Audit
// section: a conference the console created, a refused end by another
// account; a search for refused actions keeps the refusal (docs/console.md
// "Audit"; the API's side is internal/amc's TestAuditTrail).
func TestConsoleAudit(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "audited", "duration": 0})))["conf_id"].(string)
	carol := env.Account(t, "default", "carol", false)
	testserver.MustFail(t, carol.Do("DELETE", "/api/v1/mc/confs/"+id, nil), wire.CodeNoPermission)

	login(t, ctx, env)
	// The trail is written behind the requests: the page is reloaded by
	// its Search button until both show.
	run(t, ctx, "the audit trail shows both actions",
		press(chromedp.CSS(`a[href="#/audit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.audit`)),
		until(`(document.getElementById('audit-search').click(), document.querySelectorAll('section.audit tbody tr').length === 2)`),
	)
	rows := value(t, ctx, "the rows", chromedp.Evaluate[[]string](`[...document.querySelectorAll('section.audit tbody tr')].map((r) => r.innerText)`))
	if !strings.Contains(rows[0], "carol") || !strings.Contains(rows[0], "refused (20005)") || !strings.Contains(rows[0], "conf_id="+id) {
		t.Errorf("newest row %q, want carol's refused end of %s", rows[0], id)
	}
	if !strings.Contains(rows[1], "admin") || !strings.Contains(rows[1], "created a conference") || !strings.Contains(rows[1], "done") {
		t.Errorf("second row %q, want the administrator's creation", rows[1])
	}
	run(t, ctx, "refused only",
		chromedp.Click(chromedp.ID("audit-failed")),
		press(chromedp.CSS("#audit-search")),
		until(`document.querySelectorAll('section.audit tbody tr').length === 1`),
	)
	if txt := value(t, ctx, "the page", chromedp.Text(chromedp.CSS(`section.audit`))); strings.Contains(txt, "null") {
		t.Errorf("the page shows null: %q", txt)
	}
	screenshot(t, ctx, "audit")
}
