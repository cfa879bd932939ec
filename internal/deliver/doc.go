// Package deliver sends a monitor's alert to where its owner reads it: a
// webhook (a JSON POST), a Slack-compatible incoming webhook (Slack's
// documented body: fallback text and Block Kit sections in mrkdwn) or an
// email over SMTP (an RFC 5322 message in UTF-8, quoted-printable, sent with
// STARTTLS or implicit TLS as the channel asks).
//
// A Sender delivers one Message to one Channel and returns a record of
// every attempt (Attempt) for the caller to store. Network errors, timeouts,
// HTTP 429 and 5xx and SMTP 4xx replies are retried with exponential
// backoff, honouring a server's Retry-After up to Sender.MaxWait; any other
// refusal ends the delivery at once. The clock and the wait between tries
// are the Sender's fields, so tests neither sleep nor read the wall clock.
//
// A Channel's URL (a Slack webhook's path is its token), header values and
// SMTP password are secrets, already expanded from ${VAR} by the caller's
// configuration: they never appear in an error, an Attempt or a formatted
// Channel. Errors are quarry errors whose message says what to do.
//
// Validate checks a Channel when the configuration is read, before
// anything is sent: an https URL (http only to this machine), addresses
// that parse, a password never sent in clear text to another machine.
//
// The package does no logging, holds no state between calls and reads no
// environment; its consumer declares the small interface it needs, e.g.
//
//	type Deliverer interface {
//		Send(ctx context.Context, ch deliver.Channel, m deliver.Message) ([]deliver.Attempt, error)
//	}
package deliver
