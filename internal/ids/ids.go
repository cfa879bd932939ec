package ids

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// alphabet is Crockford's base32: digits and upper-case letters without
// I, L, O and U.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// Len is the length of the encoded part of an ID, after the prefix and "_".
const Len = 26

// maxMillis is the largest time a 48-bit millisecond field holds.
const maxMillis = 1<<48 - 1

// New returns prefix + "_" + 26 characters: the millisecond of now (48 bits)
// followed by 80 bits read from rnd, in Crockford base32. IDs made later sort
// after IDs made earlier (within one millisecond the order is random). With
// an empty prefix the ID is the 26 characters alone. Times before the Unix
// epoch encode as the epoch.
//
// New panics when rnd cannot supply 10 bytes: crypto/rand.Reader never fails,
// and an ID without its random part would silently collide.
func New(prefix string, now time.Time, rnd io.Reader) string {
	var b [16]byte
	ms := now.UnixMilli()
	if ms < 0 {
		ms = 0
	}
	if ms > maxMillis {
		ms = maxMillis
	}
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	if _, err := io.ReadFull(rnd, b[6:]); err != nil {
		panic(fmt.Sprintf("ids: read randomness: %v", err))
	}
	enc := encode(b)
	if prefix == "" {
		return string(enc[:])
	}
	return prefix + "_" + string(enc[:])
}

// encode writes the 128 bits of b as 26 base32 digits, most significant
// first; the first digit carries the top 3 bits.
func encode(b [16]byte) [Len]byte {
	var out [Len]byte
	// Work on the 128-bit number as two 64-bit halves.
	hi := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
	lo := uint64(b[8])<<56 | uint64(b[9])<<48 | uint64(b[10])<<40 | uint64(b[11])<<32 |
		uint64(b[12])<<24 | uint64(b[13])<<16 | uint64(b[14])<<8 | uint64(b[15])
	for i := Len - 1; i >= 0; i-- {
		out[i] = alphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return out
}

// Time returns the creation time encoded in id (with or without its prefix),
// to the millisecond, in UTC. It reports false when id is not of New's form.
func Time(id string) (time.Time, bool) {
	if i := strings.LastIndexByte(id, '_'); i >= 0 {
		id = id[i+1:]
	}
	if len(id) != Len || strings.IndexByte("01234567", id[0]) < 0 {
		return time.Time{}, false
	}
	var ms int64
	for i := 0; i < 10; i++ { // the first 10 digits: 2 zero bits, then the 48 bits of time
		d := strings.IndexByte(alphabet, id[i])
		if d < 0 {
			return time.Time{}, false
		}
		ms = ms<<5 | int64(d)
	}
	for i := 10; i < Len; i++ {
		if strings.IndexByte(alphabet, id[i]) < 0 {
			return time.Time{}, false
		}
	}
	return time.UnixMilli(ms).UTC(), true
}
