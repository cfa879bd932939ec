package knowledge

import (
	"encoding/binary"
	"errors"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// The entities of a cached folder are written in a format of their own
// rather than by gob. They are most of a wide folder (ten thousand
// tables, seventy thousand columns, three hundred thousand strings), and
// gob allocates each string and slice on its own: decoding them took
// most of an ask's start-up. Here every string of the entities is a
// slice of one string, so decoding allocates little more than the
// entities and columns themselves. TestEntityCodecCarriesEveryField
// fills every field of Entity, Column and Role by reflection and checks
// that each comes back, so a field added to them and not here fails it.

// errEntityCodec is a cached entity list that does not decode.
var errEntityCodec = errors.New("knowledge cache: damaged entity list")

// appendEntities appends ents to b.
func appendEntities(b []byte, ents []semantic.Entity) []byte {
	b = binary.AppendUvarint(b, uint64(len(ents)))
	for i := range ents {
		e := &ents[i]
		b = appendStrings(b, e.Name, e.Schema, e.Table, e.Description)
		b = appendList(b, e.Synonyms)
		b = appendStrings(b, e.PrimaryKey, e.TimeColumn, e.Label)
		b = binary.AppendVarint(b, e.RowCount)
		b = binary.AppendUvarint(b, uint64(len(e.Columns)))
		for j := range e.Columns {
			c := &e.Columns[j]
			b = appendStrings(b, c.Name, string(c.Type), c.Description)
			b = appendList(b, c.Synonyms)
			b = appendStrings(b, c.Unit)
			b = appendList(b, c.Values)
			b = appendStrings(b, c.TimeRole)
		}
		if e.Role == nil {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = appendStrings(b, e.Role.Of, e.Role.Link, e.Role.From, e.Role.FromColumn, e.Role.Word)
	}
	return b
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// appendList writes a list's length, then its strings; nil and empty
// lists alike read back as nil, as gob reads them.
func appendList(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	return appendStrings(b, ss...)
}

// decodeEntities reads what appendEntities wrote, whole.
func decodeEntities(s string) ([]semantic.Entity, error) {
	r := entReader{s: s}
	n := r.count()
	if r.bad {
		return nil, errEntityCodec
	}
	ents := make([]semantic.Entity, n)
	for i := range ents {
		e := &ents[i]
		e.Name, e.Schema, e.Table, e.Description = r.str(), r.str(), r.str(), r.str()
		e.Synonyms = r.list()
		e.PrimaryKey, e.TimeColumn, e.Label = r.str(), r.str(), r.str()
		e.RowCount = r.varint()
		if nc := r.count(); nc > 0 {
			e.Columns = make([]semantic.Column, nc)
			for j := range e.Columns {
				c := &e.Columns[j]
				c.Name, c.Type, c.Description = r.str(), quarry.Type(r.str()), r.str()
				c.Synonyms = r.list()
				c.Unit = r.str()
				c.Values = r.list()
				c.TimeRole = r.str()
			}
		}
		if r.byte() == 1 {
			e.Role = &semantic.Role{Of: r.str(), Link: r.str(), From: r.str(), FromColumn: r.str(), Word: r.str()}
		}
		if r.bad {
			return nil, errEntityCodec
		}
	}
	if r.bad || r.off != len(s) {
		return nil, errEntityCodec
	}
	return ents, nil
}

// entReader reads s from off; bad once something did not fit.
type entReader struct {
	s   string
	off int
	bad bool
}

func (r *entReader) uvarint() uint64 {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.off >= len(r.s) {
			break
		}
		c := r.s[r.off]
		r.off++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	r.bad = true
	return 0
}

func (r *entReader) varint() int64 {
	u := r.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a length no longer than what is left to read (each item
// takes a byte at least), so damage never allocates beyond the input.
func (r *entReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.s)-r.off) {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *entReader) str() string {
	n := r.count()
	if r.bad {
		return ""
	}
	s := r.s[r.off : r.off+n]
	r.off += n
	return s
}

func (r *entReader) list() []string {
	n := r.count()
	if n == 0 || r.bad {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.str()
	}
	return ss
}

func (r *entReader) byte() byte {
	if r.off >= len(r.s) {
		r.bad = true
		return 0
	}
	c := r.s[r.off]
	r.off++
	return c
}
