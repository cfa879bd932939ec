package analyst

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// currencyQuestion asks which currency a total, average, largest or
// smallest amount is wanted in where its rows hold several and the
// question keeps to none: a sum of dollars and euros is no figure, and
// a warning under it is read too late (found from outside: "total
// invoiced last year" added USD, EUR and GBP at confidence 0.8, and the
// figure was taken as dollars). The options are the question in each
// currency and by the currency column, each planned again to check that
// it keeps to one; with fewer than two such options, none is asked and
// the currencies_mixed check warns as before.
func (a *Analyst) currencyQuestion(ctx context.Context, k *Knowledge, question string, asOf time.Time, m *semantic.Model, pl *planner.Plan) (string, []string) {
	ref, kinds := mixedCurrencies(m, pl.Query)
	if ref == "" {
		return "", nil
	}
	_, col, _ := strings.Cut(ref, ".")
	base := strings.TrimRight(strings.TrimSpace(question), "?.! ")
	const most = 5
	var opts []string
	for _, kind := range kinds {
		if len(opts) == most {
			break
		}
		if o := base + " in " + kind; a.oneCurrency(ctx, k, o, asOf) {
			opts = append(opts, o)
		}
	}
	if o := base + " by " + fieldWords(col); a.oneCurrency(ctx, k, o, asOf) {
		opts = append(opts, o)
	}
	if len(opts) < 2 {
		return "", nil
	}
	return fmt.Sprintf("The amounts are in %d currencies (%s), which quarry does not convert: in which one, or for each %s?", len(kinds), strings.Join(kinds, ", "), fieldWords(col)), opts
}

// oneCurrency reports whether question, planned, is answered by a query
// that keeps to one currency or groups by it.
func (a *Analyst) oneCurrency(ctx context.Context, k *Knowledge, question string, asOf time.Time) bool {
	pl, _, err := k.Plan(ctx, question, asOf)
	if err != nil || pl.Query == nil || (pl.Kind != planner.KindMetric && pl.Kind != planner.KindRows) {
		return false
	}
	ref, _ := mixedCurrencies(k.modelOf(pl), pl.Query)
	return ref == ""
}
