package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The synthetic catalog: a warehouse of many business units, each with
// the same domains (sales, hr, finance, …) in its own schema, and each
// table with its copies (an archive, a year's table, a staging table, a
// history, a backup, a v2), foreign keys inside each schema and a
// description on some tables. Questions are generated from a table and,
// sometimes, the table a foreign key joins it to, so that their tables
// and columns are known. Everything is drawn from a seeded generator, so
// the same size and seed give the same catalog and questions.

// synthEntity is a table of a domain: its columns, and the foreign keys
// (column → entity) among them.
type synthEntity struct {
	name string
	cols []string
	fks  map[string]string
	// other is another name for the entity, used in its description and
	// in some questions.
	other string
}

type synthDomain struct {
	name     string
	entities []synthEntity
}

// synthSpec parses "name[/other]: col, col, ref_id>entity, …".
func synthSpec(spec string) synthEntity {
	head, body, _ := strings.Cut(spec, ":")
	name, other, _ := strings.Cut(strings.TrimSpace(head), "/")
	ent := synthEntity{name: name, other: other, fks: map[string]string{}}
	for _, c := range strings.Split(body, ",") {
		c = strings.TrimSpace(c)
		col, ref, ok := strings.Cut(c, ">")
		if ok {
			ent.fks[col] = ref
		}
		ent.cols = append(ent.cols, col)
	}
	return ent
}

// synthDomains are the domains of the synthetic catalog, parsed on first
// use (every quarry command links this package).
var synthDomains = sync.OnceValue(func() []synthDomain {
	return []synthDomain{
		{"sales", []synthEntity{
			synthSpec("customers/clients: name, email, country, segment, signup_date"),
			synthSpec("orders/purchases: customer_id>customers, order_date, status, total_amount, channel"),
			synthSpec("order_items/order lines: order_id>orders, product_id>products, quantity, unit_price, discount"),
			synthSpec("products/merchandise: name, category, list_price, sku, brand"),
			synthSpec("returns/refunds: order_id>orders, reason, refund_amount, returned_at"),
			synthSpec("promotions: code, discount_pct, starts_at, ends_at"),
			synthSpec("sales_reps/account managers: name, region, quota, hired_at"),
		}},
		{"hr", []synthEntity{
			synthSpec("employees/staff: first_name, last_name, department_id>departments, job_title, hire_date, salary"),
			synthSpec("departments/teams: name, cost_center, head_count"),
			synthSpec("salaries/pay: employee_id>employees, amount, effective_date"),
			synthSpec("leave_requests/absences: employee_id>employees, leave_type, start_date, end_date, status"),
			synthSpec("performance_reviews/appraisals: employee_id>employees, rating, review_date"),
			synthSpec("job_postings/vacancies: title, department_id>departments, posted_at, status"),
			synthSpec("candidates/applicants: name, email, job_posting_id>job_postings, stage"),
		}},
		{"finance", []synthEntity{
			synthSpec("accounts: account_number, account_type, currency, opened_at"),
			synthSpec("transactions: account_id>accounts, amount, posted_at, category"),
			synthSpec("invoices/bills: customer_ref, issued_at, due_at, amount_due, status"),
			synthSpec("payments/remittances: invoice_id>invoices, paid_at, amount_paid, method"),
			synthSpec("budgets: cost_center, fiscal_year, planned_amount"),
			synthSpec("expenses/expense claims: employee_ref, amount, category, submitted_at, approved"),
			synthSpec("ledger_entries/journal: account_id>accounts, debit, credit, entry_date"),
		}},
		{"logistics", []synthEntity{
			synthSpec("warehouses/depots: name, city, capacity"),
			synthSpec("carriers/hauliers: name, mode, rating"),
			synthSpec("shipments/consignments: warehouse_id>warehouses, carrier_id>carriers, shipped_at, delivered_at, weight_kg, status"),
			synthSpec("inventory/stock levels: warehouse_id>warehouses, sku, quantity_on_hand, reorder_level"),
			synthSpec("routes/lanes: origin, destination, distance_km"),
			synthSpec("deliveries/drops: shipment_id>shipments, route_id>routes, attempted_at, outcome"),
		}},
		{"marketing", []synthEntity{
			synthSpec("campaigns: name, channel, budget, start_date, end_date"),
			synthSpec("ad_impressions/ad views: campaign_id>campaigns, shown_at, placement, cost"),
			synthSpec("clicks: campaign_id>campaigns, clicked_at, device"),
			synthSpec("leads/prospects: campaign_id>campaigns, email, source, score, created_at"),
			synthSpec("email_sends/mailings: campaign_id>campaigns, sent_at, opened, bounced"),
			synthSpec("landing_pages: url, campaign_id>campaigns, conversions"),
		}},
		{"support", []synthEntity{
			synthSpec("agents/support staff: name, team, hired_at"),
			synthSpec("tickets/cases: customer_ref, agent_id>agents, opened_at, closed_at, priority, status, subject"),
			synthSpec("ticket_comments/replies: ticket_id>tickets, author, body, posted_at"),
			synthSpec("sla_policies: priority, response_hours, resolution_hours"),
			synthSpec("satisfaction_surveys/csat: ticket_id>tickets, score, answered_at"),
			synthSpec("knowledge_articles/help pages: title, views, updated_at"),
		}},
		{"manufacturing", []synthEntity{
			synthSpec("plants/factories: name, country, opened_at"),
			synthSpec("production_lines: plant_id>plants, name, capacity_per_hour"),
			synthSpec("work_orders/jobs: line_id>production_lines, product_code, quantity, started_at, finished_at"),
			synthSpec("machines: line_id>production_lines, model, installed_at"),
			synthSpec("downtime_events/stoppages: machine_id>machines, started_at, minutes, cause"),
			synthSpec("quality_inspections/qc checks: work_order_id>work_orders, inspected_at, defects, passed"),
		}},
		{"clinical", []synthEntity{
			synthSpec("clinics/practices: name, city, beds"),
			synthSpec("doctors/physicians: name, specialty, clinic_id>clinics"),
			synthSpec("patients: first_name, last_name, birth_date, gender, insurance_id"),
			synthSpec("visits/appointments: patient_id>patients, doctor_id>doctors, visit_date, reason"),
			synthSpec("prescriptions: visit_id>visits, drug_name, dosage, days"),
			synthSpec("lab_results/test results: visit_id>visits, test_name, result_value, unit"),
		}},
		{"education", []synthEntity{
			synthSpec("programs/degrees: name, degree, duration_years"),
			synthSpec("students/pupils: first_name, last_name, enrolled_at, program_id>programs"),
			synthSpec("courses/classes: title, credits, department"),
			synthSpec("enrollments/registrations: student_id>students, course_id>courses, term, grade"),
			synthSpec("exams: course_id>courses, exam_date, max_score"),
			synthSpec("exam_results/marks: exam_id>exams, student_id>students, score"),
		}},
		{"property", []synthEntity{
			synthSpec("properties/homes: address, city, bedrooms, area_sqm, listed_price"),
			synthSpec("listings: property_id>properties, agent_name, listed_at, status"),
			synthSpec("viewings/showings: listing_id>listings, viewed_at, visitor"),
			synthSpec("offers/bids: listing_id>listings, amount, offered_at, accepted"),
			synthSpec("leases/tenancies: property_id>properties, tenant_name, start_date, monthly_rent"),
		}},
		{"travel", []synthEntity{
			synthSpec("airlines/carriers: name, country, alliance"),
			synthSpec("flights: airline_id>airlines, origin_airport, destination_airport, departure_time, arrival_time"),
			synthSpec("passengers/travellers: name, nationality, frequent_flyer_number"),
			synthSpec("bookings/reservations: flight_id>flights, passenger_id>passengers, booked_at, fare, cabin_class"),
			synthSpec("hotels: name, city, stars"),
			synthSpec("hotel_stays: hotel_id>hotels, guest_name, check_in, check_out, nightly_rate"),
		}},
		{"media", []synthEntity{
			synthSpec("artists/musicians: name, country, genre"),
			synthSpec("albums/records: artist_id>artists, title, released_on"),
			synthSpec("tracks/songs: album_id>albums, title, duration_seconds"),
			synthSpec("streams/plays: track_id>tracks, listener_ref, streamed_at, seconds_played"),
			synthSpec("playlists: name, owner_ref, created_at"),
			synthSpec("subscriptions/memberships: listener_ref, plan, started_at, cancelled_at, monthly_fee"),
		}},
		{"energy", []synthEntity{
			synthSpec("sites/power stations: name, region, capacity_mw"),
			synthSpec("meters: serial, site_id>sites, installed_at"),
			synthSpec("meter_readings/readings: meter_id>meters, read_at, kwh"),
			synthSpec("tariffs/rates: name, price_per_kwh, valid_from"),
			synthSpec("outages/blackouts: site_id>sites, started_at, duration_minutes, cause"),
			synthSpec("generation/output: site_id>sites, day, mwh, source_type"),
		}},
		{"insurance", []synthEntity{
			synthSpec("policies/contracts: policy_number, holder_name, product_line, premium, start_date"),
			synthSpec("claims: policy_id>policies, claim_date, claimed_amount, status"),
			synthSpec("brokers/intermediaries: name, agency, commission_rate"),
			synthSpec("quotes: broker_id>brokers, product_line, quoted_premium, quoted_at"),
			synthSpec("underwriting_decisions: quote_id>quotes, decision, decided_at, risk_score"),
		}},
		{"stores", []synthEntity{
			synthSpec("shops/outlets: name, city, opened_at, square_meters"),
			synthSpec("cashiers/tellers: name, shop_id>shops, hired_at"),
			synthSpec("pos_transactions/till receipts: shop_id>shops, cashier_id>cashiers, sold_at, total"),
			synthSpec("loyalty_members/cardholders: card_number, name, tier, joined_at"),
			synthSpec("gift_cards/vouchers: code, balance, issued_at"),
			synthSpec("footfall/visitor counts: shop_id>shops, day, visitors"),
		}},
		{"itops", []synthEntity{
			synthSpec("servers/hosts: hostname, datacenter, os, cpu_cores, memory_gb"),
			synthSpec("incidents/outage reports: server_id>servers, severity, opened_at, resolved_at, summary"),
			synthSpec("deployments/releases: service_name, version, deployed_at, status"),
			synthSpec("alerts/alarms: server_id>servers, metric, threshold, fired_at"),
			synthSpec("on_call_shifts/rotas: engineer, starts_at, ends_at"),
		}},
		{"farming", []synthEntity{
			synthSpec("farms: name, region, hectares"),
			synthSpec("fields/plots: farm_id>farms, crop, area_hectares"),
			synthSpec("harvests/yields: field_id>fields, harvested_on, tonnes"),
			synthSpec("weather_observations/weather: farm_id>farms, observed_at, rainfall_mm, temperature_c"),
			synthSpec("fertilizer_applications/fertiliser use: field_id>fields, applied_on, product, kg"),
		}},
		{"civic", []synthEntity{
			synthSpec("districts/wards: name, population, region"),
			synthSpec("citizens/residents: national_id, birth_date, district_id>districts"),
			synthSpec("permits/licences: citizen_id>citizens, permit_type, issued_on, expires_on"),
			synthSpec("tax_returns/tax filings: citizen_id>citizens, tax_year, income, tax_due"),
			synthSpec("service_requests/requests: citizen_id>citizens, service, requested_at, status"),
		}},
	}
})

// synthUnits are the business units; each has its own schema per domain.
var synthUnits = []string{"emea", "apac", "latam", "nordics", "iberia", "benelux", "dach", "anz", "mena", "canada", "mexico", "india", "japan", "korea", "brazil", "africa"}

// synthVariants are a table's copies: the suffix and how a question asks
// for it ("" for the table itself).
var synthVariants = []struct{ suffix, asked string }{
	{"", ""}, {"_archive", "archived"}, {"_2019", "in 2019"}, {"_2020", "in 2020"}, {"_staging", "staging"},
	{"_history", "history of"}, {"_backup", "backup"}, {"_v2", "v2"},
}

// SyntheticCatalog builds a catalog of n tables (at most the units ×
// entities × variants there are, about 11,000) and questions of its
// tables, the same for the same n, questions and seed.
func SyntheticCatalog(n, questions int, seed uint64) (*quarry.Catalog, []RetrievalCase) {
	rng := rand.New(rand.NewPCG(seed, 17))
	type spec struct {
		unit, domain string
		ent          synthEntity
		variant      int
	}
	var all []spec
	for _, u := range synthUnits {
		for _, d := range synthDomains() {
			for _, en := range d.entities {
				for v := range synthVariants {
					all = append(all, spec{u, d.name, en, v})
				}
			}
		}
	}
	// Keep every unit's tables themselves (the targets of foreign keys)
	// and as many copies as n allows, drawn at random.
	var base, copies []spec
	for _, s := range all {
		if s.variant == 0 {
			base = append(base, s)
		} else {
			copies = append(copies, s)
		}
	}
	rng.Shuffle(len(copies), func(i, j int) { copies[i], copies[j] = copies[j], copies[i] })
	keep := base
	if n < len(keep) {
		keep = keep[:n]
	} else {
		keep = append(keep, copies[:min(len(copies), n-len(keep))]...)
	}
	slices.SortStableFunc(keep, func(a, b spec) int {
		return strings.Compare(a.unit+"_"+a.domain+"."+a.ent.name+synthVariants[a.variant].suffix, b.unit+"_"+b.domain+"."+b.ent.name+synthVariants[b.variant].suffix)
	})
	cat := &quarry.Catalog{Dialect: quarry.DialectPostgres}
	for _, s := range keep {
		schema := s.unit + "_" + s.domain
		t := quarry.TableInfo{Schema: schema, Name: s.ent.name + synthVariants[s.variant].suffix, RowCount: -1, PrimaryKey: []string{"id"}}
		if rng.IntN(3) == 0 {
			t.Comment = describe(s.unit, s.domain, s.ent, s.variant)
		}
		t.Columns = append(t.Columns, quarry.ColumnInfo{Name: "id", Type: quarry.TypeInt})
		for _, c := range s.ent.cols {
			t.Columns = append(t.Columns, quarry.ColumnInfo{Name: c, Type: colType(c)})
			if ref, ok := s.ent.fks[c]; ok {
				t.ForeignKeys = append(t.ForeignKeys, quarry.ForeignKey{Columns: []string{c}, RefSchema: schema, RefTable: ref, RefColumns: []string{"id"}})
			}
		}
		for _, c := range []string{"created_at", "updated_at"} {
			if !slices.Contains(s.ent.cols, c) {
				t.Columns = append(t.Columns, quarry.ColumnInfo{Name: c, Type: quarry.TypeTimestamp})
			}
		}
		cat.Tables = append(cat.Tables, t)
	}
	return cat, synthQuestions(rng, cat, questions)
}

func describe(unit, domain string, en synthEntity, variant int) string {
	words := strings.ReplaceAll(en.name, "_", " ")
	s := fmt.Sprintf("The %s %s %s.", strings.ToUpper(unit), domain, words)
	if en.other != "" {
		s = fmt.Sprintf("%s of the %s %s business, also known as %s.", titleFirst(words), strings.ToUpper(unit), domain, en.other)
	}
	if v := synthVariants[variant].suffix; v != "" {
		s += " A copy (" + strings.TrimPrefix(v, "_") + ")."
	}
	return s
}

func titleFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func colType(c string) quarry.Type {
	switch {
	case strings.HasSuffix(c, "_id"), strings.HasSuffix(c, "_count"), c == "quantity", c == "days", c == "beds", c == "credits", c == "stars", c == "views", c == "visitors", c == "bedrooms":
		return quarry.TypeInt
	case strings.HasSuffix(c, "_at"), strings.HasSuffix(c, "_date"), strings.HasSuffix(c, "_on"), c == "day", c == "check_in", c == "check_out", c == "departure_time", c == "arrival_time":
		return quarry.TypeTimestamp
	case strings.Contains(c, "amount"), strings.Contains(c, "price"), strings.Contains(c, "total"), c == "salary", c == "premium", c == "budget", c == "cost", c == "fare", c == "kwh", c == "mwh", c == "tonnes", c == "kg", c == "income", c == "debit", c == "credit", c == "score", c == "rating":
		return quarry.TypeFloat
	}
	return quarry.TypeText
}

// synthQuestions writes questions about tables of cat: a count, an
// aggregate of a column, a grouping by a column of the table a foreign
// key joins to, or a filter on a column; each names the unit and the
// domain, the table by its name's words or (when its description says so)
// its other name, and the copy it means.
func synthQuestions(rng *rand.Rand, cat *quarry.Catalog, n int) []RetrievalCase {
	byName := map[string]*quarry.TableInfo{}
	for i := range cat.Tables {
		t := &cat.Tables[i]
		byName[t.Schema+"."+t.Name] = t
	}
	var out []RetrievalCase
	for k := 0; k < n; k++ {
		t := &cat.Tables[rng.IntN(len(cat.Tables))]
		unit, domain, _ := strings.Cut(t.Schema, "_")
		ent, variant := splitVariant(t.Name)
		what := strings.ReplaceAll(ent, "_", " ")
		if other := otherName(t.Comment); other != "" && rng.IntN(2) == 0 {
			what = other
		}
		scope := unit + " " + domain
		if rng.IntN(2) == 0 {
			scope = strings.ToUpper(unit) + " " + domain
		}
		v := synthVariants[variant].asked
		subject := what
		switch {
		case v == "in 2019" || v == "in 2020":
			subject = what + " " + v
		case v != "":
			subject = v + " " + what
		}
		name := t.Schema + "." + t.Name
		c := RetrievalCase{ID: fmt.Sprintf("synth-%04d", k), Tables: []string{name}}
		data := dataColumns(t)
		var ref *quarry.TableInfo
		var refCol string
		if len(t.ForeignKeys) > 0 {
			fk := t.ForeignKeys[rng.IntN(len(t.ForeignKeys))]
			ref = byName[fk.RefSchema+"."+fk.RefTable]
			if ref != nil {
				if rc := dataColumns(ref); len(rc) > 0 {
					refCol = rc[rng.IntN(len(rc))]
				}
			}
		}
		col := ""
		if len(data) > 0 {
			col = data[rng.IntN(len(data))]
		}
		switch form := rng.IntN(4); {
		case form == 0 || col == "":
			c.Question = fmt.Sprintf("How many %s are there for %s?", subject, scope)
		case form == 1:
			c.Question = fmt.Sprintf("What is the average %s of %s %s?", words(col), scope, subject)
			c.Columns = []string{name + "." + col}
		case form == 2 && ref != nil && refCol != "":
			refName := ref.Schema + "." + ref.Name
			refEnt, _ := splitVariant(ref.Name)
			c.Question = fmt.Sprintf("Total %s of %s %s by %s %s", words(col), scope, subject, strings.ReplaceAll(singular(refEnt), "_", " "), words(refCol))
			c.Tables = append(c.Tables, refName)
			c.Columns = []string{name + "." + col, refName + "." + refCol}
		default:
			c.Question = fmt.Sprintf("List the %s %s whose %s is highest", scope, subject, words(col))
			c.Columns = []string{name + "." + col}
		}
		out = append(out, c)
	}
	return out
}

func splitVariant(name string) (string, int) {
	for v := len(synthVariants) - 1; v > 0; v-- {
		if s, ok := strings.CutSuffix(name, synthVariants[v].suffix); ok {
			return s, v
		}
	}
	return name, 0
}

// otherName is the other name a description gives ("also known as …").
func otherName(desc string) string {
	_, after, ok := strings.Cut(desc, "also known as ")
	if !ok {
		return ""
	}
	s, _, _ := strings.Cut(after, ".")
	return s
}

// dataColumns are a table's columns other than keys and bookkeeping.
func dataColumns(t *quarry.TableInfo) []string {
	var out []string
	for _, c := range t.Columns {
		if c.Name == "id" || strings.HasSuffix(c.Name, "_id") || c.Name == "created_at" || c.Name == "updated_at" {
			continue
		}
		out = append(out, c.Name)
	}
	return out
}

func words(col string) string { return strings.ReplaceAll(col, "_", " ") }

func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies"):
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "sses"), strings.HasSuffix(s, "xes"), strings.HasSuffix(s, "ches"), strings.HasSuffix(s, "shes"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss"):
		return s[:len(s)-1]
	}
	return s
}
