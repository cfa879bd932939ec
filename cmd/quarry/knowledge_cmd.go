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
remains, and is removed when nothing does.

The folder must load first, and it loads to the same model afterwards
(checked before anything is written). The new files are written into a
temporary folder inside the knowledge folder and renamed into place, and
model.yaml is replaced last: on any error the folder is left as it was.
Running it again changes nothing. See docs/knowledge.md.`,
		Example: `  quarry knowledge migrate
  quarry knowledge migrate --knowledge path/to/knowledge`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&dir, "knowledge", "", "the knowledge folder (default: the project's, knowledge: in quarry.yaml)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		rep, dir, err := a.rt.MigrateKnowledge(dir)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, rep)
		}
		w := a.stdout
		if rep.Done {
			fmt.Fprintf(w, "Knowledge folder %s: nothing to migrate; model.yaml holds no entities (they are in entities/, one file each)\n", dir)
			return nil
		}
		fmt.Fprintf(w, "Knowledge folder %s: moved %d entities and %d relationships from model.yaml to entities/\n", dir, rep.Entities, rep.Relationships)
		if rep.Kept > 0 {
			fmt.Fprintf(w, "  %d relationships stay in model.yaml: their from entity already had its own file\n", rep.Kept)
		}
		if rep.ModelRemoved {
			fmt.Fprintln(w, "  model.yaml held nothing else and was removed")
		}
		fmt.Fprintf(w, "  files written (%d): %s\n", len(rep.Files), clip(strings.Join(rep.Files, ", "), 300))
		return nil
	})
	return cmd
}
