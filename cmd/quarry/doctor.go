package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func (a *app) doctorCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the project: config, connections, read-only safety, knowledge, model",
		Long: `Check everything quarry needs and say what to do about each problem:
the config, each connection, the privileges of the role it connects as
(a role that can do more than read fails, with the SQL for one that
cannot), the read-only probe (a few writes that the connection must
refuse), quarry's state database, the knowledge folder, and
which language model is configured (and what works without one).

Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed.`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		fs := a.rt.Diagnose(ctx)
		failed := false
		for _, f := range fs {
			failed = failed || f.Status == "fail"
		}
		if asJSON {
			if err := writeJSON(a.stdout, fs); err != nil {
				return err
			}
		} else {
			for _, f := range fs {
				fmt.Fprintf(a.stdout, "%-4s  %-10s %s\n", f.Status, f.Area, f.Detail)
				if f.Fix != "" {
					fmt.Fprintf(a.stdout, "      %-10s → %s\n", "", f.Fix)
				}
				if f.SQL != "" {
					fmt.Fprintf(a.stdout, "\n%s\n\n", indent(strings.TrimSpace(f.SQL), "      "))
				}
			}
		}
		if failed {
			return errSilent
		}
		return nil
	})
	return cmd
}
