package export

import (
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Planner is what PlanSQL needs of the builtin planner.
type Planner interface {
	Plan(question string, asOf time.Time) *planner.Plan
}

// PlanSQL is the SQL the builtin planner would run now for a run's
// question, read against the run's day, in its dialect; "" when the run
// was not a builtin planner's question or it would not be answered now.
func PlanSQL(p Planner, m *semantic.Model, orig event.RunState) string {
	if p == nil || orig.Kind != "ask" || orig.Planner != "builtin" {
		return ""
	}
	asOf, err := time.Parse("2006-01-02", orig.AsOf)
	if err != nil {
		return ""
	}
	pl := p.Plan(orig.Question, asOf)
	switch pl.Kind {
	case planner.KindVerified:
		return pl.SQL
	case planner.KindMetric, planner.KindRows:
		if pl.Query == nil {
			return ""
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.Dialect(orig.Dialect))
		if err != nil {
			return ""
		}
		return c.SQL
	}
	return ""
}

// Rerun is what re-executing a run's SQL found, and what it means.
type Rerun struct {
	RunID   string `json:"run_id"`   // the run re-executed
	RerunID string `json:"rerun_id"` // the new run that re-executed it
	SQL     string `json:"sql"`

	RecordedHash string `json:"recorded_hash"`
	Hash         string `json:"hash"`
	RecordedRows int64  `json:"recorded_rows"`
	Rows         int64  `json:"rows"`
	Same         bool   `json:"same"` // the result hashes match

	RecordedKnowledge string `json:"recorded_knowledge,omitempty"`
	Knowledge         string `json:"knowledge,omitempty"` // the knowledge folder's digest now
	// PlanNow is the SQL quarry would run for the question now (builtin
	// planner), "" when the run was SQL or the question is not answered
	// now; PlanSame says whether it is the recorded SQL.
	PlanNow  string `json:"plan_now,omitempty"`
	PlanSame *bool  `json:"plan_same,omitempty"`

	Verdict []string `json:"verdict"` // what changed, a sentence each
}

// Judge compares a run with its re-execution: the result hashes, the
// knowledge digests, and (for a question) the SQL the planner chooses now.
// planNow is "" when there is none to compare.
func Judge(orig, again event.RunState, knowledgeNow, planNow string) Rerun {
	r := Rerun{RunID: orig.RunID, RerunID: again.RunID, SQL: orig.SQL,
		RecordedHash: orig.ResultHash, Hash: again.ResultHash, RecordedRows: orig.Rows, Rows: again.Rows,
		RecordedKnowledge: orig.Knowledge, Knowledge: knowledgeNow, PlanNow: planNow}
	r.Same = r.RecordedHash != "" && r.RecordedHash == r.Hash
	switch {
	case again.Status != event.StatusSucceeded:
		r.Verdict = append(r.Verdict, "the SQL did not run again: "+oneLine(again.Error))
	case r.RecordedHash == "":
		r.Verdict = append(r.Verdict, "the run recorded no result hash to compare with")
	case r.Same:
		r.Verdict = append(r.Verdict, "the same SQL returns the same result")
	default:
		r.Verdict = append(r.Verdict, "the data changed: the same SQL returns a different result")
	}
	knowledgeChanged := orig.Knowledge != "" && knowledgeNow != "" && orig.Knowledge != knowledgeNow
	if knowledgeChanged {
		r.Verdict = append(r.Verdict, "the knowledge folder changed since the run")
	}
	if planNow != "" {
		same := normSQL(planNow) == normSQL(orig.SQL)
		r.PlanSame = &same
		switch {
		case same:
			r.Verdict = append(r.Verdict, "asking the question now runs the same SQL")
		case knowledgeChanged:
			r.Verdict = append(r.Verdict, "asking the question now runs different SQL, after the knowledge changed")
		default:
			r.Verdict = append(r.Verdict, "asking the question now runs different SQL with the same knowledge: quarry's planner changed")
		}
	}
	return r
}

func normSQL(s string) string {
	return strings.TrimRight(strings.Join(strings.Fields(s), " "), "; ")
}
