package semantic

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// aliases are other names people use for common values: country codes and
// short names, and the adjectives of countries and continents ("German
// customers", "European countries"). A
// code that is also an English word ("US") counts only as written, in
// capitals.
var aliasTable = []struct {
	canonical string
	aliases   []string
}{
	{"United States", []string{"US", "U.S.", "USA", "U.S.A.", "United States of America"}},
	{"United Kingdom", []string{"UK", "U.K.", "Great Britain", "Britain", "British"}},
	{"United Arab Emirates", []string{"UAE", "Emirati"}},
	{"Germany", []string{"German", "Deutschland"}},
	{"France", []string{"French"}},
	{"Spain", []string{"Spanish"}},
	{"Italy", []string{"Italian"}},
	{"Netherlands", []string{"Dutch", "Holland", "The Netherlands"}},
	{"Japan", []string{"Japanese"}},
	{"China", []string{"Chinese", "PRC"}},
	{"India", []string{"Indian"}},
	{"Brazil", []string{"Brazilian"}},
	{"Canada", []string{"Canadian"}},
	{"Mexico", []string{"Mexican"}},
	{"Australia", []string{"Australian"}},
	{"Sweden", []string{"Swedish"}},
	{"Poland", []string{"Polish"}},
	{"Ireland", []string{"Irish"}},
	{"South Korea", []string{"Korean"}},
	{"Switzerland", []string{"Swiss"}},
	{"Portugal", []string{"Portuguese"}},
	{"Belgium", []string{"Belgian"}},
	{"Austria", []string{"Austrian"}},
	{"Norway", []string{"Norwegian"}},
	{"Denmark", []string{"Danish"}},
	{"Finland", []string{"Finnish"}},
	{"New Zealand", []string{"NZ"}},
	{"South Africa", []string{"RSA"}},
	{"Czechia", []string{"Czech Republic", "Czech"}},
	{"Greece", []string{"Greek"}},
	{"Hungary", []string{"Hungarian"}},
	{"Romania", []string{"Romanian"}},
	{"Argentina", []string{"Argentine", "Argentinian"}},
	{"Chile", []string{"Chilean"}},
	{"Colombia", []string{"Colombian"}},
	{"Singapore", []string{"Singaporean"}},
	{"Israel", []string{"Israeli"}},
	{"Ukraine", []string{"Ukrainian"}},
	{"Europe", []string{"European"}},
	{"Asia", []string{"Asian"}},
	{"Africa", []string{"African"}},
	{"Oceania", []string{"Oceanian"}},
	{"North America", []string{"North American"}},
	{"South America", []string{"South American"}},
	{"Antarctica", []string{"Antarctic"}},
}

// countryCodes are the ISO 3166 codes data stores for a country in place of
// its name (country_code 'DE'): alpha-2 first, then alpha-3, and the
// codes in common use beside them ("UK").
var countryCodes = map[string][]string{
	"United States": {"US", "USA"}, "United Kingdom": {"GB", "UK", "GBR"}, "United Arab Emirates": {"AE", "ARE"},
	"Germany": {"DE", "DEU"}, "France": {"FR", "FRA"}, "Spain": {"ES", "ESP"}, "Italy": {"IT", "ITA"},
	"Netherlands": {"NL", "NLD"}, "Japan": {"JP", "JPN"}, "China": {"CN", "CHN"}, "India": {"IN", "IND"},
	"Brazil": {"BR", "BRA"}, "Canada": {"CA", "CAN"}, "Mexico": {"MX", "MEX"}, "Australia": {"AU", "AUS"},
	"Sweden": {"SE", "SWE"}, "Poland": {"PL", "POL"}, "Ireland": {"IE", "IRL"}, "South Korea": {"KR", "KOR"},
	"Switzerland": {"CH", "CHE"}, "Portugal": {"PT", "PRT"}, "Belgium": {"BE", "BEL"}, "Austria": {"AT", "AUT"},
	"Norway": {"NO", "NOR"}, "Denmark": {"DK", "DNK"}, "Finland": {"FI", "FIN"}, "New Zealand": {"NZ", "NZL"},
	"South Africa": {"ZA", "ZAF"}, "Czechia": {"CZ", "CZE"}, "Greece": {"GR", "GRC"}, "Hungary": {"HU", "HUN"},
	"Romania": {"RO", "ROU"}, "Argentina": {"AR", "ARG"}, "Chile": {"CL", "CHL"}, "Colombia": {"CO", "COL"},
	"Singapore": {"SG", "SGP"}, "Israel": {"IL", "ISR"}, "Ukraine": {"UA", "UKR"},
}

// ExpandCountryNames rewrites a country the question names ("customers in
// Germany", "German customers") to its code where the data stores codes
// and not names (country_code 'DE', CountryCode). A name that is itself a
// known value too ("USA" of airlines.Country, beside airports' 'US') is
// rewritten all the same: the planner plans both and keeps the one on the
// rows' own table. Found from outside: "how many customers in Germany" was
// refused, with "DE" known.
func (m *Model) ExpandCountryNames(question string) string {
	lower := strings.ToLower(question)
	for _, a := range aliasTable {
		codes := countryCodes[a.canonical]
		if len(codes) == 0 || !slices.ContainsFunc(append([]string{a.canonical}, a.aliases...), func(n string) bool { return strings.Contains(lower, strings.ToLower(n)) }) {
			continue // a substring test first: most questions name none
		}
		c := ""
		for _, x := range codes {
			if m.CountryCode(x) {
				c = x
				break
			}
		}
		if c == "" {
			continue
		}
		for _, name := range append([]string{a.canonical}, a.aliases...) {
			if upperOnly[name] || name == c || !strings.Contains(lower, strings.ToLower(name)) {
				continue
			}
			re := regexp.MustCompile(`(?i)(^|[^\pL\pN.])` + regexp.QuoteMeta(name) + `($|[^\pL\pN])`)
			question = re.ReplaceAllString(question, "${1}"+c+"${2}")
			lower = strings.ToLower(question)
		}
	}
	return question
}

// CountryCode reports whether code is a known value of a column of
// countries (its name says country or nation) where no column holds the
// countries' names: the data names countries by their codes.
func (m *Model) CountryCode(code string) bool {
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			country := false
			for _, w := range NameWords(c.Name) {
				country = country || w == "country" || w == "nation" || w == "countries"
			}
			if country && slices.ContainsFunc(c.Values, func(v string) bool { return strings.EqualFold(v, code) }) {
				return true
			}
		}
	}
	return false
}

// upperOnly are aliases that are also ordinary words in lower case.
var upperOnly = map[string]bool{"US": true, "U.S.": true}

// theUS matches "the us" and "the u.s.", and "us" that begins a
// question, in any case but the upper one, which the alias table reads
// already.
var theUS = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\b[Tt][Hh][Ee]\s+|^\s*)(?:us|Us|uS|u\.s\.?|U\.s\.?|u\.S\.?)($|[^\pL\pN.])`)
})

// aliasRE matches one alias as a whole word. Its expression is compiled
// the first time a question contains the alias: compiling all of them
// (Unicode classes) takes milliseconds, and most questions name none.
type aliasRE struct {
	canonical, alias, lower string
	re                      func() *regexp.Regexp
}

// aliasREs is built once, on the first question that needs it, not when the
// program starts.
var aliasREs = sync.OnceValue(compileAliases)

func compileAliases() []aliasRE {
	var out []aliasRE
	for _, a := range aliasTable {
		for _, al := range a.aliases {
			flags := "(?i)"
			if upperOnly[al] {
				flags = ""
			}
			expr := flags + `(^|[^\pL\pN.])` + regexp.QuoteMeta(al) + `($|[^\pL\pN])`
			out = append(out, aliasRE{a.canonical, al, strings.ToLower(al), sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })})
		}
	}
	return out
}

// ExpandAliases rewrites the other names of known values in a question to
// the values themselves ("revenue in the US" → "revenue in the United
// States", "German customers" → "Germany customers"), so that every reader
// of the question — the planner and the checks — sees the same value.
// known reports whether a text is a known value of some column (without
// regard to case); an alias that is itself a known value ("Spanish", a
// language) is left as it is, and so is one whose value is not known.
func ExpandAliases(question string, known func(string) bool) string {
	out := question
	lower := strings.ToLower(question)
	if strings.Contains(lower, "the u") || strings.HasPrefix(strings.TrimSpace(lower), "u") {
		// "revenue in the us", "us revenue by month": after "the", or
		// first in the question, "us" is no pronoun (found from
		// outside: dropped without a word, every country summed).
		out = theUS().ReplaceAllString(out, "${1}US${2}")
		lower = strings.ToLower(out)
	}
	for _, a := range aliasREs() {
		// A substring test first: most questions name no alias at all.
		if !strings.Contains(lower, a.lower) || !a.re().MatchString(out) || !known(a.canonical) || known(a.alias) {
			continue
		}
		var b strings.Builder
		last := 0
		for _, m := range a.re().FindAllStringSubmatchIndex(out, -1) {
			start, end := m[3], m[4] // the alias itself, between its borders
			// Part of a longer known value ("Indian Ocean"): not an alias.
			if known(lastWord(out[:start])+" "+out[start:end]) || known(out[start:end]+" "+firstWord(out[end:])) {
				continue
			}
			b.WriteString(out[last:start] + a.canonical)
			last = end
		}
		b.WriteString(out[last:])
		out = b.String()
	}
	return out
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[0], ".,;:!?")
}

// HasValue reports whether s is a known value of a column or a dimension
// of m, without regard to case.
func (m *Model) HasValue(s string) bool {
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			for _, v := range c.Values {
				if strings.EqualFold(v, s) {
					return true
				}
			}
		}
	}
	for _, d := range m.Dimensions {
		for _, v := range d.Values {
			if strings.EqualFold(v, s) {
				return true
			}
		}
	}
	return false
}

// IsAcronym reports whether a word is a business abbreviation written in
// capitals ("mrr" → MRR), without regard to case.
func IsAcronym(w string) bool {
	switch strings.ToLower(w) {
	case "mrr", "arr", "aov", "ltv", "cac", "nps", "csat", "kpi", "roi", "ctr", "cpc", "cpm", "gmv", "arpu", "dau", "mau", "wau", "sla", "sku":
		return true
	}
	return false
}

// SexColumn reports whether a column's name says it holds sex or gender.
func SexColumn(column string) bool {
	for _, w := range NameWords(column) {
		if w == "sex" || w == "gender" {
			return true
		}
	}
	return false
}

// SexAliases are the words people use for a value of a column of sex or
// gender (SexColumn): "male", "men" for 'M' or 'Male', "female", "women"
// for 'F' or 'Female'; nil for any other value. A code is read this way
// only in such a column: 'M' of a size is no man (found from outside:
// "how many male patients" was refused, the data holding 'M' and 'F').
func SexAliases(value string) []string {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "m":
		return []string{"male", "males", "men", "man"}
	case "f":
		return []string{"female", "females", "women", "woman"}
	case "male":
		return []string{"males", "men", "man"}
	case "female":
		return []string{"females", "women", "woman"}
	}
	return nil
}

// irregularPlurals are the nouns whose plural no rule of -s or -es makes.
var irregularPlurals = map[string]string{"child": "children", "person": "people", "man": "men", "woman": "women", "mouse": "mice", "tooth": "teeth", "foot": "feet", "goose": "geese"}

// IrregularPlural is the plural of a noun no rule makes ("children" for
// child), "" for any other word: the planner reads a value by it, and the
// coverage check takes the plural for the value filtered on (found from
// outside: "how many children members joined" read as a book genre).
func IrregularPlural(w string) string {
	return irregularPlurals[strings.ToLower(w)]
}

// IrregularSingular is the singular of such a plural ("child" for
// children), "" for any other word.
func IrregularSingular(w string) string {
	w = strings.ToLower(w)
	for sg, pl := range irregularPlurals {
		if pl == w {
			return sg
		}
	}
	return ""
}
