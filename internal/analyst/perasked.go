package analyst

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
)

// perFailRE is the question_coverage failure of a figure by a table
// asked "per" it (verify's perEntity), and of nothing else.
var perFailRE = regexp.MustCompile(`^the query ignores what the question says: "per ([^";]+)" may mean the average per `)

// perWordRE finds "per" and the word after it.
var perWordRE = regexp.MustCompile(`(?i)\bper ([a-z][a-z_-]*)`)

// perQuestion asks back a question whose only fault is that "per driver"
// may mean each driver's figure or the average per driver: the options
// are the question with "by driver", and with "average" before it, those
// the planner answers (found from outside: "delivery attempts per driver
// last month" refused, though "by driver" was answered). "" and nil
// where the failure is another, or no option answers.
func (a *Analyst) perQuestion(ctx context.Context, k *Knowledge, question, failure string, asOf time.Time) (string, []string) {
	m := perFailRE.FindStringSubmatch(failure)
	if m == nil {
		return "", nil
	}
	word := m[1]
	if failure != m[0]+fmt.Sprintf("%s, but the query gives each %s's figure; ask for the average per %s, or for the figure by %s", word, word, word, word) {
		return "", nil // something else is left out too
	}
	base := strings.TrimRight(strings.TrimSpace(question), "?.! ")
	i := strings.Index(strings.ToLower(base), "per "+word)
	if i < 0 {
		// The question's word for the table the check names ("per
		// fundraiser", read as the staff a donation's fundraiser_id
		// names: found from outside, refused with "per staff"), where
		// it says "per" once.
		at := perWordRE.FindAllStringSubmatchIndex(base, -1)
		if len(at) != 1 {
			return "", nil
		}
		i, word = at[0][0], base[at[0][2]:at[0][3]]
	}
	cands := []string{base[:i] + "by " + base[i+len("per "):]}
	if low := strings.ToLower(base); !strings.HasPrefix(low, "average ") && !strings.Contains(low, " average ") {
		cands = append(cands, "average "+strings.ToLower(base[:1])+base[1:])
	}
	var opts []string
	for _, c := range cands {
		if pl, _, err := k.Plan(ctx, c, asOf); err == nil && pl != nil && pl.Kind == planner.KindMetric {
			opts = append(opts, c)
		}
	}
	if len(opts) == 0 {
		return "", nil
	}
	return fmt.Sprintf("“Per %s”: each %s's figure, or the average per %s?", word, word, word), opts
}
