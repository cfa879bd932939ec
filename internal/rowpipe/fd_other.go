//go:build !unix

package rowpipe

import (
	"errors"
	"os"
	"os/exec"
)

// Supported reports whether a pipe can be given to a server here: not
// where a process inherits no files beyond its standard three.
const Supported = false

// Give is not supported here.
func Give(cmd *exec.Cmd, token string) (r, w *os.File, err error) {
	return nil, nil, errors.New("rowpipe: no inherited pipes here")
}

// Inherited finds no pipe here.
func Inherited(v string) (f *os.File, token string, ok bool) { return nil, "", false }
