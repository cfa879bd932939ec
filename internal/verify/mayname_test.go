package verify

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMayNameWithoutBuilding: the prefilters that read a name without
// building it answer as mayName of the built name (mayNameOf,
// maySplitName), or rule out only what it rules out (maySingular), on
// names of every shape.
func TestMayNameWithoutBuilding(t *testing.T) {
	c := newCover("Show the order dates by stadium and companies for each ABTest, the boys' e-mail; city_name x.y", &semantic.Model{}, &semantic.Query{})
	names := []string{"", "y", "OrderDate", "order_date", "orderDate", "ABTest", "Stadiums", "companies", "boys", "e-mail", "E_Mail",
		"city_name", "City  Name", "x.y", "X.Y", "__a__", "a__b", "Ünïcode", "café_bar", "IDs", "order\tdate", "by", "stadium", "Company", "S", "ss"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcdeimnorstyABCDEOSTY_-. \t"
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		names = append(names, b.String())
	}
	for _, a := range names {
		if got, want := c.maySplitName(a), c.mayName(strings.Join(splitName(a), " ")); got != want {
			t.Errorf("maySplitName(%q) = %v, mayName of its words %v", a, got, want)
		}
		if c.mayName(strings.ToLower(Singular(strings.Join(splitName(a), " ")))) && !c.maySingular(a) {
			t.Errorf("maySingular(%q) rules out a name mayName keeps", a)
		}
		for _, b := range names[:40] {
			if got, want := c.mayNameOf(a, ".", b), c.mayName(a+"."+b); got != want {
				t.Errorf("mayNameOf(%q, %q) = %v, mayName %v", a, b, got, want)
			}
		}
	}
}
