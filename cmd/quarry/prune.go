package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

func (a *app) pruneCmd() *cobra.Command {
	var olderThan, archiveDir string
	var noArchive, dryRun, asJSON bool
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Delete finished runs older than an age, archiving them first",
		Long: `Delete runs that finished longer ago than --older-than (or retention.keep_runs
in quarry.yaml): each run goes whole, its events, index entry and stored
results, and sessions left without runs go too. Runs that have not finished
are never deleted. Before a batch is deleted it is written to a gzip'd
JSON-lines file in the archive folder (--archive, or retention.archive), one
line per run with its full event log and results; with no archive folder,
or with --no-archive, runs are deleted without a copy.`,
		Example: `  quarry runs prune --older-than 90d
  quarry runs prune --older-than 2w --archive /backups/quarry --dry-run`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&olderThan, "older-than", "", "delete runs that finished longer ago than this: 90d, 2w, 36h")
	cmd.Flags().StringVar(&archiveDir, "archive", "", "folder to write the archive file to (default: retention.archive)")
	cmd.Flags().BoolVar(&noArchive, "no-archive", false, "delete without writing an archive")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "count what would go and delete nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		cfg, err := a.config()
		if err != nil {
			return err
		}
		age := cfg.Retention.KeepRuns
		if olderThan != "" {
			if age, err = config.ParseAge(olderThan); err != nil {
				return quarry.Errorf(quarry.KindUsage, "--older-than: %v", err)
			}
		}
		if age <= 0 {
			return quarry.Errorf(quarry.KindUsage, "say how old a run must be to go: --older-than 90d, or retention.keep_runs in quarry.yaml")
		}
		if noArchive && archiveDir != "" {
			return quarry.Errorf(quarry.KindUsage, "--archive and --no-archive contradict each other; give one")
		}
		dir := cfg.Retention.Archive
		if archiveDir != "" {
			dir = archiveDir
		}
		if noArchive {
			dir = ""
		}
		st, err := a.store(ctx)
		if err != nil {
			return err
		}
		rep, file, err := prune(ctx, st, a.now().Add(-age), dir, dryRun, a.now())
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, map[string]any{"dry_run": dryRun, "before": a.now().Add(-age).UTC(), "pruned": rep, "archive": file})
		}
		verb := "Deleted"
		if dryRun {
			verb = "Would delete"
		}
		fmt.Fprintf(a.stdout, "%s %d runs (%d events, %d results) that finished before %s, and %d sessions.\n",
			verb, rep.Runs, rep.Events, rep.Results, a.now().Add(-age).Local().Format("2006-01-02 15:04"), rep.Sessions)
		switch {
		case file != "":
			fmt.Fprintf(a.stdout, "Archived to %s\n", file)
		case !dryRun && rep.Runs > 0:
			fmt.Fprintln(a.stdout, "No archive was written (--archive FOLDER or retention.archive keeps a copy).")
		}
		return nil
	})
	return cmd
}

// prune deletes the runs of st that finished before cutoff, writing them
// first to a new archive file in dir when dir is not "". It returns the
// archive's path, or "" when nothing was archived.
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

// retain applies quarry.yaml's retention policy now and then every day
// until ctx ends, saying on stderr what it pruned or why it could not.
func (a *app) retain(ctx context.Context, st store.State, r config.Retention) {
	t := time.NewTicker(retainEvery)
	defer t.Stop()
	for {
		now := a.now()
		rep, file, err := prune(ctx, st, now.Add(-r.KeepRuns), r.Archive, false, now)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			fmt.Fprintf(a.stderr, "quarry: retention: %s\n", quarry.Message(err))
		case rep.Runs > 0 || rep.Sessions > 0:
			fmt.Fprintf(a.stderr, "quarry: retention: deleted %d runs and %d sessions older than %s%s\n", rep.Runs, rep.Sessions, r.KeepRuns, archivedTo(file))
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
