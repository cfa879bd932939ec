// Package config reads quarry.yaml: the schema, ${VAR} and ${VAR:-default}
// expansion from the environment and a .env file beside the config,
// defaults, and validation whose one-line errors name the file, line and
// field and say what to do.
//
// Secrets (connection URLs, API keys) are held in Secret, which prints,
// logs and marshals as "[redacted]"; only Secret.Value returns the real
// value, for the one place that connects. Nothing here reads the process
// environment: Load takes it as a function, so cmd reads it once.
package config
