package verify

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// nameBesideKey is the entity whose rows a grouping names beside their key
// where no one column names them: its first or last name
// (semantic.NameParts), with its key among the query's groupings. Such a
// grouping splits no group and names what the question asks for ("top 5
// customers by spend" by each customer, shown by name); "" otherwise.
func (c *cover) nameBesideKey(d semantic.DimRef) string {
	ent, col, ok := c.m.SplitField(d.Name)
	if !ok || d.Grain != "" {
		return ""
	}
	e := c.m.Entity(ent)
	if e == nil || e.Label != "" || e.PrimaryKey == "" {
		return ""
	}
	first, last := semantic.NameParts(e)
	if first == "" || !strings.EqualFold(col, first) && !strings.EqualFold(col, last) {
		return ""
	}
	if !slices.ContainsFunc(c.q.Dimensions, func(k semantic.DimRef) bool {
		ke, kc, ok := c.m.SplitField(k.Name)
		return ok && strings.EqualFold(ke, e.Name) && strings.EqualFold(kc, e.PrimaryKey)
	}) {
		return ""
	}
	return Singular(strings.Join(splitName(e.Name), " "))
}
