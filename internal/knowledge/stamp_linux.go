package knowledge

import (
	"io/fs"
	"syscall"
)

// changeOf is what a file's stamp adds to its size and modification time:
// its inode and its status change time, which no program can set back
// (`touch -r` and `cp -p` restore a modification time, not this one).
func changeOf(st fs.FileInfo) (ino uint64, ctime int64) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Ino, s.Ctim.Nano()
	}
	return 0, 0
}
