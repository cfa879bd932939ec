package planner

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// flightsModel is the logistics model's shape for an airline: flights
// with two links to airports, a planned arrival and a status.
func flightsModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "flights", Table: "flights", PrimaryKey: "id", TimeColumn: "scheduled_departure", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "flight_no", Type: quarry.TypeText},
				{Name: "origin_airport_id", Type: quarry.TypeInt}, {Name: "destination_airport_id", Type: quarry.TypeInt},
				{Name: "scheduled_departure", Type: quarry.TypeTimestamp}, {Name: "scheduled_arrival", Type: quarry.TypeTimestamp},
				{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "diverted", "landed", "scheduled"}},
			}},
			{Name: "airports", Table: "airports", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "city", Type: quarry.TypeText, Values: []string{"Denver", "Chicago"}},
			}},
		},
		Relationships: []semantic.Relationship{
			{Name: "destination_airport", From: "flights", FromColumn: "destination_airport_id", To: "airports", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "origin_airport", From: "flights", FromColumn: "origin_airport_id", To: "airports", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestPlannedDateIsNoEvent: "arrived" read from scheduled_arrival counted
// every flight planned, the cancelled ones too (found from outside, at
// confidence 1.00). Without a status it is refused, and no reading of
// the direction alone answers in its place; with one it is answered.
func TestPlannedDateIsNoEvent(t *testing.T) {
	p := New(flightsModel(), nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{
		"how many flights arrived in Denver",
		"how many flights arrived in Denver in June",
		"how many flights arrived last month",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind == KindMetric || pl.Kind == KindRows {
			t.Errorf("%q answered %+v; scheduled_arrival does not say a flight arrived", q, pl.Query)
			continue
		}
		if !strings.Contains(pl.Reason, "'cancelled'") {
			t.Errorf("%q: %s %q does not name the statuses", q, pl.Kind, pl.Reason)
		}
	}
	pl := p.Plan("how many flights with status landed arrived last month", asOf)
	if pl.Kind != KindMetric {
		t.Fatalf("with a status: %s %s", pl.Kind, pl.Reason)
	}
	if !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "flights.status" }) {
		t.Errorf("filters %+v keep no status", pl.Query.Filters)
	}
	if pl := p.Plan("how many flights scheduled last month", asOf); pl.Kind == KindUnanswered && strings.Contains(pl.Reason, "scheduled_arrival is when") {
		t.Errorf("the plan's own word is refused: %s", pl.Reason)
	}
}

// TestRoleInTitle: a value of a table reached by one of two links is
// titled with the link ("116 flights (Denver)" did not say to or from).
func TestRoleInTitle(t *testing.T) {
	p := New(flightsModel(), nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	pl := p.Plan("how many flights to Denver", asOf)
	if pl.Kind != KindMetric {
		t.Fatalf("%s %s", pl.Kind, pl.Reason)
	}
	if !strings.Contains(pl.Title, "destination airport Denver") {
		t.Errorf("title %q does not say which airport is Denver", pl.Title)
	}
}

// TestNumberColumns: "invoice numbers" are the invoice_no column, listed
// alone (found from outside: every column listed, "numbers" ignored).
func TestNumberColumns(t *testing.T) {
	p := New(flightsModel(), nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	pl := p.Plan("list the flight numbers of flights to Denver", asOf)
	if pl.Kind != KindRows {
		t.Fatalf("%s %s %v", pl.Kind, pl.Reason, pl.Unknown)
	}
	if !slices.Equal(pl.Query.Rows.Columns, []string{"flight_no"}) {
		t.Errorf("listed %v, want flight_no", pl.Query.Rows.Columns)
	}
}

// TestRoleElsewhere: "goals by away team" (the away team of each goal's
// match, while goals have teams through their players) is refused unless
// the match is named; a role the measured rows link to themselves
// ("students with the most likes": Likes.student_id, the role read from
// Friend.student_id) is theirs (found on Spider).
func TestRoleElsewhere(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "teams", Table: "teams", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "players", Table: "players", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "team_id", Type: quarry.TypeInt}}},
			{Name: "matches", Table: "matches", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "home_team_id", Type: quarry.TypeInt}, {Name: "away_team_id", Type: quarry.TypeInt}}},
			{Name: "goals", Table: "goals", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "match_id", Type: quarry.TypeInt}, {Name: "player_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "team", From: "players", FromColumn: "team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "home_team", From: "matches", FromColumn: "home_team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "away_team", From: "matches", FromColumn: "away_team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "match", From: "goals", FromColumn: "match_id", To: "matches", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "player", From: "goals", FromColumn: "player_id", To: "players", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if pl := p.Plan("number of goals by away team", asOf); pl.Kind == KindMetric || !strings.Contains(pl.Reason, "whose away team") {
		t.Errorf("%s %q; want the route asked about", pl.Kind, pl.Reason)
	}
	if pl := p.Plan("number of goals by away team of the match", asOf); pl.Kind != KindMetric {
		t.Errorf("the match named: %s %s", pl.Kind, pl.Reason)
	}
	if pl := p.Plan("number of matches by away team", asOf); pl.Kind != KindMetric {
		t.Errorf("the matches' own role: %s %s", pl.Kind, pl.Reason)
	}
	// Spider's network_1: two tables link students twice each.
	hs := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Highschooler", Table: "Highschooler", PrimaryKey: "ID", Label: "name", Columns: []semantic.Column{{Name: "ID", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "Friend", Table: "Friend", Columns: []semantic.Column{{Name: "student_id", Type: quarry.TypeInt}, {Name: "friend_id", Type: quarry.TypeInt}}},
			{Name: "Likes", Table: "Likes", Columns: []semantic.Column{{Name: "student_id", Type: quarry.TypeInt}, {Name: "liked_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "student", From: "Friend", FromColumn: "student_id", To: "Highschooler", ToColumn: "ID", Cardinality: semantic.ManyToOne},
			{Name: "friend", From: "Friend", FromColumn: "friend_id", To: "Highschooler", ToColumn: "ID", Cardinality: semantic.ManyToOne},
			{Name: "student", From: "Likes", FromColumn: "student_id", To: "Highschooler", ToColumn: "ID", Cardinality: semantic.ManyToOne},
			{Name: "liked", From: "Likes", FromColumn: "liked_id", To: "Highschooler", ToColumn: "ID", Cardinality: semantic.ManyToOne},
		},
	}
	if pl := New(hs, nil).Plan("Give the name of the student with the most likes.", asOf); pl.Kind != KindMetric && pl.Kind != KindRows {
		t.Errorf("the likes' own student: %s %s", pl.Kind, pl.Reason)
	}
}

// TestLoneNamePart: "employees in Sales", where Sales is a department and
// also some employees' first name, is not read as the first name by its
// table's rank (found from outside: 9 for 66); "named Sales" is.
func TestLoneNamePart(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "departments", Table: "departments", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText, Values: []string{"Sales", "Finance"}}}},
			{Name: "employees", Table: "employees", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "first_name", Type: quarry.TypeText, Values: []string{"Anna", "Sales"}}, {Name: "last_name", Type: quarry.TypeText, Values: []string{"Finance", "Berg"}},
				{Name: "department_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{Name: "department", From: "employees", FromColumn: "department_id", To: "departments", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many employees in Sales", "how many employees in Finance"} {
		pl := p.Plan(q, asOf)
		if (pl.Kind == KindMetric || pl.Kind == KindRows) && !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "departments.name" }) {
			t.Errorf("%q read as %+v, not the department", q, pl.Query.Filters)
		}
	}
	if pl := p.Plan("how many employees named Sales", asOf); pl.Kind != KindMetric || pl.Query.Filters[0].Field != "employees.first_name" {
		t.Errorf("named Sales: %s %+v", pl.Kind, pl.Query)
	}
}

// TestCountryReading: a country named where one table holds names and
// another codes is read on the rows' own table: "guests from Germany"
// by the guests' country_code, "airlines in the USA" by the airlines'
// Country; where neither is the rows' own, refused.
func TestCountryReading(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "hotels", Table: "hotels", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "country", Type: quarry.TypeText, Values: []string{"Germany", "Portugal"}}}},
			{Name: "guests", Table: "guests", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText}, {Name: "country_code", Type: quarry.TypeText, Values: []string{"DE", "PT"}}}},
			{Name: "bookings", Table: "bookings", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "hotel_id", Type: quarry.TypeInt}, {Name: "guest_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "hotel", From: "bookings", FromColumn: "hotel_id", To: "hotels", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "guest", From: "bookings", FromColumn: "guest_id", To: "guests", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if pl := p.Plan("how many guests from Germany", asOf); pl.Kind != KindMetric || pl.Query.Filters[0].Field != "guests.country_code" {
		t.Errorf("guests from Germany: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("how many hotels in Germany", asOf); pl.Kind != KindMetric || pl.Query.Filters[0].Field != "hotels.country" {
		t.Errorf("hotels in Germany: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("how many bookings in Portugal", asOf); pl.Kind == KindMetric {
		t.Errorf("bookings in Portugal, hotels' or guests'? answered %+v", pl.Query.Filters)
	}
}

// TestNumberOnAFlag: "invoices over 50 dollars that were unpaid" put the
// number on paid, a yes/no column (paid > 50: 0 invoices, found from
// outside); it is refused, and the number said after the amount is
// read there.
func TestNumberOnAFlag(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "invoices", Table: "invoices", PrimaryKey: "id", TimeColumn: "issued_on", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "issued_on", Type: quarry.TypeDate},
			{Name: "amount_cents", Type: quarry.TypeInt}, {Name: "paid", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
	}}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many invoices over 50 dollars were unpaid in 2025", "how many invoices over 50 dollars were paid"} {
		pl := p.Plan(q, asOf)
		if pl.Kind == KindMetric && slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "invoices.paid" && f.Op == semantic.OpGt }) {
			t.Errorf("%q compared paid with a number: %+v", q, pl.Query.Filters)
		}
	}
	pl := p.Plan("how many unpaid invoices over 50 dollars in 2025", asOf)
	if pl.Kind != KindMetric || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "invoices.amount_cents" }) {
		t.Errorf("unpaid invoices over 50 dollars: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestNoDateOfABeginning: rows with no date of their own are not put in
// a period by the date their parent began on ("F grades in 2025" were
// those of students who enrolled in 2025, found from outside).
func TestNoDateOfABeginning(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "students", Table: "students", PrimaryKey: "id", Label: "name", TimeColumn: "enrolled_on", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "enrolled_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
			{Name: "grades", Table: "grades", PrimaryKey: "id", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "student_id", Type: quarry.TypeInt}, {Name: "grade", Type: quarry.TypeText, Values: []string{"A", "F"}}}},
		},
		Relationships: []semantic.Relationship{{Name: "student", From: "grades", FromColumn: "student_id", To: "students", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	pl := New(m, nil).Plan("how many grades are F in 2025", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if pl.Kind == KindMetric {
		t.Errorf("answered by the students' enrollment: %+v", pl.Query)
	}
}

// TestCurrentOfAPeriod: "current" before a unit of time is the period,
// not the rows' state.
func TestCurrentOfAPeriod(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "accounts", Table: "accounts", PrimaryKey: "id", TimeColumn: "opened_on", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "opened_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
			{Name: "closed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
	}}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	pl := p.Plan("how many accounts were opened in the current month", asOf)
	if pl.Kind == KindMetric && slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "accounts.closed_on" }) {
		t.Errorf("the current month read as open accounts: %+v", pl.Query.Filters)
	}
	if pl := p.Plan("how many current accounts", asOf); pl.Kind != KindMetric || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "accounts.closed_on" && f.Op == semantic.OpNull }) {
		t.Errorf("current accounts: %s %s", pl.Kind, pl.Reason)
	}
}
