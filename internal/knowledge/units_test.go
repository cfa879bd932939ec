package knowledge

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestUnitOfName: a numeric column's name ending in a unit gives the unit
// and, from the rest, another name; text columns, aggregation words and
// a rest that is another column's name give none.
func TestUnitOfName(t *testing.T) {
	num := func(n string) quarry.ColumnInfo { return quarry.ColumnInfo{Name: n, Type: quarry.TypeFloat} }
	for _, tt := range []struct {
		c         quarry.ColumnInfo
		others    []string
		unit, syn string
	}{
		{num("AmountUSD"), nil, "USD", "amount"},
		{num("discount_pct"), nil, "percent", "discount"},
		{num("duration_mins"), nil, "minutes", "duration"},
		{num("unit_price_eur"), nil, "EUR", "unit price"},
		{num("total_usd"), nil, "USD", ""},
		{num("amount_usd"), []string{"amount"}, "USD", ""},
		{num("usd"), nil, "", ""},
		{num("price"), nil, "", ""},
		{quarry.ColumnInfo{Name: "currency_usd", Type: quarry.TypeText}, nil, "", ""},
	} {
		if unit, syn := unitOfName(tt.c, tt.others); unit != tt.unit || syn != tt.syn {
			t.Errorf("%s: %q %q, want %q %q", tt.c.Name, unit, syn, tt.unit, tt.syn)
		}
	}
}
