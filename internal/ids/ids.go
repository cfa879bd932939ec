package ids

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// Len is the length of the encoded part of an ID, after the prefix and "_".
const Len = ulid.EncodedSize

// New returns prefix + "_" + a ULID (github.com/oklog/ulid/v2): the
// millisecond of now (48 bits) followed by 80 bits read from rnd, in
// Crockford base32, 26 characters. IDs made later sort after IDs made
// earlier (within one millisecond the order is random). With an empty
// prefix the ID is the 26 characters alone. Times before the Unix epoch
// encode as the epoch, times past the 48-bit range as its end.
//
// New panics when rnd cannot supply 10 bytes: crypto/rand.Reader never fails,
// and an ID without its random part would silently collide.
func New(prefix string, now time.Time, rnd io.Reader) string {
	ms := now.UnixMilli()
	if ms < 0 {
		ms = 0
	}
	id, err := ulid.New(min(uint64(ms), ulid.MaxTime()), rnd)
	if err != nil {
		panic(fmt.Sprintf("ids: read randomness: %v", err))
	}
	if prefix == "" {
		return id.String()
	}
	return prefix + "_" + id.String()
}

// Time returns the creation time encoded in id (with or without its prefix),
// to the millisecond, in UTC. It reports false when id is not of New's form.
func Time(id string) (time.Time, bool) {
	if i := strings.LastIndexByte(id, '_'); i >= 0 {
		id = id[i+1:]
	}
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return time.Time{}, false
	}
	return ulid.Time(u.Time()).UTC(), true
}
