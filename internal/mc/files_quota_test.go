package mc_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A user domain keeps at most MaxFilesPerDomain meeting files across its
// meetings (issue 20 item 3): the next upload is answered 90429 and leaves
// no content; a deletion makes room again.
func TestMeetingFilesDomainQuota(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		dir := filepath.Join(t.TempDir(), "files")
		env := testserver.Start(t, dsn, testserver.Options{MC: mc.Config{FilesDir: dir, MaxFilesPerDomain: 3}})
		domain := mfDomain(t, env.Store, auth.DefaultDomain)
		c := env.LoggedIn(t)
		mfConf(t, env, domain, "1110501", "mtg-a")
		mfConf(t, env, domain, "1110502", "mtg-b")
		var ids []string
		for i := range 3 {
			r := mfUpload(t, env, c, []string{"mtg-a", "mtg-b"}[i%2], "file", fmt.Sprintf("q%d.txt", i), []byte("x"))
			ids = append(ids, testserver.MustOK(t, r)["meeting_file"].(map[string]any)["file_id"].(string))
		}
		if r := mfUpload(t, env, c, "mtg-b", "file", "q3.txt", []byte("x")); r.Code() != mc.CodeQuota {
			t.Fatalf("fourth file of the domain: %s, want %d", r.Raw, mc.CodeQuota)
		}
		if n := len(mfDisk(t, dir)); n != 3 {
			t.Fatalf("%d files on disk, want 3", n)
		}
		testserver.MustOK(t, c.Do("DELETE", mfPath+ids[0], nil))
		testserver.MustOK(t, mfUpload(t, env, c, "mtg-b", "file", "q4.txt", []byte("x")))
	})
}
