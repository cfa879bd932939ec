package knowledge_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestLearnProposesNoSumOfYears checks that learn does not suggest summing
// a column of years, codes or identifiers, whether its name says so
// (birth_year, BirthYear, yearOfBirth, AreaCode, customerID, FlightNo,
// seat_number, a paid flag of 0 and 1) or only its values do (born: whole numbers from 1800 to
// 2100); a count named "number of" (number_of_seats) is summed.
func TestLearnProposesNoSumOfYears(t *testing.T) {
	db := makeDB(t, `
CREATE TABLE people (
  id INTEGER PRIMARY KEY, name TEXT,
  birth_year INTEGER, BirthYear INTEGER, yearOfBirth INTEGER, born INTEGER,
  AreaCode INTEGER, zipcode INTEGER, customerID INTEGER, HomePhone INTEGER,
  salary REAL, yearly_bonus REAL, children INTEGER, score REAL,
  FlightNo INTEGER, seat_number INTEGER, number_of_seats INTEGER,
  paid INTEGER, amount_paid REAL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
INSERT INTO people SELECT i, 'P' || i,
  1950 + i, 1950 + i, 1950 + i, 1950 + i,
  200 + i, 10000 + i, i, 5550000 + i,
  50000 + i * 100, 1000.5 + i, i % 4,
  -- whole numbers in the years' range but one: not a year
  CASE WHEN i = 7 THEN 1990.5 ELSE 1900 + i END,
  1000 + i, i, i % 3,
  i % 2, i * 2.5
FROM n;
CREATE TABLE empty (id INTEGER PRIMARY KEY, anno INTEGER);
`)
	dir := filepath.Join(t.TempDir(), "knowledge")
	learn(t, db, dir, knowledge.LearnOptions{})
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^    expr: (.*)$`).FindAllStringSubmatch(candidatesOf(t, dir), -1) {
		got = append(got, m[1])
	}
	want := []string{
		"SUM(empty.anno)", // no rows: nothing says it is a year
		"SUM(people.salary)", "SUM(people.yearly_bonus)", "SUM(people.children)", "SUM(people.score)", "SUM(people.number_of_seats)", "SUM(people.amount_paid)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("candidate measures (-want +got):\n%s", diff)
	}
}
