package httpapi

import "io/fs"

// Assets returns the web UI's files, built into the binary from the web
// folder next to this file; nil while this build has none.
func Assets() fs.FS { return nil }
