package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestClinicAndFleetQuestionsOfRoundFive asks, of a clinic and a fleet
// that quarry learns, what outside testers found answered wrong at
// confidence 0.85 to 1.00 (stop 48): appointments dated by the day they
// were booked, not the day they take place; deliveries dated by a
// delivery time empty for every failed one, so that every count left
// the failures out; "how many trucks" counted in the table of vehicle
// types (1); "how many refunds" as the different values of is_refund
// (2); quiz attempts dated by a TEXT column named by no role, so none
// was left out as of an earlier day; doctors who left read once their
// table was no longer dated by its end date.
func TestClinicAndFleetQuestionsOfRoundFive(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE doctors (doctor_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, hired TEXT, left_on TEXT);
CREATE TABLE appointments (appointment_id INTEGER PRIMARY KEY, doctor_id INTEGER NOT NULL REFERENCES doctors(doctor_id), booked_ts TEXT, scheduled_for TEXT, status TEXT, fee_cents INTEGER);
CREATE TABLE vehicle_types (type_code TEXT PRIMARY KEY, type_name TEXT NOT NULL);
INSERT INTO vehicle_types VALUES ('TRK', 'Truck'), ('VAN', 'Van'), ('CAR', 'Car');
CREATE TABLE vehicles (vehicle_id INTEGER PRIMARY KEY, type_code TEXT REFERENCES vehicle_types(type_code), plate TEXT, is_test INTEGER);
CREATE TABLE trips (trip_id INTEGER PRIMARY KEY, vehicle_id INTEGER REFERENCES vehicles(vehicle_id), departure TEXT, arrival TEXT, distance_km REAL);
CREATE TABLE deliveries (delivery_id INTEGER PRIMARY KEY, trip_id INTEGER REFERENCES trips(trip_id), status TEXT, delivered_time TEXT, weight_kg REAL);
CREATE TABLE payments (payment_id INTEGER PRIMARY KEY, paid_on TEXT, amount REAL, result TEXT, is_refund TEXT);
CREATE TABLE quiz_attempts (attempt_id INTEGER PRIMARY KEY, attempted TEXT, score REAL);
`)
	for i := 1; i <= 22; i++ {
		hired := fmt.Sprintf("'20%02d-%02d-%02d'", 10+i%15, i%12+1, i%27+1)
		if i%5 == 0 {
			hired = fmt.Sprintf("'%02d/%02d/20%02d'", i%27+1, i%12+1, 10+i%15) // another format
		}
		left := "NULL"
		if i == 4 || i == 9 {
			left = fmt.Sprintf("'2025-%02d-15'", i)
		}
		fmt.Fprintf(&b, "INSERT INTO doctors VALUES (%d, 'Dr %d', %s, %s);\n", i, i, hired, left)
	}
	statuses := []string{"completed", "completed", "no_show", "cancelled"}
	for i := 1; i <= 300; i++ {
		// Visits from January to September 2026, booked 3 to 42 days
		// ahead: those of the months after June are still to come.
		visit := fmt.Sprintf("2026-%02d-%02d", i%9+1, i%27+1)
		fmt.Fprintf(&b, "INSERT INTO appointments VALUES (%d, %d, datetime('%s', '-%d days', '+9 hours'), '%s', '%s', %d);\n",
			i, i%22+1, visit, 3+i%40, visit, statuses[i%4], 5000+i%7*1000)
	}
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "INSERT INTO vehicles VALUES (%d, '%s', 'P-%d', %d);\n", i, []string{"TRK", "VAN", "VAN", "CAR"}[i%4], i, i%13/12)
	}
	dstatus := []string{"delivered", "delivered", "delivered", "failed", "returned", "delivered", "pending"}
	d := 0
	for i := 1; i <= 200; i++ {
		// Trips from January to August 2026: those after June are
		// still to come as of 2026-06-30.
		day := fmt.Sprintf("2026-%02d-%02d", i%8+1, i%27+1)
		fmt.Fprintf(&b, "INSERT INTO trips VALUES (%d, %d, '%sT06:00:00', '%sT15:00:00', %d);\n", i, i%40+1, day, day, 50+i%300)
		for k := 0; i%10 != 0 && k < 1+i%3; k++ {
			d++
			st := dstatus[d%7]
			at := "NULL"
			if st == "delivered" {
				at = fmt.Sprintf("'%sT1%d:00:00'", day, k)
			}
			fmt.Fprintf(&b, "INSERT INTO deliveries VALUES (%d, %d, '%s', %s, %d.5);\n", d, i, st, at, 10+d%90)
		}
	}
	for i := 1; i <= 240; i++ {
		result, refund := "succeeded", "no"
		if i%9 == 0 {
			result = "failed"
		}
		if i%11 == 0 {
			refund = "yes"
		}
		fmt.Fprintf(&b, "INSERT INTO payments VALUES (%d, '20%d-%02d-%02d', %d.0, '%s', '%s');\n", i, 25+i%2, i%12+1, i%27+1, 20+i%80, result, refund)
	}
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&b, "INSERT INTO quiz_attempts VALUES (%d, '2026-%02d-%02dT10:%02d:00', %d);\n", i, i%9+1, i%27+1, i%60, 40+i%60)
	}
	dir, rows := learnedDB(t, "round48a.db", b.String(), "")
	answersAsHand(t, dir, rows, []struct{ q, want string }{
		// A cancelled appointment did not take place (found from
		// outside: cancelled closings counted in "closings last month").
		{"how many appointments last month", "SELECT count(*) FROM appointments WHERE scheduled_for >= '2026-05-01' AND scheduled_for < '2026-06-01' AND status IS NOT 'cancelled'"},
		{"how many doctors left", "SELECT count(*) FROM doctors WHERE left_on IS NOT NULL"},
		// A test vehicle's trips' deliveries are test data too (found
		// from outside: a test customer's orders' tickets counted).
		{"how many deliveries", "SELECT count(*) FROM deliveries d JOIN trips t ON t.trip_id = d.trip_id LEFT JOIN vehicles v ON v.vehicle_id = t.vehicle_id WHERE t.departure < '2026-07-01' AND v.is_test IS NOT 1"},
		{"how many trips without deliveries", "SELECT count(*) FROM trips t WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.trip_id = t.trip_id) AND t.departure < '2026-07-01'"},
		{"how many deliveries were delivered in May 2026", "SELECT count(*) FROM deliveries WHERE delivered_time >= '2026-05-01' AND delivered_time < '2026-06-01'"},
		{"how many trucks", "SELECT count(*) FROM vehicles v JOIN vehicle_types t ON t.type_code = v.type_code WHERE t.type_name = 'Truck' AND v.is_test IS NOT 1"},
		{"how many vans do we have", "SELECT count(*) FROM vehicles v JOIN vehicle_types t ON t.type_code = v.type_code WHERE t.type_name = 'Van' AND v.is_test IS NOT 1"},
		{"how many refunds last year", "SELECT count(*) FROM payments WHERE is_refund = 'yes' AND paid_on >= '2025-01-01' AND paid_on < '2026-01-01'"},
		{"how many quiz attempts", "SELECT count(*) FROM quiz_attempts WHERE attempted < '2026-07-01'"},
		{"how many vehicles that are not test", "SELECT count(*) FROM vehicles WHERE is_test = 0"},
		// Test rows are left out unless asked for (found from outside:
		// 56 answers took in test or deleted rows at 1.00, and a
		// warning alone was not enough).
		{"how many vehicles", "SELECT count(*) FROM vehicles WHERE is_test IS NOT 1"},
		{"how many test vehicles", "SELECT count(*) FROM vehicles WHERE is_test = 1"},
		{"how many quiz attempts in May 2026", "SELECT count(*) FROM quiz_attempts WHERE attempted >= '2026-05-01' AND attempted < '2026-06-01'"},
	})
	// The word before a kind of record names its table: "quiz" of
	// quiz_attempts (found from outside: not understood).
	if out := askAt(t, dir, "2026-06-30", "average quiz score"); out.Status != "succeeded" || !strings.Contains(out.SQL, "AVG(quiz_attempts.score)") {
		t.Errorf("average quiz score: %s %q\n%s", out.Status, out.Message, out.SQL)
	}
	// Deliveries made after the day changed status since: which had
	// failed then is not known (the failures are no longer left out).
	refusalsSay(t, dir, []struct{ q, says string }{
		{"how many failed deliveries", "holds today's"},
	})
	// A date in two formats is no date: its text does not compare by day.
	if out := askAt(t, dir, "2026-06-30", "how many doctors were hired in 2021"); out.Status == "succeeded" {
		t.Errorf("doctors hired in 2021, of dates in two formats: %s %v\n%s", out.Status, out.Rows, out.SQL)
	}
	for _, c := range []struct{ q, check string }{
		// A result column of a few values with 'failed' among them is a
		// status of the money (found from outside: summed with no word).
		{"total payment amount last month", "statuses_included"},
	} {
		if out := askAt(t, dir, "2026-06-30", c.q); out.Status != "succeeded" || !strings.Contains(fmt.Sprint(out.Checks), c.check) {
			t.Errorf("%s: %s %q, checks %v; want %s", c.q, out.Status, out.Message, out.Checks, c.check)
		}
	}
}

// TestStaysAndGoalsOfRoundFive asks, of a hotel and a league whose dates
// are TEXT (stop 48): check_in and check_out, sampled though not named
// like dates, are the dates "checked in", "by check-in month" and a
// checked_out state name; a no-show in a month is refused, as it may be
// the month of the stay or of the booking, while reservations in a month
// are those booked then, as the reading says; own goals counted under
// their scorer and postponed matches among those with no goals are
// warned of (found from outside at 1.00).
func TestStaysAndGoalsOfRoundFive(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE reservations (res_id INTEGER PRIMARY KEY, booked_at TEXT, check_in TEXT, check_out TEXT, status TEXT, nightly_rate REAL);
CREATE TABLE players (player_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL);
CREATE TABLE matches (match_id INTEGER PRIMARY KEY, match_date TEXT, status TEXT);
CREATE TABLE goals (goal_id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches(match_id), scorer_id INTEGER REFERENCES players(player_id), minute INTEGER, is_own_goal INTEGER);
`)
	st := []string{"checked_out", "checked_out", "cancelled", "no_show", "confirmed"}
	for i := 1; i <= 200; i++ {
		booked := fmt.Sprintf("2026-%02d-%02d", i%5+1, i%27+1)
		fmt.Fprintf(&b, "INSERT INTO reservations VALUES (%d, '%s 10:00:00', date('%s', '+%d days'), date('%s', '+%d days'), '%s', %d);\n",
			i, booked, booked, 5+i%20, booked, 8+i%20, st[i%5], 90+i%60)
	}
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "INSERT INTO players VALUES (%d, 'Player %d');\n", i, i)
	}
	g := 0
	for i := 1; i <= 40; i++ {
		status := "played"
		if i%9 == 0 {
			status = "postponed"
		}
		fmt.Fprintf(&b, "INSERT INTO matches VALUES (%d, '2026-%02d-%02d', '%s');\n", i, i%6+1, i%27+1, status)
		for k := 0; status == "played" && k < i%4; k++ {
			g++
			fmt.Fprintf(&b, "INSERT INTO goals VALUES (%d, %d, %d, %d, %d);\n", g, i, g%8+1, 10+k*20, g%7/6)
		}
	}
	dir, rows := learnedDB(t, "round48b.db", b.String(), "")
	answersAsHand(t, dir, rows, []struct{ q, want string }{
		{"how many reservations checked in in March 2026", "SELECT count(*) FROM reservations WHERE check_in >= '2026-03-01' AND check_in < '2026-04-01'"},
		{"how many reservations by check-in month", "SELECT strftime('%Y-%m-01', check_in), count(*) FROM reservations GROUP BY 1 ORDER BY 1"},
		{"how many reservations checked out in May 2026", "SELECT count(*) FROM reservations WHERE status = 'checked_out' AND check_out >= '2026-05-01' AND check_out < '2026-06-01'"},
		{"how many reservations in March 2026", "SELECT count(*) FROM reservations WHERE booked_at >= '2026-03-01' AND booked_at < '2026-04-01'"},
		{"how many goals that are not own goals", "SELECT count(*) FROM goals WHERE is_own_goal = 0"},
	})
	refusalsSay(t, dir, []struct{ q, says string }{
		{"how many no_show reservations in March 2026", "name the date"},
	})
	for _, c := range []struct{ q, check string }{
		{"goals by player", "kind_included"},
		{"how many matches had no goals", "statuses_included"},
	} {
		if out := askAt(t, dir, "2026-06-30", c.q); out.Status != "succeeded" || !strings.Contains(fmt.Sprint(out.Checks), c.check) {
			t.Errorf("%s: %s %q, checks %v; want %s", c.q, out.Status, out.Message, out.Checks, c.check)
		}
	}
}

// TestWordsOfRoundFive asks, of accounts and patients that quarry learns,
// what outside testers found read the wrong way (stop 48): "no" taken as
// the value 'no' of a yes/no column ("accounts with no invoices"
// refused); "test patients" as a last name Test, not is_test; "new
// patients" as those with a visit of type new; a group of no rows
// (industry NULL) listed among the industries with more than 3 accounts;
// a department with no doctors left unsaid.
func TestWordsOfRoundFive(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE accounts (account_id INTEGER PRIMARY KEY, company_name TEXT NOT NULL, industry TEXT, signup_date TEXT);
CREATE TABLE invoices (invoice_id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(account_id), issued TEXT, amount_cents INTEGER);
CREATE TABLE payments (payment_id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoices(invoice_id), paid_on TEXT, amount REAL, is_refund TEXT);
CREATE TABLE patients (patient_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, registered TEXT, is_test INTEGER);
CREATE TABLE appointments (appointment_id INTEGER PRIMARY KEY, patient_id INTEGER NOT NULL REFERENCES patients(patient_id), scheduled_for TEXT, visit_type TEXT);
CREATE TABLE departments (dept_code TEXT PRIMARY KEY, dept_name TEXT NOT NULL);
INSERT INTO departments VALUES ('CAR', 'Cardiology'), ('DER', 'Dermatology'), ('NEU', 'Neurology');
CREATE TABLE doctors (doctor_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, dept_code TEXT REFERENCES departments(dept_code));
`)
	industries := []string{"Retail", "Software", "Health", ""}
	for i := 1; i <= 40; i++ {
		ind := "NULL"
		if industries[i%4] != "" {
			ind = "'" + industries[i%4] + "'"
		}
		if i%4 == 2 && i > 12 {
			ind = "'Mining'" // 3 of them: not over 3
		}
		fmt.Fprintf(&b, "INSERT INTO accounts VALUES (%d, 'Co %d', %s, '2025-%02d-%02d');\n", i, i, ind, i%12+1, i%27+1)
	}
	for i := 1; i <= 90; i++ {
		fmt.Fprintf(&b, "INSERT INTO invoices VALUES (%d, %d, '2026-%02d-%02d', %d);\n", i, i%30+1, i%5+1, i%27+1, 1000+i*37)
		fmt.Fprintf(&b, "INSERT INTO payments VALUES (%d, %d, '2026-%02d-%02d', %d.0, '%s');\n", i, i, i%5+1, i%27+2, 10+i, []string{"no", "no", "no", "yes"}[i%4])
	}
	for i := 1; i <= 60; i++ {
		last := []string{"Smith", "Jones", "Test", "Brown", "Lee"}[i%5]
		fmt.Fprintf(&b, "INSERT INTO patients VALUES (%d, 'P%d', '%s', '2026-%02d-%02d', %d);\n", i, i, last, i%6+1, i%27+1, i%7/6)
		fmt.Fprintf(&b, "INSERT INTO appointments VALUES (%d, %d, '2026-%02d-%02d', '%s');\n", i, i, i%6+1, i%27+2, []string{"new", "follow-up"}[i%2])
	}
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "INSERT INTO doctors VALUES (%d, 'Dr %d', '%s');\n", i, i, []string{"CAR", "DER"}[i%2])
	}
	dir, rows := learnedDB(t, "round48c.db", b.String(), "")
	answersAsHand(t, dir, rows, []struct{ q, want string }{
		{"how many accounts have no invoices", "SELECT count(*) FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = a.account_id)"},
		{"how many patients excluding test patients", "SELECT count(*) FROM patients WHERE is_test = 0"},
		{"how many new patients in May 2026", "SELECT count(*) FROM patients WHERE registered >= '2026-05-01' AND registered < '2026-06-01' AND is_test IS NOT 1"},
		{"industries with more than 3 accounts", "SELECT industry FROM accounts WHERE industry IS NOT NULL GROUP BY industry HAVING count(*) > 3 ORDER BY industry"},
	})
	if out := askAt(t, dir, "2026-06-30", "how many doctors per department"); out.Status != "succeeded" || !strings.Contains(out.Answer, "Neurology has none (0)") {
		t.Errorf("doctors per department: %s, answer %q; want Neurology named with none", out.Status, out.Answer)
	}
}

// TestMeasureStatusAsOfAnEarlierDay: a measure that keeps rows by their
// status today (MRR over the subscriptions whose status is 'active') is
// refused as of a day since which subscriptions have ended, and so is a
// verified query, which reads the data as it is today; both are
// answered as of the demo's last day (found from outside: MRR as of
// June over today's active subscriptions, at 1.00).
func TestMeasureStatusAsOfAnEarlierDay(t *testing.T) {
	dir := demoProject(t)
	refusalsAt := func(asOf string, qs ...string) {
		t.Helper()
		for _, q := range qs {
			if out := askAt(t, dir, asOf, q); out.Status == "succeeded" || !strings.Contains(out.Message, "today") {
				t.Errorf("%s as of %s: %s %q; want a refusal that says the status is today's", q, asOf, out.Status, out.Message)
			}
		}
	}
	refusalsAt("2026-03-31", "MRR", "how many active subscribers do we have", "mrr by plan", "open tickets", "open tickets by priority",
		"how many customers have an active subscription and opened a ticket this year")
	for _, q := range []string{"MRR", "how many active subscribers do we have", "open tickets"} {
		if out := askAt(t, dir, "2026-06-30", q); out.Status != "succeeded" {
			t.Errorf("%s as of the demo's last day: %s %q", q, out.Status, out.Message)
		}
	}
}
