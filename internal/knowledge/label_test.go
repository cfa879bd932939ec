package knowledge_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// labelSchema has a name column that is mostly NULL (companies), one that
// is mostly repeated (teams), a key and a date that must never be chosen,
// a title that holds numbers, and an empty table (chosen by name alone).
const labelSchema = `
CREATE TABLE companies (id INTEGER PRIMARY KEY, name TEXT, company_name TEXT, founded DATE, notes TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO companies SELECT i, CASE WHEN i % 10 = 0 THEN 'Old name ' || i END, 'Company ' || i,
  '2020-01-01', 'note' FROM n;
CREATE TABLE teams (code TEXT PRIMARY KEY, name TEXT, team_title TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
INSERT INTO teams SELECT 'T' || i, CASE WHEN i % 2 = 0 THEN 'Blue' ELSE 'Red' END, 'Team ' || i FROM n;
CREATE TABLE releases (id INTEGER PRIMARY KEY, title TEXT, release_name TEXT);
INSERT INTO releases VALUES (1, '1.0', 'Aurora'), (2, '1.1', 'Borealis'), (3, '2.0', 'Cirrus');
CREATE TABLE authors (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, born DATE);
CREATE TABLE people (id INTEGER PRIMARY KEY, full_name TEXT, name TEXT);
INSERT INTO people VALUES (1, 'Ada Lovelace', 'Ada'), (2, 'Alan Turing', 'Alan');
CREATE TABLE crew (crew_id INTEGER PRIMARY KEY, full_nm TEXT, role TEXT);
INSERT INTO crew VALUES (1, 'Sam Novak', 'lead'), (2, 'Ida Berg', 'lead');
CREATE TABLE stores (id INTEGER PRIMARY KEY, city TEXT, opened_on DATE);
INSERT INTO stores VALUES (1, 'Portland', '2021-03-01'), (2, 'Seattle', '2020-06-15'), (3, 'Boise', '2022-01-10');
CREATE TABLE depots (id INTEGER PRIMARY KEY, city TEXT);
INSERT INTO depots VALUES (1, 'Lyon'), (2, 'Lyon'), (3, 'Paris');
CREATE TABLE buyers (id INTEGER PRIMARY KEY, city TEXT);
INSERT INTO buyers VALUES (1, 'Lyon'), (2, 'Paris');
CREATE TABLE agents (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
INSERT INTO agents VALUES (1, 'Sarah', 'Lee'), (2, 'Sarah', 'Moore'), (3, 'Ashley', 'Moore'), (4, 'Jose', 'Clark');
CREATE TABLE pilots (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT);
INSERT INTO pilots VALUES (1, 'Amelia', 'Earhart'), (2, 'Bessie', 'Coleman');
CREATE TABLE guests (id INTEGER PRIMARY KEY, full_name TEXT, country TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
INSERT INTO guests SELECT i, 'Guest ' || (i % 4), 'NO' FROM n;
CREATE TABLE vehicles (id INTEGER PRIMARY KEY, plate TEXT, make TEXT, acquired_on DATE);
INSERT INTO vehicles VALUES (1, '11-MM-28', 'Kia', '2024-01-10'), (2, '42-AB-07', 'Kia', '2024-02-11');
`

func TestLearnChoosesLabelsByFillAndDistinctness(t *testing.T) {
	db := makeDB(t, labelSchema)
	dir := filepath.Join(t.TempDir(), "knowledge")
	rep := learn(t, db, dir, knowledge.LearnOptions{})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range f.Model.Entities {
		got[e.Name] = e.Label
	}
	want := map[string]string{
		"companies": "company_name", // name is 90% empty
		"teams":     "team_title",   // name holds two values; code is the key
		"releases":  "release_name", // title holds version numbers
		"authors":   "first_name",   // empty table: the name decides
		"people":    "name",         // both filled and distinct: the plainer name
		"crew":      "full_nm",      // a name in a short form (found from outside)
		"stores":    "city",         // a place known by where it is, one each (found from outside)
		"depots":    "",             // two depots in Lyon: no name of one
		"buyers":    "",             // people are not known by their city
		// A first name two rows share names neither (found from
		// outside: four agents shown as "Sarah"); one no two share does.
		"agents": "",
		"pilots": "first_name",
		// People share whole names: ten guests of four names are still
		// known by them (found from outside: customers listed by id).
		"guests": "full_name",
		// A vehicle is known by its plate (found from outside: "which
		// vehicle had the most maintenance jobs" named ids).
		"vehicles": "plate",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	var lines []string
	for _, l := range rep.Labels {
		lines = append(lines, l.String())
	}
	wantLines := []string{
		"authors.first_name",
		"companies.company_name (100% filled, 100% distinct in 200 rows); passed over name (90% empty)",
		"crew.full_nm (100% filled, 100% distinct in 2 rows)",
		"guests.full_name (100% filled, 40% distinct in 10 rows)",
		"people.name (100% filled, 100% distinct in 2 rows)",
		"pilots.first_name (100% filled, 100% distinct in 2 rows)",
		"releases.release_name (100% filled, 100% distinct in 3 rows); passed over title (numbers)",
		"stores.city (100% filled, 100% distinct in 3 rows)",
		"teams.team_title (100% filled, 100% distinct in 40 rows); passed over name (5% distinct)",
		"vehicles.plate (100% filled, 100% distinct in 2 rows)",
	}
	if diff := cmp.Diff(wantLines, lines); diff != "" {
		t.Errorf("reported labels (-want +got):\n%s", diff)
	}

	// A label a person set is kept, and a second learn changes nothing.
	model := readFile(t, filepath.Join(dir, "model.yaml"))
	model = strings.Replace(model, "    label: company_name\n", "    label: notes\n", 1)
	writeFile(t, filepath.Join(dir, "model.yaml"), model)
	rep = learn(t, db, dir, knowledge.LearnOptions{})
	if len(rep.Files) != 0 || len(rep.Labels) != 0 {
		t.Errorf("second learn wrote %v and chose labels %v", rep.Files, rep.Labels)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "model.yaml")), "    label: notes\n") {
		t.Error("the label a person set was not kept")
	}
}

// TestLearnDatesRowsByAFilledDate: of two dates of a row, the one that
// dates it is filled in every row (found from outside: shipments dated by
// delivered_dt, empty for those never delivered, so "shipments cancelled
// in 2025" counted none). The date a person set is kept.
func TestLearnDatesRowsByAFilledDate(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, pickup_dt TEXT, delivered_dt TEXT, status TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO shipments SELECT i, date('2024-01-01', '+' || i || ' days'),
  CASE WHEN i % 5 = 0 THEN NULL ELSE date('2024-01-03', '+' || i || ' days') END,
  CASE WHEN i % 5 = 0 THEN 'cancelled' ELSE 'delivered' END FROM n;
CREATE TABLE parcels (parcel_id INTEGER PRIMARY KEY, pickup_dt TEXT, delivered_dt TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO parcels SELECT i, date('2024-01-01', '+' || i || ' days'), date('2024-01-03', '+' || i || ' days') FROM n;
`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range f.Model.Entities {
		got[e.Name] = e.TimeColumn
	}
	// Both filled: the name decides, as before (delivered is an event).
	if diff := cmp.Diff(map[string]string{"shipments": "pickup_dt", "parcels": "delivered_dt"}, got); diff != "" {
		t.Errorf("time columns (-want +got):\n%s", diff)
	}
}

// TestLearnDatesRentalsByThePickup: a date with no role of its own whose
// name says the thing takes place then (scheduled_pickup_at) dates the
// rows ahead of the day each was made (found from outside: rentals
// dated by created_at, July's pickups counted among June's rentals).
func TestLearnDatesRentalsByThePickup(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE rentals (id INTEGER PRIMARY KEY, created_at TEXT, scheduled_pickup_at TEXT, returned_at TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
INSERT INTO rentals SELECT i, datetime('2025-01-01', '+' || i || ' days'), datetime('2025-01-20', '+' || i || ' days'), NULL FROM n;
`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Model.Entity("rentals")
	if e == nil || e.TimeColumn != "scheduled_pickup_at" || e.Column("scheduled_pickup_at").TimeRole != "event" {
		t.Errorf("rentals dated by %q; want scheduled_pickup_at, an event", e.TimeColumn)
	}
}
