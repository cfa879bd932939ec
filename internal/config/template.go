package config

import (
	"strconv"
	"strings"
)

// TemplateOptions fills in the quarry.yaml that `quarry init` writes.
type TemplateOptions struct {
	Project string // a name for provenance; "" means "quarry"
	// DBPath is the demo database's path relative to quarry.yaml, such as
	// "demo.db"; "" writes the connection as a commented-out example.
	DBPath string
}

// yamlString writes s as a YAML scalar, quoted unless it is plainly safe.
func yamlString(s string) string {
	plain := s != ""
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == '/':
		default:
			plain = false
		}
	}
	if plain && strings.Trim(s, "0123456789.-_") != "" && !strings.HasPrefix(s, "-") {
		switch strings.ToLower(s) {
		case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		default:
			return s
		}
	}
	// A JSON string is a valid YAML double-quoted scalar once $ cannot
	// start a reference.
	return strconv.Quote(strings.ReplaceAll(s, "$", "$$"))
}

// Template returns the commented quarry.yaml that `quarry init` writes.
// Every field is explained, and the text loads cleanly with Load.
func Template(opts TemplateOptions) []byte {
	project := opts.Project
	if project == "" {
		project = "quarry"
	}
	var b strings.Builder
	w := func(lines ...string) {
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	w(
		"# quarry.yaml: how quarry reaches your data. Field reference: docs/config.md.",
		"#",
		"# Any text value may use ${VAR} or ${VAR:-default}: VAR comes from the",
		"# environment, or from a .env file beside this one (the environment wins).",
		"# $$ writes a literal $. Keep passwords and API keys out of this file:",
		"# reference them as ${VAR}; quarry never prints, logs or stores them.",
		"",
		"# The format of this file. Always 1.",
		"version: 1",
		"",
		"# A name for this project, recorded with every answer.",
		"project: "+yamlString(project),
		"",
	)
	if opts.DBPath != "" {
		w(
			"# The connection used when a command does not name one (--connection).",
			"connection: demo",
			"",
			"# The databases quarry may read. quarry only ever reads: it opens them",
			"# read-only and checks every statement before running it.",
			"connections:",
			"  demo:",
			"    # sqlite | postgres | mysql | duckdb",
			"    driver: sqlite",
			"    # sqlite and duckdb: the database file, relative to this file's folder.",
			"    path: "+yamlString(opts.DBPath),
			"  # A PostgreSQL or MySQL database is reached by URL, kept in the",
			"  # environment or .env (DATABASE_URL=postgres://reader:...@host/db):",
			"  # warehouse:",
			"  #   driver: postgres",
			"  #   url: ${DATABASE_URL}",
			"  #   # quarry refuses a role that can do more than read (docs/readonly.md);",
			"  #   # allow_privileged_role: true runs anyway and records it on every run.",
			"  #   # allow_privileged_role: false",
			"  #   # What a language model may see of its data: full (previews),",
			"  #   # aggregates-only (large enough groups) or schema-only (docs/privacy.md).",
			"  #   # privacy: aggregates-only",
			"  # Any SQL server that speaks MCP, started by quarry (command) or",
			"  # reached over HTTP (url: http://127.0.0.1:8931/mcp). Never write",
			"  # ${VAR} in args (every user can read them); pass values through env,",
			"  # which is all the server sees besides PATH, HOME, LANG and TZ:",
			"  # shop:",
			"  #   driver: mcp",
			"  #   command: quarry",
			"  #   args: [connector, sqlite, demo.db]",
			"  #   env:",
			"  #     DATABASE_URL: ${DATABASE_URL}",
			"  #   dialect: sqlite",
			"",
		)
	} else {
		w(
			"# The databases quarry may read, by name. quarry only ever reads: it",
			"# opens them read-only and checks every statement before running it.",
			"# With none, quarry proposes SQL for you to run and paste back. To add",
			"# one, remove the # from the start of an example's lines below.",
			"connections:",
			"#  mydb:",
			"#    driver: sqlite           # sqlite | postgres | mysql | duckdb | http | mcp",
			"#    path: data.db            # sqlite, duckdb: relative to this folder",
			"#  warehouse:",
			"#    driver: postgres",
			"#    url: ${DATABASE_URL}     # postgres, mysql: set DATABASE_URL in .env",
			"#    # allow_privileged_role: true  # run even if the role can write (refused by default; docs/readonly.md)",
			"#    # privacy: aggregates-only     # what a model may see: full | aggregates-only | schema-only (docs/privacy.md)",
			"#  shop:                      # a SQL server quarry talks to over MCP",
			"#    driver: mcp",
			"#    command: quarry          # a program quarry starts (quarry: itself), or url: http://.../mcp",
			"#    args: [connector, sqlite, demo.db]  # never ${VAR} here: pass values through env",
			"#    env:                     # only these reach the server, with PATH, HOME, LANG, TZ ...",
			"#      DATABASE_URL: ${DATABASE_URL}",
			"#    dialect: sqlite          # the database behind the server; generic when not given",
			"#    tool: run_query          # optional: found from the server's tools when not given",
			"",
			"# The connection used when a command does not name one (--connection).",
			"# connection: mydb",
			"",
		)
	}
	w(
		"# The knowledge folder: metrics, verified queries and notes about your data.",
		"knowledge: knowledge",
		"",
		"# quarry's own state: runs, events and results. Never your database.",
		"state: .quarry/state.db",
		"",
		"# The language model. Without one, quarry's builtin planner answers.",
		"model:",
		"  # auto | builtin | anthropic | openai. auto picks anthropic when",
		"  # ANTHROPIC_API_KEY is set, openai when OPENAI_API_KEY is set, else builtin.",
		"  # openai also means any OpenAI-compatible server (Ollama, vLLM, llama.cpp).",
		"  provider: auto",
		"  # The provider's model name; empty uses the provider's default.",
		`  model: ""`,
		"  # Empty uses ANTHROPIC_API_KEY or OPENAI_API_KEY. Never write a key here;",
		"  # reference it: api_key: ${MY_KEY}",
		`  api_key: ""`,
		"  # Empty uses ANTHROPIC_BASE_URL or OPENAI_BASE_URL, then the provider's",
		"  # endpoint. For Ollama: http://localhost:11434/v1",
		`  base_url: ""`,
		"  # The most model calls in one run's tool loop (0: the default, 16).",
		"  max_steps: 0",
		"  # The most tokens of schema (tables, columns, joins; about 4 characters",
		"  # a token) one run shows the model (0: the default, 6000).",
		"  schema_budget: 0",
		"  # The most one run may spend on the model, in US dollars (0: no ceiling).",
		"  budget_usd: 0",
		"  # How hard the model thinks when planning (effort) and when classifying",
		"  # or repairing (cheap_effort): off, low, medium, high, xhigh or max.",
		"  # Empty: medium and low. off turns thinking off where the model allows",
		"  # it (low where it does not). Thinking is billed as output tokens.",
		`  effort: ""`,
		`  cheap_effort: ""`,
		"  # The most tokens one reply may use, thinking included (0: 16000).",
		"  max_tokens: 0",
		"",
		"# Ceilings on every query.",
		"limits:",
		"  # Rows read from the database per query; reading stops there.",
		"  max_rows: 100000",
		"  # Rows shown in a terminal and the most a model ever sees.",
		"  preview_rows: 20",
		"  # How long one statement may run (30s, 2m, 1h).",
		"  statement_timeout: 30s",
		"  # The longest SQL text accepted, in bytes.",
		"  max_statement_bytes: 1048576",
		"  # Refuse a query whose EXPLAIN estimate is over this cost or row count",
		"  # (databases that have EXPLAIN); 0 means no ceiling.",
		"  max_cost: 0",
		"  max_estimated_rows: 0",
		"  # How long an identical query's result is reused; 0s turns the cache off.",
		"  cache_ttl: 5m",
		"  # How many times a failed query is regenerated with the error.",
		"  repair_attempts: 3",
		"  # The largest single value read from the database (a text, bytes or",
		"  # JSON cell), in bytes; a larger one stops the query with an error.",
		"  max_value_bytes: 16777216",
		"  # The most bytes of values in one result quarry holds in memory or sends",
		"  # to a client; quarry run streaming to a file is not bounded by it.",
		"  max_result_bytes: 268435456",
		"",
		"# Bounds on the HTTP servers: quarry serve, quarry mcp --http and",
		"# quarry connector --http.",
		"server:",
		"  # The longest a client may take to send one request, headers and body.",
		"  read_timeout: 10s",
		"  # How long an idle keep-alive connection is kept open.",
		"  idle_timeout: 2m",
		"  # The largest request header block, in bytes.",
		"  max_header_bytes: 65536",
		"  # The most MCP sessions open at once; more are refused until one closes.",
		"  max_sessions: 64",
		"  # An MCP session with no request for this long is closed.",
		"  session_idle_timeout: 30m",
		"  # Where people open quarry serve, for links to a run in alerts, e.g.",
		"  # https://quarry.example.com; empty: alerts carry no link.",
		`  public_url: ""`,
		"",
		"# The SQL guard, which lets only read-only statements through.",
		"guard:",
		"  # Functions to allow in addition to the built-in list, e.g. [my_fn].",
		"  extra_functions: []",
		"",
		"# Where monitors' alerts are delivered (quarry watch, docs/watch.md); a",
		"# monitor's notify: names these channels. Every alert is also kept in",
		"# .quarry/alerts.jsonl. Secrets come from ${VAR}: a Slack webhook URL, an",
		"# SMTP password or a credential header written here is refused.",
		"# channels:",
		"#   ops-alerts:",
		"#     kind: slack                     # webhook | slack | email",
		"#     url: ${SLACK_WEBHOOK_URL}       # the URL is the token: keep it in .env",
		"#   pager:",
		"#     kind: webhook                   # a JSON POST; https, or http to this machine",
		"#     url: https://hooks.example.com/quarry",
		"#     headers:",
		"#       Authorization: Bearer ${PAGER_TOKEN}",
		"#   team-mail:",
		"#     kind: email",
		"#     smtp:",
		"#       host: smtp.example.com",
		"#       port: 587                     # 587 starttls (default), 465 tls, 25 none",
		"#       tls: starttls",
		"#       username: alerts@example.com",
		"#       password: ${SMTP_PASSWORD}",
		"#     from: Quarry <alerts@example.com>",
		"#     to: [data-team@example.com]",
	)
	return []byte(b.String())
}
