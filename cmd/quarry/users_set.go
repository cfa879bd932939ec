package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/store"
)

// usersSetCmd is one of the quarry users set-… commands: set checks the
// arguments after the person's name, changes the person in the state and
// returns the line that says what changed.
func (a *app) usersSetCmd(use, short string, args cobra.PositionalArgs, set func(ctx context.Context, st store.State, name string, rest []string) (string, error)) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Args: args}
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		said, err := set(ctx, st, args[0], args[1:])
		if err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, said)
		return nil
	})
	return cmd
}

func (a *app) usersSetRoleCmd() *cobra.Command {
	return a.usersSetCmd("set-role NAME admin|analyst|viewer", "Change a person's role",
		exactArgs(2, "give the name and the role: quarry users set-role NAME viewer"),
		func(ctx context.Context, st store.State, name string, rest []string) (string, error) {
			r, err := auth.ParseRole(rest[0])
			if err != nil {
				return "", err
			}
			if err := lastAdmin(ctx, st, name, r); err != nil {
				return "", err
			}
			return fmt.Sprintf("%s is now %s.", name, r), st.SetRole(ctx, name, string(r))
		})
}

func (a *app) usersSetGroupsCmd() *cobra.Command {
	return a.usersSetCmd("set-groups NAME [GROUP ...]", "Replace the groups a person is in (none: no group)",
		minArgs(1, "give the name and the groups: quarry users set-groups NAME support emea"),
		func(ctx context.Context, st store.State, name string, groups []string) (string, error) {
			if _, err := st.User(ctx, name); err != nil {
				return "", err
			}
			if err := a.checkGroups(groups); err != nil {
				return "", err
			}
			said := fmt.Sprintf("%s is in %s now.", name, strings.Join(groups, ", "))
			if len(groups) == 0 {
				said = name + " is in no group now."
			}
			return said, st.SetGroups(ctx, name, groups)
		})
}

func (a *app) usersSetConnectionsCmd() *cobra.Command {
	return a.usersSetCmd("set-connections NAME [CONNECTION ...]", "Replace the connections a person may use (none: all)",
		minArgs(1, "give the name and the connections: quarry users set-connections NAME warehouse"),
		func(ctx context.Context, st store.State, name string, conns []string) (string, error) {
			if err := a.knownConnections(conns); err != nil {
				return "", err
			}
			said := fmt.Sprintf("%s may use %s now.", name, strings.Join(conns, ", "))
			if len(conns) == 0 {
				said = name + " may use every connection now."
			}
			return said, st.SetConnections(ctx, name, conns)
		})
}

func (a *app) usersSetApprovalCmd() *cobra.Command {
	return a.usersSetCmd("set-approval NAME required|off", "Make a model's statements for a person wait for an admin's approval, or not",
		exactArgs(2, "give the name and the mode: quarry users set-approval NAME required"),
		func(ctx context.Context, st store.State, name string, rest []string) (string, error) {
			on, err := parseApproval(rest[0])
			if err != nil {
				return "", err
			}
			said := fmt.Sprintf("%s's statements no longer wait for approval (a connection with approval: required still holds them).", name)
			if on {
				said = fmt.Sprintf("Every statement a model proposes for %s now waits for an admin's approval.", name)
			}
			return said, st.SetApproval(ctx, name, on)
		})
}
