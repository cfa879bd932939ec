package planner

// valueTable chooses among columns of several tables the one of the table
// the question's values belong to: "the region and population of Angola",
// where Angola is a country's name, is the country's population, not a
// city's; "Kyle's id" is the key of the row Kyle names. Only when every
// value belongs to one table, exactly one column's table is among them,
// that column is not a reference to another table's rows, and no other
// word names the table of another candidate ("the population of cities
// in Angola").
func (b *builder) valueTable(t *term, keep []sense) []sense {
	vals := map[string]bool{}
	for _, u := range b.st.terms {
		if u == t || !valuesOnly(u.cands) {
			continue
		}
		e, _ := b.termTable(u)
		if e == "" {
			return nil // a value of several tables: asked about first
		}
		vals[lower(e)] = true
	}
	if len(vals) == 0 {
		return nil
	}
	var out []sense
	others := map[string]bool{}
	for _, s := range keep {
		if vals[lower(s.entity)] {
			out = append(out, s)
		} else {
			others[lower(s.entity)] = true
		}
	}
	fields := map[string]bool{}
	for _, s := range out {
		fields[s.field] = true
	}
	if len(fields) != 1 {
		return nil
	}
	if out[0].key && !b.isPK(out[0]) {
		// "the document id with paragraph text Brazil": a reference to
		// another table's rows, which may be those asked about.
		return nil
	}
	for _, u := range b.st.terms {
		if u == t {
			continue
		}
		for _, s := range u.cands {
			e := s.entity
			if s.kind == sEntity {
				e = s.name
			}
			if others[lower(e)] {
				return nil // "cities in Angola": the other table is named
			}
		}
	}
	return out
}
