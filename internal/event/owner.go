package event

import (
	"context"
	"encoding/json"
)

type ownerKey struct{}

// WithOwner returns ctx carrying the person on whose behalf work is done:
// a Recorder appending under it writes that person as the owner of each
// run it starts (run.started's Owner) that names none, so that runs
// started deep inside a request (a workflow's steps, a monitor's reads)
// are recorded as theirs like the request's own.
func WithOwner(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, ownerKey{}, owner)
}

// OwnerOf returns the owner WithOwner put in ctx ("" for none).
func OwnerOf(ctx context.Context) string {
	s, _ := ctx.Value(ownerKey{}).(string)
	return s
}

// StampOwner returns events with owner in each run.started that names no
// owner, leaving the caller's slice as it was. An empty owner changes
// nothing.
func StampOwner(owner string, events []Event) []Event {
	if owner == "" {
		return events
	}
	return stampStarted(events, func(d *RunStartedData) bool {
		if d.Owner != "" {
			return false
		}
		d.Owner = owner
		return true
	})
}

// stampStarted returns events with each run.started's payload changed by
// set, which reports whether it changed it, leaving the caller's slice as
// it was.
func stampStarted(events []Event, set func(d *RunStartedData) bool) []Event {
	copied := false
	for i, e := range events {
		if e.Type != RunStarted {
			continue
		}
		var d RunStartedData
		if json.Unmarshal(e.Data, &d) != nil || !set(&d) {
			continue
		}
		data, err := json.Marshal(&d)
		if err != nil {
			continue
		}
		if !copied {
			events = append([]Event(nil), events...)
			copied = true
		}
		events[i].Data = data
	}
	return events
}
