package runtime

import (
	"encoding/json"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/policy"
)

// The text of a stored run that can carry a restricted column's values
// without being its result: the terms quarry suggested for a question it
// could not read, drawn from the knowledge's known values; and, of a run
// that reads a restricted column, what the question was read as and the
// quoted values of its SQL and plan, the stored spelling of a value the
// question named loosely. Found from outside: "closest known terms:
// holiday15" and WHERE discount_code = 'SUMMER10', shared with a reader
// whose group may not read discount codes.

// withoutSuggestions cuts from a run's message the terms quarry suggested
// ("; did you mean: …?", "; closest known terms: …"), which it writes
// last.
func withoutSuggestions(msg string) string {
	for _, cue := range []string{"; did you mean: ", "; closest known terms: "} {
		if i := strings.Index(msg, cue); i >= 0 {
			msg = msg[:i]
		}
	}
	return msg
}

// literalsWithheld is sql with each quoted text literal replaced by the
// policy's mark, quoted; identifiers (double quotes, backticks) stay.
func literalsWithheld(sql string) string {
	if !strings.Contains(sql, "'") {
		return sql
	}
	var b strings.Builder
	for i := 0; i < len(sql); i++ {
		if sql[i] != '\'' {
			b.WriteByte(sql[i])
			continue
		}
		j := i + 1
		for j < len(sql) {
			if sql[j] == '\'' {
				if j+1 < len(sql) && sql[j+1] == '\'' {
					j += 2 // a quote doubled inside the literal
					continue
				}
				break
			}
			j++
		}
		b.WriteString("'" + policy.Redacted + "'")
		i = j
	}
	return b.String()
}

// withholdReading is the data of a run.started, question.parsed,
// sql.generated or plan.made event as a reader of the policy sees it:
// never the terms suggested; where the run reads a restricted column
// (all), nor what was understood, the SQL's quoted values (the user's SQL
// of run.started as the run's own: found from outside, run.started kept
// "ssn LIKE '%6003'" where sql.generated withheld it) or the plan. It
// reports whether anything changed.
func withholdReading(e event.Event, all func() bool) ([]byte, bool, error) {
	switch e.Type {
	case event.QuestionParsed:
		var d event.QuestionParsedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, false, err
		}
		changed := len(d.Alternatives) > 0 || d.DidYouMean != ""
		d.Alternatives, d.DidYouMean = nil, ""
		if (len(d.Understood) > 0 || len(d.Unknown) > 0) && all() {
			d.Understood, d.Unknown, changed = nil, nil, true
		}
		if !changed {
			return nil, false, nil
		}
		b, err := json.Marshal(&d)
		return b, err == nil, err
	case event.RunStarted:
		var d event.RunStartedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, false, err
		}
		return sqlWithheld(&d, &d.SQL, all)
	case event.SQLGenerated:
		var d event.SQLGeneratedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, false, err
		}
		return sqlWithheld(&d, &d.SQL, all)
	case event.PlanMade:
		var d event.PlanMadeData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, false, err
		}
		if len(d.Plan) == 0 || !all() {
			return nil, false, nil
		}
		d.Plan = nil
		b, err := json.Marshal(&d)
		return b, err == nil, err
	}
	return nil, false, nil
}

// sqlWithheld withholds the quoted values of the SQL sql points into,
// a field of d, where the run reads a restricted column (all), and
// returns d encoded and whether it changed.
func sqlWithheld[T any](d *T, sql *string, all func() bool) ([]byte, bool, error) {
	if !strings.Contains(*sql, "'") || !all() {
		return nil, false, nil
	}
	*sql = literalsWithheld(*sql)
	b, err := json.Marshal(d)
	return b, err == nil, err
}
