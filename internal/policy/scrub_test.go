package policy

import (
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

func TestScrubber(t *testing.T) {
	m := &semantic.Model{
		Entities:   []semantic.Entity{{Name: "people", Table: "customers"}},
		Restricted: []string{"people.email"},
	}
	s := NewScrubber(m)
	s.Remember("Ada Lovelace")
	s.Remember("ab") // too short to search for
	got := s.Scrub("Ada Lovelace wrote to ada@mail.example.com; see CUSTOMERS.email and people.email, ab.")
	want := "[restricted] wrote to [restricted]; see [restricted column] and [restricted column], ab."
	if got != want {
		t.Errorf("Scrub:\n got %q\nwant %q", got, want)
	}
	if s.Leak("hello Ada Lovelace") != "Ada Lovelace" || s.Leak("hello") != "" {
		t.Error("Leak does not find the remembered value")
	}
	if clean := NewScrubber(&semantic.Model{}).Scrub("ada@mail.example.com"); clean != "ada@mail.example.com" {
		t.Errorf("without restricted columns: %q", clean)
	}
}

// TestScrubberOddNames: a restricted column is scrubbed however the
// entry names its table: the entity, a table whose own name holds a dot
// (quoted), or schema and table. A value learn wrote of it is not: a
// word of a question turned [restricted] would say it is one of them
// (knowledge.Load forgets such values).
func TestScrubberOddNames(t *testing.T) {
	for _, entry := range []string{"sales_orders.secret", `"sales.orders".secret`, "crm.people.secret"} {
		m := &semantic.Model{
			Entities: []semantic.Entity{
				{Name: "sales_orders", Table: "sales.orders", Columns: []semantic.Column{{Name: "secret", Values: []string{"Orchid Key"}}}},
				{Name: "crm_people", Schema: "crm", Table: "people", Columns: []semantic.Column{{Name: "secret", Values: []string{"Orchid Key"}}}},
			},
			Restricted: []string{entry},
		}
		ref := entry
		if entry == `"sales.orders".secret` {
			ref = "sales.orders.secret"
		}
		if got := NewScrubber(m).Scrub("the code is Orchid Key, in " + ref); got != "the code is Orchid Key, in [restricted column]" {
			t.Errorf("%s: %q", entry, got)
		}
	}
}
