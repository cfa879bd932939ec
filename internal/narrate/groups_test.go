package narrate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func deptTable(rows ...[]any) *quarry.Table {
	return &quarry.Table{Columns: []quarry.Column{col("department", quarry.TypeText), col("headcount", quarry.TypeInt)}, Rows: rows}
}

var deptInfos = []ColumnInfo{{Name: "department", Role: RoleDimension}, {Name: "headcount", Role: RoleMetric, Format: FormatInteger}}

// TestComposeTies: a one-row ranking whose first place is shared names
// every tied row, not the one the limit kept alone; a top N says which
// rows past the limit tie its last; a query that kept its ties says they
// tie. Adversarial: rows that differ, or no tie found, say nothing of one.
func TestComposeTies(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   AnswerInput
		want string // in the Markdown; "" for no tie sentence
	}{
		{"cut", AnswerInput{Title: "Headcount by department, top 1", Table: deptTable([]any{"Engineering", int64(15)}), Columns: deptInfos, Tied: []string{"Customer Support"}},
			"a tie — Engineering and Customer Support have **15** each; the limit of 1 shows Engineering alone."},
		{"cut_hidden", AnswerInput{Table: &quarry.Table{Columns: []quarry.Column{col("department", quarry.TypeText)}, Rows: [][]any{{"Engineering"}}}, Columns: deptInfos[:1], Tied: []string{"Customer Support", "Sales"}},
			"A tie: Engineering, Customer Support and Sales share the first place; the limit of 1 shows Engineering alone."},
		{"top_n", AnswerInput{Title: "Headcount by department, top 2", Table: deptTable([]any{"Engineering", int64(15)}, []any{"Sales", int64(9)}), Columns: deptInfos, Tied: []string{"Finance"}},
			"Finance ties the last row shown, beyond the limit of 2 rows."},
		{"kept", AnswerInput{Title: "Headcount by department", Table: deptTable([]any{"Customer Support", int64(15)}, []any{"Engineering", int64(15)}), Columns: deptInfos, Reading: &event.ReadingData{Ties: true, Order: "top 1 by headcount"}},
			"a tie — Customer Support and Engineering have **15** each."},
		{"kept_but_different", AnswerInput{Title: "Headcount by department", Table: deptTable([]any{"Customer Support", int64(15)}, []any{"Engineering", int64(14)}), Columns: deptInfos, Reading: &event.ReadingData{Ties: true, Order: "top 2 by headcount"}},
			""},
		{"counted", AnswerInput{Table: &quarry.Table{Columns: []quarry.Column{col("priority", quarry.TypeText), col("category", quarry.TypeText)}, Rows: [][]any{{"high", "Shipping"}}}, Tied: []string{"at least 50 other rows"}},
			"A tie: at least 50 other rows share the first place with the one shown; the limit of 1 shows one."},
		{"many", AnswerInput{Title: "Headcount by department, top 1", Table: deptTable([]any{"Engineering", int64(15)}), Columns: deptInfos, Tied: []string{"A", "B", "more"}},
			"a tie — Engineering, A, B and more have **15** each"},
		{"no_tie", AnswerInput{Title: "Headcount by department, top 1", Table: deptTable([]any{"Engineering", int64(15)}), Columns: deptInfos},
			""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := Compose(tt.in)
			if tt.want == "" {
				if strings.Contains(strings.ToLower(a.Markdown), "a tie") || strings.Contains(a.Markdown, "ties the last") {
					t.Errorf("a tie is stated where there is none:\n%s", a.Markdown)
				}
				return
			}
			if !strings.Contains(a.Markdown, tt.want) {
				t.Errorf("the answer lacks %q:\n%s", tt.want, a.Markdown)
			}
		})
	}
}

// TestComposeMissingGroups: a breakdown of a count whose grouping's values
// the knowledge lists says which values have no row. Adversarial: every
// value present, a truncated result, a value in another case, a reading
// with no list say nothing.
func TestComposeMissingGroups(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{col("category", quarry.TypeText), col("orders", quarry.TypeInt)},
		Rows: [][]any{{"Books", int64(3)}, {"home", int64(2)}}}
	infos := []ColumnInfo{{Name: "category", Role: RoleDimension}, {Name: "orders", Role: RoleMetric, Format: FormatInteger}}
	read := func(known ...string) *event.ReadingData {
		return &event.ReadingData{Measures: []event.ReadMeasure{{Name: "orders"}}, KnownGroups: known}
	}
	for _, tt := range []struct {
		name      string
		in        AnswerInput
		want, not string
	}{
		{"one", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Reading: read("Books", "Home", "Toys")}, "Toys has none (0)", ""},
		{"two", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Reading: read("Books", "Garden", "Home", "Toys")}, "Garden and Toys have none (0)", ""},
		{"all", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Reading: read("Books", "Home")}, "", "none (0)"},
		{"truncated", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Truncated: true, Reading: read("Books", "Home", "Toys")}, "", "none (0)"},
		{"numbers", AnswerInput{Title: "Concerts by year", Table: &quarry.Table{Columns: []quarry.Column{col("year", quarry.TypeInt), col("orders", quarry.TypeInt)}, Rows: [][]any{{int64(2014), int64(3)}}},
			Columns: []ColumnInfo{{Name: "year", Role: RoleDimension, Format: FormatInteger}, {Name: "orders", Role: RoleMetric, Format: FormatInteger}}, Reading: read("2014", "2015")}, "2015 has none (0)", "2014 has none"},
		{"unlisted", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Reading: &event.ReadingData{Measures: []event.ReadMeasure{{Name: "orders"}}, Population: "only groups with at least one orders row are listed", Period: &event.ReadPeriod{From: "2026-05-01", To: "2026-05-31"}}}, "Only groups with at least one orders row are listed.", ""},
		{"unlisted_no_period", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Reading: &event.ReadingData{Measures: []event.ReadMeasure{{Name: "orders"}}, Population: "only groups with at least one orders row are listed"}}, "", "are listed"},
		{"no_list", AnswerInput{Title: "Orders by category", Table: tbl, Columns: infos, Reading: read()}, "", "none (0)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := Compose(tt.in)
			if tt.want != "" && !strings.Contains(a.Markdown, tt.want) {
				t.Errorf("the answer lacks %q:\n%s", tt.want, a.Markdown)
			}
			if tt.not != "" && strings.Contains(a.Markdown, tt.not) {
				t.Errorf("the answer says %q:\n%s", tt.not, a.Markdown)
			}
		})
	}
}

// TestKnownGroups: the reading lists a grouping's known values only for
// counts and sums of every group. Adversarial: a limit, a filter on the
// grouping, an average, a time grain.
func TestKnownGroups(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "channel", Type: quarry.TypeText, Values: []string{"web", "store"}},
			{Name: "amount", Type: quarry.TypeFloat}, {Name: "ordered_at", Type: quarry.TypeTimestamp}, {Name: "shop_id", Type: quarry.TypeInt}}, TimeColumn: "ordered_at"},
			{Name: "shops", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "city", Type: quarry.TypeText}}}},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "shop_id", To: "shops", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics: []semantic.Metric{
			{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"},
			{Name: "avg_amount", Entity: "orders", Expr: "AVG(orders.amount)"},
		},
	}
	by := []semantic.DimRef{{Name: "orders.channel"}}
	for _, tt := range []struct {
		name string
		q    semantic.Query
		want int
	}{
		{"count", semantic.Query{Metrics: []string{"orders"}, Dimensions: by}, 2},
		{"limit", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, Order: []semantic.Order{{Field: "orders"}}, Limit: 1}, 0},
		{"filtered", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, Filters: []semantic.Filter{{Field: "orders.channel", Op: semantic.OpEq, Values: []any{"web"}}}}, 0},
		{"average", semantic.Query{Metrics: []string{"avg_amount"}, Dimensions: by}, 0},
		{"grain", semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "orders.ordered_at", Grain: semantic.GrainMonth}}}, 0},
		// "channels with more than 500 orders": the groups left out have
		// orders (an outside tester read "have none (0)" of 416).
		{"condition on the measure", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, Filters: []semantic.Filter{{Field: "orders", Op: semantic.OpGt, Values: []any{500}}}}, 0},
		{"condition on the rows", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, Filters: []semantic.Filter{{Field: "orders.amount", Op: semantic.OpGt, Values: []any{500}}}}, 2},
		// "visits per vet at Spa Town": a condition on another table may
		// pick the groups (found from outside: the other clinics' vets
		// said to have none).
		{"condition on another table", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, Filters: []semantic.Filter{{Field: "shops.city", Op: semantic.OpEq, Values: []any{"Bath"}}}}, 0},
		// Bounded at a day, not asked in a period (found from outside:
		// "staff by status" said a status held by staff who start next
		// year had none).
		{"up to a day", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, TimeRange: &semantic.TimeRange{To: "2026-12-06"}}, 0},
		{"in a period", semantic.Query{Metrics: []string{"orders"}, Dimensions: by, TimeRange: &semantic.TimeRange{From: "2026-12-01", To: "2026-12-06"}}, 2},
	} {
		if got := knownGroups(m, &tt.q); len(got) != tt.want {
			t.Errorf("%s: %v, want %d values", tt.name, got, tt.want)
		}
	}
}

// TestLeadNamesTies: groups that share the first value are named
// together, never one as if it led (an outside tester read "Engineering
// leads with 15, then Customer Support 15").
func TestLeadNamesTies(t *testing.T) {
	p := func(label string, v float64) point { return point{label: label, value: v, text: fmt.Sprint(v)} }
	for _, tt := range []struct {
		ps   []point
		want string
	}{
		{[]point{p("A", 15), p("B", 12), p("C", 9), p("D", 1)}, "X: A leads with **15**, then B **12** and C **9**"},
		{[]point{p("A", 15), p("B", 15), p("C", 9)}, "X: A and B tie for the lead with **15** each, then C **9**"},
		{[]point{p("A", 4), p("B", 4), p("C", 4), p("D", 2)}, "X: A, B and C tie for the lead with **4** each, then D **2**"},
		{[]point{p("A", 4), p("B", 4)}, "X: A and B tie for the lead with **4** each"},
	} {
		if got := lead("X", tt.ps, "leads with", "tie for the lead with"); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

// TestComposePeriodRanking: the period a ranking of periods answers with
// ("which year had the lowest revenue") is stated with its figure, as a
// group's is, whatever the grain.
func TestComposePeriodRanking(t *testing.T) {
	for _, tt := range []struct {
		name, title, grain string
		period             any
		value              any
		format             string
		want               []string
	}{
		{"year", "Revenue by year, bottom 1", "year", "2024-01-01", 1234567.5, FormatCurrency, []string{"2024", "$1,234,567.50"}},
		{"month", "Orders by month, top 1", "month", "2025-12-01", int64(3194), FormatInteger, []string{"2025-12", "3,194"}},
		{"quarter", "Customers by quarter, bottom 1", "quarter", "2023-07-01", int64(12), FormatInteger, []string{"12"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := AnswerInput{Title: tt.title, Currency: "$",
				Table:   &quarry.Table{Columns: []quarry.Column{col(tt.grain, quarry.TypeText), col("measure", quarry.TypeFloat)}, Rows: [][]any{{tt.period, tt.value}}},
				Columns: []ColumnInfo{{Name: tt.grain, Role: RoleDimension, Grain: tt.grain}, {Name: "measure", Role: RoleMetric, Format: tt.format}}}
			a := Compose(in)
			for _, w := range tt.want {
				if !strings.Contains(a.Headline, w) {
					t.Errorf("headline %q lacks %q", a.Headline, w)
				}
			}
		})
	}
}

// TestComposeListNames: a list of rows names each row by the column the
// compiler marks as naming it — the entity's label, or its key where it
// has none — not by whatever text column comes first ("1 row: low" for a
// ticket, its priority).
func TestComposeListNames(t *testing.T) {
	ticket := &quarry.Table{
		Columns: []quarry.Column{col("id", quarry.TypeInt), col("opened_at", quarry.TypeTimestamp), col("closed_at", quarry.TypeTimestamp), col("priority", quarry.TypeText), col("category", quarry.TypeText)},
		Rows:    [][]any{{int64(7839), "2026-06-14 09:44:00", "2026-06-22 02:07:00", "low", "Shipping"}},
	}
	ticketCols := []ColumnInfo{{Name: "id", Role: RoleColumn, Names: true}, {Name: "opened_at", Role: RoleColumn}, {Name: "closed_at", Role: RoleColumn}, {Name: "priority", Role: RoleColumn}, {Name: "category", Role: RoleColumn}}
	twoTickets := &quarry.Table{Columns: []quarry.Column{col("id", quarry.TypeInt), col("priority", quarry.TypeText)}, Rows: [][]any{{int64(12), "low"}, {int64(7839), "low"}}}
	people := &quarry.Table{
		Columns: []quarry.Column{col("country", quarry.TypeText), col("name", quarry.TypeText)},
		Rows:    [][]any{{"Germany", "Ada Lovelace"}, {"Germany", "Alan Turing"}},
	}
	for _, tt := range []struct {
		name     string
		in       AnswerInput
		want     []string
		dontWant []string
	}{
		{"key", AnswerInput{Table: ticket, Columns: ticketCols}, []string{"id 7839"}, []string{"low", "7,839"}},
		{"keys_with_dates", AnswerInput{Table: &quarry.Table{Columns: ticket.Columns, Rows: [][]any{{int64(7938), "2026-06-24 15:16:00", "2026-06-29 21:54:00", "normal", "Account"}, ticket.Rows[0]}}, Columns: ticketCols},
			[]string{"id 7938", "id 7839"}, []string{"from 2026-06-14", "from 2026-06-24"}},
		{"keys", AnswerInput{Table: twoTickets, Columns: []ColumnInfo{{Name: "id", Role: RoleColumn, Names: true}, {Name: "priority", Role: RoleColumn}}}, []string{"id 12", "id 7839"}, []string{"all with priority"}},
		{"label", AnswerInput{Table: people, Columns: []ColumnInfo{{Name: "country", Role: RoleColumn}, {Name: "name", Role: RoleColumn, Names: true}}}, []string{"Ada Lovelace", "Alan Turing"}, []string{"all with country"}},
		// Adversarial: nothing marked names the rows: as before, the
		// first text column.
		{"unmarked", AnswerInput{Table: people, Columns: []ColumnInfo{{Name: "country", Role: RoleColumn}, {Name: "name", Role: RoleColumn}}}, []string{"country Germany"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := Compose(tt.in)
			for _, w := range tt.want {
				if !strings.Contains(a.Headline, w) {
					t.Errorf("headline %q lacks %q", a.Headline, w)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(a.Headline, w) {
					t.Errorf("headline %q has %q", a.Headline, w)
				}
			}
		})
	}
}
