package rowpipe

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is the room asked for in the pipe: a part (about 256 KiB) or
// more, so that the server writes on while the client decodes; the
// default 64 KiB made each part several exchanges. Linux grants up to
// /proc/sys/fs/pipe-max-size (1 MiB by default) and keeps the default
// when it refuses.
const pipeSize = 1 << 20

// grow asks for pipeSize bytes of room in the pipe of f.
func grow(f *os.File) {
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
}
