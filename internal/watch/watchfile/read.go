package watchfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strconv"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
)

// Kept is one alert as the alerts file holds it: when it was kept, the
// channels it was for, and the alert.
type Kept struct {
	At string
	To []string
	watch.Alert
}

// ReadAlerts reads the alerts file; a missing file holds none.
func ReadAlerts(path string) ([]Kept, error) {
	var out []Kept
	err := readLines(path, "alerts", func(b []byte) error {
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return err
		}
		out = append(out, Kept(l))
		return nil
	})
	return out, err
}

// ReadDeliveries reads the deliveries file; a missing file holds none.
func ReadDeliveries(path string) ([]Delivery, error) {
	var out []Delivery
	err := readLines(path, "deliveries", func(b []byte) error {
		var d Delivery
		if err := json.Unmarshal(b, &d); err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// readLines calls each with every non-empty line of a JSON-lines file. A
// line that does not decode is an error naming the file and line: the
// files are quarry's own, so a bad line is damage to look at, not to skip.
func readLines(path, what string, each func([]byte) error) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot read the %s file %s", what, path)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			continue
		}
		if err := each(sc.Bytes()); err != nil {
			return quarry.Wrap(quarry.KindInput, err, "%s:%d is not a line quarry wrote; move the file aside or fix that line", path, n)
		}
	}
	if err := sc.Err(); err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot read the %s file %s", what, path)
	}
	return nil
}

// Numbered is a kept alert and its number in the alerts file (1 for the
// first line kept), which pages of them are cut at.
type Numbered struct {
	Kept
	Seq int
}

// ReadAlertsPage reads the alerts kept for monitor, newest first (the
// reverse of the order they were kept): at most limit of those numbered
// below before (0: from the newest). more says older ones remain. The
// file is streamed, and only the lines of the monitor are decoded.
func ReadAlertsPage(path, monitor string, before, limit int) (page []Numbered, more bool, err error) {
	mark := []byte(strconv.Quote(monitor))
	var ring []Numbered // the newest limit+1 matches so far, oldest first
	seq := 0
	err = readLines(path, "alerts", func(b []byte) error {
		seq++
		if (before > 0 && seq >= before) || !bytes.Contains(b, mark) {
			return nil
		}
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return err
		}
		if l.Monitor != monitor {
			return nil
		}
		ring = append(ring, Numbered{Kept: Kept(l), Seq: seq})
		if len(ring) > limit+1 {
			ring = append(ring[:0], ring[len(ring)-limit-1:]...)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if more = len(ring) > limit; more {
		ring = ring[1:]
	}
	page = make([]Numbered, 0, len(ring))
	for i := len(ring) - 1; i >= 0; i-- {
		page = append(page, ring[i])
	}
	return page, more, nil
}

// ToldAlert reports whether the alerts file keeps an alert of the
// incident a recovery ends: the same monitor, segment and incident start.
func ToldAlert(path string, recovery watch.Alert) (bool, error) {
	mark := []byte(strconv.Quote(recovery.IncidentStart))
	found := false
	err := readLines(path, "alerts", func(b []byte) error {
		if found || !bytes.Contains(b, mark) {
			return nil
		}
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return err
		}
		found = l.Kind == watch.KindAlert && l.Monitor == recovery.Monitor && l.Segment == recovery.Segment && l.IncidentStart == recovery.IncidentStart
		return nil
	})
	return found, err
}
