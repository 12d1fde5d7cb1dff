package nms_test

import (
	"os"
	"testing"

	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The platform's servers (their addresses, load and alarms) and its
// ports in use are shown to the administrators of the platform's user
// domain only (issue 38 item 13: every tenant saw them); an administrator
// of another user domain and an ordinary account of the platform's own
// get 20005, and still see their own domain's facts.
func TestPlatformOnlyToPlatformAdmins(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		host, _ := os.Hostname()
		self := node.Moid("node:" + host)
		media := node.ServiceMoid(self, "media")
		paths := []string{
			"/platform_domains/" + nms.PlatformMoid + "/physicals",
			"/platform_domains/" + nms.PlatformMoid + "/logicals",
			"/platform_domains/" + nms.PlatformMoid + "/mediaresources",
			"/physicals/" + self + "/detail",
			"/physicals/" + self + "/logicals",
			"/mediaresources/" + media + "/portinfo",
			"/servers/" + self + "/unrepaired_warnings",
		}
		platform := env.LoggedIn(t)
		tenant := env.Account(t, "tenant-b", "bob", true)
		user := env.Account(t, "default", "carol", false)
		for _, p := range paths {
			testserver.MustOK(t, platform.Do("GET", "/api/v1/nms"+p, nil))
			testserver.MustFail(t, tenant.Do("GET", "/api/v1/nms"+p, nil), 20005)
			testserver.MustFail(t, user.Do("GET", "/api/v1/nms"+p, nil), 20005)
		}
		testserver.MustOK(t, tenant.Do("GET", "/api/v1/nms/domains", nil))
	})
}
