// Package watchdeliver tells a monitor's channels of its alerts: it is
// the watch.Notifier that keeps every alert in the alerts file first, then
// writes each alert once as a deliver.Message (title, text with the
// investigation's segments, a link to the run that found it) and sends it
// to every channel the monitor's notify: names, recording each delivery
// with its attempts. A channel that fails neither loses the alert nor
// stops the other channels: it is a failed watch.Delivery.
package watchdeliver

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchfile"
)

// Sender delivers one message to one channel (deliver.Sender).
type Sender interface {
	Send(ctx context.Context, ch deliver.Channel, m deliver.Message) ([]deliver.Attempt, error)
}

// Log records deliveries (watchfile.Deliveries).
type Log interface {
	Append(ctx context.Context, d watchfile.Delivery) error
}

// Notifier keeps each alert, then delivers it to its channels.
type Notifier struct {
	// Keep records every alert before anything is sent (the alerts
	// file); nil keeps nothing.
	Keep watch.Notifier
	// Told reports whether the alert that opened a recovery's incident
	// was told (kept); a recovery of one that was not (it came while the
	// monitor was muted) is neither kept nor told. Nil tells every
	// recovery.
	Told func(ctx context.Context, recovery watch.Alert) (bool, error)
	// Channels are the configured channels by name.
	Channels map[string]deliver.Channel
	Sender   Sender
	// Log records each delivery; nil records nothing.
	Log Log
	// Link is the absolute address of a run's provenance; nil, or "" for
	// a run, means no link.
	Link func(run string) string
}

// Notify keeps the alert, then tells each channel of to in turn. The
// error is only for an alert that could not be kept, or a delivery that
// could not be recorded; a channel that fails (or is not configured) is a
// Delivery with OK false.
func (n *Notifier) Notify(ctx context.Context, to []string, a watch.Alert) ([]watch.Delivery, error) {
	if a.Kind == watch.KindRecovery && n.Told != nil {
		told, err := n.Told(ctx, a)
		if err != nil {
			return nil, err
		}
		if !told {
			return nil, nil
		}
	}
	if n.Keep != nil {
		if _, err := n.Keep.Notify(ctx, to, a); err != nil {
			return nil, err
		}
	}
	return n.tell(ctx, to, a, a.Segment)
}

// tell sends a to each channel of to, recording each delivery as of the
// kept alert whose segment is kept (a's own may be withheld).
func (n *Notifier) tell(ctx context.Context, to []string, a watch.Alert, kept string) ([]watch.Delivery, error) {
	link := ""
	if n.Link != nil && a.Run != "" {
		link = n.Link(a.Run)
	}
	msg := Message(a, link)
	var out []watch.Delivery
	var logErr error
	for _, name := range to {
		d := watch.Delivery{Channel: name, Segment: a.Segment, PeriodStart: a.PeriodStart, Kind: a.Kind}
		rec := watchfile.Delivery{Monitor: a.Monitor, Kind: a.Kind, Segment: kept, PeriodStart: a.PeriodStart, PeriodEnd: a.PeriodEnd, Run: a.Run, Channel: name}
		ch, ok := n.Channels[name]
		if !ok {
			d.Error = fmt.Sprintf("no channel %q is configured; add it under channels: in quarry.yaml, or remove it from the monitor's notify:", name)
		} else {
			attempts, err := n.Sender.Send(ctx, ch, msg)
			d.Tries, d.OK, rec.Attempts, rec.ChannelKind = len(attempts), err == nil, attempts, string(ch.Kind)
			if err != nil {
				d.Error = quarry.Message(err)
			}
		}
		rec.OK, rec.Error = d.OK, d.Error
		out = append(out, d)
		if n.Log != nil {
			if err := n.Log.Append(ctx, rec); err != nil && logErr == nil {
				logErr = err
			}
		}
	}
	return out, logErr
}

// Message is the alert as every kind of channel gets it: the title names
// the monitor and what happened, the text is the alert's message, the
// segments that moved most and the runs to look at, and a webhook's JSON
// body carries the alert itself.
func Message(a watch.Alert, link string) deliver.Message {
	head, _, _ := strings.Cut(a.Message, ": ")
	label := "Alert"
	if a.Kind == watch.KindRecovery {
		label = "Recovered"
	}
	title := fmt.Sprintf("%s: %s — %s", label, a.Monitor, head)

	var text, md strings.Builder
	text.WriteString(a.Message + "\n")
	fmt.Fprintf(&md, "**%s**\n\n%s\n", head, a.Message)
	if inv := a.Investigation; inv != nil && len(inv.Contributors) > 0 {
		text.WriteString("\nWhere the change came from:\n")
		md.WriteString("\n**Where the change came from**\n")
		for _, c := range inv.Contributors {
			line := contribution(c)
			text.WriteString("  " + line + "\n")
			md.WriteString("- " + line + "\n")
		}
	}
	if a.Run != "" {
		line := fmt.Sprintf("Run %s (quarry runs show %s; quarry runs export %s for its provenance)", a.Run, a.Run, a.Run)
		text.WriteString("\n" + line + "\n")
		md.WriteString("\n" + line + "\n")
	}
	if inv := a.Investigation; inv != nil && len(inv.Runs) > 0 {
		line := "Investigated in runs " + strings.Join(inv.Runs, ", ")
		text.WriteString(line + "\n")
		md.WriteString(line + "\n")
	}
	payload := map[string]any{"source": "quarry", "title": title, "text": strings.TrimSpace(text.String()), "alert": a}
	if link != "" {
		payload["link"] = link
	}
	return deliver.Message{Title: title, Text: strings.TrimSpace(text.String()), Markdown: strings.TrimSpace(md.String()), Link: link, Payload: payload}
}

// contribution is one segment's move, as watch run prints it.
func contribution(c watch.Contribution) string {
	share := ""
	if c.Share != 0 {
		share = fmt.Sprintf(", %.0f%% of the change", 100*c.Share)
	}
	delta := num(c.Delta)
	if c.Delta > 0 {
		delta = "+" + delta
	}
	return fmt.Sprintf("%s=%s: %s against %s a period (%s%s)", c.Dimension, c.Value, num(c.Current), num(c.Baseline), delta, share)
}

// num writes a figure as watch run prints it: whole numbers whole, four
// significant digits below 100, one decimal above.
func num(f float64) string {
	switch {
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case math.Abs(f) >= 100:
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}

// Pending is one alert not yet told to one of its channels.
type Pending struct {
	Alert   watch.Alert
	Channel string
	// Tries is how many deliveries to the channel were recorded, all
	// failed (0: none was recorded, e.g. the process stopped first).
	Tries int
	// Withheld says the alert's figures and segment were taken out (the
	// column policy restricts what it was read from); KeptSegment is
	// then its segment as kept, which only the record of its delivery
	// names, so that it is not sent again.
	Withheld    bool   `json:",omitempty"`
	KeptSegment string `json:"-"`
}

// Undelivered lists, alert by alert in the order they were kept, each
// channel of an alert's notify: that no recorded delivery reached: every
// attempt failed, or none was made.
func Undelivered(kept []watchfile.Kept, deliveries []watchfile.Delivery) []Pending {
	type key struct{ monitor, kind, segment, period, channel string }
	ok := map[key]bool{}
	tries := map[key]int{}
	for _, d := range deliveries {
		k := key{d.Monitor, d.Kind, d.Segment, d.PeriodStart, d.Channel}
		tries[k]++
		ok[k] = ok[k] || d.OK
	}
	var out []Pending
	seen := map[key]bool{}
	for _, a := range kept {
		for _, ch := range a.To {
			k := key{a.Monitor, a.Kind, a.Segment, a.PeriodStart, ch}
			if ok[k] || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, Pending{Alert: a.Alert, Channel: ch, Tries: tries[k]})
		}
	}
	return out
}

// Redeliver tells the pending alerts to their channels again, recording
// each delivery as Notify does, without keeping the alerts again.
func (n *Notifier) Redeliver(ctx context.Context, pending []Pending) ([]watch.Delivery, error) {
	var out []watch.Delivery
	for _, p := range pending {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		kept := p.Alert.Segment
		if p.Withheld {
			kept = p.KeptSegment
		}
		ds, err := n.tell(ctx, []string{p.Channel}, p.Alert, kept)
		out = append(out, ds...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
