// Package rowpipe moves a query's rows from a quarry connector server to
// the quarry client that started it, over a pipe of their own beside the
// MCP session.
//
// A server started over stdio by quarry's MCP client (driver: mcp running
// `quarry connector …`) is given the write end of a pipe as an inherited
// file, named with a token in the environment variable EnvVar. The
// server says hello on it with the token and lists the tool Tool; a call
// of it names a call number, and the server writes that call's rows on
// the pipe in parts as it reads them, then an end, and only then answers
// the call. The client decodes the first part while the server reads the
// next, and no JSON is made of the rows: 100,000 rows through MCP cost
// about what they cost direct, plus the server's start.
//
// The format is quarry's own and versioned by the hello's magic: a frame
// is a kind byte, the call number (8 bytes), the payload's length (4
// bytes, both big-endian) and the payload. A rows frame's payload is one
// part in quarry's binary result encoding (quarry.EncodeTable), columns
// included; an end frame's is the JSON of End.
package rowpipe

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// EnvVar names the inherited pipe to a server: "FD:TOKEN", the file
// descriptor of the pipe's write end and the token its hello carries.
const EnvVar = "QUARRY_RESULT_PIPE"

// Tool is the server's tool whose rows go on the pipe. Its arguments are
// run_query's and "call", the number the frames of its answer carry.
const Tool = "run_query_piped"

// magic opens the hello; a new format takes a new one.
const magic = "quarry-rowpipe/1\n"

// Frame kinds.
const (
	KindRows = 'R'
	KindEnd  = 'E'
)

// MaxPayload bounds one frame's payload: a part of a result is far
// smaller (a server writes parts of about a megabyte), and a reader
// never allocates more on a peer's word.
const MaxPayload = 64 << 20

// maxToken bounds the hello's token.
const maxToken = 256

// End closes a call's frames: how many rows were written, whether the
// server's row cap stopped them, and why they stopped early, if they did.
type End struct {
	Rows      int64  `json:"rows"`
	Truncated bool   `json:"truncated,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Writer writes frames on a pipe. It is safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter says hello with token on w and returns its Writer.
func NewWriter(w io.Writer, token string) (*Writer, error) {
	if len(token) == 0 || len(token) > maxToken {
		return nil, errors.New("rowpipe: the token must have 1 to 256 bytes")
	}
	hello := append([]byte(magic), byte(len(token)))
	if _, err := w.Write(append(hello, token...)); err != nil {
		return nil, err
	}
	return &Writer{w: w}, nil
}

// Rows writes one part of call's result, in quarry's binary encoding.
func (w *Writer) Rows(call uint64, part []byte) error { return w.frame(KindRows, call, part) }

// End writes call's end.
func (w *Writer) End(call uint64, e End) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return w.frame(KindEnd, call, b)
}

func (w *Writer) frame(kind byte, call uint64, payload []byte) error {
	if len(payload) > MaxPayload {
		return fmt.Errorf("rowpipe: a frame of %d bytes is over the bound of %d", len(payload), MaxPayload)
	}
	var h [13]byte
	h[0] = kind
	binary.BigEndian.PutUint64(h[1:9], call)
	binary.BigEndian.PutUint32(h[9:], uint32(len(payload)))
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.w.Write(h[:]); err != nil {
		return err
	}
	_, err := w.w.Write(payload)
	return err
}

// Frame is one frame read.
type Frame struct {
	Kind    byte
	Call    uint64
	Payload []byte // the reader's to keep: a new slice for each frame
	// Skipped marks a payload over the room the reader gave it: it was
	// read past, not into memory, and Payload is nil.
	Skipped bool
}

// Reader reads frames from a pipe. It is not safe for concurrent use.
type Reader struct {
	r *bufio.Reader
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// Hello reads the hello and checks that it carries token: that the pipe
// is the one this client gave the server it talks to.
func (r *Reader) Hello(token string) error {
	b := make([]byte, len(magic)+1)
	if _, err := io.ReadFull(r.r, b); err != nil {
		return err
	}
	if string(b[:len(magic)]) != magic {
		return errors.New("rowpipe: the pipe's first bytes are no hello")
	}
	got := make([]byte, b[len(magic)])
	if _, err := io.ReadFull(r.r, got); err != nil {
		return err
	}
	if string(got) != token {
		return errors.New("rowpipe: the hello carries another token")
	}
	return nil
}

// Next reads the next frame. room, when not nil, says how many bytes of
// a frame's payload may be read into memory, by its kind and call; a
// longer payload is read past and the frame marked Skipped. A frame of an
// unknown kind or a payload over MaxPayload is an error, and so is a pipe
// that ends within a frame (io.ErrUnexpectedEOF); a pipe that ends
// between frames is io.EOF.
func (r *Reader) Next(room func(kind byte, call uint64) int64) (Frame, error) {
	var h [13]byte
	if _, err := io.ReadFull(r.r, h[:]); err != nil {
		return Frame{}, err
	}
	f := Frame{Kind: h[0], Call: binary.BigEndian.Uint64(h[1:9])}
	if f.Kind != KindRows && f.Kind != KindEnd {
		return Frame{}, fmt.Errorf("rowpipe: a frame of unknown kind %q", f.Kind)
	}
	n := binary.BigEndian.Uint32(h[9:])
	if n > MaxPayload {
		return Frame{}, fmt.Errorf("rowpipe: a frame of %d bytes is over the bound of %d", n, MaxPayload)
	}
	if room != nil && int64(n) > room(f.Kind, f.Call) {
		f.Skipped = true
		if _, err := r.r.Discard(int(n)); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return Frame{}, err
		}
		return f, nil
	}
	f.Payload = make([]byte, n)
	if _, err := io.ReadFull(r.r, f.Payload); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, err
	}
	return f, nil
}

// ParseEnd reads an end frame's payload.
func ParseEnd(payload []byte) (End, error) {
	var e End
	if err := json.Unmarshal(payload, &e); err != nil {
		return End{}, fmt.Errorf("rowpipe: an end that is not JSON: %w", err)
	}
	if e.Rows < 0 {
		return End{}, errors.New("rowpipe: an end with a negative row count")
	}
	return e, nil
}
