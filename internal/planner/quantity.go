package planner

// flowQuantity reports whether column s counts the units each row moved
// (the quantity of an order line), which add up across rows as money
// does: "order lines quantity by product" is the total quantity (found
// from outside: refused). Hours are not: "resolution hours by agent" is
// as likely their average as their total. A level held at a time
// (stock on hand, a balance, a capacity) or a row of a table of such
// snapshots, or of rows that each hold for a period, does not add up
// across rows, and is not one.
func (p *Planner) flowQuantity(s sense) bool {
	if s.kind != sColumn || !s.numeric || s.key || p.m.IsRestricted(s.entity, s.column) {
		return false
	}
	flow := false
	for _, w := range nameWords(s.column) {
		switch w {
		case "qty", "quantity", "units":
			flow = true
		case "stock", "hand", "available", "level", "remaining", "balance", "capacity", "reorder", "min", "max", "limit", "target":
			return false
		}
	}
	if !flow {
		return false
	}
	for _, w := range words(s.entity) {
		switch singular(w) {
		case "snapshot", "inventory", "stock", "level", "balance":
			return false
		}
	}
	// Rows that each hold for a period (a subscription's seats) are
	// not events either.
	return p.entity(s.entity) != nil && p.validUntil(s.entity) == ""
}
