package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// flagsModel is a learned schema with yes/no columns written as schemas
// write them: is_active with its 0/1 known, is_active with only its type
// and name, single-word participles (refunded, resolved), and columns that
// hold 0/1 without being yes/no (quantity) or hold a state as text.
func flagsModel() *semantic.Model {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	const (
		i = quarry.TypeInt
		s = quarry.TypeText
	)
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "departments", PrimaryKey: "dept_id", Label: "dept_name",
				Columns: []semantic.Column{col("dept_id", i), col("dept_name", s)}},
			{Name: "employees", PrimaryKey: "emp_id", Label: "full_name",
				Columns: []semantic.Column{col("emp_id", i), col("full_name", s), col("dept_id", i), col("is_active", i, "0", "1")}},
			{Name: "warehouses", PrimaryKey: "warehouse_id", Label: "warehouse_name",
				Columns: []semantic.Column{col("warehouse_id", i), col("warehouse_name", s), col("is_active", i)}},
			{Name: "shipments", PrimaryKey: "shipment_id",
				Columns: []semantic.Column{col("shipment_id", i), col("warehouse_id", i), col("weight_kg", quarry.TypeFloat)}},
			{Name: "delivery_exceptions", PrimaryKey: "exception_id", Synonyms: []string{"exceptions"},
				Columns: []semantic.Column{col("exception_id", i), col("shipment_id", i), col("resolved", i, "0", "1")}},
			{Name: "payments", PrimaryKey: "payment_id",
				Columns: []semantic.Column{col("payment_id", i), col("amount", quarry.TypeFloat), col("refunded", i, "0", "1")}},
			{Name: "order_lines", PrimaryKey: "line_id",
				Columns: []semantic.Column{col("line_id", i), col("quantity", i, "0", "1"), col("status", s, "active", "closed")}},
			{Name: "invoices", PrimaryKey: "invoice_id",
				Columns: []semantic.Column{col("invoice_id", i), col("paid_on", quarry.TypeDate), col("total", quarry.TypeFloat)}},
			{Name: "tickets", PrimaryKey: "ticket_id",
				Columns: []semantic.Column{col("ticket_id", i), col("escalated", i)}},
		},
		Relationships: []semantic.Relationship{
			{From: "employees", FromColumn: "dept_id", To: "departments", ToColumn: "dept_id", Cardinality: semantic.ManyToOne},
			{From: "shipments", FromColumn: "warehouse_id", To: "warehouses", ToColumn: "warehouse_id", Cardinality: semantic.ManyToOne},
			{From: "delivery_exceptions", FromColumn: "shipment_id", To: "shipments", ToColumn: "shipment_id", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestFlagAdjectives: a yes/no column is a condition where the question
// uses its word as an adjective or a state of the rows ("active
// employees", "inactive warehouses", "exceptions are unresolved"), never a
// count of its distinct values; the reading states the condition. Un- and
// in- negate only a flag's word, and 0/1 in a column that is no yes/no
// (quantity) is no adjective.
func TestFlagAdjectives(t *testing.T) {
	p := New(flagsModel(), nil)
	for _, tc := range []struct {
		q      string
		want   []string // in the SQL, quotes removed
		reads  string   // in the plan's reading
		not    []string // never in the SQL
		refuse bool
	}{
		{q: "how many active employees", want: []string{"COUNT(employees.emp_id)", "employees.is_active = 1"}, reads: "employees.is_active = 1"},
		{q: "how many inactive employees", want: []string{"employees.is_active = 0"}, reads: "employees.is_active = 0"},
		{q: "how many employees are not active", want: []string{"employees.is_active = 0"}},
		{q: "how many employees are active", want: []string{"employees.is_active = 1"}},
		{q: "how many employees", want: []string{"COUNT(employees.emp_id)"}, not: []string{"is_active"}},
		{q: "active employees by department", want: []string{"employees.is_active = 1", "GROUP BY"}},
		// is_active known only by its type and name.
		{q: "how many active warehouses", want: []string{"COUNT(warehouses.warehouse_id)", "warehouses.is_active = 1"}},
		{q: "how many shipments from inactive warehouses", want: []string{"COUNT(shipments.shipment_id)", "warehouses.is_active = 0"}},
		{q: "how many refunded payments", want: []string{"COUNT(payments.payment_id)", "payments.refunded = 1"}, reads: "payments.refunded = 1"},
		{q: "how many payments were refunded", want: []string{"payments.refunded = 1"}},
		{q: "how many exceptions are unresolved", want: []string{"delivery_exceptions.resolved = 0"}},
		{q: "how many unresolved exceptions", want: []string{"delivery_exceptions.resolved = 0"}},
		{q: "how many exceptions are not resolved", want: []string{"delivery_exceptions.resolved = 0"}},
		{q: "how many resolved exceptions", want: []string{"delivery_exceptions.resolved = 1"}},
		// A text state keeps its value; 0/1 quantities are no adjective.
		{q: "how many active order lines", want: []string{"order_lines.status = 'active'"}},
		{q: "how many inactive order lines", refuse: true},
		{q: "total quantity of order lines", want: []string{"SUM(order_lines.quantity)"}, not: []string{"quantity = 1"}},
		// A state whose values are not known is not counted by them.
		{q: "how many escalated tickets", refuse: true},
		// "unpaid" is no flag's negation (there is no paid flag) but
		// the date of paying not set, as "not paid" reads.
		{q: "how many unpaid invoices", want: []string{"COUNT(invoices.invoice_id)", "invoices.paid_on IS NULL"}, not: []string{"IS NOT NULL"}},
		{q: "how many non-paid invoices", want: []string{"invoices.paid_on IS NULL"}, not: []string{"IS NOT NULL"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.refuse {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v (understood %v), want no answer", pl.Query, pl.Understood)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			c, err := semantic.Compile(pl.Model(flagsModel()), *pl.Query, "sqlite")
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			sql := strings.ReplaceAll(c.SQL, `"`, "")
			if strings.Contains(sql, "DISTINCT") {
				t.Errorf("counts distinct values:\n%s", sql)
			}
			for _, w := range tc.want {
				if !strings.Contains(sql, w) {
					t.Errorf("SQL lacks %q:\n%s", w, sql)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(sql, w) {
					t.Errorf("SQL has %q:\n%s", w, sql)
				}
			}
			if tc.reads != "" && !strings.Contains(strings.Join(pl.Understood, "; "), tc.reads) {
				t.Errorf("understood %q, want %q in it", pl.Understood, tc.reads)
			}
		})
	}
}

// TestFlagAsAdjective: a yes/no column said right before its own table
// picks the rows that are so, and the table is what is ranked or broken
// down (found from outside: "which discontinued product made the most
// revenue" ranked discontinued and answered 0, the products still sold,
// at 1.00; "revenue of each discontinued product" listed all 200).
func TestFlagAsAdjective(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, q := range []string{
		"which discontinued product made the most revenue",
		"revenue of each discontinued product",
		"top 3 discontinued products by units sold last year",
		"which discontinued product sold the most units",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		flag, byFlag, byProduct := false, false, false
		for _, fl := range pl.Query.Filters {
			flag = flag || fl.Field == "products.discontinued" && fl.Op == semantic.OpEq
		}
		for _, d := range pl.Query.Dimensions {
			byFlag = byFlag || strings.HasSuffix(d.Name, "discontinued")
			byProduct = byProduct || d.Name == "products.name"
		}
		if !flag || byFlag || !byProduct {
			t.Errorf("%q: %+v; want the discontinued products, by product", q, pl.Query)
		}
	}
	// A grouping by the flag said as one stays a grouping.
	if pl := p.Plan("revenue by discontinued", asOf); pl.Query == nil || len(pl.Query.Dimensions) != 1 {
		t.Errorf("revenue by discontinued: %s %+v", pl.Kind, pl.Query)
	}
}

// TestFlagVerbIsNoCondition: the verb a yes/no column's name starts with
// (has_insurance, is_remote) is a word of questions about anything: "which
// city has the most patients" had filtered on has_insurance = 1 at 1.00
// (found from outside). The rest of the name still names the column.
func TestFlagVerbIsNoCondition(t *testing.T) {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "patients", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{
			col("id", quarry.TypeInt), col("full_name", quarry.TypeText), col("city", quarry.TypeText, "Riverton", "Hillview"),
			col("sex", quarry.TypeText, "M", "F"), col("has_insurance", quarry.TypeInt, "0", "1"), col("is_smoker", quarry.TypeInt, "0", "1")}},
	}}
	p := New(m, nil)
	for _, q := range []string{
		"which city has the most patients",
		"which city has the fewest patients",
		"how many patients has Riverton",
		"which sex has the most patients",
		"what city is the most common among patients",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			continue // a refusal is no wrong answer
		}
		for _, f := range filterTexts(pl) {
			if strings.Contains(f, "has_insurance") || strings.Contains(f, "is_smoker") {
				t.Errorf("%q: filter %s", q, f)
			}
		}
	}
	for q, want := range map[string]string{
		"how many patients have insurance": "patients.has_insurance = [1]",
		"how many insured patients":        "patients.has_insurance = [1]",
		"patients with insurance by city":  "patients.has_insurance = [1]",
		"how many smokers":                 "patients.is_smoker = [1]",
	} {
		pl := p.Plan(q, asOf)
		if got := filterTexts(pl); !slices.Contains(got, want) {
			t.Errorf("%q: %s %q filters %v; want %s", q, pl.Kind, pl.Reason, got, want)
		}
	}
}

// TestSexAliases: "male" and "women" name the 'M' and 'F' of a column of
// sex or gender (found from outside: "how many male patients" was
// refused, the data holding M and F), and only of such a column: a size
// 'M' is no man.
func TestSexAliases(t *testing.T) {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "patients", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{
			col("id", quarry.TypeInt), col("full_name", quarry.TypeText), col("sex", quarry.TypeText, "M", "F")}},
		{Name: "staff", PrimaryKey: "id", Columns: []semantic.Column{
			col("id", quarry.TypeInt), col("gender", quarry.TypeText, "Male", "Female", "Other")}},
		{Name: "shirts", PrimaryKey: "id", Columns: []semantic.Column{
			col("id", quarry.TypeInt), col("size", quarry.TypeText, "S", "M", "L")}},
	}}
	p := New(m, nil)
	for q, want := range map[string]string{
		"how many male patients":       "patients.sex = [M]",
		"how many patients are female": "patients.sex = [F]",
		"how many female staff":        "staff.gender = [Female]",
		"number of staff who are men":  "staff.gender = [Male]",
	} {
		pl := p.Plan(q, asOf)
		if got := filterTexts(pl); !slices.Contains(got, want) {
			t.Errorf("%q: %s %q filters %v; want %s", q, pl.Kind, pl.Reason, got, want)
		}
	}
	if pl := p.Plan("how many male shirts", asOf); pl.Query != nil && slices.Contains(filterTexts(pl), "shirts.size = [M]") {
		t.Errorf("male shirts: %v; a size is no sex", filterTexts(pl))
	}
}

// TestOtherTablesState: a state of another table said of rows with a state
// of their own is refused, unless the question names the other table
// (found from outside: "how many refunds are pending" counted the
// refunds of pending tickets, 55 against 127 requested, at 1.00).
func TestOtherTablesState(t *testing.T) {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "tickets", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("status", quarry.TypeText, "open", "pending", "closed")}},
			{Name: "refunds", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("ticket_id", quarry.TypeInt),
				col("status", quarry.TypeText, "requested", "approved", "rejected"), col("amount", quarry.TypeFloat)}},
			{Name: "notes", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("ticket_id", quarry.TypeInt), col("body", quarry.TypeText)}},
		},
		Relationships: []semantic.Relationship{
			{From: "refunds", FromColumn: "ticket_id", To: "tickets", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "notes", FromColumn: "ticket_id", To: "tickets", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"how many refunds are pending", "pending refunds", "total amount of pending refunds"} {
		if pl := p.Plan(q, asOf); pl.Query != nil {
			t.Errorf("%q: %s %v; want refused", q, pl.Kind, filterTexts(pl))
		}
	}
	for q, want := range map[string]string{
		"how many refunds of pending tickets": "tickets.status = [pending]",
		"how many refunds are requested":      "refunds.status = [requested]",
		"how many notes are pending":          "tickets.status = [pending]", // notes have no state of their own
	} {
		if pl := p.Plan(q, asOf); !slices.Contains(filterTexts(pl), want) {
			t.Errorf("%q: %s %q %v; want %s", q, pl.Kind, pl.Reason, filterTexts(pl), want)
		}
	}
}

// TestNoneOfItself: "tickets with no first response", where learn read
// first_response_at as a start of the tickets, names the tickets after
// "no": refused, not read as tickets with no refunds (the table linking
// tickets to tickets; found from outside, at 0.85).
func TestNoneOfItself(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "tickets", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "opened_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}, {Name: "first_response_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
			{Name: "refunds", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "ticket_id", Type: quarry.TypeInt}, {Name: "other_ticket_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "refunds", FromColumn: "ticket_id", To: "tickets", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"how many tickets have no first response", "tickets without a response"} {
		pl := p.Plan(q, asOf)
		for _, f := range filterTexts(pl) {
			if strings.Contains(f, "refunds") {
				t.Errorf("%q: %v; want no condition on refunds", q, filterTexts(pl))
			}
		}
	}
}

// TestRelatedTablesState: a state of another table, said of rows that
// have a state of their own (a date that ends them), is refused unless
// that table is named: "how many instructors are active" counted the
// instructors with an active enrollment, those who left too (found from
// outside: 23 for 17, at 1.00).
func TestRelatedTablesState(t *testing.T) {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	end := semantic.Column{Name: "left_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "instructors", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText), end}},
			{Name: "courses", PrimaryKey: "id", Label: "title", Columns: []semantic.Column{col("id", quarry.TypeInt), col("title", quarry.TypeText), col("instructor_id", quarry.TypeInt),
				{Name: "retired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
			{Name: "enrollments", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("course_id", quarry.TypeInt),
				col("status", quarry.TypeText, "active", "completed", "dropped")}},
		},
		Relationships: []semantic.Relationship{
			{From: "courses", FromColumn: "instructor_id", To: "instructors", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "enrollments", FromColumn: "course_id", To: "courses", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"how many instructors are active", "how many courses are active", "which courses are active"} {
		if pl := p.Plan(q, asOf); pl.Query != nil {
			t.Errorf("%q: %s %v; want refused", q, pl.Kind, filterTexts(pl))
		}
	}
	if pl := p.Plan("how many courses with active enrollments", asOf); pl.Query == nil {
		t.Errorf("courses with active enrollments: %s %q; want answered", pl.Kind, pl.Reason)
	}
}
