package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestValueOfRelatedRows: a value of a table both the subject's rows and
// their related rows refer to, said after the related rows ("patients
// with appointments at Northside Clinic"), is refused, never read as the
// subject's own link (found from outside: the patients' home clinic, 244
// for 117, at 1.00); said of the subject ("patients at Northside
// Clinic"), or of the rows counted ("appointments at Northside Clinic"),
// it is answered.
func TestValueOfRelatedRows(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "clinics", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Northside Clinic", "Riverside Clinic"}}}},
			{Name: "patients", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, id("home_clinic_id")}},
			{Name: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_at", Columns: []semantic.Column{id("id"), id("patient_id"), id("clinic_id"),
				{Name: "scheduled_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "patients", FromColumn: "home_clinic_id", To: "clinics", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "appointments", FromColumn: "patient_id", To: "patients", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "appointments", FromColumn: "clinic_id", To: "clinics", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for q, answered := range map[string]bool{
		"how many patients had appointments at Northside Clinic": false,
		"patients with appointments at Northside Clinic":         false,
		"how many appointments at Northside Clinic":              true,
	} {
		pl := p.Plan(q, asOf)
		if got := pl.Kind == KindMetric || pl.Kind == KindRows; got != answered {
			t.Errorf("%q: %s %q %+v; answered %v, want %v", q, pl.Kind, pl.Reason, pl.Query, got, answered)
		}
	}
}
