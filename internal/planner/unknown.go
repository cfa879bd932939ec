package planner

import (
	"fmt"
	"time"
)

// notKnown is the reason a question with words quarry does not know is
// refused. A word that asks for a forecast ("forecast revenue for Q3",
// "projected orders"), unknown to the knowledge, says that quarry does not
// forecast, as a period after today does, rather than only that the word
// is not a term.
func notKnown(st *state) string {
	for _, w := range st.unknown {
		if forecastWord().MatchString(w) {
			why := fmt.Sprintf("%q asks for a forecast: quarry reports what has happened, it does not forecast", w)
			if !st.asOf.IsZero() {
				why += "; ask about a period up to " + st.asOf.Format(time.DateOnly)
			}
			return why
		}
	}
	return "some words of the question are not terms quarry knows"
}

// forecastWord matches a word that asks for a forecast.
var forecastWord = lazyRE(`(?i)^(?:forecast(?:s|ed|ing)?|predict(?:s|ed|ion|ions)?|projected|projections?|extrapolat(?:e|ed|ion))$`)
