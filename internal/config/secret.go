package config

import (
	"fmt"
	"log/slog"
)

// redactedText is what every printed form of a set Secret shows.
const redactedText = "[redacted]"

// Secret holds a value that must never be printed, logged or stored: a
// connection URL with a password in it, an API key. Every formatting and
// marshaling method shows "[redacted]" (or "" when the secret is empty);
// only Value returns the real text.
type Secret struct {
	value string
}

// NewSecret wraps a value as a Secret.
func NewSecret(value string) Secret { return Secret{value: value} }

// Value returns the real value. Call it only where the value is used to
// connect or authenticate, never to print, log or store.
func (s Secret) Value() string { return s.value }

// IsSet reports whether the secret holds a non-empty value.
func (s Secret) IsSet() bool { return s.value != "" }

func (s Secret) shown() string {
	if s.value == "" {
		return ""
	}
	return redactedText
}

// String returns "[redacted]", or "" when the secret is empty.
func (s Secret) String() string { return s.shown() }

// GoString returns the same as String, so %#v cannot reveal the value.
func (s Secret) GoString() string { return s.shown() }

// Format makes every fmt verb (%v %+v %#v %s %q %x ...) print the redacted
// form.
func (s Secret) Format(f fmt.State, verb rune) {
	switch verb {
	case 'q':
		fmt.Fprintf(f, "%q", s.shown())
	default:
		fmt.Fprint(f, s.shown())
	}
}

// MarshalJSON returns the redacted form as a JSON string.
func (s Secret) MarshalJSON() ([]byte, error) {
	return []byte(`"` + s.shown() + `"`), nil
}

// MarshalText returns the redacted form.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.shown()), nil }

// MarshalYAML returns the redacted form.
func (s Secret) MarshalYAML() (any, error) { return s.shown(), nil }

// LogValue makes log/slog record the redacted form.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.shown()) }
