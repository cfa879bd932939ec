package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/ids"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

func (a *app) usersCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "users",
		Short: "Add, list and remove the people who may use this quarry, and their roles",
		Long: `People who may use a shared quarry (docs/auth.md). Once the state has any
person, quarry serve and quarry mcp --http answer only requests that carry
one of their API tokens (quarry tokens create) or a browser signed in with one.

Roles: admin (everything, every run), analyst (asks, runs SQL and workflows
on the connections they may use, sees their own runs), viewer (reads their
own runs, starts none). --connection limits a person to some connections;
without it they may use all. --approval required makes every statement a
language model proposes for the person wait for an admin's approval in the
web UI before it runs (docs/approval.md); set-approval changes it.`,
		Example: `  quarry users add ann --role admin
  quarry users add bob --role analyst --connection warehouse
  quarry users list --json
  quarry users set-role bob viewer
  quarry users set-approval bob required
  quarry users remove bob`,
	}
	cmd.AddCommand(a.usersAddCmd(), a.usersListCmd(), a.usersRemoveCmd(), a.usersSetRoleCmd(), a.usersSetGroupsCmd(), a.usersSetConnectionsCmd(), a.usersSetApprovalCmd())
	return cmd
}

func (a *app) usersAddCmd() *cobra.Command {
	var role, approval string
	var conns, groups []string
	cmd := &cobra.Command{
		Use:   "add NAME --role admin|analyst|viewer [--approval required]",
		Short: "Add a person with a role",
		Args:  exactArgs(1, "give the person's name: quarry users add NAME --role analyst"),
	}
	cmd.Flags().StringVar(&role, "role", "", "admin, analyst or viewer (required)")
	cmd.Flags().StringArrayVar(&conns, "connection", nil, "a connection the person may use (repeat for several; default: all)")
	cmd.Flags().StringArrayVar(&groups, "group", nil, "a group the person is in (repeat for several); knowledge/policy.yaml says what its members may not read")
	cmd.Flags().StringVar(&approval, "approval", "off", "required: a model's statements for this person wait for an admin's approval (docs/approval.md)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		name := args[0]
		if err := a.checkGroups(groups); err != nil {
			return err
		}
		needs, err := parseApproval(approval)
		if err != nil {
			return err
		}
		if !quarry.PersonName(name) {
			return quarry.Errorf(quarry.KindUsage, "%q is not a name quarry takes: use letters, digits and . _ @ - (at most 100)", name)
		}
		if role == "" {
			return quarry.Errorf(quarry.KindUsage, "give a role: --role admin, analyst or viewer")
		}
		r, err := auth.ParseRole(role)
		if err != nil {
			return err
		}
		if err := a.knownConnections(conns); err != nil {
			return err
		}
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		// Runs are kept under their owner's name: a new person under the
		// name of one removed would read everything that person asked.
		us, err := st.Users(ctx)
		if err != nil {
			return err
		}
		// Two names that differ only in case read as one person's to
		// people, but own runs apart (found from outside: BOB beside bob).
		if i := slices.IndexFunc(us, func(u store.User) bool { return u.Name != name && strings.EqualFold(u.Name, name) }); i >= 0 {
			return quarry.Errorf(quarry.KindUsage, "%q is %q in other case, a person already added; give the new person another name", name, us[i].Name)
		}
		if !slices.ContainsFunc(us, func(u store.User) bool { return u.Name == name }) {
			owned, err := st.Runs(ctx, store.RunFilter{Owner: name, Limit: 1})
			if err != nil {
				return err
			}
			if len(owned) > 0 {
				return quarry.Errorf(quarry.KindUsage, "runs are recorded under %q, a person removed earlier; give the new person another name, so that those runs stay theirs", name)
			}
		}
		err = st.AddUser(ctx, store.User{Name: name, Role: string(r), Connections: conns, Groups: groups, Approval: needs, CreatedAt: a.now()})
		if quarry.KindOf(err) == quarry.KindConflict {
			return quarry.Errorf(quarry.KindUsage, "%s", quarry.Message(err))
		}
		if err != nil {
			return err
		}
		which := "every connection"
		if len(conns) > 0 {
			which = "connections " + strings.Join(conns, ", ")
		}
		if len(groups) > 0 {
			which += "; groups " + strings.Join(groups, ", ")
		}
		if needs {
			which += ", approval required"
		}
		fmt.Fprintf(a.stdout, "Added %s (%s, %s). Give them a token: quarry tokens create --user %s\n", name, r, which, name)
		return nil
	})
	return cmd
}

// knownConnections refuses connection names quarry.yaml does not have.
func (a *app) knownConnections(names []string) error {
	if len(names) == 0 {
		return nil
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	for _, n := range names {
		if len(cfg.ConnectionNames) == 0 {
			return quarry.Errorf(quarry.KindUsage, "--connection %s: quarry.yaml has no connections yet; add it there first, or leave --connection out", n)
		}
		if _, ok := cfg.Connections[n]; !ok {
			return quarry.Errorf(quarry.KindUsage, "no connection %q in quarry.yaml; the connections are: %s", n, strings.Join(cfg.ConnectionNames, ", "))
		}
	}
	return nil
}

func (a *app) usersListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the people, their roles and connections",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		us, err := st.Users(ctx)
		if err != nil {
			return err
		}
		if asJSON {
			if us == nil {
				us = []store.User{}
			}
			return writeJSON(a.stdout, us)
		}
		if len(us) == 0 {
			fmt.Fprintln(a.stderr, "No people yet: quarry serve asks nobody to sign in on this machine. Add one with quarry users add NAME --role admin.")
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tROLE\tCONNECTIONS\tGROUPS\tAPPROVAL\tCREATED")
		for _, u := range us {
			conns, groups := "all", "-"
			if len(u.Connections) > 0 {
				conns = strings.Join(u.Connections, ",")
			}
			if len(u.Groups) > 0 {
				groups = strings.Join(u.Groups, ",")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", u.Name, u.Role, conns, groups, approvalWord(u.Approval), u.CreatedAt.UTC().Format("2006-01-02 15:04"))
		}
		return tw.Flush()
	})
	return cmd
}

func (a *app) usersRemoveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a person: their tokens stop working at once; their runs stay",
		Args:  exactArgs(1, "give the person's name: quarry users remove NAME"),
	}
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		if err := lastAdmin(ctx, st, args[0], ""); err != nil {
			return err
		}
		if err := st.RemoveUser(ctx, args[0], a.now()); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "Removed %s; their tokens are revoked and their browsers signed out.\n", args[0])
		if us, err := st.Users(ctx); err == nil && len(us) == 0 {
			fmt.Fprintln(a.stderr, "quarry: nobody is left: sign-in is off again on loopback (quarry serve --allow-remote refuses to start without people)")
		}
		return nil
	})
	return cmd
}

// checkGroups refuses group names quarry does not take, and says on
// standard error which groups knowledge/policy.yaml does not mention
// (their members read what everyone reads, until it does).
func (a *app) checkGroups(groups []string) error {
	for _, g := range groups {
		if !quarry.PersonName(g) {
			return quarry.Errorf(quarry.KindUsage, "%q is not a group name quarry takes: use letters, digits and . _ @ - (at most 100)", g)
		}
	}
	if len(groups) == 0 {
		return nil
	}
	known, err := a.rt.PolicyGroups()
	if err != nil {
		return err
	}
	for _, g := range groups {
		if !slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, g) }) {
			fmt.Fprintf(a.stderr, "quarry: knowledge/policy.yaml has no group %q yet: its members read what everyone else reads until it has\n", g)
		}
	}
	return nil
}

// parseApproval reads an approval mode: required or off.
func parseApproval(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "required":
		return true, nil
	case "off":
		return false, nil
	}
	return false, quarry.Errorf(quarry.KindUsage, "no approval mode %q; give required or off", s)
}

func approvalWord(on bool) string {
	if on {
		return "required"
	}
	return "off"
}

func (a *app) tokensCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tokens",
		Short: "Create, list and revoke API tokens",
		Long: `API tokens of the people of quarry users (docs/auth.md). A token is shown once,
when it is made; quarry keeps only its SHA-256. Send it as
Authorization: Bearer qry_… to quarry serve or quarry mcp --http, or paste
it into the web chat's sign-in form.`,
		Example: `  quarry tokens create --user bob --label laptop
  quarry tokens list
  quarry tokens revoke tok_01…`,
	}
	cmd.AddCommand(a.tokensCreateCmd(), a.tokensListCmd(), a.tokensRevokeCmd())
	return cmd
}

func (a *app) tokensCreateCmd() *cobra.Command {
	var user, label string
	cmd := &cobra.Command{
		Use:   "create --user NAME [--label TEXT]",
		Short: "Make a token for a person and print it once",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().StringVar(&user, "user", "", "the person the token signs in as (required)")
	cmd.Flags().StringVar(&label, "label", "", "a note saying where the token is used")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if user == "" {
			return quarry.Errorf(quarry.KindUsage, "say whose token it is: quarry tokens create --user NAME")
		}
		if len(label) > 100 || strings.ContainsFunc(label, func(r rune) bool { return !unicode.IsPrint(r) }) {
			return quarry.Errorf(quarry.KindUsage, "a label is at most 100 printable characters (no tabs, new lines or escapes)")
		}
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		secret, hash, err := auth.NewToken(a.random)
		if err != nil {
			return err
		}
		t := store.Token{ID: ids.New("tok", a.now(), a.random), User: user, Label: label, Hash: hash, CreatedAt: a.now()}
		if err := st.CreateToken(ctx, t); err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, secret)
		fmt.Fprintf(a.stderr, "quarry: token %s for %s. This is the only time it is shown: keep it now (quarry stores only its hash). Revoke it with quarry tokens revoke %s.\n", t.ID, user, t.ID)
		return nil
	})
	return cmd
}

func (a *app) tokensListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tokens (never their secrets)",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		ts, err := st.Tokens(ctx)
		if err != nil {
			return err
		}
		if asJSON {
			if ts == nil {
				ts = []store.Token{}
			}
			return writeJSON(a.stdout, ts) // Token's JSON has no hash, and there is no secret
		}
		if len(ts) == 0 {
			fmt.Fprintln(a.stderr, "No tokens yet. Make one with quarry tokens create --user NAME.")
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tUSER\tLABEL\tCREATED\tLAST USED\tSTATE")
		for _, t := range ts {
			used, state := "never", "active"
			if !t.LastUsed.IsZero() {
				used = t.LastUsed.UTC().Format("2006-01-02 15:04")
			}
			if !t.RevokedAt.IsZero() {
				state = "revoked " + t.RevokedAt.UTC().Format("2006-01-02 15:04")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.User, t.Label, t.CreatedAt.UTC().Format("2006-01-02 15:04"), used, state)
		}
		return tw.Flush()
	})
	return cmd
}

func (a *app) tokensRevokeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token: it stops working at once, and so do the browsers signed in with it",
		Args:  exactArgs(1, "give the token's ID (quarry tokens list): quarry tokens revoke ID"),
	}
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		if err := st.RevokeToken(ctx, args[0], a.now()); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "Revoked %s.\n", args[0])
		return nil
	})
	return cmd
}

// exactArgs accepts n arguments and otherwise says how to call the
// command.
func exactArgs(n int, how string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return quarry.Errorf(quarry.KindUsage, "%s", how)
		}
		return nil
	}
}

// minArgs accepts n arguments or more and otherwise says how to call the
// command.
func minArgs(n int, how string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return quarry.Errorf(quarry.KindUsage, "%s", how)
		}
		return nil
	}
}

// peopleStore is what lastAdmin reads.
type peopleStore interface {
	Users(ctx context.Context) ([]store.User, error)
}

// lastAdmin refuses to remove (role "") or demote the only admin while
// other people remain: nobody would be left to see every run or to
// manage the people. Removing the last person of all is allowed.
func lastAdmin(ctx context.Context, st peopleStore, name string, role auth.Role) error {
	us, err := st.Users(ctx)
	if err != nil {
		return err
	}
	admins, target := 0, false
	for _, u := range us {
		if u.Role == string(auth.Admin) {
			admins++
			target = target || u.Name == name
		}
	}
	if !target || admins > 1 || role == auth.Admin || (role == "" && len(us) == 1) {
		return nil
	}
	return quarry.Errorf(quarry.KindUsage, "%s is the only admin; make someone else admin first (quarry users set-role NAME admin)", name)
}
