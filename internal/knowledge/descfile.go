package knowledge

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// descriptions is what description files next to a database (or named
// with --descriptions) say about its tables and columns.
type descriptions struct {
	tables map[string]*tableDesc // lower-cased table name
	files  []string              // the files read, as found
}

type tableDesc struct {
	name        string
	description string
	synonyms    []string
	columns     map[string]*columnDesc // lower-cased column name
}

type columnDesc struct {
	name        string
	description string
	synonyms    []string
	values      []string
}

func (ds *descriptions) table(name string) *tableDesc {
	k := strings.ToLower(name)
	if ds.tables[k] == nil {
		ds.tables[k] = &tableDesc{name: name, columns: map[string]*columnDesc{}}
	}
	return ds.tables[k]
}

func (td *tableDesc) column(name string) *columnDesc {
	k := strings.ToLower(name)
	if td.columns[k] == nil {
		td.columns[k] = &columnDesc{name: name}
	}
	return td.columns[k]
}

// readDescriptions reads the descriptions of opts.Descriptions (a YAML
// file, a BIRD-style CSV file, or a folder of them), and next to
// opts.DatabaseFile: database_description/<table>.csv,
// <stem>.descriptions.yaml and descriptions.yaml. What a file read earlier
// says about a field wins.
func readDescriptions(opts LearnOptions) (*descriptions, error) {
	ds := &descriptions{tables: map[string]*tableDesc{}}
	if opts.Descriptions != "" {
		st, err := os.Stat(opts.Descriptions)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInput, err, "cannot read the descriptions %s", opts.Descriptions)
		}
		if st.IsDir() {
			if err := readCSVFolder(ds, opts.Descriptions); err != nil {
				return nil, err
			}
		} else if err := readDescFile(ds, opts.Descriptions); err != nil {
			return nil, err
		}
	}
	if opts.DatabaseFile != "" {
		dir := filepath.Dir(opts.DatabaseFile)
		if st, err := os.Stat(filepath.Join(dir, "database_description")); err == nil && st.IsDir() {
			if err := readCSVFolder(ds, filepath.Join(dir, "database_description")); err != nil {
				return nil, err
			}
		}
		stem := strings.TrimSuffix(filepath.Base(opts.DatabaseFile), filepath.Ext(opts.DatabaseFile))
		for _, name := range []string{stem + ".descriptions.yaml", "descriptions.yaml"} {
			p := filepath.Join(dir, name)
			if _, err := os.Stat(p); err == nil {
				if err := readDescFile(ds, p); err != nil {
					return nil, err
				}
			}
		}
	}
	return ds, nil
}

func readDescFile(ds *descriptions, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot read the descriptions %s", path)
	}
	ds.files = append(ds.files, path)
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		return readBirdCSV(ds, path, b)
	}
	return readDescYAML(ds, path, b)
}

func readCSVFolder(ds *descriptions, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot list the descriptions in %s", dir)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".csv") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if err := readDescFile(ds, filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}

// decodeText turns a file's bytes into text: a UTF-8 byte order mark is
// dropped, and text that is not UTF-8 is read as Windows-1252 (which
// covers Latin-1's printable characters).
func decodeText(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if utf8.Valid(b) {
		return string(b)
	}
	high := []rune(cp1252)
	var s strings.Builder
	for _, c := range b {
		if c >= 0x80 && c < 0xa0 {
			s.WriteRune(high[c-0x80])
		} else {
			s.WriteRune(rune(c))
		}
	}
	return s.String()
}

// cp1252 holds the characters of the bytes 0x80–0x9F in Windows-1252;
// the other bytes are Latin-1, the same code points in Unicode.
const cp1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ"

// readBirdCSV reads one table's column descriptions in the BIRD layout:
// original_column_name, column_name, column_description, data_format,
// value_description; the table is the file's name.
func readBirdCSV(ds *descriptions, path string, b []byte) error {
	r := csv.NewReader(strings.NewReader(decodeText(b)))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	head, err := r.Read()
	if err != nil {
		return quarry.Wrap(quarry.KindInput, err, "%s: cannot read the header line", path)
	}
	idx := map[string]int{}
	for i, h := range head {
		idx[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if _, ok := idx["original_column_name"]; !ok {
		return quarry.Errorf(quarry.KindInput, "%s: no original_column_name column; a description CSV has the columns original_column_name, column_name, column_description, data_format, value_description", path)
	}
	td := ds.table(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return quarry.Wrap(quarry.KindInput, err, "%s: cannot read line %d", path, line)
		}
		raw := func(k string) string {
			if i, ok := idx[k]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		get := func(k string) string { return oneLine(raw(k)) }
		orig := get("original_column_name")
		if orig == "" {
			continue
		}
		cd := td.column(orig)
		desc := get("column_description")
		if vd := valueLines(raw("value_description")); vd != "" {
			desc = joinSentences(desc, "Values: "+vd)
		}
		fill(&cd.description, desc)
		if readable := get("column_name"); readable != "" && squash(readable) != squash(orig) && len(cd.synonyms) == 0 {
			cd.synonyms = []string{readable}
		}
	}
}

// oneLine trims s and folds its runs of white space (line breaks too)
// into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// valueLines writes a value description on one line, its lines joined
// with "; ": "F: female\nM: male" is "F: female; M: male".
func valueLines(s string) string {
	var parts []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n") {
		if l = oneLine(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

func joinSentences(a, b string) string {
	if a == "" {
		return b
	}
	if !strings.HasSuffix(a, ".") && !strings.HasSuffix(a, "?") && !strings.HasSuffix(a, "!") {
		a += "."
	}
	return a + " " + b
}

// squash lower-cases s and keeps only its letters and digits, so that
// "client_id" and "Client ID" compare equal.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// readDescYAML reads
//
//	tables:
//	  customers:
//	    description: …
//	    synonyms: […]
//	    columns:
//	      email: {description: …, synonyms: […], values: […]}
func readDescYAML(ds *descriptions, path string, b []byte) error {
	d := newDecoder(path)
	root := d.Parse([]byte(decodeText(b)))
	if root != nil {
		d.Mapping(root, "", "the descriptions", []field{{"tables", func(v ast.Node, p string) {
			d.entries(v, p, "tables by name", func(tname string, v ast.Node, p string) {
				td := ds.table(tname)
				d.Mapping(v, p, "a table's descriptions", []field{
					{"description", func(v ast.Node, p string) { fill(&td.description, oneLine(d.Str(v, p))) }},
					{"synonyms", func(v ast.Node, p string) { td.synonyms = orStrs(td.synonyms, d.Strs(v, p)) }},
					{"columns", func(v ast.Node, p string) {
						d.entries(v, p, "columns by name", func(cname string, v ast.Node, p string) {
							cd := td.column(cname)
							d.Mapping(v, p, "a column's descriptions", []field{
								{"description", func(v ast.Node, p string) { fill(&cd.description, oneLine(d.Str(v, p))) }},
								{"synonyms", func(v ast.Node, p string) { cd.synonyms = orStrs(cd.synonyms, d.Strs(v, p)) }},
								{"values", func(v ast.Node, p string) { cd.values = orStrs(cd.values, d.Strs(v, p)) }},
							})
						})
					}},
				})
			})
		}}})
	}
	if len(d.Problems) > 0 {
		return &quarry.Error{Kind: quarry.KindInput, Msg: d.Problems[0].Format(""), Err: Problems(d.Problems)}
	}
	return nil
}

func orStrs(have, v []string) []string {
	if len(have) > 0 {
		return have
	}
	return v
}

// entries calls each for every key of the mapping n (names chosen by the
// writer, such as table names); null is an empty mapping.
func (d *decoder) entries(n ast.Node, path, what string, each func(key string, v ast.Node, path string)) {
	n = yamlnode.Unwrap(n)
	if yamlnode.IsNull(n) {
		return
	}
	var list []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		list = x.Values
	case *ast.MappingValueNode:
		list = []*ast.MappingValueNode{x}
	default:
		d.Errf(yamlnode.Line(n), path, "want %s (a mapping of name: …), found %s", what, yamlnode.Describe(n))
		return
	}
	seen := map[string]bool{}
	for _, e := range list {
		key := yamlnode.Scalar(e.Key)
		sub := yamlnode.JoinPath(path, key)
		if seen[strings.ToLower(key)] {
			d.Errf(yamlnode.Line(e.Key), sub, "%q is described twice; keep one", key)
			continue
		}
		seen[strings.ToLower(key)] = true
		d.Lines[sub] = yamlnode.Line(e.Key)
		each(key, yamlnode.Unwrap(e.Value), sub)
	}
}

// apply writes what the descriptions say into the learned entities,
// before learn profiles them: descriptions (over the database's comments),
// synonyms, and known values of columns that are not restricted. It
// returns a warning for names that match no table or column.
func (ds *descriptions) apply(lr *learned, restricted map[string]bool) []string {
	var unknown []string
	used := map[string]bool{}
	for i := range lr.entities {
		e := &lr.entities[i]
		td := ds.tables[strings.ToLower(lr.tables[i].Name)]
		if td == nil {
			td = ds.tables[strings.ToLower(e.Table)]
		}
		if td == nil {
			continue
		}
		used[strings.ToLower(td.name)] = true
		if td.description != "" {
			e.Description = td.description
		}
		e.Synonyms = orStrs(e.Synonyms, td.synonyms)
		seen := map[string]bool{}
		for j := range e.Columns {
			c := &e.Columns[j]
			cd := td.columns[strings.ToLower(c.Name)]
			if cd == nil {
				continue
			}
			seen[strings.ToLower(c.Name)] = true
			if cd.description != "" {
				c.Description = cd.description
			}
			c.Synonyms = orStrs(c.Synonyms, cd.synonyms)
			if !restricted[strings.ToLower(e.Table+"."+c.Name)] && !restricted[strings.ToLower(e.Name+"."+c.Name)] {
				c.Values = append([]string(nil), cd.values...) // profiling adds the database's after these
			}
		}
		for k, cd := range td.columns {
			if !seen[k] {
				unknown = append(unknown, td.name+"."+cd.name)
			}
		}
	}
	for k, td := range ds.tables {
		if !used[k] {
			unknown = append(unknown, td.name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return []string{fmt.Sprintf("descriptions of %d tables or columns the database does not have were not used: %s", len(unknown), clipList(unknown, 10))}
}

func clipList(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}
