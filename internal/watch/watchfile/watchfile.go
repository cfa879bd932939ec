// Package watchfile keeps monitors' alerts and memory in files under the
// project's state folder: a notifier that appends each alert as one JSON
// line (alerts.jsonl), so that alerts are visible before any delivery is
// configured; the record of every delivery to a channel, one JSON line
// each with its attempts (deliveries.jsonl); and the reader of the
// runner's memory as older versions kept it (watch.json).
package watchfile

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
)

// Notifier appends alerts to a JSON-lines file.
type Notifier struct {
	Path string
	// Now stamps each line with when it was written.
	Now func() time.Time
}

// line is one alert as written: who it was for and when.
type line struct {
	At string   `json:"at"`
	To []string `json:"to"`
	watch.Alert
}

// Notify appends the alert, addressed to to, as one line. It delivers to
// no channel, so it returns no Delivery.
func (n Notifier) Notify(ctx context.Context, to []string, a watch.Alert) ([]watch.Delivery, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if to == nil {
		to = []string{}
	}
	return nil, appendLine(n.Path, "alert", line{At: n.Now().UTC().Format(time.RFC3339), To: to, Alert: a})
}

// Delivery is one line of deliveries.jsonl: one alert told to one
// channel, with every attempt. It holds no secret: an attempt's target is
// the URL's scheme and host, or the SMTP server.
type Delivery struct {
	At          string `json:"at"`
	Monitor     string `json:"monitor"`
	Kind        string `json:"kind"` // the alert's: alert or recovery
	Segment     string `json:"segment,omitempty"`
	PeriodStart string `json:"period_start"`
	PeriodEnd   string `json:"period_end"`
	Run         string `json:"run,omitempty"`
	Channel     string `json:"channel"`
	// ChannelKind is webhook, slack or email; "" for a channel that is
	// not configured.
	ChannelKind string            `json:"channel_kind,omitempty"`
	OK          bool              `json:"ok"`
	Error       string            `json:"error,omitempty"`
	Attempts    []deliver.Attempt `json:"attempts"`
}

// Deliveries appends deliveries to a JSON-lines file.
type Deliveries struct {
	Path string
	// Now stamps each line with when it was written.
	Now func() time.Time
}

// Append writes d as one line, stamped with the time.
func (l Deliveries) Append(ctx context.Context, d Delivery) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.At = l.Now().UTC().Format(time.RFC3339)
	if d.Attempts == nil {
		d.Attempts = []deliver.Attempt{}
	}
	return appendLine(l.Path, "delivery", d)
}

// appendLine appends v as one JSON line to the file at path.
func appendLine(path, what string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot write the %s", what)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot create %s", filepath.Dir(path))
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot open %s to write the %s", path, what)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return quarry.Wrap(quarry.KindInternal, err, "cannot write the %s to %s", what, path)
	}
	return f.Close()
}

// State is the runner's memory as older quarry versions kept it, in a
// JSON file (watch.json); the memory now lives in the state database
// (watchqueue), which imports this file once.
type State struct {
	Path string
}

// Load reads the state; a missing file is an empty state.
func (s State) Load(ctx context.Context) (watch.State, error) {
	var st watch.State
	if err := ctx.Err(); err != nil {
		return st, err
	}
	b, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, quarry.Wrap(quarry.KindInternal, err, "cannot read the monitors' state %s", s.Path)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, quarry.Wrap(quarry.KindInput, err, "the monitors' state %s is damaged; remove it (each monitor's next run then starts afresh)", s.Path)
	}
	return st, nil
}
