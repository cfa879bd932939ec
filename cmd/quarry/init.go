package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) initCmd() *cobra.Command {
	var withDemo bool
	var anchor string
	var seed int64
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a project: a commented quarry.yaml and a knowledge folder (--demo adds the demo database)",
		Long: `Create a quarry project in DIR (default: the current folder): a commented
quarry.yaml and a knowledge/ folder. With --demo it also builds the demo
database (a fictional online retailer, 36 months of history ending with the
anchor's month) and its hand-written knowledge, so that quarry ask works at
once. The same --anchor and --seed always build the same file, byte for byte.`,
		Args: cobra.MaximumNArgs(1),
		Example: `  quarry init --demo demo
  quarry init --demo --anchor 2026-06-30 demo
  quarry init myproject`,
	}
	cmd.Flags().BoolVar(&withDemo, "demo", false, "build the demo database and its knowledge")
	cmd.Flags().StringVar(&anchor, "anchor", "", "last day of the demo's history, YYYY-MM-DD (default: today)")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the demo data")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		dir := "."
		if len(args) == 1 {
			dir = args[0]
		}
		day := a.now()
		if anchor != "" {
			if !withDemo {
				return quarry.Errorf(quarry.KindUsage, "--anchor only applies with --demo")
			}
			t, err := time.Parse("2006-01-02", anchor)
			if err != nil {
				return quarry.Errorf(quarry.KindUsage, "--anchor %q is not a date; write it as YYYY-MM-DD", anchor)
			}
			day = t
		}
		c, err := runtime.Init(ctx, dir, runtime.InitOptions{Demo: withDemo, Anchor: day, Seed: seed, Now: a.now, Progress: a.stderr})
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "Created %s and %s/\n", c.Config, c.Knowledge)
		if withDemo {
			fmt.Fprintf(a.stdout, "Next: cd %s && quarry ask \"revenue by month last year\"\n", dir)
		} else {
			fmt.Fprintf(a.stdout, "Next: add your database under connections in %s, then run quarry learn\n", c.Config)
		}
		return nil
	})
	return cmd
}
