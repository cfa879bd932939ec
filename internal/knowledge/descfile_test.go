package knowledge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/knowledge"
)

const birdSchema = `
CREATE TABLE client (client_id INTEGER PRIMARY KEY, gender TEXT, birth_date DATE, district_id INTEGER, created TEXT);
INSERT INTO client VALUES (1, 'F', '1970-12-13', 18, '2020-01-01'), (2, 'M', '1945-02-04', 1, '2020-02-01'), (3, 'F', '1940-10-09', 1, '2020-03-01');
CREATE TABLE district (district_id INTEGER PRIMARY KEY, A2 TEXT, A3 TEXT);
INSERT INTO district VALUES (1, 'Hl.m. Praha', 'Prague'), (18, 'Pisek', 'south Bohemia');
CREATE TABLE loan (loan_id INTEGER PRIMARY KEY, status TEXT, amount INTEGER);
INSERT INTO loan VALUES (1, 'A', 100), (2, 'B', 200);
`

// clientCSV is in UTF-8 with a byte order mark; districtCSV in
// Windows-1252 (the é of "Région" is 0xE9, the ’ of "district’s" 0x92).
const clientCSV = "\xef\xbb\xbforiginal_column_name,column_name,column_description,data_format,value_description\r\n" +
	"client_id,,the unique number,integer,\r\n" +
	"gender,,,text,\"F: female \r\nM: male \"\r\n" +
	"birth_date,birth date,the client's birthday,date,\r\n" +
	"district_id,district id,location of branch,integer,\r\n"

const districtCSV = "original_column_name,column_name,column_description,data_format,value_description\n" +
	"district_id,location of branch,location of branch,integer,\n" +
	"A2,district_name,district name,text,\n" +
	"A3,r\xe9gion,the district\x92s r\xe9gion,text,\n" +
	"A99,nothing,not in the table,text,\n"

const shopDescriptions = `tables:
  loan:
    description: Loans granted to clients.
    synonyms: [credits]
    columns:
      status:
        description: Repayment status.
        synonyms: [state]
        values: [A, B, C]
`

func TestLearnReadsDescriptionFiles(t *testing.T) {
	db := makeDB(t, birdSchema)
	folder := filepath.Dir(db)
	if err := os.MkdirAll(filepath.Join(folder, "database_description"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(folder, "database_description", "client.csv"), clientCSV)
	writeFile(t, filepath.Join(folder, "database_description", "district.csv"), districtCSV)
	writeFile(t, filepath.Join(folder, "shop.descriptions.yaml"), shopDescriptions)

	dir := filepath.Join(t.TempDir(), "knowledge")
	rep := learn(t, db, dir, knowledge.LearnOptions{DatabaseFile: db})
	model := readFile(t, filepath.Join(dir, "model.yaml"))
	goldentest.AssertString(t, filepath.Join("testdata", "descriptions", "model.yaml"), model)
	wantFiles := []string{
		filepath.Join(folder, "database_description", "client.csv"),
		filepath.Join(folder, "database_description", "district.csv"),
		filepath.Join(folder, "shop.descriptions.yaml"),
	}
	if diff := cmp.Diff(wantFiles, rep.Descriptions); diff != "" {
		t.Errorf("descriptions read (-want +got):\n%s", diff)
	}
	wantWarn := []string{"descriptions of 1 tables or columns the database does not have were not used: district.A99"}
	if diff := cmp.Diff(wantWarn, rep.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatal(err)
	}

	// A description a person wrote wins on refresh, and learning again
	// changes nothing else.
	model = strings.Replace(model, "description: the district’s région", "description: The region, in Czech.", 1)
	writeFile(t, filepath.Join(dir, "model.yaml"), model)
	rep = learn(t, db, dir, knowledge.LearnOptions{DatabaseFile: db})
	if len(rep.Files) != 0 || rep.ValuesAdded != 0 || len(rep.Labels) != 0 {
		t.Errorf("second learn wrote %v, added %d values, chose labels %v", rep.Files, rep.ValuesAdded, rep.Labels)
	}
	if got := readFile(t, filepath.Join(dir, "model.yaml")); got != model {
		t.Errorf("the refresh changed model.yaml:\n%s", cmp.Diff(model, got))
	}
}

func TestLearnDescriptionsFlag(t *testing.T) {
	db := makeDB(t, birdSchema)
	other := filepath.Join(t.TempDir(), "loans.yaml")
	writeFile(t, other, shopDescriptions)
	dir := filepath.Join(t.TempDir(), "knowledge")
	rep := learn(t, db, dir, knowledge.LearnOptions{Descriptions: other})
	if diff := cmp.Diff([]string{other}, rep.Descriptions); diff != "" {
		t.Errorf("descriptions read (-want +got):\n%s", diff)
	}
	model := readFile(t, filepath.Join(dir, "model.yaml"))
	for _, want := range []string{"    description: Loans granted to clients.\n    synonyms: [credits]\n",
		"        description: Repayment status.\n        synonyms: [state]\n        values: [A, B, C]\n"} {
		if !strings.Contains(model, want) {
			t.Errorf("model.yaml lacks %q:\n%s", want, model)
		}
	}

	// A mistake in the file stops learn with the file and line.
	writeFile(t, other, "tables:\n  loan:\n    descripton: x\n")
	ctxDir := filepath.Join(t.TempDir(), "k2")
	_, err := learnErr(t, db, ctxDir, knowledge.LearnOptions{Descriptions: other})
	if err == nil || !strings.Contains(err.Error(), other+":3: tables.loan.descripton: unknown field") {
		t.Errorf("error %v, want the file and line of the unknown field", err)
	}
}
