package mysql

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestCatalog(t *testing.T) {
	d := newTestDB(t,
		"CREATE TABLE customers (id BIGINT UNSIGNED PRIMARY KEY, name VARCHAR(40) NOT NULL COMMENT 'full name', active BOOLEAN, prefs JSON) COMMENT 'people who buy'",
		"CREATE TABLE orders (id INT, line INT, customer_id BIGINT UNSIGNED NOT NULL, total DECIMAL(10,2), placed_at DATETIME, PRIMARY KEY (id, line), CONSTRAINT fk_cust FOREIGN KEY (customer_id) REFERENCES customers (id))",
		"CREATE TABLE notes (id INT PRIMARY KEY, body LONGTEXT)",
		"CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 100",
		"INSERT INTO customers VALUES (1, 'Ada', TRUE, '{}'), (2, 'Bob', FALSE, NULL)",
		"ANALYZE TABLE customers",
	)
	c := open(t, d.dsn(nil))
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := &quarry.Catalog{Dialect: quarry.DialectMySQL, Tables: []quarry.TableInfo{
		{Schema: d.name, Name: "big_orders", View: true, RowCount: -1, Columns: []quarry.ColumnInfo{
			{Name: "id", DeclType: "int(11)", Type: quarry.TypeInt},
			{Name: "total", DeclType: "decimal(10,2)", Type: quarry.TypeDecimal, Nullable: true},
		}, Definition: "select `" + d.name + "`.`orders`.`id` AS `id`,`" + d.name + "`.`orders`.`total` AS `total` from `" + d.name + "`.`orders` where `" + d.name + "`.`orders`.`total` > 100"},
		{Schema: d.name, Name: "customers", Comment: "people who buy", RowCount: 2, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
			{Name: "id", DeclType: "bigint(20) unsigned", Type: quarry.TypeBigInt},
			{Name: "name", DeclType: "varchar(40)", Type: quarry.TypeText, Comment: "full name"},
			{Name: "active", DeclType: "tinyint(1)", Type: quarry.TypeBool, Nullable: true},
			{Name: "prefs", DeclType: "json", Type: quarry.TypeJSON, Nullable: true},
		}},
		{Schema: d.name, Name: "notes", RowCount: 0, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
			{Name: "id", DeclType: "int(11)", Type: quarry.TypeInt},
			{Name: "body", DeclType: "longtext", Type: quarry.TypeText, Nullable: true},
		}},
		{Schema: d.name, Name: "orders", RowCount: 0, PrimaryKey: []string{"id", "line"},
			Columns: []quarry.ColumnInfo{
				{Name: "id", DeclType: "int(11)", Type: quarry.TypeInt},
				{Name: "line", DeclType: "int(11)", Type: quarry.TypeInt},
				{Name: "customer_id", DeclType: "bigint(20) unsigned", Type: quarry.TypeBigInt},
				{Name: "total", DeclType: "decimal(10,2)", Type: quarry.TypeDecimal, Nullable: true},
				{Name: "placed_at", DeclType: "datetime", Type: quarry.TypeTimestamp, Nullable: true},
			},
			ForeignKeys: []quarry.ForeignKey{{Columns: []string{"customer_id"}, RefTable: "customers", RefColumns: []string{"id"}}},
		},
	}}
	if c.Flavor() == FlavorMySQL { // MySQL 8 drops integer display widths
		t.Skip("the expected declared types are MariaDB's")
	}
	if diff := cmp.Diff(want, cat); diff != "" {
		t.Errorf("Catalog (-want +got):\n%s", diff)
	}

	// A JSON column's name types result columns on MariaDB; a LONGTEXT
	// column of the same name in another table would stop that.
	got, err := readAll(t, c, "SELECT prefs, body FROM customers JOIN notes ON notes.id = customers.id", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Columns[0].Type != quarry.TypeJSON || got.Columns[1].Type != quarry.TypeText {
		t.Errorf("result types = %+v, want json, text", got.Columns)
	}
}

func TestCatalogWithoutDatabase(t *testing.T) {
	d := newTestDB(t, "CREATE TABLE visible (id INT PRIMARY KEY)")
	cfg := d.cfg.Clone()
	cfg.DBName = ""
	c := open(t, cfg.FormatDSN())
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tb := range cat.Tables {
		if strings.EqualFold(tb.Schema, "mysql") || strings.EqualFold(tb.Schema, "information_schema") {
			t.Fatalf("system schema table %s.%s listed", tb.Schema, tb.Name)
		}
		found = found || tb.Schema == d.name && tb.Name == "visible"
	}
	if !found {
		t.Errorf("%s.visible not in the catalog of every schema", d.name)
	}
}

func TestCatalogCanceled(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Catalog(ctx); quarry.KindOf(err) != quarry.KindCanceled {
		t.Errorf("Catalog(canceled) = %v", err)
	}
}
