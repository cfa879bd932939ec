//go:build !linux

package knowledge

import "io/fs"

// statFunc is the lstat of the entries of the folder p. The inode and
// the status change time are not read here: the stamp is then a file's
// size and modification time alone.
func statFunc(string) (stat func(fs.DirEntry) (fileStat, error), done func(), err error) {
	stat = func(e fs.DirEntry) (fileStat, error) {
		st, err := e.Info()
		if err != nil {
			return fileStat{}, err
		}
		return fileStat{regular: st.Mode().IsRegular(), size: st.Size(), modified: st.ModTime()}, nil
	}
	return stat, func() {}, nil
}
