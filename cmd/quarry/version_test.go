package main

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVersionFromBuildInfo(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "4faaf8da58a66fce19317aff6ffc3c0ca7935489"
	tests := []struct {
		name     string
		override string
		bi       *debug.BuildInfo
		want     string // what --version prints after "quarry version "
		short    string // what quarry tells other programs
	}{
		{"no build info", "", nil, "dev", "dev"},
		{"go install of a release", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0", "v1.2.0"},
		{"go build in a clean checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: vcs(rev, "false")},
			"v1.2.0 (commit 4faaf8da58a6)", "v1.2.0"},
		{"go build with changes", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201213416-4faaf8da58a6+dirty"}, Settings: vcs(rev, "true")},
			"v0.0.0-20261201213416-4faaf8da58a6+dirty (commit 4faaf8da58a6-dirty)", "v0.0.0-20261201213416-4faaf8da58a6+dirty"},
		{"no module version", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")},
			"dev (commit 4faaf8da58a6-dirty)", "dev"},
		{"ldflags win", "1.3.0-rc1", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("abc", "false")},
			"1.3.0-rc1 (commit abc)", "1.3.0-rc1"},
		{"ldflags without vcs", "1.3.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "1.3.0", "1.3.0"},
	}
	for _, tt := range tests {
		v := readVersion(tt.override, tt.bi)
		if diff := cmp.Diff([]string{tt.want, tt.short}, []string{v.String(), v.Version}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestVersionFlag checks that --version prints the build's version, not a
// fixed word.
func TestVersionFlag(t *testing.T) {
	r := quarryCmd(t, "", "--version")
	bi, _ := debug.ReadBuildInfo()
	want := "quarry version " + readVersion(version, bi).String() + "\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit %d, stdout %q, want %q", r.code, r.stdout, want)
	}
}
