package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

// app holds what every command shares: the process's streams and
// environment, read once here, and the runtime, which opens the project's
// config, store and connections on first use; they are closed when the
// command ends.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	env    func(string) (string, bool)
	now    func() time.Time
	random io.Reader
	tty    bool // stdout is a terminal
	width  int  // terminal width, or a default
	// prompts says a person answers questions on stdin (stdin and stderr
	// are terminals): init and learn then ask for the database.
	prompts bool
	// exiting says the process ends with the command (main's ask):
	// runtime.Options.Exiting.
	exiting bool

	version buildVersion // this build's version and commit

	configFlag string
	noPolicy   bool // quarry run --no-policy

	// rt is quarry built from the project's configuration: every command
	// calls it and prints what it returns.
	rt *runtime.Runtime
}

func (a *app) commands() []*cobra.Command {
	return []*cobra.Command{
		a.initCmd(),
		a.configCmd(),
		a.runCmd(),
		a.guardCmd(),
		a.runsCmd(),
		a.doctorCmd(),
		a.askCmd(),
		a.learnCmd(),
		a.importCmd(),
		a.knowledgeCmd(),
		a.evalCmd(),
		a.serveCmd(),
		a.mcpCmd(),
		a.connectorCmd(),
		a.watchCmd(),
		a.workflowCmd(),
		a.usersCmd(),
		a.tokensCmd(),
	}
}

// action adapts a command body so that every error it returns is a
// *quarry.Error: anything else is a bug, reported as internal.
func (a *app) action(fn func(ctx context.Context, cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := fn(cmd.Context(), cmd, args)
		var se silentError
		if err == nil || errors.As(err, &se) {
			return err
		}
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return err
		}
		if errors.Is(err, context.Canceled) {
			return quarry.Wrap(quarry.KindCanceled, err, "interrupted")
		}
		return quarry.Wrap(quarry.KindInternal, err, "unexpected error (please report it)")
	}
}

// configPath resolves --config: a file, a folder holding quarry.yaml, or a
// search upward from the working directory.
func (a *app) configPath() (string, error) {
	if a.configFlag != "" {
		p := a.configFlag
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			p = filepath.Join(p, "quarry.yaml")
		}
		return p, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", quarry.Wrap(quarry.KindConfig, err, "cannot read the current folder")
	}
	return config.Find(wd)
}

// loadConfig reads quarry.yaml; the runtime calls it once, on first use.
func (a *app) loadConfig() (*config.Config, error) {
	path, err := a.configPath()
	if err != nil {
		return nil, err
	}
	return config.Load(path, a.env)
}

// config is the project's quarry.yaml, loaded once.
func (a *app) config() (*config.Config, error) { return a.rt.Config() }
