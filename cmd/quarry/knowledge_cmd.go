package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func (a *app) knowledgeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "knowledge",
		Short: "Work on the knowledge folder's layout",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(a.knowledgeMigrateCmd())
	return cmd
}

func (a *app) knowledgeMigrateCmd() *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Split model.yaml into one file per entity (entities/*.yaml)",
		Long: `Move every entity of the knowledge folder's model.yaml into a file of its
own, entities/<name>.yaml, with the relationships that start from it, as
written: comments, order and formatting are kept. model.yaml keeps what
remains, and is removed when nothing does. Files with CRLF line breaks
keep them.

The folder must load first, and it loads to the same model afterwards
(checked before anything is written). A new entities/ is written as a
temporary folder inside the knowledge folder and renamed into place in
one step, and model.yaml is replaced last: on an error or an interrupt
(Ctrl-C) the folder is left as it was. If migrate is killed between the
two, every command reports the moved entities as defined twice: run
migrate again and it finishes. Running it on a split folder changes
nothing. See docs/knowledge.md.`,
		Example: `  quarry knowledge migrate
  quarry knowledge migrate --knowledge path/to/knowledge`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&dir, "knowledge", "", "the knowledge folder (default: the project's, knowledge: in quarry.yaml)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		rep, dir, err := a.rt.MigrateKnowledge(ctx, dir)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, rep)
		}
		w := a.stdout
		switch {
		case rep.Done && rep.NoModel:
			fmt.Fprintf(w, "Knowledge folder %s: nothing to migrate; it is already split (no model.yaml: each entity has its own file in entities/)\n", dir)
			return nil
		case rep.Done:
			fmt.Fprintf(w, "Knowledge folder %s: nothing to migrate; model.yaml holds no entities (they are in entities/, one file each)\n", dir)
			return nil
		}
		if rep.Resumed {
			fmt.Fprintf(w, "Knowledge folder %s: finished a migrate that was interrupted\n", dir)
		}
		fmt.Fprintf(w, "Knowledge folder %s: moved %s and %s from model.yaml to entities/\n", dir, count(rep.Entities, "entity", "entities"), count(rep.Relationships, "relationship", "relationships"))
		if rep.Kept == 1 {
			fmt.Fprintln(w, "  1 relationship stays in model.yaml: its from entity already had its own file")
		} else if rep.Kept > 1 {
			fmt.Fprintf(w, "  %d relationships stay in model.yaml: their from entity already had its own file\n", rep.Kept)
		}
		if rep.ModelRemoved {
			fmt.Fprintln(w, "  model.yaml held nothing else and was removed")
		}
		if len(rep.Files) > 0 {
			fmt.Fprintf(w, "  files written (%d): %s\n", len(rep.Files), clip(strings.Join(rep.Files, ", "), 300))
		}
		return nil
	})
	return cmd
}

// count is "1 entity", "2 entities".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
