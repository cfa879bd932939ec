package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestTextOnLearnedSchema asks, of members, films, buildings and
// documents that quarry learns, what an outside tester tried on pieces of
// text, codes in capitals and columns of years — among them eleven
// answers it found wrong at confidence 1.00 — and checks each answer
// against SQL written by hand, or that it is refused.
func TestTextOnLearnedSchema(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE states (code TEXT PRIMARY KEY, name TEXT);
INSERT INTO states VALUES ('OR', 'Oregon'), ('WA', 'Washington'), ('CA', 'California'), ('NY', 'New York'), ('ME', 'Maine');
CREATE TABLE members (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, city TEXT, state TEXT REFERENCES states(code), email TEXT);
CREATE TABLE directors (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO directors VALUES (1, 'Ann Wolfson'), (2, 'Bo Lind');
CREATE TABLE films (id INTEGER PRIMARY KEY, title TEXT, description TEXT, release_year INTEGER, director_id INTEGER REFERENCES directors(id));
CREATE TABLE buildings (id INTEGER PRIMARY KEY, name TEXT, city TEXT, year_built INTEGER);
CREATE TABLE documents (id INTEGER PRIMARY KEY, document_name TEXT);
CREATE TABLE paragraphs (id INTEGER PRIMARY KEY, document_id INTEGER REFERENCES documents(id), paragraph_text TEXT);
INSERT INTO documents VALUES (1, 'Customer reviews'), (2, 'Welcome to NY');
INSERT INTO paragraphs VALUES (1, 1, 'Brazil'), (2, 1, 'Ireland'), (3, 2, 'Korea'), (4, 2, 'Brazil'), (5, 1, 'Japan');
`)
	lasts := []string{"Smith", "Östberg", "Goldsmith", "Lee", "Andersson", "Émery", "Park"}
	firsts := []string{"Anna", "Bo", "Cleo", "Dan", "Åsa", "Eve"}
	cities := []string{"Portland", "Salem", "Seattle", "Fresno", "Albany", "Hamburg"}
	codes := []string{"OR", "OR", "WA", "CA", "NY", "ME", "OR"}
	for i := 1; i <= 140; i++ {
		fmt.Fprintf(&b, "INSERT INTO members VALUES (%d, '%s', '%s', '%s', '%s', 'm%d@example.com');\n", i, firsts[i%6], lasts[i%7], cities[i%6], codes[i%7], i)
	}
	words := []string{"Wolf Moon", "The Refund", "Night Train", "Wolfsburg Story", "Quiet Art", "Smartwatch Blues"}
	for i := 1; i <= 60; i++ {
		desc := "A story of a town."
		if i%4 == 0 {
			desc = "A clerk fights for a refund."
		}
		fmt.Fprintf(&b, "INSERT INTO films VALUES (%d, '%s %d', '%s', %d, %d);\n", i, words[i%6], i, desc, 1990+i%25, i%2+1)
	}
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "INSERT INTO buildings VALUES (%d, 'Tower %d', '%s', %d);\n", i, i, cities[i%6], 1950+i*7%70)
	}
	policy := "restricted:\n  - column: members.email\n    reason: personal data\n"
	dir, rows := learnedDB(t, "text.db", b.String(), policy)
	answersAsHand(t, dir, rows, []struct{ q, want string }{
		{"how many members whose last name contains 'smith'", "SELECT count(*) FROM members WHERE lower(last_name) LIKE '%smith%'"},
		{"how many members whose last name starts with 'Ö'", "SELECT count(*) FROM members WHERE last_name LIKE 'Ö%'"},
		{"how many members whose first name starts with 'Å'", "SELECT count(*) FROM members WHERE first_name LIKE 'Å%'"},
		{"how many members whose city ends with 'burg'", "SELECT count(*) FROM members WHERE city LIKE '%burg'"},
		{"how many films whose name contains 'Wolf'", "SELECT count(*) FROM films WHERE title LIKE '%wolf%'"},
		{"how many films whose description contains 'refund'", "SELECT count(*) FROM films WHERE description LIKE '%refund%'"},
		{"how many members in OR", "SELECT count(*) FROM members WHERE state = 'OR'"},
		{"how many members in OR or WA", "SELECT count(*) FROM members WHERE state IN ('OR', 'WA')"},
		{"how many members in Portland, OR", "SELECT count(*) FROM members WHERE city = 'Portland' AND state = 'OR'"},
		{"how many films released after 2000", "SELECT count(*) FROM films WHERE release_year > 2000"},
		{"how many films were released in 1999", "SELECT count(*) FROM films WHERE release_year = 1999"},
		{"how many buildings built since 1990", "SELECT count(*) FROM buildings WHERE year_built >= 1990"},
		{"how many buildings built in or before 1980", "SELECT count(*) FROM buildings WHERE year_built <= 1980"},
		{"show all paragraph texts for the document 'Customer reviews'", "SELECT paragraph_text FROM paragraphs WHERE document_id = 1 ORDER BY id"},
	})
	refusalsSay(t, dir, []struct{ q, says string }{
		// A first or a last name: which is not guessed (found from
		// outside: the states' name was read, 0 for 30).
		{"how many members whose name contains 'smith'", "first_name or"},
		// The title, or the description? (found: 0 from the titles).
		{"how many films mentioning 'refund'", "films.description"},
		// Either, which the filters cannot say (found: read as both).
		{"how many members whose last name contains 'son' or whose city contains 'burg'", "“or”"},
		{"how many members whose last name does not contain 'son'", "negated"},
		{"how many members whose email contains 'example'", "restricts"},
		{"how many buildings built by 1980", "in or before 1980"},
	})
	// "The word": inside longer words too, which the reading says.
	if out := askAt(t, dir, "2026-06-30", "how many films whose title contains the word 'art'"); out.Status != "succeeded" || !strings.Contains(out.Interpretation.Text, "inside longer words too") {
		t.Errorf("status %s %q; reading %q does not say the word is found inside others", out.Status, out.Message, out.Interpretation.Text)
	}
}
