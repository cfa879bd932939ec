package main

import (
	"context"

	"github.com/spf13/cobra"
)

func (a *app) configCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective configuration, with secrets redacted",
		Long: `Show the configuration quarry uses: quarry.yaml with defaults applied,
${VAR} references expanded and relative paths resolved. Secrets (connection
URLs, API keys) are shown as [redacted]; quarry never prints them.`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		cfg, err := a.config()
		if err != nil {
			return err
		}
		out, err := cfg.Redacted()
		if asJSON {
			out, err = cfg.RedactedJSON()
		}
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(out)
		if err == nil && asJSON {
			_, err = a.stdout.Write([]byte("\n"))
		}
		for _, w := range cfg.Warnings {
			a.rt.Warn(w)
		}
		return err
	})
	return cmd
}
