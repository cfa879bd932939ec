package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchdeliver"
)

func (a *app) watchRedeliverCmd() *cobra.Command {
	var asJSON, dryRun bool
	cmd := &cobra.Command{
		Use:   "redeliver",
		Short: "Send again the alerts some channel never got, and record each delivery",
		Long: `Read the kept alerts (alerts.jsonl) and the record of deliveries
(deliveries.jsonl) and send each alert again to every channel of its
notify: that no delivery reached: every attempt failed (the endpoint was
down, a password was wrong), or none was made (quarry stopped first). The
channels are taken as quarry.yaml defines them now, so a fixed URL or
password applies. Each delivery is recorded as quarry watch run records it;
an alert that reached a channel is never sent to it again. An alert read
from a column the policy restricts now is sent with its figures and
segment withheld, saying so (docs/watch.md).

Exit status: 0 when every pending alert was delivered (or none was
pending); 4 when one still failed.`,
		Example: `  quarry watch redeliver --dry-run
  quarry watch redeliver`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "list what would be sent, send nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, _ []string) error {
		pending, err := a.rt.Undelivered(ctx)
		if err != nil {
			return err
		}
		if dryRun {
			if asJSON {
				if pending == nil {
					pending = []watchdeliver.Pending{}
				}
				return writeJSON(a.stdout, pending)
			}
			for _, p := range pending {
				withheld := ""
				if p.Withheld {
					withheld = "; its figures withheld by the column policy"
				}
				fmt.Fprintf(a.stdout, "%s %s %s → %s (%d failed deliveries%s)\n", p.Alert.Monitor, p.Alert.Kind, p.Alert.PeriodStart, p.Channel, p.Tries, withheld)
			}
			fmt.Fprintf(a.stdout, "%d pending\n", len(pending))
			return nil
		}
		out, err := a.rt.Redeliver(ctx, pending)
		if asJSON {
			if out == nil {
				out = []watch.Delivery{}
			}
			if e := writeJSON(a.stdout, out); e != nil {
				return e
			}
		} else {
			for _, d := range out {
				status := "delivered"
				if !d.OK {
					status = "failed: " + d.Error
				}
				fmt.Fprintf(a.stdout, "%s %s → %s: %s\n", d.Kind, d.PeriodStart, d.Channel, status)
			}
			if len(out) == 0 {
				fmt.Fprintln(a.stdout, "Every kept alert reached its channels; nothing to send.")
			}
		}
		if err != nil {
			return err
		}
		if len(watch.Undelivered([]watch.Outcome{{Deliveries: out}})) > 0 {
			return errUndelivered
		}
		return nil
	})
	return cmd
}
