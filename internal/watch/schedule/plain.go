package schedule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Phrases lists the plain-language forms ParsePlain reads, for messages
// and the documentation.
func Phrases() []string {
	return []string{
		"hourly | every hour [on weekdays | on weekends | on DAYS]",
		"every N minutes | every N hours [on …] (N divides the hour or the day)",
		"daily | every day [at TIME]",
		"every weekday | weekdays | every weekend [at TIME]",
		"every DAY [and DAY …] [at TIME] (Monday … Sunday)",
		"weekly | every week [on DAY] [at TIME] (Monday when no day is named)",
		"monthly | every month [on the Nth] [at TIME] (the 1st when none is named)",
		"the Nth of every month [at TIME] (N from 1 to 28)",
		"first business day of the month [at TIME]",
	}
}

// TIME is 9, 9am, 9:30, 09:30, 5pm, 5:15 pm, noon or midnight; without a
// time a schedule runs at midnight.

// ParsePlain reads a plain-language schedule. It accepts only the forms
// in Phrases, without regard to case, and refuses anything else ("every
// other Tuesday", "at 9 somewhere") with a message that lists them.
func ParsePlain(text string) (Schedule, error) {
	toks := tokens(text)
	if len(toks) == 0 {
		return Schedule{}, quarry.Errorf(quarry.KindInput, "the schedule is empty; write a cron expression (\"0 9 * * 1\") or a phrase (\"every Monday at 9\")")
	}
	toks, at, err := takeTime(toks)
	if err != nil {
		return Schedule{}, err
	}
	p := &phrase{toks: toks, at: at}
	expr, firstOnly, ok, err := p.read()
	if err != nil {
		return Schedule{}, err
	}
	if !ok {
		return Schedule{}, quarry.Errorf(quarry.KindInput, "cannot read the schedule %q exactly; write a cron expression (\"0 9 * * 1\") or one of: %s", strings.TrimSpace(text), strings.Join(Phrases(), "; "))
	}
	return fromCron(text, expr, firstOnly)
}

// tokens lowercases text and splits it into words; commas are words of
// their own and a final full stop is dropped.
func tokens(text string) []string {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.TrimSuffix(t, ".")
	t = strings.ReplaceAll(t, ",", " , ")
	return strings.Fields(t)
}

// clock is a time of day.
type clock struct {
	set          bool
	hour, minute int
}

// takeTime removes "at TIME" from toks and returns the time read.
func takeTime(toks []string) ([]string, clock, error) {
	var out []string
	var c clock
	for i := 0; i < len(toks); i++ {
		if toks[i] != "at" {
			out = append(out, toks[i])
			continue
		}
		if c.set {
			return nil, c, quarry.Errorf(quarry.KindInput, "the schedule names two times; keep one \"at …\"")
		}
		if i+1 >= len(toks) {
			return nil, c, quarry.Errorf(quarry.KindInput, "\"at\" needs a time: at 9, at 9:30, at 5pm, at noon")
		}
		word, n := toks[i+1], 1
		if i+2 < len(toks) && (toks[i+2] == "am" || toks[i+2] == "pm") {
			word, n = word+toks[i+2], 2
		}
		h, m, ok := readClock(word)
		if !ok {
			return nil, c, quarry.Errorf(quarry.KindInput, "cannot read the time %q; write at 9, at 09:30, at 5pm, at 5:15pm, at noon or at midnight", word)
		}
		c = clock{set: true, hour: h, minute: m}
		i += n
	}
	return out, c, nil
}

// readClock reads 9, 09:30, 9am, 5:15pm, noon, midnight.
func readClock(w string) (hour, minute int, ok bool) {
	switch w {
	case "noon", "midday":
		return 12, 0, true
	case "midnight":
		return 0, 0, true
	}
	suffix := ""
	if strings.HasSuffix(w, "am") || strings.HasSuffix(w, "pm") {
		suffix, w = w[len(w)-2:], w[:len(w)-2]
	}
	hs, ms, hasMin := strings.Cut(w, ":")
	h, ok := number(hs, 2)
	if !ok {
		return 0, 0, false
	}
	m := 0
	if hasMin {
		if len(ms) != 2 {
			return 0, 0, false
		}
		if m, ok = number(ms, 2); !ok || m > 59 {
			return 0, 0, false
		}
	}
	switch suffix {
	case "":
		if h > 23 {
			return 0, 0, false
		}
	default:
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		h %= 12
		if suffix == "pm" {
			h += 12
		}
	}
	return h, m, true
}

// number reads 1 to max digits as a number.
func number(s string, max int) (int, bool) {
	if s == "" || len(s) > max {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// phrase is the words of a schedule without its time.
type phrase struct {
	toks []string
	i    int
	at   clock
}

func (p *phrase) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

// eat consumes the next word when it is one of words.
func (p *phrase) eat(words ...string) bool {
	for _, w := range words {
		if p.peek() == w {
			p.i++
			return true
		}
	}
	return false
}

func (p *phrase) done() bool { return p.i == len(p.toks) }

// read matches the whole phrase; ok is false when no form fits.
func (p *phrase) read() (expr string, firstOnly, ok bool, err error) {
	p.eat("every", "each", "on")
	switch {
	case p.eat("hourly", "hour"):
		return p.hourly(1, "hour")
	case p.peek() != "" && isDigits(p.peek()):
		n, _ := strconv.Atoi(p.toks[p.i])
		p.i++
		switch {
		case p.eat("minutes", "minute"):
			return p.everyMinutes(n)
		case p.eat("hours", "hour"):
			return p.hourly(n, "hours")
		}
		return "", false, false, nil
	case p.eat("daily") || p.eat("day"):
		if !p.done() {
			return "", false, false, nil
		}
		return p.atDays("*", "*"), false, true, nil
	case p.eat("weekly") || p.eat("week"):
		dow := "1"
		if p.eat("on") {
			d, ok := p.days()
			if !ok {
				return "", false, false, nil
			}
			dow = d
		}
		if !p.done() {
			return "", false, false, nil
		}
		return p.atDays("*", dow), false, true, nil
	case p.eat("monthly") || p.eat("month"):
		dom := "1"
		if p.eat("on") {
			p.eat("the")
			d, ok, err := p.ordinal()
			if err != nil || !ok {
				return "", false, ok, err
			}
			p.eat("day")
			dom = strconv.Itoa(d)
		}
		if !p.done() {
			return "", false, false, nil
		}
		return p.atDays(dom, "*"), false, true, nil
	}
	p.eat("the")
	if p.eat("first") {
		if !(p.eat("business", "working") && p.eat("day")) && !p.eat("weekday") {
			return "", false, false, nil
		}
		if !p.ofMonth() {
			return "", false, false, nil
		}
		return p.atDays("*", "1-5"), true, true, nil
	}
	if d, ok, err := p.ordinal(); err != nil || ok {
		if err != nil {
			return "", false, false, err
		}
		p.eat("day")
		if !p.ofMonth() {
			return "", false, false, nil
		}
		return p.atDays(strconv.Itoa(d), "*"), false, true, nil
	}
	dow, ok := p.days()
	if !ok || !p.done() {
		return "", false, false, nil
	}
	return p.atDays("*", dow), false, true, nil
}

// ofMonth matches "of [the|every|each] month" to the end.
func (p *phrase) ofMonth() bool {
	if !p.eat("of") {
		return false
	}
	p.eat("the", "every", "each")
	return p.eat("month") && p.done()
}

// atDays is the cron expression at the phrase's time (midnight when none)
// on the given days.
func (p *phrase) atDays(dom, dow string) string {
	return fmt.Sprintf("%d %d %s * %s", p.at.minute, p.at.hour, dom, dow)
}

// hourly reads "[on DAYS]" after "every N hours".
func (p *phrase) hourly(n int, unit string) (string, bool, bool, error) {
	if p.at.set {
		return "", false, false, quarry.Errorf(quarry.KindInput, "a schedule every %s runs at the start of each hour; remove \"at …\" or write a cron expression", unit)
	}
	if n < 1 || 24%n != 0 {
		return "", false, false, quarry.Errorf(quarry.KindInput, "every %d hours does not divide the day evenly; use 1, 2, 3, 4, 6, 8 or 12, or write a cron expression", n)
	}
	dow, ok := p.onDays()
	if !ok {
		return "", false, false, nil
	}
	hour := "*"
	if n > 1 {
		hour = "*/" + strconv.Itoa(n)
	}
	return fmt.Sprintf("0 %s * * %s", hour, dow), false, true, nil
}

func (p *phrase) everyMinutes(n int) (string, bool, bool, error) {
	if p.at.set {
		return "", false, false, quarry.Errorf(quarry.KindInput, "a schedule every %d minutes has no time of day; remove \"at …\"", n)
	}
	if n < 1 || n > 30 || 60%n != 0 {
		return "", false, false, quarry.Errorf(quarry.KindInput, "every %d minutes does not divide the hour evenly; use 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30, or write a cron expression", n)
	}
	dow, ok := p.onDays()
	if !ok {
		return "", false, false, nil
	}
	return fmt.Sprintf("*/%d * * * %s", n, dow), false, true, nil
}

// onDays reads an optional "on DAYS" to the end: the day-of-week field.
func (p *phrase) onDays() (string, bool) {
	if p.done() {
		return "*", true
	}
	if !p.eat("on") {
		return "", false
	}
	d, ok := p.days()
	return d, ok && p.done()
}

var weekdays = map[string]int{
	"sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
	"wednesday": 3, "wed": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
	"friday": 5, "fri": 5, "saturday": 6, "sat": 6,
}

// days reads "weekdays", "weekends" or a list of day names joined by
// commas and "and": the day-of-week field.
func (p *phrase) days() (string, bool) {
	switch {
	case p.eat("weekday", "weekdays"):
		return "1-5", true
	case p.eat("weekend", "weekends"):
		return "0,6", true
	case p.eat("business", "working"):
		return "1-5", p.eat("day", "days")
	}
	var seen [7]bool
	n := 0
	for {
		w := p.peek()
		d, ok := weekdays[strings.TrimSuffix(w, "s")]
		if !ok {
			d, ok = weekdays[w]
		}
		if !ok {
			break
		}
		p.i++
		if seen[d] {
			return "", false
		}
		seen[d] = true
		n++
		if !p.eat(",", "and") {
			break
		}
		p.eat("and")
	}
	if n == 0 || p.i > 0 && (p.toks[p.i-1] == "," || p.toks[p.i-1] == "and") {
		return "", false
	}
	var out []string
	for d, ok := range seen {
		if ok {
			out = append(out, strconv.Itoa(d))
		}
	}
	return strings.Join(out, ","), true
}

var ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}

// ordinal reads a day of the month: 1st, 2nd, 15th, first, … It refuses
// days past the 28th, which some months do not have.
func (p *phrase) ordinal() (int, bool, error) {
	w := p.peek()
	d, ok := ordinals[w]
	if !ok && len(w) > 2 {
		num, suf := w[:len(w)-2], w[len(w)-2:]
		if n, isNum := number(num, 2); isNum && suf == ordinalSuffix(n) {
			d, ok = n, true
		}
	}
	if !ok {
		return 0, false, nil
	}
	p.i++
	if d < 1 || d > 28 {
		return 0, false, quarry.Errorf(quarry.KindInput, "not every month has a %s; use a day from the 1st to the 28th, or write a cron expression", w)
	}
	return d, true, nil
}

func ordinalSuffix(n int) string {
	if n%100 >= 11 && n%100 <= 13 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

func isDigits(s string) bool {
	_, ok := number(s, 3)
	return ok
}
