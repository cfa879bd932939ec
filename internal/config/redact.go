package config

import (
	"encoding/json"

	"github.com/goccy/go-yaml"

	"github.com/quarrydata/quarry/internal/quarry"
)

// notSet is what Redacted shows for an empty secret.
const notSet = "(not set)"

// The shape of `quarry config` output. Field order is the file's order.
type (
	viewConfig struct {
		Path        string           `json:"path" yaml:"path"`
		Version     int              `json:"version" yaml:"version"`
		Project     string           `json:"project" yaml:"project"`
		Connection  string           `json:"connection" yaml:"connection"`
		Connections []viewConnection `json:"connections" yaml:"connections"`
		Knowledge   string           `json:"knowledge" yaml:"knowledge"`
		State       string           `json:"state" yaml:"state"`
		Retention   *viewRetention   `json:"retention,omitempty" yaml:"retention,omitempty"`
		Model       viewModel        `json:"model" yaml:"model"`
		Limits      viewLimits       `json:"limits" yaml:"limits"`
		Server      viewServer       `json:"server" yaml:"server"`
		Guard       viewGuard        `json:"guard" yaml:"guard"`
		Channels    []viewChannel    `json:"channels,omitempty" yaml:"channels,omitempty"`
		Auth        *viewAuth        `json:"auth,omitempty" yaml:"auth,omitempty"`
		Warnings    []string         `json:"warnings,omitempty" yaml:"warnings,omitempty"`
	}
	viewRetention struct {
		KeepRuns string `json:"keep_runs" yaml:"keep_runs"`
		Archive  string `json:"archive,omitempty" yaml:"archive,omitempty"`
	}
	viewConnection struct {
		Name   string `json:"name" yaml:"name"`
		Driver string `json:"driver" yaml:"driver"`
		Path   string `json:"path,omitempty" yaml:"path,omitempty"`
		URL    string `json:"url,omitempty" yaml:"url,omitempty"`
		// http connections: header values and schema_url are redacted.
		Headers   map[string]string `json:"headers,omitempty" yaml:"headers,omitempty"`
		SchemaURL string            `json:"schema_url,omitempty" yaml:"schema_url,omitempty"`
		Dialect   string            `json:"dialect,omitempty" yaml:"dialect,omitempty"`
		// mcp connections: env values are redacted.
		Command     string            `json:"command,omitempty" yaml:"command,omitempty"`
		Args        []string          `json:"args,omitempty" yaml:"args,omitempty"`
		Env         map[string]string `json:"env,omitempty" yaml:"env,omitempty"`
		Tool        string            `json:"tool,omitempty" yaml:"tool,omitempty"`
		SQLArgument string            `json:"sql_argument,omitempty" yaml:"sql_argument,omitempty"`
		Arguments   map[string]string `json:"arguments,omitempty" yaml:"arguments,omitempty"`
		// http and mcp connections: the cap on one answer, when set.
		MaxBytes int64 `json:"max_bytes,omitempty" yaml:"max_bytes,omitempty"`
		// mcp connections: how long the server may take to start, when set.
		StartTimeout string `json:"start_timeout,omitempty" yaml:"start_timeout,omitempty"`
		// postgres and mysql connections: run on a privileged role anyway.
		AllowPrivilegedRole bool `json:"allow_privileged_role,omitempty" yaml:"allow_privileged_role,omitempty"`
		// What of the connection's data may reach a model, and the
		// smallest group an aggregates-only connection shows it.
		Privacy      string `json:"privacy,omitempty" yaml:"privacy,omitempty"`
		MinGroupSize int    `json:"min_group_size,omitempty" yaml:"min_group_size,omitempty"`
		// Whether a model's statements wait for a person's approval, and
		// for how long.
		Approval        string `json:"approval,omitempty" yaml:"approval,omitempty"`
		ApprovalTimeout string `json:"approval_timeout,omitempty" yaml:"approval_timeout,omitempty"`
		// postgres: the role each group's members read as.
		GroupRoles map[string]string `json:"group_roles,omitempty" yaml:"group_roles,omitempty"`
	}
	viewModel struct {
		Provider     string  `json:"provider" yaml:"provider"`
		Model        string  `json:"model" yaml:"model"`
		APIKey       string  `json:"api_key" yaml:"api_key"`
		BaseURL      string  `json:"base_url" yaml:"base_url"`
		MaxSteps     int     `json:"max_steps" yaml:"max_steps"`
		SchemaBudget int     `json:"schema_budget,omitempty" yaml:"schema_budget,omitempty"`
		BudgetUSD    float64 `json:"budget_usd" yaml:"budget_usd"`
		Effort       string  `json:"effort,omitempty" yaml:"effort,omitempty"`
		Cheap        string  `json:"cheap_effort,omitempty" yaml:"cheap_effort,omitempty"`
		MaxTokens    int     `json:"max_tokens,omitempty" yaml:"max_tokens,omitempty"`
		Reason       string  `json:"chosen_because" yaml:"chosen_because"`
	}
	viewLimits struct {
		MaxRows           int64   `json:"max_rows" yaml:"max_rows"`
		PreviewRows       int     `json:"preview_rows" yaml:"preview_rows"`
		StatementTimeout  string  `json:"statement_timeout" yaml:"statement_timeout"`
		MaxStatementBytes int     `json:"max_statement_bytes" yaml:"max_statement_bytes"`
		MaxCost           float64 `json:"max_cost" yaml:"max_cost"`
		MaxEstimatedRows  int64   `json:"max_estimated_rows" yaml:"max_estimated_rows"`
		CacheTTL          string  `json:"cache_ttl" yaml:"cache_ttl"`
		RepairAttempts    int     `json:"repair_attempts" yaml:"repair_attempts"`
		MaxValueBytes     int64   `json:"max_value_bytes" yaml:"max_value_bytes"`
		MaxResultBytes    int64   `json:"max_result_bytes" yaml:"max_result_bytes"`
	}
	viewServer struct {
		ReadTimeout        string `json:"read_timeout" yaml:"read_timeout"`
		IdleTimeout        string `json:"idle_timeout" yaml:"idle_timeout"`
		MaxHeaderBytes     int    `json:"max_header_bytes" yaml:"max_header_bytes"`
		MaxSessions        int    `json:"max_sessions" yaml:"max_sessions"`
		SessionIdleTimeout string `json:"session_idle_timeout" yaml:"session_idle_timeout"`
		PublicURL          string `json:"public_url,omitempty" yaml:"public_url,omitempty"`
	}
	// viewChannel is a delivery channel: the URL, header values and SMTP
	// credentials are redacted.
	viewChannel struct {
		Name     string            `json:"name" yaml:"name"`
		Kind     string            `json:"kind" yaml:"kind"`
		URL      string            `json:"url,omitempty" yaml:"url,omitempty"`
		Headers  map[string]string `json:"headers,omitempty" yaml:"headers,omitempty"`
		SMTPHost string            `json:"smtp_host,omitempty" yaml:"smtp_host,omitempty"`
		SMTPPort int               `json:"smtp_port,omitempty" yaml:"smtp_port,omitempty"`
		SMTPUser string            `json:"smtp_username,omitempty" yaml:"smtp_username,omitempty"`
		SMTPPass string            `json:"smtp_password,omitempty" yaml:"smtp_password,omitempty"`
		TLS      string            `json:"tls,omitempty" yaml:"tls,omitempty"`
		From     string            `json:"from,omitempty" yaml:"from,omitempty"`
		To       []string          `json:"to,omitempty" yaml:"to,omitempty"`
	}
	viewAuth struct {
		OIDC viewOIDC `json:"oidc" yaml:"oidc"`
	}
	// viewOIDC is auth.oidc: the client secret is redacted.
	viewOIDC struct {
		Name         string   `json:"name" yaml:"name"`
		Issuer       string   `json:"issuer" yaml:"issuer"`
		ClientID     string   `json:"client_id" yaml:"client_id"`
		ClientSecret string   `json:"client_secret" yaml:"client_secret"`
		RedirectURL  string   `json:"redirect_url" yaml:"redirect_url"`
		Scopes       []string `json:"scopes" yaml:"scopes"`
		Claim        string   `json:"claim,omitempty" yaml:"claim,omitempty"`
		GroupsClaim  string   `json:"groups_claim,omitempty" yaml:"groups_claim,omitempty"`
	}
	viewGuard struct {
		ExtraFunctions []string `json:"extra_functions" yaml:"extra_functions"`
	}
)

func redactSecret(s Secret) string {
	if s.IsSet() {
		return redactedText
	}
	return notSet
}

// view builds the printable form; it holds no secret value, only
// "[redacted]" or "(not set)" in their place.
func (c *Config) view() viewConfig {
	v := viewConfig{
		Path:       c.Path,
		Version:    c.Version,
		Project:    c.Project,
		Connection: c.Connection,
		Knowledge:  c.Knowledge,
		State:      redactStateURL(c.State),
		Retention:  c.Retention.view(),
		Model: viewModel{
			Provider:     c.Model.Provider,
			Model:        c.Model.Model,
			APIKey:       redactSecret(c.Model.APIKey),
			BaseURL:      c.Model.BaseURL,
			MaxSteps:     c.Model.MaxSteps,
			SchemaBudget: c.Model.SchemaBudget,
			BudgetUSD:    c.Model.BudgetUSD,
			Effort:       c.Model.Effort,
			Cheap:        c.Model.CheapEffort,
			MaxTokens:    c.Model.MaxTokens,
			Reason:       c.Model.Reason,
		},
		Limits: viewLimits{
			MaxRows:           c.Limits.MaxRows,
			PreviewRows:       c.Limits.PreviewRows,
			StatementTimeout:  c.Limits.StatementTimeout.String(),
			MaxStatementBytes: c.Limits.MaxStatementBytes,
			MaxCost:           c.Limits.MaxCost,
			MaxEstimatedRows:  c.Limits.MaxEstimatedRows,
			CacheTTL:          c.Limits.CacheTTL.String(),
			RepairAttempts:    c.Limits.RepairAttempts,
			MaxValueBytes:     c.Limits.MaxValueBytes,
			MaxResultBytes:    c.Limits.MaxResultBytes,
		},
		Server: viewServer{
			ReadTimeout:        c.Server.ReadTimeout.String(),
			IdleTimeout:        c.Server.IdleTimeout.String(),
			MaxHeaderBytes:     c.Server.MaxHeaderBytes,
			MaxSessions:        c.Server.MaxSessions,
			SessionIdleTimeout: c.Server.SessionIdleTimeout.String(),
			PublicURL:          c.Server.PublicURL,
		},
		Guard:       viewGuard{ExtraFunctions: append([]string{}, c.Guard.ExtraFunctions...)},
		Warnings:    c.Warnings,
		Connections: []viewConnection{},
	}
	if o := c.Auth.OIDC; o != nil {
		v.Auth = &viewAuth{OIDC: viewOIDC{Name: o.Name, Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: redactSecret(o.ClientSecret),
			RedirectURL: o.RedirectURL, Scopes: o.Scopes, Claim: o.Claim, GroupsClaim: o.GroupsClaim}}
	}
	for _, name := range c.ConnectionNames {
		conn := c.Connections[name]
		vc := viewConnection{Name: conn.Name, Driver: conn.Driver, Path: conn.Path, AllowPrivilegedRole: conn.AllowPrivilegedRole,
			MinGroupSize: conn.MinGroupSize, GroupRoles: conn.GroupRoles}
		if conn.Privacy.Or() != quarry.PrivacyFull {
			vc.Privacy = string(conn.Privacy)
		}
		if conn.Approval {
			vc.Approval = "required"
			if conn.ApprovalTimeout > 0 {
				vc.ApprovalTimeout = conn.ApprovalTimeout.String()
			}
		}
		if conn.Path == "" && conn.Command == "" {
			vc.URL = redactSecret(conn.URL)
		}
		if conn.Driver == DriverMCP {
			vc.Dialect = string(conn.Dialect())
			vc.Command, vc.Args, vc.Tool, vc.SQLArgument = conn.Command, conn.Args, conn.Tool, conn.SQLArgument
			if conn.StartTimeout > 0 {
				vc.StartTimeout = conn.StartTimeout.String()
			}
			if len(conn.Env) > 0 {
				vc.Env = map[string]string{}
				for k, e := range conn.Env {
					vc.Env[k] = redactSecret(e)
				}
			}
			if len(conn.Arguments) > 0 {
				vc.Arguments = conn.Arguments
			}
		}
		if conn.Driver == DriverHTTP || conn.Driver == DriverMCP {
			vc.Dialect, vc.MaxBytes = string(conn.Dialect()), conn.MaxBytes
			if conn.SchemaURL.IsSet() {
				vc.SchemaURL = redactSecret(conn.SchemaURL)
			}
			if len(conn.Headers) > 0 {
				vc.Headers = map[string]string{}
				for k, h := range conn.Headers {
					vc.Headers[k] = redactSecret(h)
				}
			}
		}
		v.Connections = append(v.Connections, vc)
	}
	for _, name := range c.ChannelNames {
		ch := c.Channels[name]
		vc := viewChannel{Name: ch.Name, Kind: ch.Kind}
		if ch.Kind == "email" {
			vc.SMTPHost, vc.SMTPPort, vc.TLS, vc.From, vc.To = ch.SMTP.Host, ch.SMTP.Port, ch.SMTP.TLS, ch.From, ch.To
			if ch.SMTP.Username.IsSet() {
				vc.SMTPUser, vc.SMTPPass = redactSecret(ch.SMTP.Username), redactSecret(ch.SMTP.Password)
			}
		} else {
			vc.URL = redactSecret(ch.URL)
		}
		if len(ch.Headers) > 0 {
			vc.Headers = map[string]string{}
			for k, h := range ch.Headers {
				vc.Headers[k] = redactSecret(h)
			}
		}
		v.Channels = append(v.Channels, vc)
	}
	return v
}

// Redacted returns the effective configuration as YAML, with defaults
// applied, paths absolute, and every secret shown as "[redacted]" or
// "(not set)". It is what `quarry config` prints.
func (c *Config) Redacted() ([]byte, error) {
	out, err := yaml.MarshalWithOptions(c.view(), yaml.IndentSequence(true))
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot show the config")
	}
	return out, nil
}

// RedactedJSON is Redacted as indented JSON, for `quarry config --json`.
func (c *Config) RedactedJSON() ([]byte, error) {
	out, err := json.MarshalIndent(c.view(), "", "  ")
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot show the config")
	}
	return append(out, '\n'), nil
}

// redactStateURL hides the password of a postgres:// state URL.
func redactStateURL(state string) string {
	if !StateIsURL(state) {
		return state
	}
	return quarry.RedactURL(state)
}

func (r Retention) view() *viewRetention {
	if r.KeepRuns == 0 && r.Archive == "" {
		return nil
	}
	keep := "keep every run"
	if r.KeepRuns > 0 {
		keep = r.KeepRuns.String()
	}
	return &viewRetention{KeepRuns: keep, Archive: r.Archive}
}
