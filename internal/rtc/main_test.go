package rtc_test

import (
	"os"
	"testing"

	"github.com/confer-platform/confer/internal/recorder/rectest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rectest.Cleanup() // the media the tests made
	os.Exit(code)
}
