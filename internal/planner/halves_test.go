package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestHalfAnswersRefused: a question that asks for two things, one of
// which no reading here gives, is refused rather than answered with the
// other alone. Found from outside, both at 1.00: "how many void invoices
// in 2025 and their total" answered the count, and "average order value
// with and without a coupon" the half without.
func TestHalfAnswersRefused(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "invoices", PrimaryKey: "id", TimeColumn: "issued_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "amount", Type: quarry.TypeFloat}, {Name: "is_void", Type: quarry.TypeInt, Values: []string{"0", "1"}},
			{Name: "coupon", Type: quarry.TypeText}, {Name: "issued_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
	}}
	p := New(m, nil)
	for _, q := range []string{
		"how many void invoices in 2025 and their total",
		"how many invoices and the total",
		"average invoice amount with and without a coupon",
		"total amount with or without coupon",
	} {
		if pl := p.Plan(q, asOf); pl.Query != nil {
			t.Errorf("%q: %s %+v; want refused", q, pl.Kind, pl.Query)
		}
	}
	for _, q := range []string{"how many invoices in total", "total amount of invoices", "how many void invoices in 2025"} {
		if pl := p.Plan(q, asOf); pl.Query == nil {
			t.Errorf("%q: %s %q; want answered", q, pl.Kind, pl.Reason)
		}
	}
}

// TestReportToIsNoFiller: "report" is read past in "a report of
// revenue", never in "employees who report to Walter Perez", a link to a
// manager quarry does not read (found from outside: the employees named
// Walter Perez counted, 1 for his 7 reports, at 1.00).
func TestReportToIsNoFiller(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "employees", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "name", Type: quarry.TypeText, Values: []string{"Walter Perez", "Ana Diaz"}}, {Name: "manager_id", Type: quarry.TypeInt}}},
	}}
	p := New(m, nil)
	for _, q := range []string{"how many employees report to Walter Perez", "employees reporting to Ana Diaz"} {
		if pl := p.Plan(q, asOf); pl.Query != nil {
			t.Errorf("%q: %s %+v; want refused", q, pl.Kind, pl.Query)
		}
	}
}
