package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

func (a *app) guardCmd() *cobra.Command {
	var dialect, file string
	var asJSON, lines bool
	cmd := &cobra.Command{
		Use:   "guard [SQL | -f FILE | -]",
		Short: "Check SQL against quarry's read-only guard without running it",
		Long: `Check statements against the guard that stands before every execution, and
print each verdict: allowed, or the rule it breaks, where, and what to change.
Nothing is executed and no database is needed.

Exit status: 0 when every statement is allowed, 1 when any is rejected,
2 on a usage error.`,
		Example: `  quarry guard "SELECT count(*) FROM orders"
  quarry guard --dialect sqlite -f query.sql
  quarry guard --lines --json < statements.txt`,
		Args: cobra.MaximumNArgs(1),
	}
	cmd.Flags().StringVar(&dialect, "dialect", "", "any, sqlite, postgres, mysql or duckdb (default: the project's connection, else any)")
	cmd.Flags().StringVarP(&file, "file", "f", "", "read the SQL from FILE (- for standard input)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print verdicts as JSON")
	cmd.Flags().BoolVar(&lines, "lines", false, "treat each input line as one statement (batch checks)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		d, err := a.guardDialect(dialect)
		if err != nil {
			return err
		}
		text, err := a.readInput(args, file, "SQL")
		if err != nil {
			return err
		}
		g, closeGuard, err := a.rt.NewGuard(d)
		if err != nil {
			return err
		}
		defer closeGuard()
		stmts := []string{text}
		if lines {
			stmts = stmts[:0]
			sc := bufio.NewScanner(strings.NewReader(text))
			sc.Buffer(make([]byte, 0, 64<<10), maxInputBytes)
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) != "" {
					stmts = append(stmts, sc.Text())
				}
			}
		}
		rejected := 0
		verdicts := make([]sqlguard.Verdict, 0, len(stmts))
		for _, s := range stmts {
			v := g.Check(ctx, s)
			if !v.Allowed {
				rejected++
			}
			verdicts = append(verdicts, v)
		}
		if err := a.printVerdicts(stmts, verdicts, asJSON, lines); err != nil {
			return err
		}
		if rejected > 0 {
			return errSilent
		}
		return nil
	})
	return cmd
}

func (a *app) printVerdicts(stmts []string, verdicts []sqlguard.Verdict, asJSON, lines bool) error {
	if asJSON {
		enc := json.NewEncoder(a.stdout)
		if !lines {
			return enc.Encode(verdicts[0])
		}
		type lineVerdict struct {
			Line int    `json:"line"`
			SQL  string `json:"sql"`
			sqlguard.Verdict
		}
		for i, v := range verdicts {
			if err := enc.Encode(lineVerdict{Line: i + 1, SQL: stmts[i], Verdict: v}); err != nil {
				return err
			}
		}
		return nil
	}
	for i, v := range verdicts {
		prefix := ""
		if lines {
			prefix = fmt.Sprintf("%d: ", i+1)
		}
		fmt.Fprintf(a.stdout, "%s%s\n", prefix, v.String())
		if !lines {
			for _, x := range v.Violations[min(1, len(v.Violations)):] {
				fmt.Fprintf(a.stdout, "  also: %s at byte %d: %s\n", x.Code, x.Pos, x.Message)
			}
		}
	}
	return nil
}

// guardDialect resolves --dialect, falling back to the project's default
// connection and then to the generic dialect.
func (a *app) guardDialect(flag string) (quarry.Dialect, error) {
	switch d := quarry.Dialect(strings.ToLower(flag)); d {
	case quarry.DialectGeneric, quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB:
		return d, nil
	case "generic":
		return quarry.DialectGeneric, nil
	case "postgresql":
		return quarry.DialectPostgres, nil
	case "mariadb":
		return quarry.DialectMySQL, nil
	case "":
	default:
		return "", quarry.Errorf(quarry.KindUsage, "unknown dialect %q; use any, sqlite, postgres, mysql or duckdb", flag)
	}
	if cfg, err := a.config(); err == nil {
		if cc, err := cfg.Conn(""); err == nil {
			return cc.Dialect(), nil
		}
	}
	return quarry.DialectGeneric, nil
}
