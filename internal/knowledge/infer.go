package knowledge

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// quarryType maps a declared database type (and, when that says nothing,
// the column name) to a portable type.
func quarryType(decl, name string) quarry.Type {
	t := strings.ToLower(strings.TrimSpace(decl))
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	switch {
	case t == "":
	case t == "bool" || t == "boolean" || t == "bit":
		return quarry.TypeBool
	case t == "bigint" || t == "int8" || t == "hugeint" || t == "ubigint":
		return quarry.TypeBigInt
	case strings.Contains(t, "int") && !strings.Contains(t, "interval") && !strings.Contains(t, "point"):
		return quarry.TypeInt
	case t == "decimal" || t == "numeric" || t == "money" || t == "number":
		return quarry.TypeDecimal
	case strings.Contains(t, "real") || strings.Contains(t, "floa") || strings.Contains(t, "doub"):
		return quarry.TypeFloat
	case t == "date":
		return quarry.TypeDate
	case strings.Contains(t, "timestamp") || t == "datetime" || t == "datetime2" || t == "smalldatetime":
		return quarry.TypeTimestamp
	case t == "time" || strings.HasPrefix(t, "time "):
		return quarry.TypeTime
	case t == "interval":
		return quarry.TypeInterval
	case t == "json" || t == "jsonb":
		return quarry.TypeJSON
	case strings.Contains(t, "char") || strings.Contains(t, "text") || strings.Contains(t, "clob") || t == "string" || t == "varchar" || t == "uuid" || t == "enum":
		return quarry.TypeText
	case strings.Contains(t, "blob") || t == "bytea" || strings.Contains(t, "binary"):
		return quarry.TypeBytes
	case strings.HasSuffix(t, "[]") || t == "array":
		return quarry.TypeArray
	}
	return quarry.TypeUnknown
}

func columnType(c quarry.ColumnInfo) quarry.Type {
	if c.Type != "" && c.Type != quarry.TypeUnknown {
		return c.Type
	}
	return quarryType(c.DeclType, c.Name)
}

// defaultSchemas are schemas whose tables are named without the schema.
var defaultSchemas = map[string]bool{"": true, "main": true, "public": true, "dbo": true}

// tableRef is how model.yaml names a catalog table: "name", or
// "schema.name" outside the default schema.
func tableRef(t *quarry.TableInfo) string {
	if defaultSchemas[strings.ToLower(t.Schema)] {
		return t.Name
	}
	return t.Schema + "." + t.Name
}

// relKey is the key of the relation (schema, table) in tablesByName's
// index: the pair, never joined with a dot, so that a table named
// "sales.orders" and table orders of schema sales stay apart.
func relKey(schema, table string) string {
	return strings.ToLower(schema) + "\x00" + strings.ToLower(table)
}

// entityKey is relKey of e's relation.
func entityKey(e *semantic.Entity) string { return relKey(e.Relation()) }

// tablesByName indexes tables by lower-cased "schema.name" and "name" (as
// people write them), and by relKey; a plain name goes to the table in
// the default schema when several share it.
func tablesByName(cat *quarry.Catalog) map[string]*quarry.TableInfo {
	m := map[string]*quarry.TableInfo{}
	for i := range cat.Tables {
		t := &cat.Tables[i]
		m[relKey(t.Schema, t.Name)] = t
		if defaultSchemas[strings.ToLower(t.Schema)] {
			m[relKey("", t.Name)] = t
		}
		if t.Schema != "" {
			if k := strings.ToLower(t.Schema + "." + t.Name); m[k] == nil {
				m[k] = t
			}
		}
		n := strings.ToLower(t.Name)
		if prev, ok := m[n]; !ok || (!defaultSchemas[strings.ToLower(prev.Schema)] && defaultSchemas[strings.ToLower(t.Schema)]) {
			m[n] = t
		}
	}
	return m
}

// schemaOf is the schema an entity of t names: "" in a default schema.
func schemaOf(t *quarry.TableInfo) string {
	if defaultSchemas[strings.ToLower(t.Schema)] {
		return ""
	}
	return t.Schema
}

// entityName is the name learn gives the entity of a table called name:
// the name itself, with every dot made an underscore (a field reference
// is "entity.column", so an entity's name holds no dot) and leading and
// trailing underscores that makes dropped; "table" when nothing is left.
func entityName(name string) string {
	if !strings.Contains(name, ".") {
		return name
	}
	n := strings.Trim(strings.ReplaceAll(name, ".", "_"), "_")
	if n == "" {
		return "table"
	}
	return n
}

// learned is what learn reads from a catalog, before merging.
type learned struct {
	entities      []semantic.Entity
	tables        []*quarry.TableInfo // the table of each entity
	skipped       []string            // tables without columns (e.g. a view that no longer compiles)
	relationships []semantic.Relationship
	dbTypes       map[colKey]string
	candidates    []semantic.Metric
	keyCols       map[colKey]bool        // primary and foreign key columns, by entity
	withheld      map[colKey]bool        // columns the policy withholds: no known values, old ones removed
	labels        map[string]LabelChoice // lower-cased entity name → the label learn measured and chose
	// selected marks the entities --only chose (LearnOptions.Only); nil
	// means all. The others are read for names and relationships only.
	selected []bool
	// names maps lower-cased learned entity names to the folder's names
	// for them (a person may have renamed one); merge fills it.
	names map[string]string
}

// labelCandidates lists the columns of entity i that could be its label;
// restricted columns (lower-cased "table.column" or "entity.column") are
// left out.
func (l *learned) labelCandidates(i int, restricted map[string]bool) []labelCand {
	e := &l.entities[i]
	return labelCandidates(l.tables[i],
		func(c string) bool { return l.keyCols[lowerKey(e.Name, c)] },
		func(c string) bool { return l.isRestricted(e, c, restricted) },
		func(c string) []string {
			if col := e.Column(c); col != nil {
				return col.Synonyms
			}
			return nil
		})
}

// isRestricted reports whether restricted names column c of e, by its
// table, its qualified name or its entity's name.
func (l *learned) isRestricted(e *semantic.Entity, c string, restricted map[string]bool) bool {
	return restricted[strings.ToLower(e.Table+"."+c)] || restricted[strings.ToLower(e.QualifiedName()+"."+c)] || restricted[strings.ToLower(e.Name+"."+c)]
}

// infer builds entities, relationships and candidate measures from a
// catalog.
func infer(cat *quarry.Catalog) *learned {
	l := &learned{dbTypes: map[colKey]string{}, keyCols: map[colKey]bool{}, withheld: map[colKey]bool{}, labels: map[string]LabelChoice{}}
	names := map[string]int{}
	for i := range cat.Tables {
		names[strings.ToLower(cat.Tables[i].Name)]++
	}
	entityOf := map[*quarry.TableInfo]string{}
	nameOf := func(t *quarry.TableInfo) string {
		if names[strings.ToLower(t.Name)] > 1 && !defaultSchemas[strings.ToLower(t.Schema)] {
			return entityName(t.Schema + "_" + t.Name)
		}
		return entityName(t.Name)
	}
	// Entity names are matched without regard to case, so two tables
	// whose names differ only in case (PostgreSQL's "Orders" and orders)
	// would be one entity: the first keeps its name, the others get a
	// number no other table's name has.
	taken, used := map[string]bool{}, map[string]int{}
	for i := range cat.Tables {
		used[strings.ToLower(nameOf(&cat.Tables[i]))]++
	}
	for i := range cat.Tables {
		t := &cat.Tables[i]
		if len(t.Columns) == 0 {
			l.skipped = append(l.skipped, tableRef(t))
			continue
		}
		name := nameOf(t)
		for base, n := name, 2; taken[strings.ToLower(name)] || name != base && used[strings.ToLower(name)] > 0; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		taken[strings.ToLower(name)] = true
		entityOf[t] = name
		e := semantic.Entity{
			Name:        name,
			Schema:      schemaOf(t),
			Table:       t.Name,
			Description: strings.TrimSpace(t.Comment),
		}
		if t.RowCount >= 0 {
			e.RowCount = t.RowCount
		}
		for _, c := range t.Columns {
			col := semantic.Column{
				Name:        c.Name,
				Type:        columnType(c),
				Description: strings.TrimSpace(c.Comment),
			}
			if dateLike(c) {
				col.TimeRole = tableTimeRole(t.Name, c.Name)
			}
			withNameUnit(&col, c, t)
			e.Columns = append(e.Columns, col)
			if c.DeclType != "" {
				l.dbTypes[lowerKey(name, c.Name)] = c.DeclType
			}
		}
		checkInOut(&e)
		switch {
		case len(t.PrimaryKey) == 1:
			e.PrimaryKey = t.PrimaryKey[0]
		case len(t.PrimaryKey) == 0 && t.Column("id") != nil:
			e.PrimaryKey = t.Column("id").Name
		}
		for _, k := range t.PrimaryKey {
			l.keyCols[lowerKey(name, k)] = true
		}
		if e.PrimaryKey != "" {
			l.keyCols[lowerKey(name, e.PrimaryKey)] = true
		}
		e.TimeColumn = pickTimeColumn(t)
		l.entities = append(l.entities, e)
		l.tables = append(l.tables, t)
	}
	l.relationships = inferRelationships(cat, entityOf, l)
	proposeVerbs(l.relationships)
	for i := range l.entities {
		// By name alone; learn measures the candidates before it writes.
		if ch, ok := chooseLabel(&l.entities[i], l.labelCandidates(i, nil), nil); ok {
			l.entities[i].Label = ch.Column
		}
	}
	l.candidates = inferCandidates(l)
	return l
}

func textual(t quarry.Type) bool { return t == quarry.TypeText || t == quarry.TypeUnknown }

// singularOf is a small English singularizer for table names.
func singularOf(s string) string {
	l := strings.ToLower(s)
	switch {
	case strings.HasSuffix(l, "ies") && len(l) > 3:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(l, "sses") || strings.HasSuffix(l, "xes") || strings.HasSuffix(l, "ches") || strings.HasSuffix(l, "shes"):
		return s[:len(s)-2]
	case strings.HasSuffix(l, "ss"):
		return s
	case strings.HasSuffix(l, "s") && len(l) > 1:
		return s[:len(s)-1]
	}
	return s
}

// selfRoles are column stems that, with no table of that name, refer to
// the same table: employees.manager_id → employees.id.
var selfRoles = []string{"manager", "parent", "supervisor", "boss", "mentor", "referrer", "reports_to", "leader", "lead", "head"}

func inferRelationships(cat *quarry.Catalog, entityOf map[*quarry.TableInfo]string, l *learned) []semantic.Relationship {
	var rels []semantic.Relationship
	have := map[colKey]bool{}
	add := func(r semantic.Relationship) {
		k := lowerKey(r.From, r.FromColumn)
		if have[k] {
			return
		}
		have[k] = true
		l.keyCols[k] = true
		rels = append(rels, r)
	}
	byName := tablesByName(cat)
	pkOf := func(t *quarry.TableInfo) string {
		if len(t.PrimaryKey) == 1 {
			return t.PrimaryKey[0]
		}
		if len(t.PrimaryKey) == 0 && t.Column("id") != nil {
			return t.Column("id").Name
		}
		return ""
	}
	// Declared foreign keys first.
	for i := range cat.Tables {
		t := &cat.Tables[i]
		for _, fk := range t.ForeignKeys {
			if len(fk.Columns) != 1 {
				continue // composite keys cannot be expressed as one join column
			}
			ref := byName[relKey("", fk.RefTable)]
			if ref == nil {
				ref = byName[strings.ToLower(fk.RefTable)]
			}
			if fk.RefSchema != "" && byName[relKey(fk.RefSchema, fk.RefTable)] != nil {
				ref = byName[relKey(fk.RefSchema, fk.RefTable)]
			}
			if ref == nil {
				continue
			}
			to := ""
			if len(fk.RefColumns) == 1 {
				to = fk.RefColumns[0]
			} else {
				to = pkOf(ref)
			}
			if to == "" {
				continue
			}
			card := semantic.ManyToOne
			if len(t.PrimaryKey) == 1 && strings.EqualFold(t.PrimaryKey[0], fk.Columns[0]) {
				card = semantic.OneToOne
			}
			add(semantic.Relationship{
				Name: relName(fk.Columns[0], ref.Name), From: entityOf[t], FromColumn: fk.Columns[0],
				To: entityOf[ref], ToColumn: to, Cardinality: card,
			})
		}
	}
	// Then naming, for columns no key covers: x_id → x or xs, and
	// role_id → the same table for hierarchical roles.
	for i := range cat.Tables {
		t := &cat.Tables[i]
		for _, c := range t.Columns {
			n := strings.ToLower(c.Name)
			if have[lowerKey(entityOf[t], c.Name)] || (len(t.PrimaryKey) == 1 && strings.EqualFold(t.PrimaryKey[0], c.Name)) || n == "id" {
				continue
			}
			stem := ""
			switch {
			case strings.HasSuffix(n, "_id") && len(n) > 3:
				stem = n[:len(n)-3]
			case strings.HasSuffix(n, "id") && len(n) > 4:
				stem = n[:len(n)-2]
			default:
				continue
			}
			// A table of a family named by a prefix (amer_sales_orders_2019)
			// refers to its family's table (amer_sales_customers) before
			// one of the name outside it (customers): the longest prefix
			// of its own name that names a table wins (found from
			// outside: regional copies joined the core customers).
			var matches []*quarry.TableInfo
			for _, pre := range namePrefixes(t.Name) {
				for _, cand := range []string{stem, stem + "s", stem + "es", strings.TrimSuffix(stem, "y") + "ies"} {
					if ref := byName[pre+cand]; ref != nil && ref != t && pkOf(ref) != "" && !containsTable(matches, ref) {
						matches = append(matches, ref)
					}
				}
				if len(matches) > 0 {
					break
				}
			}
			var ref *quarry.TableInfo
			switch {
			case len(matches) == 1:
				ref = matches[0]
			case len(matches) == 0 && isSelfRole(stem) && pkOf(t) != "":
				ref = t
			default:
				continue // none or ambiguous: leave it to a person
			}
			if ref == t && strings.EqualFold(pkOf(t), c.Name) {
				continue
			}
			add(semantic.Relationship{
				Name: relName(c.Name, ref.Name), From: entityOf[t], FromColumn: c.Name,
				To: entityOf[ref], ToColumn: pkOf(ref), Cardinality: semantic.ManyToOne,
			})
		}
	}
	return rels
}

// namePrefixes are the prefixes of a table's name that end at an
// underscore, lower-cased, longest first, then "": amer_sales_orders_2019
// gives amer_sales_orders_, amer_sales_, amer_ and "".
func namePrefixes(name string) []string {
	n := strings.ToLower(name)
	var out []string
	for i := len(n) - 1; i > 0; i-- {
		if n[i] == '_' {
			out = append(out, n[:i+1])
		}
	}
	return append(out, "")
}

func containsTable(ts []*quarry.TableInfo, t *quarry.TableInfo) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func isSelfRole(stem string) bool {
	for _, r := range selfRoles {
		if stem == r || strings.HasSuffix(stem, "_"+r) {
			return true
		}
	}
	return false
}

// relName names a relationship after its column without the _id suffix.
func relName(col, refTable string) string {
	n := strings.ToLower(col)
	switch {
	case strings.HasSuffix(n, "_id") && len(n) > 3:
		return col[:len(col)-3]
	case strings.HasSuffix(n, "id") && len(n) > 4:
		return col[:len(col)-2]
	}
	if n == "" {
		return strings.ToLower(singularOf(refTable))
	}
	return col
}

// inferCandidates suggests a SUM measure for every numeric column that is
// not a key, a code or a calendar part.
func inferCandidates(l *learned) []semantic.Metric {
	count := map[string]int{}
	for _, e := range l.entities {
		for _, c := range e.Columns {
			if measureColumn(l, e, c) {
				count[strings.ToLower(c.Name)]++
			}
		}
	}
	var out []semantic.Metric
	for _, e := range l.entities {
		for _, c := range e.Columns {
			if !measureColumn(l, e, c) {
				continue
			}
			name := "total_" + strings.ToLower(c.Name)
			if count[strings.ToLower(c.Name)] > 1 {
				name = strings.ToLower(e.Name) + "_total_" + strings.ToLower(c.Name)
			}
			out = append(out, semantic.Metric{
				Name:        name,
				Description: fmt.Sprintf("Sum of %s.%s.", e.Name, c.Name),
				Entity:      e.Name,
				Expr:        fmt.Sprintf("SUM(%s.%s)", refIdent(e.Name), refIdent(c.Name)),
			})
		}
	}
	return out
}

func measureColumn(l *learned, e semantic.Entity, c semantic.Column) bool {
	if !c.Type.IsNumeric() || l.keyCols[lowerKey(e.Name, c.Name)] {
		return false
	}
	n := strings.ToLower(c.Name)
	if n == "id" || strings.HasSuffix(n, "_id") || strings.HasSuffix(n, "_key") {
		return false
	}
	words := nameWords(c.Name)
	if k := len(words); k > 1 {
		switch words[k-1] {
		case "no", "nr", "num", "number":
			// "FlightNo", "invoice_number", "room_nr": a number that names
			// a row, not an amount ("number_of_seats" is one).
			return false
		}
	}
	for _, tok := range words {
		switch tok {
		case "id", "ids", "key", "year", "month", "week", "day", "hour", "zip", "zipcode", "postal", "postcode", "phone", "code",
			"latitude", "longitude", "lat", "lon", "lng", "rank", "sort", "ordinal", "sequence", "version", "position",
			"born", "yob", "dob", "birth", "birthday", "birthdate", "fax", "mobile", "telephone", "ssn", "isbn", "ean", "upc":
			return false
		}
		// A word run together with another: birthyear, fiscalyear,
		// areacode, postcode, cellphone; yearofbirth.
		for _, w := range []string{"year", "code", "zip", "phone"} {
			if strings.HasSuffix(tok, w) {
				return false
			}
		}
		if strings.HasPrefix(tok, "yearof") {
			return false
		}
	}
	return true
}

// nameWords splits a column name into lower-cased words at _, -, spaces
// and camelCase: "BirthYear" and "birth_year" are both birth, year.
func nameWords(name string) []string {
	var words []string
	var w []rune
	rs := []rune(name)
	flush := func() {
		if len(w) > 0 {
			words = append(words, strings.ToLower(string(w)))
			w = w[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) ||
			unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			// fooBar, and the last capital of an acronym: customerID, IDCode
			flush()
		}
		w = append(w, r)
	}
	flush()
	return words
}

// refIdent writes a name for use in an entity.column reference, quoting it
// when it is not a plain identifier.
func refIdent(s string) string {
	plain := s != ""
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) || (i == 0 && !isIdentStart(s[i])) || s[i] >= 0x80 {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
