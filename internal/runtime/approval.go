package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// approvalFor is approval mode for the statements a model proposes on
// connection cc for the person ctx acts for (event.OwnerOf, set by
// sign-in): required by the connection (`approval: required`), else by
// the person's own setting (quarry users set-approval); nil when neither
// requires it. The waiting run reads and writes its log in st, the store
// every replica shares.
func approvalFor(ctx context.Context, st store.State, cc *config.Connection) (*analyst.Approval, error) {
	owner := event.OwnerOf(ctx)
	why := ""
	switch {
	case cc != nil && cc.Approval:
		why = "connection"
	case owner != "":
		u, err := st.User(ctx, owner)
		if err != nil && quarry.KindOf(err) != quarry.KindNotFound {
			return nil, err
		}
		if err == nil && u.Approval {
			why = "person"
		}
	}
	if why == "" {
		return nil, nil
	}
	ap := &analyst.Approval{Log: st, AskedBy: owner, Why: why}
	if cc != nil {
		ap.Timeout = cc.ApprovalTimeout
	}
	return ap, nil
}

// approvalWait is how long a served question may wait for approval on
// connection cc: its approval_timeout (or the default) when the
// connection or any person of the state requires approval, else 0.
func approvalWait(ctx context.Context, st store.State, cc *config.Connection) (time.Duration, error) {
	on := cc.Approval
	if !on {
		us, err := st.Users(ctx)
		if err != nil {
			return 0, err
		}
		on = slices.ContainsFunc(us, func(u store.User) bool { return u.Approval })
	}
	if !on {
		return 0, nil
	}
	if cc.ApprovalTimeout > 0 {
		return cc.ApprovalTimeout, nil
	}
	return analyst.DefaultApprovalTimeout, nil
}

// approvalNotes tells the person at the terminal that a statement of
// their run waits for approval, and where it is decided: the run's events
// pass it on their way to the store.
func (r *Runtime) approvalNotes() event.Sink {
	return event.SinkFunc(func(_ context.Context, evs ...event.Event) error {
		for _, e := range evs {
			var d event.ApprovalRequestedData
			if e.Type != event.ApprovalRequested || json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			r.note(fmt.Sprintf("statement %s of run %s waits for approval until %s: an admin approves or refuses it in the web UI of quarry serve on this state (or POST /api/runs/%s/approve)",
				d.Statement, e.RunID, d.Deadline.Local().Format("15:04"), e.RunID))
		}
		return nil
	})
}
