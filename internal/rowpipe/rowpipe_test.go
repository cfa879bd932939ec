package rowpipe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFramesRoundTrip: what a Writer writes, a Reader reads back, frame
// by frame, after a hello with the same token.
func TestFramesRoundTrip(t *testing.T) {
	var pipe bytes.Buffer
	w, err := NewWriter(&pipe, "tok")
	if err != nil {
		t.Fatal(err)
	}
	w.Rows(7, []byte("part one"))
	w.Rows(7, nil)
	w.End(7, End{Rows: 12, Truncated: true})
	w.End(8, End{Error: "the database refused the query: no such table: x"})
	r := NewReader(&pipe)
	if err := r.Hello("tok"); err != nil {
		t.Fatal(err)
	}
	var got []Frame
	for {
		f, err := r.Next(nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f)
	}
	want := []Frame{
		{Kind: KindRows, Call: 7, Payload: []byte("part one")},
		{Kind: KindRows, Call: 7, Payload: []byte{}},
		{Kind: KindEnd, Call: 7, Payload: []byte(`{"rows":12,"truncated":true}`)},
		{Kind: KindEnd, Call: 8, Payload: []byte(`{"rows":0,"error":"the database refused the query: no such table: x"}`)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("frames (-want +got):\n%s", diff)
	}
	e, err := ParseEnd(got[2].Payload)
	if err != nil || e != (End{Rows: 12, Truncated: true}) {
		t.Errorf("ParseEnd = %+v, %v", e, err)
	}
}

// TestReaderRefuses: a pipe that is not the one given, or whose frames
// are damaged, is an error, never a frame; a payload's length is never
// taken on the peer's word beyond MaxPayload.
func TestReaderRefuses(t *testing.T) {
	hello := func(token string) []byte { return append([]byte(magic), append([]byte{byte(len(token))}, token...)...) }
	frame := func(kind byte, n uint32, payload string) []byte {
		b := []byte{kind}
		b = binary.BigEndian.AppendUint64(b, 1)
		b = binary.BigEndian.AppendUint32(b, n)
		return append(b, payload...)
	}
	for _, tc := range []struct {
		name  string
		input []byte
		want  string
	}{
		{"another token", hello("other"), "another token"},
		{"no hello", []byte("quarry-result/1\nxxxxxxxx"), "no hello"},
		{"empty", nil, "EOF"},
		{"unknown kind", append(hello("tok"), frame('X', 0, "")...), "unknown kind"},
		{"huge payload", append(hello("tok"), frame(KindRows, MaxPayload+1, "")...), "over the bound"},
		{"cut payload", append(hello("tok"), frame(KindRows, 10, "abc")...), "unexpected EOF"},
		{"cut header", append(hello("tok"), frame(KindRows, 10, "")[:5]...), "unexpected EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tc.input))
			err := r.Hello("tok")
			if err == nil {
				_, err = r.Next(nil)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one that says %q", err, tc.want)
			}
		})
	}
	for _, bad := range []string{`{"rows":-1}`, `not json`} {
		if _, err := ParseEnd([]byte(bad)); err == nil {
			t.Errorf("ParseEnd(%s) took it", bad)
		}
	}
	if _, err := NewWriter(io.Discard, ""); err == nil {
		t.Error("an empty token was taken")
	}
}

// FuzzReader: whatever follows a hello, the reader returns frames or an
// error, never panics, and never holds a payload over MaxPayload.
func FuzzReader(f *testing.F) {
	var seed bytes.Buffer
	w, _ := NewWriter(&seed, "tok")
	w.Rows(1, []byte("rows"))
	w.End(1, End{Rows: 1})
	f.Add(seed.Bytes()[len(magic)+4:])
	f.Add([]byte{KindEnd, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(io.MultiReader(strings.NewReader(magic+"\x03tok"), bytes.NewReader(b)))
		if err := r.Hello("tok"); err != nil {
			t.Fatal(err)
		}
		for {
			fr, err := r.Next(nil)
			if err != nil {
				return
			}
			if len(fr.Payload) > MaxPayload || fr.Kind != KindRows && fr.Kind != KindEnd {
				t.Fatalf("frame %q of %d bytes", fr.Kind, len(fr.Payload))
			}
			if fr.Kind == KindEnd {
				ParseEnd(fr.Payload)
			}
		}
	})
}

// TestReaderRoom: a payload over the room the reader gives it is read
// past, never into memory, and the frames after it are read as usual
// (found from outside: a frame of 64 MiB was read whole before a bound
// of 100 KB refused it).
func TestReaderRoom(t *testing.T) {
	var pipe bytes.Buffer
	w, _ := NewWriter(&pipe, "tok")
	w.Rows(1, bytes.Repeat([]byte("x"), 1<<20))
	w.Rows(2, []byte("small"))
	w.End(1, End{Rows: 1})
	r := NewReader(&pipe)
	r.Hello("tok")
	room := func(kind byte, call uint64) int64 { return 1000 }
	big, err := r.Next(room)
	if err != nil || !big.Skipped || big.Payload != nil || big.Call != 1 {
		t.Fatalf("the large frame: %+v, %v", big.Kind, err)
	}
	small, err := r.Next(room)
	if err != nil || small.Skipped || string(small.Payload) != "small" {
		t.Fatalf("the frame after it: %q, %v", small.Payload, err)
	}
	if end, err := r.Next(room); err != nil || end.Kind != KindEnd {
		t.Fatalf("the end: %v", err)
	}
}
