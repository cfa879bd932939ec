// Package importer reads semantic models written for other tools — dbt
// MetricFlow (semantic_models: and metrics:), Cube (cubes:) and Snowflake
// Cortex Analyst (tables:, relationships:, verified_queries:) — and turns
// them into quarry's knowledge: entities with their columns, relationships
// with their cardinality, metrics and dimensions written with
// entity.column, and verified queries. What quarry cannot represent
// (percentiles, cumulative and conversion metrics, Jinja beyond a plain
// Dimension filter, …) is listed in Imported.Skipped with the reason,
// never dropped silently and never approximated.
//
// The package is pure: files in, knowledge structs out. knowledge.Import
// merges the result into a folder.
package importer

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Format is a kind of semantic model file.
type Format string

// The formats Parse reads.
const (
	DBT    Format = "dbt"
	Cube   Format = "cube"
	Cortex Format = "cortex"
)

// Formats lists the formats, for flags and messages.
func Formats() []Format { return []Format{DBT, Cube, Cortex} }

// File is one input file.
type File struct {
	Name string // as the user would recognise it, for messages
	Data []byte
}

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case "":
		return "", nil
	case DBT, Cube, Cortex:
		return f, nil
	case "metricflow":
		return DBT, nil
	case "snowflake":
		return Cortex, nil
	}
	return "", quarry.Errorf(quarry.KindUsage, "unknown format %q; use one of: dbt, cube, cortex", s)
}

// Detect says which format a file's content is, from its top-level keys:
// semantic_models: or metrics: (dbt), cubes: or views: (Cube), tables:
// (Cortex Analyst). It returns "" when none fits and an error when the
// file is not YAML.
func Detect(f File) (Format, error) {
	if err := checkShape(f); err != nil {
		return "", err
	}
	var top map[string]any
	if err := unmarshal(f.Data, &top); err != nil {
		return "", yamlError(f.Name, err)
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	switch {
	case has("semantic_models"):
		return DBT, nil
	case has("cubes") || has("views"):
		return Cube, nil
	case has("tables"):
		return Cortex, nil
	case has("metrics"):
		return DBT, nil
	}
	return "", nil
}

// Parse reads files of one format (detected from their content when
// format is empty) into knowledge. Files in no known format are ignored
// when there are several (a dbt project holds other YAML), and are an
// error when there is one.
func Parse(files []File, format Format) (*knowledge.Imported, error) {
	if len(files) == 0 {
		return nil, quarry.Errorf(quarry.KindUsage, "no .yaml or .yml files to import; name a semantic model file or a folder that holds them")
	}
	var use []File
	found := map[Format][]string{}
	for _, f := range files {
		fm, err := Detect(f)
		if err != nil {
			return nil, err
		}
		if format == "" {
			if fm == "" {
				continue
			}
			found[fm] = append(found[fm], f.Name)
		}
		use = append(use, f)
	}
	if format == "" {
		if len(found) == 0 {
			what := files[0].Name
			if len(files) > 1 {
				what = fmt.Sprintf("none of the %d files", len(files))
			}
			return nil, quarry.Errorf(quarry.KindUsage, "%s is not a dbt, Cube or Cortex Analyst semantic model (no semantic_models:, metrics:, cubes: or tables: at the top); check the file, or pass --format", what)
		}
		if len(found) > 1 {
			var parts []string
			for _, fm := range Formats() {
				if names := found[fm]; len(names) > 0 {
					parts = append(parts, fmt.Sprintf("%s (%s)", fm, names[0]))
				}
			}
			return nil, quarry.Errorf(quarry.KindUsage, "the files mix formats: %s; import one format at a time, or pass --format", strings.Join(parts, ", "))
		}
		for fm := range found {
			format = fm
		}
		var same []File
		for _, f := range use {
			if fm, _ := Detect(f); fm == format {
				same = append(same, f)
			}
		}
		use = same
	}
	switch format {
	case DBT:
		return parseDBT(use)
	case Cube:
		return parseCube(use)
	case Cortex:
		return parseCortex(use)
	}
	return nil, quarry.Errorf(quarry.KindUsage, "unknown format %q; use one of: dbt, cube, cortex", format)
}

// decode unmarshals a file into v with a one-line error.
func decode(f File, v any) error {
	if err := checkShape(f); err != nil {
		return err
	}
	if err := unmarshal(f.Data, v); err != nil {
		return yamlError(f.Name, err)
	}
	return nil
}

// unmarshal is yaml.Unmarshal, with a panic of the parser on malformed
// input (an empty tagged sequence, found by fuzzing) turned into an error.
func unmarshal(data []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the YAML parser could not read it (%v)", r)
		}
	}()
	return yaml.Unmarshal(data, v)
}

// The largest file and the deepest nesting an import reads. Semantic
// models are a few levels deep; the YAML parser's time grows faster than
// the nesting, so a file nested thousands of levels deep (a mistake or an
// attack) would hold the import for minutes.
const (
	maxFileBytes = 16 << 20
	maxDepth     = 64
)

// checkShape refuses a file too large or nested too deeply to be a
// semantic model, before the YAML parser reads it: flow collections ([
// and {) are counted outside quoted strings and comments, block nesting by
// indentation.
func checkShape(f File) error {
	if len(f.Data) > maxFileBytes {
		return quarry.Errorf(quarry.KindUsage, "%s is %d MB, larger than the %d MB a semantic model file may be; split it, or import the files it is made of", f.Name, len(f.Data)>>20, maxFileBytes>>20)
	}
	depth, indent := 0, 0
	var quote byte
	lineStart, comment := true, false
	for i := 0; i < len(f.Data); i++ {
		c := f.Data[i]
		if c == '\n' {
			lineStart, comment, indent = true, false, 0
			continue
		}
		if comment {
			continue
		}
		if lineStart {
			if c == ' ' {
				indent++
				if indent > 2*maxDepth {
					return tooDeep(f.Name)
				}
				continue
			}
			lineStart = false
		}
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			comment = true
		case c == '[' || c == '{':
			if depth++; depth > maxDepth {
				return tooDeep(f.Name)
			}
		case c == ']' || c == '}':
			depth = max(0, depth-1)
		}
	}
	return nil
}

func tooDeep(name string) error {
	return quarry.Errorf(quarry.KindUsage, "%s is nested more than %d levels deep, deeper than a semantic model is; check that it is the model file", name, maxDepth)
}

func yamlError(name string, err error) error {
	msg := strings.TrimSpace(err.Error())
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	return quarry.Wrap(quarry.KindUsage, err, "%s is not valid YAML or not in the expected shape: %s; fix the file and run the import again (nothing was written)", name, msg)
}

// text is a YAML scalar read as text, whatever its YAML type (expr: 1).
type text string

func (t *text) UnmarshalYAML(unmarshal func(any) error) error {
	var v any
	if err := unmarshal(&v); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		*t = ""
	case map[string]any, []any:
		return fmt.Errorf("want a single value, found a %s", kindOf(x))
	default:
		*t = text(strings.TrimSpace(fmt.Sprint(x)))
	}
	return nil
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "mapping"
	case []any:
		return "list"
	}
	return "value"
}

// texts is a list of scalars, or one scalar.
type texts []string

func (t *texts) UnmarshalYAML(unmarshal func(any) error) error {
	var v any
	if err := unmarshal(&v); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		*t = nil
	case []any:
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				return fmt.Errorf("want a list of values, found a mapping in it")
			}
			*t = append(*t, strings.TrimSpace(fmt.Sprint(e)))
		}
	case map[string]any:
		return fmt.Errorf("want a list of values, found a mapping")
	default:
		*t = texts{strings.TrimSpace(fmt.Sprint(x))}
	}
	return nil
}

// builder collects entities and their columns in order.
type builder struct {
	out    *knowledge.Imported
	names  map[string]bool // metric and dimension names taken, lower case
	byName map[string]int  // entity name (lower) → index
}

func newBuilder() *builder {
	return &builder{out: &knowledge.Imported{DBTypes: map[string]string{}}, names: map[string]bool{}, byName: map[string]int{}}
}

func (b *builder) skip(what, name, format string, args ...any) {
	b.out.Skipped = append(b.out.Skipped, knowledge.Skipped{What: what, Name: name, Reason: fmt.Sprintf(format, args...)})
}

func (b *builder) warn(format string, args ...any) {
	b.out.Warnings = append(b.out.Warnings, fmt.Sprintf(format, args...))
}

// freeName returns name, or entity_name when name is taken, and takes it.
func (b *builder) freeName(name, entity string) string {
	n := name
	if b.names[strings.ToLower(n)] {
		n = entity + "_" + name
	}
	for i := 2; b.names[strings.ToLower(n)]; i++ {
		n = fmt.Sprintf("%s_%s_%d", entity, name, i)
	}
	b.names[strings.ToLower(n)] = true
	return n
}

// dedupe returns list without repeats (case-insensitive) and without drop.
func dedupe(list []string, drop string) []string {
	var out []string
	seen := map[string]bool{strings.ToLower(drop): true}
	for _, s := range list {
		k := strings.ToLower(strings.TrimSpace(s))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, strings.TrimSpace(s))
	}
	return out
}
