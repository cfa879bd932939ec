package analyst

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/verify"
)

// Planner turns a question into a plan.
type Planner interface {
	Plan(question string, asOf time.Time) *planner.Plan
}

// scoper is a planner that cuts a wide model to what a question and its
// query could read (planner.Planner.ScopeModel).
type scoper interface {
	ScopeModel(question string, m *semantic.Model, q *semantic.Query) *semantic.Model
}

// scoped is m as the checks of question against q need it: cut by the
// planner where it can (a wide model), else m.
func (k *Knowledge) scoped(question string, m *semantic.Model, q *semantic.Query) *semantic.Model {
	if s, ok := k.Planner.(scoper); ok {
		return s.ScopeModel(question, m, q)
	}
	return m
}

// roleModeler is a planner that holds its model with the role entities
// derived (planner.Planner.PlanModel).
type roleModeler interface {
	PlanModel(pl *planner.Plan) *semantic.Model
}

// modelOf is the model pl reads: k's, with its role entities and pl's
// ad-hoc metrics. The planner derived the roles already; deriving them
// again is a pass over every table of a wide model.
func (k *Knowledge) modelOf(pl *planner.Plan) *semantic.Model {
	if r, ok := k.Planner.(roleModeler); ok {
		return r.PlanModel(pl)
	}
	return pl.Model(k.Model)
}

// Knowledge is what Ask knows about the data: the semantic model, a
// planner over it, and the knowledge folder's hash for provenance.
type Knowledge struct {
	Model    *semantic.Model
	Planner  Planner
	Hash     string
	Currency string // symbol for currency-formatted metrics, e.g. "$"
	// Values is the value index of the knowledge folder; nil when it has
	// none (the planner reads only the knowledge's own values).
	Values ValueIndex
	// planned is a plan made ahead of Plan (WithPlanned).
	planned *Planned
}

// AskOutcome is everything a surface shows about an answered (or refused)
// question. Status is one of the event.Status constants, or "clarify".
type AskOutcome struct {
	RunID     string               `json:"run_id"`
	Status    string               `json:"status"`
	Question  string               `json:"question"`
	AsOf      string               `json:"as_of"`
	Plan      *planner.Plan        `json:"plan,omitempty"`
	Reading   *event.ReadingData   `json:"interpretation,omitempty"`
	SQL       string               `json:"sql,omitempty"`
	Compiled  *semantic.Compiled   `json:"-"`
	Verdict   *sqlguard.Verdict    `json:"guard,omitempty"`
	Table     *quarry.Table        `json:"-"`
	Columns   []narrate.ColumnInfo `json:"-"`
	Rows      int64                `json:"row_count"`
	Truncated bool                 `json:"truncated,omitempty"`
	Duration  time.Duration        `json:"-"`
	Report    verify.Report        `json:"checks"`
	Answer    narrate.Answer       `json:"answer"`
	ResultID  string               `json:"result_id,omitempty"`
	Message   string               `json:"message,omitempty"` // why the question was not answered
}

// askRowCap bounds the rows an answer reads; answers are aggregates and
// short lists, and the full result of a big list is a `run` away.
const askRowCap = 10000

// Ask answers a question with the builtin planner: plan → compile → guard
// → execute → verify → explain, recording every step. A question that
// cannot be answered with confidence returns a KindUnanswered error (or
// KindForbidden for a refusal) together with an outcome that says what was
// understood and what was not.
func (a *Analyst) Ask(ctx context.Context, rec *event.Recorder, k *Knowledge, question string, asOf time.Time) (*AskOutcome, error) {
	em := NewEmitter(rec)
	day := asOf.Format("2006-01-02")
	out := &AskOutcome{RunID: rec.RunID(), Question: question, AsOf: day}
	em.Emit(ctx, &event.RunStartedData{
		Kind: "ask", Question: question, Connection: a.Connection, Dialect: string(a.Conn.Dialect()),
		Planner: "builtin", AsOf: day, Knowledge: k.Hash, PrivilegedRole: a.PrivilegedRole,
		Privacy: string(a.Privacy.Or()), MinGroupSize: a.MinGroupSize,
	})
	err := a.admitted(ctx, func() error { return a.ask(ctx, em, k, question, asOf, out) })
	switch {
	case err == nil:
		out.Status = event.StatusSucceeded
		em.finish(ctx, out.Status, nil)
	default:
		if out.Status == "" {
			out.Status = statusOf(err)
		}
		out.Message = quarry.Message(err)
		status := out.Status
		if status == "clarify" {
			status = event.StatusUnanswered
		}
		em.finish(ctx, status, err)
	}
	if err == nil && em.Err() != nil {
		err = quarry.Wrap(quarry.KindInternal, em.Err(), "the run could not be recorded in quarry's state database")
	}
	return out, err
}

func (a *Analyst) ask(ctx context.Context, em *Emitter, k *Knowledge, question string, asOf time.Time, out *AskOutcome) error {
	pl, read, err := k.Plan(ctx, question, asOf)
	if err != nil {
		return err
	}
	out.Plan = pl
	// The checks hold the plan to the question in the words it was
	// answered in, where the planner rewrote a word ("assignee" as the
	// employee it names); the reading says so.
	checked := read
	if pl.Read != "" {
		checked = pl.Read
	}
	em.Emit(ctx, &event.QuestionParsedData{Understood: pl.Understood, Unknown: pl.Unknown, Alternatives: pl.Suggestions, DidYouMean: pl.DidYouMean})

	var sql, source, zeroControl string
	var compiled *semantic.Compiled
	var cov []verify.Check // the coverage checks, once run: Explain reports them
	// The model the plan reads, with its role entities and ad-hoc
	// metrics: derived once, a pass over every table of a wide model.
	model := k.modelOf(pl)
	switch pl.Kind {
	case planner.KindClarify:
		out.Status = "clarify"
		em.Emit(ctx, &event.ClarificationData{Question: pl.Question, Options: pl.Options, Reason: pl.Reason})
		return quarry.Errorf(quarry.KindUnanswered, "%s", pl.Question)
	case planner.KindRefuse:
		return quarry.Errorf(quarry.KindForbidden, "%s", pl.Reason)
	case planner.KindUnanswered:
		return quarry.Errorf(quarry.KindUnanswered, "%s", unansweredMessage(pl))
	case planner.KindVerified:
		if why := a.verifiedAsOf(ctx, model, pl.SQL, asOf); why != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", why)
		}
		sql, source = pl.SQL, "verified_query"
	case planner.KindMetric, planner.KindRows:
		if pl.Query == nil {
			return quarry.Errorf(quarry.KindInternal, "the planner returned a %s plan without a query", pl.Kind)
		}
		// A period cut at the as-of day, on a date that holds days
		// after it ("leases that end this month"): the whole period.
		// "due in July" on June 30, on a date set ahead: the coming July.
		pl = a.comingBare(ctx, model, pl, asOf, read)
		pl = rankedWhole(a.periodAhead(ctx, model, pl, asOf, read))
		out.Plan = pl
		// A period to come, on the one date of the rows set ahead
		// ("reservations for next month": their check-in).
		if sa := a.setAheadInstead(ctx, model, pl, asOf); sa != pl {
			pl, model = sa, k.modelOf(sa)
			out.Plan = pl
			// The date is named for the checks, as the reading names it.
			_, col, _ := strings.Cut(pl.Query.TimeRange.Field, ".")
			checked = strings.TrimRight(strings.TrimSpace(checked), "?.! ") + ", on their " + strings.Join(semantic.NameWords(col), " ")
		}
		// A period to come, of things that happen ("orders next month").
		if why := a.notBegun(ctx, model, pl, asOf, read); why != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", why)
		}
		if mb := a.madeByTheDay(model, pl, asOf); mb != pl {
			pl = mb
			out.Plan = pl
		}
		// Of the rows to come, those called off will not happen.
		planned := func(field string) bool {
			n, ok := a.plannedAsOf(ctx, model, field, asOf)
			return ok && n > 0
		}
		if co := calledOffAhead(model, pl, asOf, planned); co != pl {
			pl, model = co, k.modelOf(co)
			out.Plan = pl
		}
		if co := calledOffParts(model, pl, asOf, planned); co != pl {
			pl, model = co, k.modelOf(co)
			out.Plan = pl
		}
		// A question whose conditions cannot all hold ("completed orders
		// that were cancelled") would come back empty, or as a confident
		// zero: say so instead.
		if why := verify.Contradictions(model, pl.Query); len(why) > 0 {
			return quarry.Errorf(quarry.KindUnanswered, "the question's conditions cannot all hold: %s; ask for one of them", strings.Join(why, "; "))
		}
		// A period on the date the rows were made, where the question
		// picks them by an event with a date of its own ("discontinued
		// last year", "cancelled last month"), would count other rows.
		if pd := verify.PeriodDate(model, withShareCases(pl)); pd != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", pd)
		}
		// Likewise a quantity of an event the period's date is not
		// ("qty produced last quarter" by the day the orders were made).
		if md := verify.MeasureDate(model, pl.Query); md != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", md)
		}
		// A period on one date cut by months of another.
		if gd := verify.GrainDate(model, pl.Query); gd != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", gd)
		}
		// Likewise the order of a list ("cancelled most recently").
		if od := verify.OrderDate(model, pl.Query); od != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", od)
		}
		// A ranking of weeks or months over a range that cuts the first
		// or last of them would rank part of a period with whole ones.
		if cut := verify.CutPeriods(model, pl.Query); cut != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", cut)
		}
		// The different dates of a column, or its latest one in each
		// period, read for a number of events ("how many hires").
		if why := verify.DateAggregates(checked, model, pl.Query); why != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", why)
		}
		// A reading that leaves out part of the question (a value, a
		// number, a period, a measure, a grouping it names) would answer
		// another question: say so instead, with the check that found it.
		if cov = append([]verify.Check{}, verify.Coverage(checked, out.AsOf, k.scoped(checked, model, pl.Query), pl.Query)...); failed(cov) != "" {
			em.Emit(ctx, &event.ChecksRanData{Checks: reportOf(cov).EventChecks(), Confidence: verify.Confidence(cov)})
			if q, opts := a.perQuestion(ctx, k, read, failed(cov), asOf); len(opts) > 0 {
				ask := *pl
				ask.Kind, ask.Question, ask.Options = planner.KindClarify, q, opts
				out.Plan, out.Status = &ask, "clarify"
				em.Emit(ctx, &event.ClarificationData{Question: q, Options: opts, Reason: failed(cov)})
				return quarry.Errorf(quarry.KindUnanswered, "%s", q)
			}
			return quarry.Errorf(quarry.KindUnanswered, "quarry's reading of the question leaves part of it out (%s), so it did not answer; rephrase, or name the measure, filter or period plainly", failed(cov))
		}
		// "fewer than 2 sections" counted from the sections would leave
		// out the courses with none: answer only when a control query
		// shows there are none, else refuse rather than answer wrong.
		if zs := verify.ZeroGroupsMissing(model, pl.Query); len(zs) > 0 {
			c, err := a.zeroGroupsControl(ctx, em, model, pl.Query, zs)
			if err != nil {
				return err
			}
			zeroControl = c
		}
		// A condition that rows had an event ("closed accounts"): the
		// events up to the as-of day.
		ended, why := a.asOfEnded(ctx, model, pl, asOf)
		if why == "" {
			why = a.asOfStatus(ctx, model, pl, asOf)
		}
		if why == "" {
			why = a.asOfUndated(ctx, model, pl, asOf)
		}
		if why != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", why)
		}
		if ended != pl {
			pl, model = ended, k.modelOf(ended)
		}
		// Asked as of an earlier day, with no period: the rows dated
		// after it had not happened then.
		// No period, on a date that holds days after today ("which
		// month had the most visits", "total invoice amount"): what has
		// happened.
		if sa := a.seriesAhead(ctx, model, pl, asOf, read); sa != pl {
			pl, model = sa, k.modelOf(sa)
		}
		// A period on another table's date ("revenue from customers
		// who signed up in 2025"): the measured rows to the day too.
		if ob := a.ownDateBound(ctx, model, pl, asOf, read); ob != pl {
			pl, model = ob, k.modelOf(ob)
		}
		// "Trainers with no classes this month": not those gone before.
		if gb := goneBefore(model, pl); gb != pl {
			pl, model = gb, k.modelOf(gb)
		}
		// "no-show rate": of the bookings whose day has come.
		if ad := attendedDay(model, pl, asOf); ad != pl {
			pl, model = ad, k.modelOf(ad)
		}
		bounded := a.asOfBound(ctx, model, a.asOfCounted(ctx, model, pl, asOf), asOf)
		if pl.Query.TimeRange == nil && (bounded == pl || bounded.Query.TimeRange != nil) {
			// "how many lessons", with no period: as "how many lessons
			// last month" does, those called off did not take place,
			// whether the as-of day cut any rows or not (found from
			// outside: cancelled lessons counted with no period, left
			// out with one).
			if co := noPeriodCalledOff(model, bounded, asOf, planned); co != bounded {
				bounded, model = co, k.modelOf(co)
			}
		}
		if co := calledOffRate(model, bounded); co != bounded {
			bounded, model = co, k.modelOf(co)
		}
		pl = a.asOfToday(model, a.noneBound(ctx, model, bounded, asOf), asOf)
		out.Plan = pl
		if q, opts := a.currencyQuestion(ctx, k, read, asOf, model, pl); len(opts) > 0 {
			ask := *pl
			ask.Kind, ask.Question, ask.Options = planner.KindClarify, q, opts
			out.Plan, out.Status = &ask, "clarify"
			em.Emit(ctx, &event.ClarificationData{Question: q, Options: opts, Reason: "the amounts are in several currencies, which quarry does not convert"})
			return quarry.Errorf(quarry.KindUnanswered, "%s", q)
		}
		c, err := semantic.Compile(model, *pl.Query, a.Conn.Dialect())
		if err != nil {
			if quarry.KindOf(err) == quarry.KindForbidden {
				return err
			}
			return quarry.Wrap(quarry.KindUnanswered, err, "the question mapped to a query quarry cannot build: %s", quarry.Message(err))
		}
		compiled, sql, source = c, c.SQL, string(pl.Kind)
	default:
		return quarry.Errorf(quarry.KindInternal, "unknown plan kind %q", pl.Kind)
	}
	planJSON, _ := json.Marshal(struct {
		Query *semantic.Query   `json:"query,omitempty"`
		AdHoc []semantic.Metric `json:"ad_hoc,omitempty"`
		Title string            `json:"title,omitempty"`
	}{pl.Query, pl.AdHoc, pl.Title})
	em.Emit(ctx, &event.PlanMadeData{Source: source, Plan: planJSON})
	out.Reading = narrate.Read(model, pl.Query, source)
	if pl.Kind == planner.KindVerified {
		out.Reading.Text = "the verified query approved for this question (" + pl.Title + ")"
	}
	if len(pl.Notes) > 0 {
		out.Reading.Text += "; " + strings.Join(pl.Notes, "; ")
	}
	if len(pl.Ignored) > 0 {
		out.Reading.Ignored = pl.Ignored
		out.Reading.Text += "; ignored: " + strings.Join(pl.Ignored, ", ")
	}
	em.Emit(ctx, out.Reading)
	out.SQL, out.Compiled = sql, compiled
	res, err := a.Exec(ctx, em, sql, Exec{Source: "builtin", MaxRows: askRowCap, KeepRows: askRowCap})
	out.Verdict = &res.Verdict
	if err != nil {
		return err
	}
	out.Table, out.Rows, out.Truncated, out.Duration, out.ResultID = res.Table, res.Rows, res.Truncated, res.Duration, res.ResultID
	// Nothing for a period before the data begins ("invoices in 2020"):
	// not a confident 0. Its control runs only then, not on every period.
	if pl.Query != nil && noneFound(res.Table) {
		if why := a.beforeData(ctx, model, pl); why != "" {
			return quarry.Errorf(quarry.KindUnanswered, "%s", why)
		}
	}
	if compiled != nil {
		out.Columns = narrate.ColumnsFrom(compiled.Columns)
	} else {
		out.Columns = metricColumns(k.Model, res.Table) // a verified query's
	}
	extra, tied := a.ControlChecksTied(ctx, model, pl.Query, res, compiled)
	// Two routes to a table that give different answers, the question
	// naming neither: ask which, rather than answer by the one declared
	// first.
	if q, opts := a.routeQuestion(ctx, k, read, asOf, model, compiled, extra); len(opts) > 0 {
		ask := *pl
		ask.Kind, ask.Question, ask.Options = planner.KindClarify, q, opts
		out.Plan, out.Status = &ask, "clarify"
		out.Table, out.Rows, out.ResultID = nil, 0, ""
		em.Emit(ctx, &event.ChecksRanData{Checks: reportOf(extra).EventChecks(), Confidence: verify.Confidence(extra)})
		em.Emit(ctx, &event.ClarificationData{Question: q, Options: opts, Reason: "the join_path check found that the two routes give different answers"})
		return quarry.Errorf(quarry.KindUnanswered, "%s", q)
	}
	out.Report, out.Answer = Explain(ctx, em, Evidence{
		Columns:  out.Columns,
		Question: read, Title: pl.Title, Period: pl.Period, SoFar: soFar(pl), Reading: out.Reading, AsOf: out.AsOf,
		Model: model, Query: pl.Query, Compiled: compiled, Result: res,
		ZeroGroupsControl: zeroControl, EmptyControl: a.noneEmptyControl(ctx, model, pl.Query, res), Currency: k.Currency,
		Extra: extra, Tied: tied, Coverage: cov,
		Scheduled: pl.PeriodEnd != "" && pl.Query != nil && pl.Query.TimeRange != nil && pl.Query.TimeRange.To == pl.PeriodEnd,
	})
	return nil
}

// soFar is the last day of the plan's period where the planner ended it
// at the as-of day, before its own end ("revenue in December" on the
// 5th); "" otherwise.
func soFar(pl *planner.Plan) string {
	if pl.PeriodEnd == "" || pl.Query == nil || pl.Query.TimeRange == nil || len(pl.Query.Compare) > 0 || pl.Query.TimeRange.To >= pl.PeriodEnd {
		return ""
	}
	return dayBefore(pl.Query.TimeRange.To)
}

// metricColumns says which columns of a result are metrics of m, by name,
// with their formats: a verified query's "refund_rate" is a percent.
func metricColumns(m *semantic.Model, t *quarry.Table) []narrate.ColumnInfo {
	if m == nil || t == nil {
		return nil
	}
	var out []narrate.ColumnInfo
	for _, c := range t.Columns {
		for _, mt := range m.Metrics {
			if strings.EqualFold(mt.Name, c.Name) {
				out = append(out, narrate.ColumnInfo{Name: c.Name, Role: narrate.RoleMetric, Format: mt.Format})
				break
			}
		}
	}
	return out
}

// unansweredMessage says what was understood, what was not, and the
// question corrected or else the closest known terms.
func unansweredMessage(pl *planner.Plan) string {
	var b strings.Builder
	if pl.Reason != "" {
		b.WriteString(pl.Reason)
	} else {
		b.WriteString("quarry could not map the whole question with confidence")
	}
	if len(pl.Unknown) > 0 {
		b.WriteString("; not understood: " + strings.Join(pl.Unknown, ", "))
	}
	if pl.DidYouMean != "" {
		b.WriteString("; did you mean: " + pl.DidYouMean + "?")
	} else if len(pl.Suggestions) > 0 {
		b.WriteString("; closest known terms: " + strings.Join(pl.Suggestions, ", "))
	}
	return b.String()
}

// failed is the detail of the first failed check, or "".
func failed(checks []verify.Check) string {
	for _, c := range checks {
		if c.Status == verify.Fail {
			return c.Detail
		}
	}
	return ""
}

// reportOf is checks as a verify.Report, for recording.
func reportOf(checks []verify.Check) verify.Report {
	return verify.Report{Checks: checks, Confidence: verify.Confidence(checks)}
}

// withShareCases is the plan's query with the conditions of the share it
// defined as filters of its own ("what share of subscriptions churned in
// Q1" picks churned rows as "how many subscriptions churned in Q1" does),
// for the checks of the rows a question picks.
func withShareCases(pl *planner.Plan) *semantic.Query {
	if len(pl.ShareCases) == 0 || pl.Query == nil {
		return pl.Query
	}
	q := *pl.Query
	q.Filters = append(slices.Clone(q.Filters), pl.ShareCases...)
	return &q
}
