package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/confer-platform/confer/internal/store/sqlstore"
	"golang.org/x/crypto/bcrypt"
)

// TestSecretsHashedAtDefaultCost: conferd stores license secrets and
// passwords as bcrypt hashes at bcrypt.DefaultCost. Test setups lower the
// cost of the test binary (auth.SetTestHashCost, internal/testserver);
// conferd's commands run here in a child process of this binary, where no
// test asked for that, as a production conferd does (built with -race or
// not: auth.SetTestHashCost does nothing outside a test binary).
func TestSecretsHashedAtDefaultCost(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	for _, args := range []string{
		"license import --db " + db + " --create --key k1 --secret s1",
		"account create --db " + db + " --username bob --password pw",
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CONFERD_TEST_MAIN=1", "CONFERD_TEST_ARGS="+args)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("conferd %s: %v\n%s", args, err, out)
		}
	}
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := st.LicenseByKey(ctx, "k1")
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.AccountByUsername(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	for what, hash := range map[string]string{"license secret": l.SecretHash, "password": a.PasswordHash} {
		if cost, err := bcrypt.Cost([]byte(hash)); err != nil || cost != bcrypt.DefaultCost {
			t.Errorf("%s hashed at bcrypt cost %d (%v), want bcrypt.DefaultCost %d", what, cost, err, bcrypt.DefaultCost)
		}
	}
}
