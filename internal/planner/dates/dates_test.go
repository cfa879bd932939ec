package dates

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// asOf is a Tuesday.
var asOf = time.Date(2026, 6, 30, 15, 4, 0, 0, time.UTC)

func TestParse(t *testing.T) {
	tests := []struct {
		in, from, to, label string
	}{
		{"today", "2026-06-30", "2026-07-01", "today"},
		{"yesterday", "2026-06-29", "2026-06-30", "yesterday"},
		{"this week", "2026-06-29", "2026-07-06", "this week (week of 2026-06-29)"},
		{"last week", "2026-06-22", "2026-06-29", "last week (week of 2026-06-22)"},
		{"previous week", "2026-06-22", "2026-06-29", "previous week (week of 2026-06-22)"},
		{"this month", "2026-06-01", "2026-07-01", "this month (June 2026)"},
		{"last month", "2026-05-01", "2026-06-01", "last month (May 2026)"},
		// The whole period after today's: renewals, appointments.
		{"next month", "2026-07-01", "2026-08-01", "next month (July 2026)"},
		{"next week", "2026-07-06", "2026-07-13", "next week (week of 2026-07-06)"},
		{"the coming quarter", "2026-07-01", "2026-10-01", "next quarter (Q3 2026)"},
		{"this quarter", "2026-04-01", "2026-07-01", "this quarter (Q2 2026)"},
		{"last quarter", "2026-01-01", "2026-04-01", "last quarter (Q1 2026)"},
		{"this year", "2026-01-01", "2027-01-01", "this year (2026)"},
		{"last year", "2025-01-01", "2026-01-01", "last year (2025)"},
		{"last November", "2025-11-01", "2025-12-01", "last November (November 2025)"},
		{"last March", "2026-03-01", "2026-04-01", "last March (March 2026)"},
		{"last June", "2025-06-01", "2025-07-01", "last June (June 2025)"},
		{"the previous year", "2025-01-01", "2026-01-01", "previous year (2025)"},
		// A day: what was there when the period began (found from
		// outside: read as the year to date).
		{"at the start of the year", "", "2026-01-01", "at the start of 2026 (2026-01-01)"},
		{"at the beginning of the quarter", "", "2026-04-01", "at the start of Q2 2026 (2026-04-01)"},
		{"at the start of 2025", "", "2025-01-01", "at the start of 2025 (2025-01-01)"},
		{"since the start of the year", "2026-01-01", "2026-07-01", "this year to date (2026-01-01 – 2026-06-30)"},
		// "The past year" is the last twelve months, as "the last 12
		// months" (found from outside: read as 2025); "last year" alone
		// is the calendar year.
		{"the past year", "2025-06-01", "2026-06-01", "the past year (the last 12 months: 2025-06-01 – 2026-05-31)"},
		{"over the last year", "2025-06-01", "2026-06-01", "the last year (the last 12 months: 2025-06-01 – 2026-05-31)"},
		{"past year", "2025-06-01", "2026-06-01", "the past year (the last 12 months: 2025-06-01 – 2026-05-31)"},
		{"last 12 months", "2025-06-01", "2026-06-01", "last 12 months (2025-06-01 – 2026-05-31)"},
		{"last 30 days", "2026-05-31", "2026-06-30", "last 30 days (2026-05-31 – 2026-06-29)"},
		{"past 7 days", "2026-06-23", "2026-06-30", "past 7 days (2026-06-23 – 2026-06-29)"},
		{"last two weeks", "2026-06-15", "2026-06-29", "last 2 weeks (2026-06-15 – 2026-06-28)"},
		{"last 3 months", "2026-03-01", "2026-06-01", "last 3 months (2026-03-01 – 2026-05-31)"},
		{"previous 12 months", "2025-06-01", "2026-06-01", "previous 12 months (2025-06-01 – 2026-05-31)"},
		{"last 2 quarters", "2025-10-01", "2026-04-01", "last 2 quarters (2025-10-01 – 2026-03-31)"},
		{"last 3 years", "2023-01-01", "2026-01-01", "last 3 years (2023-01-01 – 2025-12-31)"},
		{"year to date", "2026-01-01", "2026-07-01", "year to date (2026-01-01 – 2026-06-30)"},
		{"YTD", "2026-01-01", "2026-07-01", "year to date (2026-01-01 – 2026-06-30)"},
		{"this year so far", "2026-01-01", "2026-07-01", "year to date (2026-01-01 – 2026-06-30)"},
		{"so far this year", "2026-01-01", "2026-07-01", "year to date (2026-01-01 – 2026-06-30)"},
		{"month to date", "2026-06-01", "2026-07-01", "month to date (2026-06-01 – 2026-06-30)"},
		{"in March 2025", "2025-03-01", "2025-04-01", "March 2025"},
		// A start with no year takes the end's (found from outside:
		// March 2025 compared with the latest January, 2026's).
		{"from January to March 2025", "2025-01-01", "2025-04-01", "January 2025 – March 2025"},
		{"between january and march 2025", "2025-01-01", "2025-04-01", "January 2025 – March 2025"},
		{"from q1 to q2 2025", "2025-01-01", "2025-07-01", "Q1 2025 – Q2 2025"},
		{"jan-mar 2025", "2025-01-01", "2025-04-01", "January 2025 – March 2025"},
		{"Q1–Q2 2025", "2025-01-01", "2025-07-01", "Q1 2025 – Q2 2025"},
		{"from November to February 2026", "2025-11-01", "2026-03-01", "November 2025 – February 2026"},
		{"from March to May", "2026-03-01", "2026-06-01", "March 2026 – May 2026"},
		{"March 2025", "2025-03-01", "2025-04-01", "March 2025"},
		{"mar 2025", "2025-03-01", "2025-04-01", "March 2025"},
		{"in March", "2026-03-01", "2026-04-01", "March 2026"},
		{"in September", "2025-09-01", "2025-10-01", "September 2025"},
		{"in 2024", "2024-01-01", "2025-01-01", "2024"},
		{"Q3 2024", "2024-07-01", "2024-10-01", "Q3 2024"},
		{"2024 Q3", "2024-07-01", "2024-10-01", "Q3 2024"},
		{"2024-Q3", "2024-07-01", "2024-10-01", "Q3 2024"},
		{"q1", "2026-01-01", "2026-04-01", "Q1 2026"},
		{"Q3", "2025-07-01", "2025-10-01", "Q3 2025"},
		{"third quarter of 2024", "2024-07-01", "2024-10-01", "Q3 2024"},
		{"the 3rd quarter 2024", "2024-07-01", "2024-10-01", "Q3 2024"},
		{"last quarter of 2024", "2024-10-01", "2025-01-01", "Q4 2024"},
		{"first half of 2025", "2025-01-01", "2025-07-01", "H1 2025"},
		{"H2 2025", "2025-07-01", "2026-01-01", "H2 2025"},
		{"between January 2025 and March 2025", "2025-01-01", "2025-04-01", "January 2025 – March 2025"},
		{"between 2025-01-01 and 2025-01-31", "2025-01-01", "2025-02-01", "2025-01-01 – 2025-01-31"},
		{"from Q1 2025 to Q2 2025", "2025-01-01", "2025-07-01", "Q1 2025 – Q2 2025"},
		{"from 2024 through 2025", "2024-01-01", "2026-01-01", "2024 – 2025"},
		{"from 2024", "2024-01-01", "2025-01-01", "2024"}, // the period itself, not "since"
		{"from last year", "2025-01-01", "2026-01-01", "last year (2025)"},
		{"since 2025", "2025-01-01", "2026-07-01", "since 2025"},
		{"since March", "2026-03-01", "2026-07-01", "since March 2026"},
		{"since 2026-06-01", "2026-06-01", "2026-07-01", "since 2026-06-01"},
		{"after 2026-06-01", "2026-06-02", "2026-07-01", "after 2026-06-01"},
		{"before 2024", "", "2024-01-01", "before 2024"},
		{"until March 2024", "", "2024-04-01", "until March 2024"},
		// The period itself and one side of it (found from outside: "in
		// or before 2025" was read as before 2025, up to 2024-12-31).
		{"in or before 2025", "", "2026-01-01", "in or before 2025"},
		{"in or after 2025", "2025-01-01", "2026-07-01", "in or after 2025"},
		{"on or after 2026-06-01", "2026-06-01", "2026-07-01", "on or after 2026-06-01"},
		{"prior to 2024", "", "2024-01-01", "before 2024"},
		{"no later than March 2024", "", "2024-04-01", "until March 2024"},
		{"no earlier than March 2025", "2025-03-01", "2026-07-01", "since March 2025"},
		// The end of a period: everything up to it (found from outside:
		// "end" was read as a subscription's end date).
		{"at the end of 2025", "", "2026-01-01", "at the end of 2025"},
		{"the month before last", "2026-04-01", "2026-05-01", "the month before last (April 2026)"},
		{"the quarter before last", "2025-10-01", "2026-01-01", "the quarter before last (Q4 2025)"},
		{"since the beginning of the year", "2026-01-01", "2026-07-01", "this year to date (2026-01-01 – 2026-06-30)"},
		{"since the start of this month", "2026-06-01", "2026-07-01", "this month to date (2026-06-01 – 2026-06-30)"},
		// The first day of a named period as the bound (found from
		// outside: "since the start of 2025" not understood).
		{"since the start of 2025", "2025-01-01", "2026-07-01", "since the start of 2025"},
		{"since the beginning of March 2026", "2026-03-01", "2026-07-01", "since the start of March 2026"},
		{"before the beginning of 2026", "", "2026-01-01", "before the start of 2026"},
		{"since the start of last quarter", "2026-01-01", "2026-07-01", "since the start of last quarter (Q1 2026)"},
		{"by the end of last year", "", "2026-01-01", "by the end of last year (2025)"},
		{"as of the end of Q1", "", "2026-04-01", "by the end of Q1 2026"},
		{"end of March 2025", "", "2025-04-01", "by the end of March 2025"},
		{"on 2025-03-14", "2025-03-14", "2025-03-15", "2025-03-14"},
		{"March 14, 2025", "2025-03-14", "2025-03-15", "2025-03-14"},
		{"March 14th 2025", "2025-03-14", "2025-03-15", "2025-03-14"},
		{"14 March 2025", "2025-03-14", "2025-03-15", "2025-03-14"},
		{"on the 14th of March 2025", "2025-03-14", "2025-03-15", "2025-03-14"},
		{"2025/03/14", "2025-03-14", "2025-03-15", "2025-03-14"},
		{"2025-03", "2025-03-01", "2025-04-01", "March 2025"},
		{"June 3", "2026-06-03", "2026-06-04", "2026-06-03"},
		{"December 24", "2025-12-24", "2025-12-25", "2025-12-24"},
		{"2 months ago", "2026-04-01", "2026-05-01", "2 months ago (April 2026)"},
		{"a year ago", "2025-01-01", "2026-01-01", "1 year ago (2025)"},
		{"during the month of May 2025", "2025-05-01", "2025-06-01", "May 2025"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := Parse(tt.in, asOf)
			if err != nil {
				t.Fatal(err)
			}
			got := [3]string{r.From, r.To, r.Label}
			want := [3]string{tt.from, tt.to, tt.label}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		"", "may", "customers", "last", "last 30", "2025-02-30", "2025-13-01", "Q5 2024",
		"between March 2025 and January 2025", "February 30, 2025", "next day", "12345",
		"between 2025", "since", "since 2027", "after 2026-06-30",
	} {
		if r, err := Parse(in, asOf); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, r)
		}
	}
}

func TestFindAll(t *testing.T) {
	q := "Compare orders in Q1 2025 and Q1 2026 for customers in Germany"
	got := FindAll(q, asOf)
	if len(got) != 2 {
		t.Fatalf("FindAll found %d ranges, want 2: %+v", len(got), got)
	}
	if s := q[got[0].Start:got[0].End]; s != "Q1 2025" {
		t.Errorf("first span = %q", s)
	}
	if s := q[got[1].Start:got[1].End]; s != "Q1 2026" {
		t.Errorf("second span = %q", s)
	}
	q = "revenue this month vs last month"
	got = FindAll(q, asOf)
	if len(got) != 2 || got[0].From != "2026-06-01" || got[1].From != "2026-05-01" {
		t.Errorf("FindAll(%q) = %+v", q, got)
	}
	q = "How many orders may have shipped in May 2025?"
	got = FindAll(q, asOf)
	if len(got) != 1 || q[got[0].Start:got[0].End] != "May 2025" {
		t.Errorf("FindAll(%q) = %+v", q, got)
	}
	if r, ok := Find("how many customers are there", asOf); ok {
		t.Errorf("Find found %+v in a question with no date", r)
	}
	// A number compared with an amount is no year (found from outside:
	// "damage claims over 2000" read as the year 2000); "after" keeps it.
	for _, q := range []string{"how many damage claims over 2000", "claims of more than 2000", "orders of at least 1999"} {
		if r, ok := Find(q, asOf); ok {
			t.Errorf("Find(%q) = %+v, want no period", q, r)
		}
	}
	if _, ok := Find("orders after 2024", asOf); !ok {
		t.Error("Find(\"orders after 2024\") found no period")
	}
	// "last year" after months or quarters with no year of their own is
	// their year, both sides of a comparison's (found from outside: Q4
	// 2025 compared with Q3 2026, and January to March of this year
	// with all of last year).
	for q, want := range map[string][]string{
		"revenue Q3 vs Q4 last year":              {"2025-07-01", "2025-10-01"},
		"revenue from january to march last year": {"2025-01-01"},
		"signups since march last year":           {"2025-03-01"},
		"revenue march vs april":                  {"2026-03-01", "2026-04-01"},
		"revenue in march 2025 vs april":          {"2025-03-01", "2026-04-01"},
	} {
		var got []string
		for _, r := range FindAll(q, asOf) {
			got = append(got, r.From)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("FindAll(%q) starts (-want +got):\n%s", q, diff)
		}
	}
}

func TestDays(t *testing.T) {
	r, _ := Parse("last 30 days", asOf)
	if r.Days() != 30 {
		t.Errorf("Days = %d", r.Days())
	}
	r, _ = Parse("before 2024", asOf)
	if r.Days() != 0 {
		t.Errorf("Days of open range = %d", r.Days())
	}
}

func FuzzFindAll(f *testing.F) {
	for _, s := range []string{"last 30 days", "between March 2025 and May 2025", "Q3 2024", "2025-03-14",
		"since 2024-02-29", "the third quarter of 2024", "14th of march 2025", "x'", "9999-99-99", "from 2025 to"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs := FindAll(s, asOf)
		end := 0
		for _, r := range rs {
			if r.Start < end || r.End > len(s) || r.Start >= r.End {
				t.Fatalf("bad span %+v in %q", r, s)
			}
			end = r.End
			if r.From != "" && r.To != "" && r.From >= r.To {
				t.Fatalf("empty range %+v from %q", r, s)
			}
			if !utf8.ValidString(r.Label) && utf8.ValidString(s) {
				t.Fatalf("invalid label %q", r.Label)
			}
			if strings.TrimSpace(r.Label) == "" {
				t.Fatalf("no label for %+v", r)
			}
		}
	})
}

// TestMayAsAName: "May" written as a name after "in" is the month, and so
// is "may" in lower case at the end of the question ("tickets opened in
// may", found from outside); before another word, or without such a word
// before it, it is the verb.
func TestMayAsAName(t *testing.T) {
	for q, want := range map[string]string{
		"refunds in May":                "2026-05-01",
		"tickets between March and May": "2026-03-01",
		"revenue that may be lost":      "",
		"refunds in may":                "2026-05-01",
		"tickets opened in may?":        "2026-05-01",
		"revenue in may be lower":       "",
		"May we see revenue":            "",
	} {
		got := FindAll(q, asOf)
		switch {
		case want == "" && len(got) != 0:
			t.Errorf("%q: found %+v, want no date", q, got)
		case want != "" && (len(got) != 1 || got[0].From != want):
			t.Errorf("%q: found %+v, want one range from %s", q, got, want)
		}
	}
}

// TestSameLastYear: "the same month last year" is the period before it a
// year earlier (found from outside: "same, month" were not understood); a
// week moves by 52 weeks, so that its weekdays line up.
func TestSameLastYear(t *testing.T) {
	for q, want := range map[string][2]string{
		"revenue last month vs same month last year":        {"2025-05-01", "2025-06-01"},
		"orders this quarter vs the same quarter last year": {"2025-04-01", "2025-07-01"},
		"revenue last week vs same week last year":          {"2025-06-23", "2025-06-30"},
		"sessions in March 2026 vs same month a year ago":   {"2025-03-01", "2025-04-01"},
	} {
		got := FindAll(q, asOf)
		if len(got) != 2 || got[1].From != want[0] || got[1].To != want[1] {
			t.Errorf("%q: %+v, want a second range %v", q, got, want)
		}
	}
	// A period that holds the as-of day is compared like for like.
	if got := FindAll("orders this year vs the same period last year", asOf); len(got) != 2 || got[1].From != "2025-01-01" || got[1].To != "2025-07-01" {
		t.Errorf("this year vs the same period last year: %+v, want 2025-01-01 to 2025-07-01", got)
	}
	if got := FindAll("the same month last year", asOf); len(got) != 1 || got[0].From != "2025-01-01" {
		// With no period before it, "last year" is read on its own.
		t.Errorf("no period before: %+v", got)
	}
}

// TestUnitBefore: "the quarter before" after a period is the whole period
// of that grain just before it, and nothing where the period before is not
// one whole period of that grain.
func TestUnitBefore(t *testing.T) {
	for _, tt := range []struct {
		q          string
		from, to   string // the second range; "" when there is none
		wantRanges int
	}{
		{"revenue last quarter vs the quarter before", "2025-10-01", "2026-01-01", 2},
		{"orders this month vs the month before", "2026-05-01", "2026-06-01", 2},
		{"orders in 2025 vs the year before", "2024-01-01", "2025-01-01", 2},
		{"orders last week vs week before", "2026-06-15", "2026-06-22", 2},
		{"orders on 2026-03-01 vs the day before", "2026-02-28", "2026-03-01", 2},
		{"orders in Q1 2026 vs the quarter before", "2025-10-01", "2026-01-01", 2},
		// A period shorter than a year: the same one a year earlier.
		{"revenue in June vs the year before", "2025-06-01", "2025-07-01", 2},
		{"orders in Q1 2026 vs the year before", "2025-01-01", "2025-04-01", 2},
		{"revenue last quarter vs the month before", "", "", 1}, // not one month
		{"revenue in H1 2025 vs the quarter before", "", "", 1},
		{"the quarter before", "", "", 0}, // nothing before it
	} {
		got := FindAll(tt.q, asOf)
		if len(got) != tt.wantRanges {
			t.Errorf("FindAll(%q) = %+v; want %d ranges", tt.q, got, tt.wantRanges)
			continue
		}
		if tt.from != "" && (got[1].From != tt.from || got[1].To != tt.to) {
			t.Errorf("FindAll(%q)[1] = %+v; want [%s, %s)", tt.q, got[1], tt.from, tt.to)
		}
	}
}

// TestMonthOfYear: a month or quarter named without a year, then "last
// year" or "this year", is that one period of the year (found from
// outside: "revenue in March last year" compared March 2026 with all of
// 2025, and "Q3 last year" was refused as two overlapping periods). A
// period named with its year keeps "last year" apart, and a period not
// started yet is not read into this year.
func TestMonthOfYear(t *testing.T) {
	for _, tt := range []struct {
		q      string
		ranges []string // From–To of each range found
	}{
		{"revenue in Q3 last year", []string{"2025-07-01–2025-10-01"}},
		{"revenue in March last year", []string{"2025-03-01–2025-04-01"}},
		{"orders in December last year", []string{"2025-12-01–2026-01-01"}},
		{"revenue in Q1 a year ago", []string{"2025-01-01–2025-04-01"}},
		{"revenue in March this year", []string{"2026-03-01–2026-04-01"}},
		{"revenue in Q2 this year", []string{"2026-04-01–2026-07-01"}},
		// Not started yet as of 2026-06-30: read as before.
		{"revenue in Q3 this year", []string{"2025-07-01–2025-10-01", "2026-01-01–2027-01-01"}},
		{"revenue in Q3 2024 last year", []string{"2024-07-01–2024-10-01", "2025-01-01–2026-01-01"}},
		{"revenue in Q3 vs last year", []string{"2025-07-01–2025-10-01", "2025-01-01–2026-01-01"}},
		{"revenue last quarter last year", []string{"2025-01-01–2025-04-01"}},
		// Halves without a year (a manager's "H1"): the latest that has
		// started, or the one of the year named.
		{"revenue in H1", []string{"2026-01-01–2026-07-01"}},
		{"revenue in H2", []string{"2025-07-01–2026-01-01"}},
		{"orders in the first half", []string{"2026-01-01–2026-07-01"}},
		{"orders in the second half of last year", []string{"2025-07-01–2026-01-01"}},
		{"revenue H1 this year", []string{"2026-01-01–2026-07-01"}},
		{"revenue in the first half of 2025", []string{"2025-01-01–2025-07-01"}},
		// Quarters by their ordinal, as halves are (found from outside:
		// "orders in the first quarter" refused).
		{"orders in the first quarter", []string{"2026-01-01–2026-04-01"}},
		{"orders in the third quarter", []string{"2025-07-01–2025-10-01"}},
		{"revenue in the second quarter of 2025", []string{"2025-04-01–2025-07-01"}},
		// Two halves and one year after them: the year is both's (found
		// from outside: H1 fell back to this year's).
		{"tickets H1 vs H2 last year", []string{"2025-01-01–2025-07-01", "2025-07-01–2026-01-01"}},
		{"orders first half vs second half of 2025", []string{"2025-01-01–2025-07-01", "2025-07-01–2026-01-01"}},
		{"signups H1 vs H2 2024", []string{"2024-01-01–2024-07-01", "2024-07-01–2025-01-01"}},
		// The same span twice, the second named "previous": the span
		// just before the first.
		{"revenue last 7 days vs the previous 7 days", []string{"2026-06-23–2026-06-30", "2026-06-16–2026-06-23"}},
		{"orders last 3 months vs the prior 3 months", []string{"2026-03-01–2026-06-01", "2025-12-01–2026-03-01"}},
	} {
		var got []string
		for _, r := range FindAll(tt.q, asOf) {
			got = append(got, r.From+"–"+r.To)
		}
		if strings.Join(got, " ") != strings.Join(tt.ranges, " ") {
			t.Errorf("FindAll(%q) = %v; want %v", tt.q, got, tt.ranges)
		}
	}
}

// TestToDateBefore: "last year to date" is the same days of last year as
// "year to date" holds of this one, like for like.
func TestToDateBefore(t *testing.T) {
	for _, tt := range []struct {
		asOf        time.Time
		q, from, to string
	}{
		{asOf, "last year to date", "2025-01-01", "2025-07-01"},
		{asOf, "previous quarter to date", "2026-01-01", "2026-04-01"},
		{asOf, "last month to date", "2026-05-01", "2026-06-01"},
		{time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC), "last month to date", "2026-05-01", "2026-05-16"},
		{asOf, "last week to date", "2026-06-22", "2026-06-24"},
		{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), "last year to date", "2023-01-01", "2023-03-01"},
		{time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC), "last month to date", "2026-02-01", "2026-03-01"},
	} {
		got := FindAll(tt.q, tt.asOf)
		if len(got) != 1 || got[0].From != tt.from || got[0].To != tt.to {
			t.Errorf("%s as of %s: %+v; want [%s, %s)", tt.q, tt.asOf.Format(layout), got, tt.from, tt.to)
		}
	}
	got := FindAll("year to date revenue vs last year to date", asOf)
	if len(got) != 2 || got[0].Days() != got[1].Days() {
		t.Errorf("year to date vs last year to date: %+v; want two ranges of as many days", got)
	}
}

// TestMayAfterVs: "June vs May" names two months.
func TestMayAfterVs(t *testing.T) {
	for q, n := range map[string]int{
		"signups June vs May":        2,
		"signups in June vs may":     2,
		"revenue in June versus May": 2,
		"revenue in June vs may be":  1,
	} {
		if got := FindAll(q, asOf); len(got) != n {
			t.Errorf("FindAll(%q) = %+v; want %d ranges", q, got, n)
		}
	}
}

// TestShift: a period moved by whole years, named as the period it is; a
// week by 52 weeks, and a week cut at the as-of day is not named a week.
func TestShift(t *testing.T) {
	for _, tt := range []struct {
		r     Range
		years int
		want  string
	}{
		{Range{From: "2026-06-01", To: "2026-07-01", Grain: "month"}, -1, "2025-06-01 2025-07-01 June 2025"},
		{Range{From: "2026-01-01", To: "2026-04-01", Grain: "quarter"}, -2, "2024-01-01 2024-04-01 Q1 2024"},
		{Range{From: "2026-06-29", To: "2026-07-06", Grain: "week"}, -1, "2025-06-30 2025-07-07 week of 2025-06-30"},
		{Range{From: "2026-06-29", To: "2026-07-01", Grain: "week"}, -1, "2025-06-30 2025-07-02 2025-06-30 to 2025-07-01"},
		{Range{From: "2026-06-01", To: "2026-06-16", Grain: "month"}, 1, "2027-06-01 2027-06-16 2027-06-01 to 2027-06-15"},
	} {
		e, ok := Shift(tt.r, tt.years)
		if got := e.From + " " + e.To + " " + e.Label; !ok || got != tt.want {
			t.Errorf("Shift(%+v, %d) = %q; want %q", tt.r, tt.years, got, tt.want)
		}
	}
}

// TestAmountsAreNoYears: a number written as money, or the upper bound
// of a range of amounts, is never a year; a range of years stays one
// (found from outside: "between 1000 and 2000" read 2000 as the year).
func TestAmountsAreNoYears(t *testing.T) {
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, s := range []string{"revenue between $1000 and $2000", "transfers between 1000 and 2000", "a fare of 2000 dollars", "more than $2025"} {
		if got := FindAll(s, asOf); len(got) != 0 {
			t.Errorf("%q: dates %+v, want none", s, got)
		}
	}
	if got := FindAll("transfers between 2024 and 2025", asOf); len(got) == 0 {
		t.Errorf("a range of years read as no date")
	}
}
