package knowledge

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
)

// fillAll sets every field under v to a value of its own, not zero: strings
// numbered, two items in each slice, pointers set. n numbers them.
func fillAll(v reflect.Value, n *int) {
	switch v.Kind() {
	case reflect.String:
		*n++
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		*n++
		v.SetInt(int64(*n) * -1000003)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		*n++
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float32, reflect.Float64:
		*n++
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Struct:
		for i := range v.NumField() {
			fillAll(v.Field(i), n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillAll(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillAll(p.Elem(), n)
		v.Set(p)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillAll(k, n)
		fillAll(e, n)
		m.SetMapIndex(k, e)
		v.Set(m)
	default:
		panic("fillAll: no value for a field of kind " + v.Kind().String() + "; teach fillAll and entcodec.go")
	}
}

// TestEntityCodecCarriesEveryField: entities whose every field is set,
// Columns and Role included, come back whole; so do entities with
// nothing set, a negative row count and strings that are not ASCII.
// A field added to Entity, Column or Role and not to entcodec.go fails
// here.
func TestEntityCodecCarriesEveryField(t *testing.T) {
	n := 0
	full := make([]semantic.Entity, 3)
	fillAll(reflect.ValueOf(&full).Elem(), &n)
	cases := map[string][]semantic.Entity{
		"every field": full,
		"none set":    {{}, {Name: "t"}},
		"odd values":  {{Name: "Zürich ✓", RowCount: -1, Columns: []semantic.Column{{Name: "", Values: []string{"", "a\x00b"}}}}},
		"no entities": nil,
	}
	for name, ents := range cases {
		got, err := decodeEntities(string(appendEntities(nil, ents)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(ents) == 0 {
			ents = []semantic.Entity{}
		}
		if d := cmp.Diff(ents, got); d != "" {
			t.Errorf("%s: the entities came back otherwise (-written +read):\n%s", name, d)
		}
	}
}

// TestEntityCodecRefusesDamage: a list cut short, or with bytes after
// it, is refused rather than read in part.
func TestEntityCodecRefusesDamage(t *testing.T) {
	n := 0
	ents := make([]semantic.Entity, 2)
	fillAll(reflect.ValueOf(&ents).Elem(), &n)
	b := appendEntities(nil, ents)
	for i := range len(b) {
		if _, err := decodeEntities(string(b[:i])); err == nil {
			t.Fatalf("the list cut at %d bytes of %d was read", i, len(b))
		}
	}
	if _, err := decodeEntities(string(b) + "x"); err == nil {
		t.Fatal("the list with a byte after it was read")
	}
}

// FuzzDecodeEntities: no input makes decoding panic or allocate beyond
// its size, and what decodes encodes back to the same entities.
func FuzzDecodeEntities(f *testing.F) {
	n := 0
	ents := make([]semantic.Entity, 2)
	fillAll(reflect.ValueOf(&ents).Elem(), &n)
	f.Add(appendEntities(nil, ents))
	f.Add(appendEntities(nil, []semantic.Entity{{Name: "t", Columns: []semantic.Column{{Name: "id"}}}}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeEntities(string(b))
		if err != nil {
			return
		}
		again, err := decodeEntities(string(appendEntities(nil, got)))
		if err != nil {
			t.Fatalf("entities read back did not decode again: %v", err)
		}
		if d := cmp.Diff(got, again); d != "" {
			t.Fatalf("entities read back changed (-first +again):\n%s", d)
		}
	})
}
