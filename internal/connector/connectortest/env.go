package connectortest

import "testing"

// URL returns the value of the environment variable name, read through
// lookupEnv (pass os.LookupEnv from a _test.go file: only tests read the
// environment). When the variable is missing or empty, the test is skipped
// outside CI and fails when the variable CI is "true", so that a CI run
// without its servers cannot pass by skipping.
func URL(t testing.TB, name string, lookupEnv func(string) (string, bool)) string {
	t.Helper()
	v, _ := lookupEnv(name)
	if v != "" {
		return v
	}
	if ci, _ := lookupEnv("CI"); ci == "true" {
		t.Fatalf("%s is not set in CI; start the test servers with scripts/services.sh", name)
	}
	t.Skipf("%s is not set; start the test servers with `source scripts/services.sh start` to run this test", name)
	return ""
}
