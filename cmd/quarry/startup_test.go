package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestStartupInitAllocatesLittle checks that none of quarry's own packages
// builds something large when the program starts (compiled expressions,
// parsed tables): every command, --version included, would pay for it.
// Such values are built where they are first used (sync.OnceValue). It
// reads what the Go runtime reports of each package's initialisation
// (GODEBUG=inittrace=1) for this test binary, which links the same
// packages as quarry; it asserts bytes allocated, never time.
func TestStartupInitAllocatesLittle(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(exe, "-test.run=^$")
	c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	const limit = 32 << 10
	const prefix = "github.com/quarrydata/quarry/"
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || !strings.HasPrefix(f[1], prefix) || f[8] != "bytes," {
			continue
		}
		seen++
		b, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("cannot read %q: %v", line, err)
		}
		if b > limit {
			t.Errorf("%s allocates %d bytes when the program starts (limit %d): build its expensive values on first use", f[1], b, limit)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of quarry's packages in:\n%s", out)
	}
}
