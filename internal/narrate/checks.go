package narrate

import (
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/verify"
)

// Status symbols of checks.
const (
	SymbolPass = "✓"
	SymbolWarn = "⚠"
	SymbolFail = "✗"
)

func symbol(status string) string {
	switch status {
	case verify.Pass:
		return SymbolPass
	case verify.Warn:
		return SymbolWarn
	}
	return SymbolFail
}

// checksBlock is the checks line, one bullet per warning or failure, and
// the confidence.
func checksBlock(r verify.Report, asOf string) string {
	var b strings.Builder
	if len(r.Checks) == 0 {
		// no checks ran, so there is no confidence to state
		b.WriteString("Checks: none ran.\n")
		if asOf != "" {
			b.WriteString("\nAs of " + asOf + ".\n")
		}
		return b.String()
	}
	parts := make([]string, len(r.Checks))
	for i, c := range r.Checks {
		parts[i] = symbol(c.Status) + " " + c.Name
	}
	b.WriteString("Checks: " + strings.Join(parts, " · ") + "\n")
	for _, c := range r.Checks {
		if c.Status != verify.Pass {
			b.WriteString("- " + symbol(c.Status) + " " + c.Name + ": " + c.Detail + "\n")
		}
	}
	b.WriteString("\nConfidence: " + strconv.FormatFloat(r.Confidence, 'f', 2, 64))
	if asOf != "" {
		b.WriteString(" · as of " + asOf)
	}
	b.WriteString("\n")
	return b.String()
}
