//go:build unix

package knowledge_test

import (
	"time"

	"golang.org/x/sys/unix"
)

// setLinkTime sets a symbolic link's own times, not its target's.
func setLinkTime(path string, t time.Time) error {
	tv := unix.NsecToTimeval(t.UnixNano())
	return unix.Lutimes(path, []unix.Timeval{tv, tv})
}
