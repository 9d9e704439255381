package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the test binary act as the launcher (the TestHelperProcess
// pattern): with SANDBOX_TEST_LAUNCHER=1 it runs Main on its arguments.
func TestMain(m *testing.M) {
	if os.Getenv("SANDBOX_TEST_LAUNCHER") == "1" {
		os.Unsetenv("SANDBOX_TEST_LAUNCHER")
		os.Exit(Main(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}
