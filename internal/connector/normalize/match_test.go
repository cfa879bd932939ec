package normalize

import (
	"regexp"
	"testing"
)

// The patterns kindOf matches by hand, as regular expressions.
var (
	intPattern  = regexp.MustCompile(`^[+-]?\d+$`)
	decPattern  = regexp.MustCompile(`^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$`)
	datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	tsPattern   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?| ?UTC)?$`)
)

func matchesLikePatterns(t *testing.T, s string) {
	t.Helper()
	for _, m := range []struct {
		name string
		re   *regexp.Regexp
		f    func(string) bool
	}{{"isInt", intPattern, isInt}, {"isDec", decPattern, isDec}, {"isDate", datePattern, isDate}, {"isTimestamp", tsPattern, isTimestamp}} {
		if got, want := m.f(s), m.re.MatchString(s); got != want {
			t.Errorf("%s(%q) = %v, the expression says %v", m.name, s, got, want)
		}
	}
}

func TestMatchersAreThePatterns(t *testing.T) {
	for _, s := range []string{
		"", "+", "-", "0", "-12", "+7", "12a", "1.", ".5", ".", "-.5e3", "1e", "1e+", "1E-7", "1.2.3", "٣", "1_000",
		"2024-01-02", "2024-1-02", "2024-01-02 ", "2024-01-02T03:04", "2024-01-02 03:04:05", "2024-01-02 03:04:05.123456789",
		"2024-01-02 03:04:05.1234567890", "2024-01-02 03:04:05.", "2024-01-02T03:04Z", "2024-01-02T03:04:05+05", "2024-01-02T03:04:05+0530",
		"2024-01-02T03:04:05-05:30", "2024-01-02T03:04:05+05:3", "2024-01-02T03:04:05+053", "2024-01-02 03:04 UTC", "2024-01-02 03:04UTC",
		"2024-01-02 03:04  UTC", "2024-01-02 03:04:5", "2024-01-02x03:04", "2024-01-02 03:04:05Z ", "true", "customer 42",
	} {
		matchesLikePatterns(t, s)
	}
}

func FuzzMatchersAreThePatterns(f *testing.F) {
	f.Add("2024-01-02T03:04:05.5+05:30")
	f.Add("-1.5e+10")
	f.Fuzz(func(t *testing.T, s string) { matchesLikePatterns(t, s) })
}
