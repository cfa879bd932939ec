package quarry

// Privacy is a connection's privacy tier: what of its data may reach a
// language model. The user's own view (CLI, web, API) is never restricted
// by it; only what quarry sends to a model is.
type Privacy string

// The privacy tiers.
const (
	// PrivacyFull sends the model previews of results (limits.preview_rows),
	// as quarry always did.
	PrivacyFull Privacy = "full"
	// PrivacyAggregates sends the model a result only when the query
	// aggregates and every group stands on at least MinGroupSize rows of
	// every table it reads; anything else is withheld.
	PrivacyAggregates Privacy = "aggregates-only"
	// PrivacySchema sends the model no value that came from a row: results
	// reach it as their shape (columns, types, row count) only.
	PrivacySchema Privacy = "schema-only"
)

// DefaultMinGroupSize is the smallest group an aggregates-only connection
// lets the model see.
const DefaultMinGroupSize = 5

// Privacies lists the tiers, most open first.
func Privacies() []Privacy { return []Privacy{PrivacyFull, PrivacyAggregates, PrivacySchema} }

// Valid reports whether p is one of the tiers.
func (p Privacy) Valid() bool {
	switch p {
	case PrivacyFull, PrivacyAggregates, PrivacySchema:
		return true
	}
	return false
}

// Or returns p, or PrivacyFull when p is empty.
func (p Privacy) Or() Privacy {
	if p == "" {
		return PrivacyFull
	}
	return p
}
