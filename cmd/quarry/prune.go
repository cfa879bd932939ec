package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
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
			if age <= 0 {
				return quarry.Errorf(quarry.KindUsage, "--older-than %s: give an age more than 0, such as 90d", olderThan)
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
		rep, file, err := a.rt.Prune(ctx, a.now().Add(-age), dir, dryRun)
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
