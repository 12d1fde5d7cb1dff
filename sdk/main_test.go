package sdk_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestMain starts the server the examples talk to (a real server on a
// loopback listener over SQLite in a temporary folder) and names it in the
// environment variables the examples read. Its clock runs fast: a second
// every 20 milliseconds, so that terminals answer and polls advance while
// an example waits for them as it would on a real platform.
func TestMain(m *testing.M) {
	tb := &mainTB{}
	code := func() (code int) {
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintln(os.Stderr, "starting the example server:", v)
				code = 1
			}
		}()
		defer tb.cleanup()
		env := testserver.Start(tb, testdb.SQLite(tb), testserver.Options{})
		for k, v := range map[string]string{
			"CONFER_URL": env.URL, "CONFER_KEY": testserver.LicenseKey, "CONFER_SECRET": testserver.LicenseSecret,
			"CONFER_USER": testserver.AdminUser, "CONFER_PASSWORD": testserver.AdminPassword,
		} {
			os.Setenv(k, v)
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // the fast clock
			defer wg.Done()
			t := time.NewTicker(20 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					env.Clock.Advance(time.Second)
					_ = env.Srv.Tick(context.Background())
				}
			}
		}()
		defer wg.Wait()
		defer close(stop)
		return m.Run()
	}()
	os.Exit(code)
}

// mainTB is the testing.TB that testserver.Start needs outside a test: only
// the methods it calls are implemented.
type mainTB struct {
	testing.TB
	cleanups []func()
}

func (m *mainTB) Helper()                           {}
func (m *mainTB) Fatal(args ...any)                 { panic(fmt.Sprint(args...)) }
func (m *mainTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (m *mainTB) Cleanup(f func())                  { m.cleanups = append(m.cleanups, f) }
func (m *mainTB) Name() string                      { return "TestMain" }

func (m *mainTB) TempDir() string {
	d, err := os.MkdirTemp("", "confer-sdk-examples-")
	if err != nil {
		panic(err)
	}
	m.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func (m *mainTB) cleanup() {
	for i := len(m.cleanups) - 1; i >= 0; i-- {
		m.cleanups[i]()
	}
}

// TestExamples runs the examples that have no Output line (those whose
// output depends on the platform's features of the day) and checks what
// they print. The examples with an Output line run as examples.
func TestExamples(t *testing.T) {
	tests := []struct {
		name string
		fn   func()
		want string
	}{
		{"ExampleClient_VCConfsVMPsCreate", ExampleClient_VCConfsVMPsCreate, "composition: layout 2 with 2 pictures"},
		{"ExampleClient_Subscribe", ExampleClient_Subscribe, "update true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := capture(t, tt.fn)
			t.Logf("%s printed:\n%s", tt.name, out)
			switch {
			case strings.Contains(out, "(90501)"):
				t.Skipf("the server does not serve this yet: %s", strings.TrimSpace(out))
			case strings.Contains(out, "(90404)") && strings.Contains(out, "push"):
				t.Skipf("the server has no push endpoint yet (issue 7): %s", strings.TrimSpace(out))
			case !strings.Contains(out, tt.want):
				t.Errorf("%s printed %q, want %q", tt.name, out, tt.want)
			}
		})
	}
}

// capture runs fn with its standard output captured.
func capture(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	func() {
		defer func() { os.Stdout = saved; w.Close() }()
		fn()
	}()
	return <-done
}
