// Package archtest holds the tests that enforce quarry's architecture: the
// dependency rules between packages (docs/ARCHITECTURE.md), that nothing
// below cmd reads the environment, and that every package is documented.
// It has no code of its own.
package archtest
