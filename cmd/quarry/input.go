package main

import (
	"bytes"
	"io"
	"os"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxInputBytes bounds what quarry reads as one input (SQL or a question).
// Larger inputs are refused before they are held in memory; the guard
// applies its own, smaller statement limit.
const maxInputBytes = 64 << 20

// readInput returns the text of a command's input: the argument itself, the
// file named by -f, or standard input when the argument (or file) is "-".
// what names the input in messages ("SQL", "question").
func (a *app) readInput(args []string, file, what string) (string, error) {
	var data []byte
	var err error
	switch {
	case file != "" && len(args) > 0:
		return "", quarry.Errorf(quarry.KindUsage, "give the %s as an argument or with -f FILE, not both", what)
	case file == "-" || (file == "" && len(args) == 1 && args[0] == "-"):
		data, err = readAtMost(a.stdin, what, "standard input")
	case file != "":
		f, ferr := os.Open(file)
		if ferr != nil {
			return "", quarry.Wrap(quarry.KindInput, ferr, "cannot read %s; check the path and its permissions", file)
		}
		defer f.Close()
		if fi, serr := f.Stat(); serr == nil && fi.IsDir() {
			return "", quarry.Errorf(quarry.KindInput, "%s is a folder; give a file with the %s", file, what)
		}
		data, err = readAtMost(f, what, file)
	case len(args) == 1:
		data = []byte(args[0])
	case len(args) == 0:
		return "", quarry.Errorf(quarry.KindUsage, "no %s given; pass it as an argument, with -f FILE, or - to read standard input", what)
	default:
		return "", quarry.Errorf(quarry.KindUsage, "give the %s as one argument (quote it)", what)
	}
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return "", quarry.Errorf(quarry.KindInput, "the %s is empty; nothing to do", what)
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return "", quarry.Errorf(quarry.KindInput, "the %s is not UTF-8 text (binary data?); give plain text", what)
	}
	return string(data), nil
}

func readAtMost(r io.Reader, what, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot read the %s from %s", what, name)
	}
	if len(data) > maxInputBytes {
		return nil, quarry.Errorf(quarry.KindInput, "the %s from %s is over %d MiB; quarry reads one statement or question at a time", what, name, maxInputBytes>>20)
	}
	return data, nil
}
