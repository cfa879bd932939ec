package schedule

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text      string
		cron      string
		firstOnly bool
	}{
		{"0 9 * * 1", "0 9 * * 1", false},
		{"@daily", "@daily", false},
		{"every Monday at 9", "0 9 * * 1", false},
		{"Every monday at 9am.", "0 9 * * 1", false},
		{"mondays at 09:30", "30 9 * * 1", false},
		{"every Monday and Thursday at 5pm", "0 17 * * 1,4", false},
		{"every mon, wed and fri at 8:15 am", "15 8 * * 1,3,5", false},
		{"at noon every weekday", "0 12 * * 1-5", false},
		{"weekdays at 7", "0 7 * * 1-5", false},
		{"every weekend at midnight", "0 0 * * 0,6", false},
		{"hourly", "0 * * * *", false},
		{"hourly on weekdays", "0 * * * 1-5", false},
		{"every hour on Saturday and Sunday", "0 * * * 0,6", false},
		{"every 15 minutes", "*/15 * * * *", false},
		{"every 6 hours", "0 */6 * * *", false},
		{"daily", "0 0 * * *", false},
		{"every day at 6", "0 6 * * *", false},
		{"weekly", "0 0 * * 1", false},
		{"every week on Friday at 16:00", "0 16 * * 5", false},
		{"monthly", "0 0 1 * *", false},
		{"every month on the 15th at 9", "0 9 15 * *", false},
		{"the 2nd of every month", "0 0 2 * *", false},
		{"on the 1st day of the month at 9", "0 9 1 * *", false},
		{"first business day of the month", "0 0 * * 1-5", true},
		{"the first working day of each month at 9", "0 9 * * 1-5", true},
		{"first weekday of the month at 8am", "0 8 * * 1-5", true},
	}
	for _, tt := range tests {
		s, err := Parse(tt.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.text, err)
			continue
		}
		if s.Cron != tt.cron || s.FirstOnly != tt.firstOnly {
			t.Errorf("Parse(%q) = %q first-only %v, want %q %v", tt.text, s.Cron, s.FirstOnly, tt.cron, tt.firstOnly)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, text := range []string{
		"", "sometimes", "every other Tuesday", "every Monday at 25", "every Monday at 13pm",
		"every Monday at 9 at 10", "hourly at 9", "every 7 minutes", "every 5 hours",
		"the 31st of every month", "every 2 weeks", "every Monday and", "every Monday and Monday",
		"daily on weekdays", "last business day of the month", "61 * * * *", "every day at 9:5",
		"first business day", "monthly on the 30th",
	} {
		if s, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) = %q, want an error", text, s.Cron)
		}
	}
}

func TestParseRefusesNeverOrTooOften(t *testing.T) {
	tests := []struct{ text, want string }{
		{"0 9 31 2 *", "never fires"},
		{"0 9 30 2 *", "never fires"},
		{"@every 1ms", "at least 1m"},
		{"@every 0s", "at least 1m"},
		{"@every -5m", "at least 1m"},
		{"@every 59s", "at least 1m"},
		{"@every soon", "cannot read"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.text)
		if err == nil {
			t.Errorf("Parse(%q) = %q, want an error", tt.text, s.Cron)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
			t.Errorf("Parse(%q): %q, want one line saying %q", tt.text, msg, tt.want)
		}
	}
	for _, ok := range []string{"@every 1m", "@every 2h", "0 9 29 2 *", "@yearly"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
}

func TestNext(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct{ text, from, want string }{
		{"every Monday at 9", "2026-06-30 10:00", "2026-07-06 09:00"},
		{"hourly on weekdays", "2026-07-03 23:30", "2026-07-06 00:00"},
		// August 2026 starts on a Saturday: its first business day is Monday the 3rd.
		{"first business day of the month at 9", "2026-07-01 10:00", "2026-08-03 09:00"},
		{"first business day of the month at 9", "2026-07-31 10:00", "2026-08-03 09:00"},
		{"first business day of the month at 9", "2026-08-03 09:00", "2026-09-01 09:00"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Next(utc(tt.from)); !got.Equal(utc(tt.want)) {
			t.Errorf("%q after %s = %s, want %s", tt.text, tt.from, got.Format("2006-01-02 15:04"), tt.want)
		}
	}
}

func TestRefusalListsForms(t *testing.T) {
	_, err := Parse("every other Tuesday")
	if err == nil || !strings.Contains(err.Error(), "every DAY") {
		t.Fatalf("error %v does not list the accepted forms", err)
	}
}

// FuzzParsePlain checks that the plain-language reader never panics, that
// what it accepts is a valid cron expression that reads back to the same
// schedule, and that the schedule moves forward.
func FuzzParsePlain(f *testing.F) {
	for _, s := range []string{"every Monday at 9", "hourly on weekdays", "first business day of the month",
		"the 15th of every month at 5:30pm", "every 15 minutes", "every mon, wed and fri", "at noon daily", "weekly on sunday"} {
		f.Add(s)
	}
	from := time.Date(2026, 6, 30, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParsePlain(text)
		if err != nil {
			return
		}
		again, err := Parse(s.Cron)
		if err != nil {
			t.Fatalf("%q read as %q, which does not parse: %v", text, s.Cron, err)
		}
		if again.Cron != s.Cron {
			t.Fatalf("%q read as %q, read back as %q", text, s.Cron, again.Cron)
		}
		if n := s.Next(from); !n.After(from) {
			t.Fatalf("%q (%s): next after %s is %s", text, s.Cron, from, n)
		}
	})
}
