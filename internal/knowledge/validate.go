package knowledge

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

var (
	validTypes = []string{
		string(quarry.TypeUnknown), string(quarry.TypeBool), string(quarry.TypeInt), string(quarry.TypeBigInt),
		string(quarry.TypeDecimal), string(quarry.TypeFloat), string(quarry.TypeText), string(quarry.TypeBytes),
		string(quarry.TypeDate), string(quarry.TypeTimestamp), string(quarry.TypeTime), string(quarry.TypeInterval),
		string(quarry.TypeJSON), string(quarry.TypeArray),
	}
	validCardinalities = []string{string(semantic.ManyToOne), string(semantic.OneToOne), string(semantic.OneToMany), string(semantic.ManyToMany)}
	validFormats       = []string{"number", "integer", "currency", "cents", "percent"}
	validDimTypes      = []string{"category", "time", "number", "boolean"}
	timeRoles          = []string{semantic.TimeRoleStart, semantic.TimeRoleEvent, semantic.TimeRoleEnd, semantic.TimeRoleBirth}
	validGrains        = []string{string(semantic.GrainDay), string(semantic.GrainWeek), string(semantic.GrainMonth), string(semantic.GrainQuarter), string(semantic.GrainYear)}
	derivedRef         = regexp.MustCompile(`\{([^{}]*)\}`)
)

// validator checks cross-references between the files of a folder.
type validator struct {
	m        *semantic.Model
	l        *loaded
	problems []Problem
	entities map[string]*semantic.Entity // lower-cased name → entity
	names    []string
	metrics  map[string]*semantic.Metric
	restrict map[string]bool // lower "table.column" and "entity.column"
	// tables and named are the index of the first entity of each
	// lower-cased table and name.
	tables, named map[string]int
	lineage       *lineage // built on the first verified query
}

func newValidator(m *semantic.Model, l *loaded) *validator {
	v := &validator{m: m, l: l, entities: map[string]*semantic.Entity{}, metrics: map[string]*semantic.Metric{}, restrict: map[string]bool{}, tables: map[string]int{}, named: map[string]int{}}
	return v
}

func (v *validator) errf(d *decoder, path, format string, args ...any) {
	line := d.LineOf(path)
	if line == 0 {
		// the file's mapping (an entity file's entity), also when the
		// field is missing from it ("columns" of an entity file)
		line = d.Lines[""]
	}
	v.problems = append(v.problems, Problem{File: d.File, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

func oneOf(s string, allowed []string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

func (v *validator) all() {
	v.entitiesCheck()
	v.relationshipsCheck()
	v.policyCheck()
	v.metricsCheck()
	v.dimensionsCheck()
	v.examplesCheck()
	v.monitorsCheck()
}

func (v *validator) entitiesCheck() {
	places := v.l.model.ents
	first := map[string]int{} // lower-cased name → index of its first definition
	for i := range v.m.Entities {
		e := &v.m.Entities[i]
		pl := places[i]
		d, p := pl.d, pl.path
		for _, t := range []string{strings.ToLower(e.Table), strings.ToLower(e.QualifiedName())} {
			if _, ok := v.tables[t]; !ok && t != "" {
				v.tables[t] = i
			}
		}
		if n := strings.ToLower(e.Name); n != "" {
			if _, ok := v.named[n]; !ok {
				v.named[n] = i
			}
		}
		if strings.TrimSpace(e.Name) == "" {
			v.errf(d, p, "entity without a name; add name: (the word people use, e.g. the table name)")
			continue
		}
		key := strings.ToLower(e.Name)
		if j, dup := first[key]; dup {
			hint := ""
			if places[j].file == ModelFile && pl.file != ModelFile {
				hint = " (or, if `quarry knowledge migrate` was stopped, run it again: it finishes)"
			}
			v.errf(d, pl.at("name"), "entity %q is defined twice, here and at %s; keep one%s", e.Name, places[j].where("name"), hint)
			continue
		}
		first[key] = i
		v.entities[key] = e
		v.names = append(v.names, e.Name)
		if len(e.Columns) == 0 {
			v.errf(d, pl.at("columns"), "entity %q lists no columns; list its columns (run `quarry learn` to fill them)", e.Name)
		}
		cols := make(map[string]bool, len(e.Columns))
		for j, c := range e.Columns {
			cp := pl.at(fmt.Sprintf("columns[%d]", j))
			if strings.TrimSpace(c.Name) == "" {
				v.errf(d, cp, "column without a name; add name:")
				continue
			}
			if cols[strings.ToLower(c.Name)] {
				v.errf(d, cp+".name", "column %q is listed twice in entity %q; keep one", c.Name, e.Name)
			}
			cols[strings.ToLower(c.Name)] = true
			if c.Type != "" && !oneOf(string(c.Type), validTypes) {
				v.errf(d, cp+".type", "unknown type %q%s; use one of: %s", c.Type, typeHint(string(c.Type)), strings.Join(validTypes, ", "))
			}
			if c.TimeRole != "" && !oneOf(c.TimeRole, timeRoles) {
				v.errf(d, cp+".time_role", "unknown time role %q; use one of: %s", c.TimeRole, strings.Join(timeRoles, ", "))
			}
		}
		for _, f := range []struct{ key, val string }{{"primary_key", e.PrimaryKey}, {"time_column", e.TimeColumn}, {"label", e.Label}} {
			if f.val != "" && len(e.Columns) > 0 && !cols[strings.ToLower(f.val)] {
				v.errf(d, pl.at(f.key), "unknown column %q in entity %q; known: %s", f.val, e.Name, knownList(f.val, columnNames(e)))
			}
		}
	}
	// Synonyms may be shared (the planner asks which one is meant) but an
	// entity synonym must not be another entity's name.
	for i, e := range v.m.Entities {
		for j, s := range e.Synonyms {
			if o, ok := v.entities[strings.ToLower(s)]; ok && o.Name != e.Name {
				v.errf(places[i].d, places[i].at(fmt.Sprintf("synonyms[%d]", j)), "synonym %q of entity %q is the name of entity %q; remove it from one of them", s, e.Name, o.Name)
			}
		}
	}
}

func columnNames(e *semantic.Entity) []string {
	out := make([]string, len(e.Columns))
	for i, c := range e.Columns {
		out[i] = c.Name
	}
	return out
}

func hasColumn(e *semantic.Entity, name string) bool {
	for _, c := range e.Columns {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}

// entity checks that name is a known entity and reports it otherwise.
func (v *validator) entity(d *decoder, path, name string) *semantic.Entity {
	if name == "" {
		v.errf(d, path, "missing; name an entity (known: %s)", knownList("", v.names))
		return nil
	}
	e := v.entities[strings.ToLower(name)]
	if e == nil {
		v.errf(d, path, "unknown entity %q; known: %s", name, knownList(name, v.names))
	}
	return e
}

// column checks entity.column.
func (v *validator) column(d *decoder, path string, e *semantic.Entity, col string) bool {
	if col == "" {
		v.errf(d, path, "missing; name a column of %q", e.Name)
		return false
	}
	if !hasColumn(e, col) {
		v.errf(d, path, "unknown column %q in entity %q; known: %s", col, e.Name, knownList(col, columnNames(e)))
		return false
	}
	return true
}

// exprRefs checks every entity.column reference of a SQL expression.
func (v *validator) exprRefs(d *decoder, path, expr string, allowRestricted bool) {
	for _, r := range qualifiedRefs(expr) {
		e := v.entities[strings.ToLower(r.entity)]
		if e == nil {
			v.errf(d, path, "unknown entity %q in %q; known: %s", r.entity, expr, knownList(r.entity, v.names))
			continue
		}
		if !hasColumn(e, r.column) {
			v.errf(d, path, "unknown column %s.%s; known columns of %s: %s", r.entity, r.column, e.Name, knownList(r.column, columnNames(e)))
			continue
		}
		if !allowRestricted && v.isRestricted(e, r.column) {
			v.errf(d, path, "uses restricted column %s.%s (policy.yaml); restricted columns cannot appear in metrics or dimensions", r.entity, r.column)
		}
	}
	if allowRestricted {
		return
	}
	// A bare name ("IS_VIP" = 1, [tier]) reads the column of that name of
	// whichever table the query puts first: one a restricted column has is
	// refused as a reference to it would be (found by an attacker: quoted
	// names passed, and only the guard refused them at question time).
	toks := sqlTokens(expr)
	for i, t := range toks {
		if !t.ident || i > 0 && toks[i-1].text == "." || i+1 < len(toks) && toks[i+1].text == "." {
			continue
		}
		for k := range v.m.Entities {
			e := &v.m.Entities[k]
			if hasColumn(e, t.text) && v.isRestricted(e, t.text) {
				v.errf(d, path, "names %s, a restricted column of %s (policy.yaml); restricted columns cannot appear in metrics or dimensions", t.text, e.Name)
				break
			}
		}
	}
}

func (v *validator) isRestricted(e *semantic.Entity, col string) bool {
	c := strings.ToLower(col)
	return v.restrict[strings.ToLower(e.Table)+"."+c] || v.restrict[strings.ToLower(e.Name)+"."+c]
}

func (v *validator) relationshipsCheck() {
	for i, r := range v.m.Relationships {
		d, p := v.l.model.rels[i].d, v.l.model.rels[i].path
		if from := v.entity(d, p+".from", r.From); from != nil {
			v.column(d, p+".from_column", from, r.FromColumn)
		}
		if to := v.entity(d, p+".to", r.To); to != nil {
			v.column(d, p+".to_column", to, r.ToColumn)
		}
		if !oneOf(string(r.Cardinality), validCardinalities) {
			v.errf(d, p+".cardinality", "unknown cardinality %q; use one of: %s", r.Cardinality, strings.Join(validCardinalities, ", "))
		}
		seen := map[string]bool{}
		for j, verb := range r.Verbs {
			vp := fmt.Sprintf("%s.verbs[%d]", p, j)
			words := strings.Fields(strings.ToLower(verb))
			switch {
			case len(words) == 0 || len(words) > 3 || !lettersOnly(words):
				v.errf(d, vp, "verb %q is not a verb of at most three words of letters, such as \"make\" or \"go through\"", verb)
			case seen[strings.Join(words, " ")]:
				v.errf(d, vp, "verb %q is listed twice", verb)
			}
			seen[strings.Join(words, " ")] = true
		}
	}
}

// lettersOnly reports whether every word is made of ASCII letters, with
// an apostrophe or a hyphen inside.
func lettersOnly(words []string) bool {
	for _, w := range words {
		for i, c := range w {
			if (c < 'a' || c > 'z') && (i == 0 || i == len(w)-1 || c != '-' && c != '\'') {
				return false
			}
		}
	}
	return true
}

func (v *validator) policyCheck() {
	for _, e := range v.rulesCheck("restricted", v.l.policy) {
		v.restrict[e] = true
	}
	for _, g := range v.l.groups {
		v.rulesCheck(yamlnode.JoinPath(yamlnode.JoinPath("groups", g.Name), "restricted"), g.Restricted)
	}
}

// rulesCheck checks restricted columns of policy.yaml listed at path, and
// returns each as "table.column" and "entity.column", lower case.
func (v *validator) rulesCheck(path string, rules []PolicyRule) []string {
	d := v.l.policyD
	seen := map[string]bool{}
	var out []string
	for i, r := range rules {
		p := fmt.Sprintf("%s[%d]", path, i)
		// The rule's table may hold a dot ("sales.orders.secret"): the
		// reading whose table and column are known is the one checked.
		readings := semantic.RestrictedReadings(r.Column)
		if len(readings) == 0 || readings[0][0] == "" || readings[0][1] == "" {
			v.errf(d, p+".column", "want table.column, found %q", r.Column)
			continue
		}
		t, c := readings[0][0], readings[0][1]
		for _, tc := range readings {
			ti, okT := v.tables[strings.ToLower(tc[0])]
			ni, okN := v.named[strings.ToLower(tc[0])]
			if okT && v.m.Entities[ti].Column(tc[1]) != nil || okN && v.m.Entities[ni].Column(tc[1]) != nil {
				t, c = tc[0], tc[1]
				break
			}
		}
		if strings.TrimSpace(r.Reason) == "" {
			v.errf(d, p+".reason", "missing; say why %s is restricted", r.Column)
		}
		var e *semantic.Entity
		ti, okT := v.tables[strings.ToLower(t)]
		ni, okN := v.named[strings.ToLower(t)]
		switch {
		case okT && (!okN || ti < ni):
			e = &v.m.Entities[ti]
		case okN:
			e = &v.m.Entities[ni]
		}
		if e == nil {
			v.errf(d, p+".column", "unknown table %q; known: %s", t, knownList(t, v.names))
			continue
		}
		if !v.column(d, p+".column", e, c) {
			continue
		}
		key := strings.ToLower(r.Column)
		if seen[key] {
			v.errf(d, p+".column", "%s is listed twice; keep one", r.Column)
		}
		seen[key] = true
		out = append(out, strings.ToLower(e.Table)+"."+strings.ToLower(c), strings.ToLower(e.Name)+"."+strings.ToLower(c))
	}
	return out
}

func (v *validator) metricsCheck() {
	d := v.l.metrics.d
	for i := range v.m.Metrics {
		m := &v.m.Metrics[i]
		key := strings.ToLower(m.Name)
		if _, dup := v.metrics[key]; dup {
			v.errf(d, fmt.Sprintf("metrics[%d].name", i), "metric %q is defined twice; keep one", m.Name)
			continue
		}
		if key != "" {
			v.metrics[key] = m
		}
	}
	var names []string
	for _, m := range v.m.Metrics {
		names = append(names, m.Name)
	}
	for i := range v.m.Metrics {
		v.metric(d, fmt.Sprintf("metrics[%d]", i), &v.m.Metrics[i], names, false)
	}
	v.cycles(d)
	for i := range v.l.metrics.Candidates {
		c := &v.l.metrics.Candidates[i]
		p := fmt.Sprintf("%s[%d]", candidateKey, i)
		if c.Derived != "" {
			v.errf(d, p+".derived", "candidates are plain measures; move derived metrics to metrics:")
			continue
		}
		v.metric(d, p, c, names, true)
	}
}

// metric checks one metric; candidates may name restricted columns (they
// are dropped from the folder instead, see usableCandidates).
func (v *validator) metric(d *decoder, p string, m *semantic.Metric, names []string, candidate bool) {
	if strings.TrimSpace(m.Name) == "" {
		v.errf(d, p, "metric without a name; add name:")
		return
	}
	switch {
	case m.Expr != "" && m.Derived != "":
		v.errf(d, p+".derived", "metric %q has both expr and derived; keep one", m.Name)
	case m.Expr == "" && m.Derived == "":
		v.errf(d, p, "metric %q needs expr (an aggregate such as SUM(orders.amount)) or derived (such as {revenue} / {orders})", m.Name)
	}
	if m.Expr != "" || m.Entity != "" {
		v.entity(d, p+".entity", m.Entity)
	}
	if m.Expr != "" {
		v.exprRefs(d, p+".expr", m.Expr, candidate)
	}
	for j, f := range m.Filters {
		v.exprRefs(d, fmt.Sprintf("%s.filters[%d]", p, j), f, candidate)
	}
	if m.Derived != "" {
		refs := derivedRef.FindAllStringSubmatch(m.Derived, -1)
		if len(refs) == 0 {
			v.errf(d, p+".derived", "refers to no metric; write other metrics in braces, e.g. {revenue} / {orders}")
		}
		for _, r := range refs {
			if v.metrics[strings.ToLower(strings.TrimSpace(r[1]))] == nil {
				v.errf(d, p+".derived", "unknown metric %q; known: %s", r[1], knownList(r[1], names))
			}
		}
	}
	if m.Time != "" {
		ent, col, ok := strings.Cut(m.Time, ".")
		if !ok {
			v.errf(d, p+".time", "want entity.column, found %q", m.Time)
		} else if te := v.entity(d, p+".time", ent); te != nil {
			v.column(d, p+".time", te, col)
		}
	}
	if m.Better != "" && m.Better != "higher" && m.Better != "lower" {
		v.errf(d, p+".better", "better must be higher or lower (which way the measure is good), not %q", m.Better)
	}
	if m.Format != "" && !oneOf(m.Format, validFormats) {
		v.errf(d, p+".format", "unknown format %q%s; use one of: %s", m.Format, didYouMean(m.Format, validFormats), strings.Join(validFormats, ", "))
	}
}

// cycles reports derived metrics that refer to themselves, directly or not.
func (v *validator) cycles(d *decoder) {
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(name string) bool
	visit = func(name string) bool {
		switch state[name] {
		case 1:
			return true
		case 2:
			return false
		}
		state[name] = 1
		if m := v.metrics[name]; m != nil {
			for _, r := range derivedRef.FindAllStringSubmatch(m.Derived, -1) {
				if visit(strings.ToLower(strings.TrimSpace(r[1]))) {
					return true
				}
			}
		}
		state[name] = 2
		return false
	}
	for i, m := range v.m.Metrics {
		if m.Derived == "" {
			continue
		}
		for k := range state {
			delete(state, k)
		}
		if visit(strings.ToLower(m.Name)) {
			v.errf(d, fmt.Sprintf("metrics[%d].derived", i), "metric %q refers to itself through derived metrics; break the cycle", m.Name)
		}
	}
}

func (v *validator) dimensionsCheck() {
	d := v.l.metrics.d
	seen := map[string]bool{}
	for i, x := range v.m.Dimensions {
		p := fmt.Sprintf("dimensions[%d]", i)
		if strings.TrimSpace(x.Name) == "" {
			v.errf(d, p, "dimension without a name; add name:")
			continue
		}
		key := strings.ToLower(x.Name)
		if seen[key] {
			v.errf(d, p+".name", "dimension %q is defined twice; keep one", x.Name)
		}
		seen[key] = true
		if v.metrics[key] != nil {
			v.errf(d, p+".name", "%q is both a metric and a dimension; rename one", x.Name)
		}
		v.entity(d, p+".entity", x.Entity)
		if strings.TrimSpace(x.Expr) == "" {
			v.errf(d, p+".expr", "missing; write the column or expression, e.g. %s.country", x.Entity)
		} else {
			v.exprRefs(d, p+".expr", x.Expr, false)
		}
		if x.Type != "" && !oneOf(x.Type, validDimTypes) {
			v.errf(d, p+".type", "unknown type %q%s; use one of: %s", x.Type, didYouMean(x.Type, validDimTypes), strings.Join(validDimTypes, ", "))
		}
		if len(x.Grains) > 0 && x.Type != "time" {
			v.errf(d, p+".grains", "grains apply to time dimensions only; add type: time or remove grains")
		}
		for j, g := range x.Grains {
			if !oneOf(string(g), validGrains) {
				v.errf(d, fmt.Sprintf("%s.grains[%d]", p, j), "unknown grain %q; use one of: %s", g, strings.Join(validGrains, ", "))
			}
		}
	}
}

func (v *validator) examplesCheck() {
	for _, d := range v.l.exD {
		i := 0
		for _, q := range v.l.examples {
			if q.File != d.File {
				continue
			}
			p := fmt.Sprintf("[%d]", i)
			i++
			if strings.TrimSpace(q.Question) == "" {
				v.errf(d, p+".question", "missing; write the question this SQL answers")
			}
			if strings.TrimSpace(q.SQL) == "" {
				v.errf(d, p+".sql", "missing; write the SQL that answers the question")
			} else if col := v.restrictedRead(q.SQL); col != "" {
				v.errf(d, p+".sql", "reads restricted column %s (policy.yaml); restricted columns cannot appear in verified queries, which the guard would refuse and whose text reaches a model — leave the column out, or move the query to examples/_pending/", col)
			}
			if strings.TrimSpace(q.VerifiedBy) == "" {
				v.errf(d, p+".verified_by", "missing; say who checked this query (move unchecked ones to examples/_pending/)")
			}
			if _, err := time.Parse(time.DateOnly, q.VerifiedAt); err != nil {
				v.errf(d, p+".verified_at", "want a date YYYY-MM-DD, found %q", q.VerifiedAt)
			}
		}
	}
}

// typeHint suggests quarry's name for a database type name.
func typeHint(t string) string {
	if q := quarryType(t, ""); q != quarry.TypeUnknown {
		return fmt.Sprintf(" (did you mean %q?)", q)
	}
	return didYouMean(t, validTypes)
}

// usableCandidates leaves out candidate measures over restricted columns:
// a person restricted the column after learn suggested the measure.
func (v *validator) usableCandidates(cands []semantic.Metric) []semantic.Metric {
	var out []semantic.Metric
	for _, c := range cands {
		ok := true
		for _, r := range qualifiedRefs(c.Expr) {
			if e := v.entities[strings.ToLower(r.entity)]; e != nil && v.isRestricted(e, r.column) {
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}
