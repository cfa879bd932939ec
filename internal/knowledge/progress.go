package knowledge

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// LearnProgressFile keeps, inside CacheDir, what a learn run that did not
// finish had read from the database: the known values of each column and
// the label sample of each table it profiled, under the table's catalog
// entry. Run again, learn takes those answers from the file instead of
// asking the database, and so resumes where it stopped; the file is
// removed when a run finishes. Its answers are used only under the same
// key (the database, as LearnOptions.Source names it, the dialect, the
// value limit and the columns policy.yaml restricts) and for at most ProgressMaxAge, and a
// table's only while its catalog entry (columns, types, keys, comments,
// row count) is the same.
const LearnProgressFile = CacheDir + "/learn-progress.gob"

// ProgressMaxAge is how long an interrupted learn's answers are reused.
const ProgressMaxAge = 24 * time.Hour

// progressVersion names what the file holds; bump it when profiling
// asks other questions.
const progressVersion = "1"

// progressSaveEvery is how many tables learn profiles between two saves
// of the file (besides the save when it is interrupted).
const progressSaveEvery = 250

type progressData struct {
	Key     string
	Written time.Time
	Tables  map[string]*tableRead // table fingerprint → answers
}

// tableRead is what learn read of one table.
type tableRead struct {
	Values map[string]valuesRead // column → its known values
	Labels map[string]labelsRead // candidate columns, joined by "\x00" → the sample's figures
}

type valuesRead struct {
	Values    []string
	Forbidden bool // the column policy withheld the column
}

type labelsRead struct {
	Stats     map[string]savedStats
	Forbidden bool
}

type savedStats struct {
	Filled, Distinct, Numeric, Dates, Times, ISO float64
	Rows                                         int
	SameDay                                      map[string]float64
}

// progress is the answers of an interrupted run, and this run's.
type progress struct {
	dir    string
	data   progressData
	fps    map[*quarry.TableInfo]string
	reused map[string]bool // fingerprints answered from the file
	since  int             // tables profiled since the last save
}

// loadProgress reads the answers an interrupted run left in dir under
// key; none when key is "" (resuming off), the file is absent, another
// key's, too old or unreadable.
func loadProgress(dir, key string, now time.Time) *progress {
	p := &progress{dir: dir, fps: map[*quarry.TableInfo]string{}, reused: map[string]bool{}}
	if key == "" {
		return p
	}
	p.data = progressData{Key: key, Written: now, Tables: map[string]*tableRead{}}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LearnProgressFile)))
	if err != nil {
		return p
	}
	var d progressData
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&d) != nil || d.Key != key || d.Tables == nil {
		return p
	}
	if age := now.Sub(d.Written); age < 0 || age > ProgressMaxAge {
		return p
	}
	// The age that counts is the oldest answer's: a run interrupted
	// again does not make the first run's answers younger.
	p.data.Tables, p.data.Written = d.Tables, d.Written
	return p
}

// progressKey names the database and the settings whose answers may be
// reused; "" when source is empty.
func progressKey(source string, d quarry.Dialect, opts LearnOptions, policy []PolicyRule) string {
	if source == "" {
		return ""
	}
	h := sha256.New()
	restricted := make([]string, len(policy))
	for i, r := range policy {
		restricted[i] = strings.ToLower(r.Column)
	}
	slices.Sort(restricted)
	for _, s := range []string{progressVersion, source, string(d), strconv.Itoa(opts.MaxValues), strings.Join(restricted, ",")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (p *progress) on() bool { return p.data.Key != "" }

// fingerprint identifies a table's catalog entry.
func (p *progress) fingerprint(t *quarry.TableInfo) string {
	if fp, ok := p.fps[t]; ok {
		return fp
	}
	b, err := json.Marshal(t)
	fp := ""
	if err == nil {
		sum := sha256.Sum256(b)
		fp = hex.EncodeToString(sum[:])
	}
	p.fps[t] = fp
	return fp
}

func (p *progress) table(t *quarry.TableInfo, create bool) *tableRead {
	if !p.on() {
		return nil
	}
	fp := p.fingerprint(t)
	if fp == "" {
		return nil
	}
	tr := p.data.Tables[fp]
	if tr == nil && create {
		tr = &tableRead{Values: map[string]valuesRead{}, Labels: map[string]labelsRead{}}
		p.data.Tables[fp] = tr
	}
	return tr
}

// values returns the known values read of t's column, if an earlier run
// (or this one) read them.
func (p *progress) values(t *quarry.TableInfo, col string) (valuesRead, bool) {
	tr := p.table(t, false)
	if tr == nil {
		return valuesRead{}, false
	}
	v, ok := tr.Values[col]
	if ok {
		p.reused[p.fingerprint(t)] = true
	}
	return v, ok
}

func (p *progress) putValues(t *quarry.TableInfo, col string, v valuesRead) {
	if tr := p.table(t, true); tr != nil {
		tr.Values[col] = v
	}
}

func labelsKey(cands []labelCand) string {
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	return strings.Join(names, "\x00")
}

func (p *progress) labels(t *quarry.TableInfo, cands []labelCand) (map[string]labelStats, bool, bool) {
	tr := p.table(t, false)
	if tr == nil {
		return nil, false, false
	}
	l, ok := tr.Labels[labelsKey(cands)]
	if !ok {
		return nil, false, false
	}
	p.reused[p.fingerprint(t)] = true
	if l.Forbidden {
		return nil, true, true
	}
	stats := make(map[string]labelStats, len(l.Stats))
	for k, s := range l.Stats {
		stats[k] = labelStats{filled: s.Filled, distinct: s.Distinct, numeric: s.Numeric, dates: s.Dates, times: s.Times, iso: s.ISO, rows: s.Rows, sameDay: s.SameDay}
	}
	return stats, false, true
}

func (p *progress) putLabels(t *quarry.TableInfo, cands []labelCand, stats map[string]labelStats, forbidden bool) {
	tr := p.table(t, true)
	if tr == nil {
		return
	}
	l := labelsRead{Forbidden: forbidden, Stats: make(map[string]savedStats, len(stats))}
	for k, s := range stats {
		l.Stats[k] = savedStats{Filled: s.filled, Distinct: s.distinct, Numeric: s.numeric, Dates: s.dates, Times: s.times, ISO: s.iso, Rows: s.rows, SameDay: s.sameDay}
	}
	tr.Labels[labelsKey(cands)] = l
}

// tableDone counts a profiled table and saves the file every
// progressSaveEvery tables, so that even a killed run leaves most of
// what it read.
func (p *progress) tableDone() {
	p.since++
	if p.since >= progressSaveEvery {
		p.save()
	}
}

// save writes the answers atomically; a folder that cannot be written
// simply does not resume.
func (p *progress) save() {
	p.since = 0
	if !p.on() || len(p.data.Tables) == 0 {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(p.data) != nil || EnsureCache(p.dir) != nil {
		return
	}
	replaceFile(filepath.Join(p.dir, filepath.FromSlash(LearnProgressFile)), buf.Bytes())
}

// readValues is distinctValues, answered from prog when an interrupted
// run read them; what it reads is kept in prog.
func readValues(ctx context.Context, src Source, d quarry.Dialect, t *quarry.TableInfo, col string, prog *progress, opts LearnOptions) ([]string, error) {
	if r, ok := prog.values(t, col); ok {
		if r.Forbidden {
			return nil, quarry.Errorf(quarry.KindForbidden, "the column policy withholds %s", col)
		}
		return r.Values, nil
	}
	vals, err := distinctValues(ctx, src, d, t, col, opts)
	switch {
	case err == nil:
		prog.putValues(t, col, valuesRead{Values: vals})
	case quarry.KindOf(err) == quarry.KindForbidden && ctx.Err() == nil:
		prog.putValues(t, col, valuesRead{Forbidden: true})
	}
	return vals, err
}

// readLabels is sampleLabels, answered from prog when an interrupted run
// read the sample; what it reads is kept in prog.
func readLabels(ctx context.Context, src Source, t *quarry.TableInfo, cands []labelCand, prog *progress, opts LearnOptions) (map[string]labelStats, error) {
	if stats, forbidden, ok := prog.labels(t, cands); ok {
		if forbidden {
			return nil, quarry.Errorf(quarry.KindForbidden, "the column policy withholds a label candidate of %s", t.Name)
		}
		return stats, nil
	}
	stats, err := sampleLabels(ctx, src, t, cands, opts)
	switch {
	case err == nil:
		prog.putLabels(t, cands, stats, false)
	case quarry.KindOf(err) == quarry.KindForbidden && ctx.Err() == nil:
		prog.putLabels(t, cands, nil, true)
	}
	return stats, err
}

// ForgetProgress removes what an interrupted learn left for the next run
// to resume from (LearnProgressFile): the run that used it has finished.
func ForgetProgress(dir string) {
	os.Remove(filepath.Join(dir, filepath.FromSlash(LearnProgressFile)))
}
