package runtime

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Prune deletes the runs that finished before cutoff, each whole, writing
// them first to a new archive file in dir when dir is not "" (a gzip'd
// JSON-lines file, one line per run with its events and results). It
// returns the archive's path, or "" when nothing was archived.
func (r *Runtime) Prune(ctx context.Context, cutoff time.Time, dir string, dryRun bool) (store.PruneReport, string, error) {
	st, err := r.Store(ctx)
	if err != nil {
		return store.PruneReport{}, "", err
	}
	return prune(ctx, st, cutoff, dir, dryRun, r.o.Now())
}

func prune(ctx context.Context, st store.State, cutoff time.Time, dir string, dryRun bool, now time.Time) (store.PruneReport, string, error) {
	o := store.PruneOptions{Before: cutoff, DryRun: dryRun}
	var ar *archive
	if dir != "" && !dryRun {
		ar = &archive{path: filepath.Join(dir, "pruned-"+now.UTC().Format("20060102T150405Z")+".jsonl.gz")}
		o.Archive = ar.write
	}
	if dir != "" && dryRun {
		// Say now what the real prune would meet.
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return store.PruneReport{}, "", quarry.Wrap(quarry.KindConfig, err, "cannot create the archive folder %s; check its permissions", dir)
		}
		f, err := os.CreateTemp(dir, ".quarry-archive-check-*")
		if err != nil {
			return store.PruneReport{}, "", quarry.Wrap(quarry.KindConfig, err, "cannot write in the archive folder %s; check its permissions", dir)
		}
		f.Close()
		os.Remove(f.Name())
	}
	rep, err := st.Prune(ctx, o)
	if ar == nil || ar.f == nil {
		return rep, "", err
	}
	if cerr := ar.f.Close(); err == nil && cerr != nil {
		err = quarry.Wrap(quarry.KindConfig, cerr, "close the archive %s", ar.path)
	}
	return rep, ar.path, err
}

// archive is a gzip'd JSON-lines file of pruned runs. Each batch is one
// complete gzip member, synced to disk before write returns, so the file
// holds every run that was deleted even if a later batch fails.
type archive struct {
	path string
	f    *os.File
}

func (ar *archive) write(batch []store.ArchivedRun) error {
	if ar.f == nil {
		if err := os.MkdirAll(filepath.Dir(ar.path), 0o700); err != nil {
			return quarry.Wrap(quarry.KindConfig, err, "cannot create the archive folder %s; check its permissions", filepath.Dir(ar.path))
		}
		f, err := os.OpenFile(ar.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return quarry.Wrap(quarry.KindConfig, err, "cannot create the archive %s; no run was deleted", ar.path)
		}
		ar.f = f
	}
	// A batch that cannot be written whole is cut off again, so that the
	// file holds complete gzip members only (found from outside: a full
	// disk left a member that zcat could not read); an archive that holds
	// nothing is removed.
	start, err := ar.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "write the archive %s; the runs of this batch were kept", ar.path)
	}
	fail := func(err error) error {
		if ar.f.Truncate(start) == nil && start == 0 {
			ar.f.Close()
			os.Remove(ar.path)
			ar.f = nil
		} else {
			ar.f.Seek(start, io.SeekStart)
		}
		return quarry.Wrap(quarry.KindConfig, err, "write the archive %s; the runs of this batch were kept", ar.path)
	}
	zw := gzip.NewWriter(ar.f)
	enc := json.NewEncoder(zw)
	for _, r := range batch {
		if err := enc.Encode(r); err != nil {
			return fail(err)
		}
	}
	if err := zw.Close(); err != nil {
		return fail(err)
	}
	if err := ar.f.Sync(); err != nil {
		return fail(err)
	}
	return nil
}

// retainEvery is how often a server applies the retention policy.
const retainEvery = 24 * time.Hour

// Retain applies quarry.yaml's retention policy (retention.keep_runs),
// when it has one, now and then every day until ctx ends, saying in the
// notes what it pruned or why it could not.
func (r *Runtime) Retain(ctx context.Context) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	ret := cfg.Retention
	if ret.KeepRuns <= 0 {
		return nil
	}
	st, err := r.Store(ctx)
	if err != nil {
		return err
	}
	go r.retain(ctx, st, ret)
	return nil
}

func (r *Runtime) retain(ctx context.Context, st store.State, ret config.Retention) {
	t := time.NewTicker(retainEvery)
	defer t.Stop()
	for {
		now := r.o.Now()
		rep, file, err := prune(ctx, st, now.Add(-ret.KeepRuns), ret.Archive, false, now)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			fmt.Fprintf(r.o.Notes, "quarry: retention: %s\n", quarry.Message(err))
		case rep.Runs > 0 || rep.Sessions > 0:
			fmt.Fprintf(r.o.Notes, "quarry: retention: deleted %d runs and %d sessions older than %s%s\n", rep.Runs, rep.Sessions, ret.KeepRuns, archivedTo(file))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func archivedTo(file string) string {
	if file == "" {
		return ""
	}
	return "; archived to " + file
}
