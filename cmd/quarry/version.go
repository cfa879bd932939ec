package main

import (
	"runtime/debug"
)

// version overrides the version recorded in the binary when set at build
// time with -ldflags "-X main.version=…".
var version = ""

// buildVersion is what quarry says about its own build: the version, and
// the commit it was built from when the build recorded one.
type buildVersion struct {
	Version string // -ldflags' version, the module version, or "dev"
	Commit  string // the VCS revision, shortened; "" when not recorded
	Dirty   bool   // the working tree had uncommitted changes
}

// readVersion reads quarry's version from override (-ldflags) and the
// binary's build information (nil when there is none): go install
// records the module version, go build in a checkout the commit.
func readVersion(override string, bi *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: override}
	if bi != nil {
		if v.Version == "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
				if len(v.Commit) > 12 {
					v.Commit = v.Commit[:12]
				}
			case "vcs.modified":
				v.Dirty = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

// String is the line quarry --version prints after "quarry version ":
// "v1.2.0 (commit 0123456789ab)", "dev (commit 0123456789ab-dirty)", or
// the version alone when no commit was recorded.
func (v buildVersion) String() string {
	if v.Commit == "" {
		return v.Version
	}
	c := v.Commit
	if v.Dirty {
		c += "-dirty"
	}
	return v.Version + " (commit " + c + ")"
}
