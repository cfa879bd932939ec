//go:build unix

package rowpipe

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Supported reports whether a pipe can be given to a server here.
const Supported = true

// Give adds a new pipe's write end to the files cmd's process inherits,
// and EnvVar, naming it with token, to its environment (cmd.Env, which
// must be set). It returns both ends: the caller reads r, and closes w
// once the process has started, so that r ends when the process does.
func Give(cmd *exec.Cmd, token string) (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	grow(w)
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d:%s", EnvVar, fd, token))
	return r, w, nil
}

// Inherited returns the pipe that v, EnvVar's value, names, and its
// token, when this process holds that descriptor open for writing and it
// is a pipe; otherwise ok is false and the server offers no Tool. The
// descriptor is closed on exec, so that nothing the server starts holds
// it.
func Inherited(v string) (f *os.File, token string, ok bool) {
	fdText, token, found := strings.Cut(v, ":")
	fd, err := strconv.Atoi(fdText)
	if !found || err != nil || fd < 3 || token == "" || len(token) > maxToken {
		return nil, "", false
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return nil, "", false
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil || flags&unix.O_ACCMODE == unix.O_RDONLY {
		return nil, "", false
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "result pipe"), token, true
}
