// Package ids makes quarry's identifiers: short, URL-safe, lexically
// sortable by creation time: ULIDs made by github.com/oklog/ulid/v2 (48 bits of milliseconds
// since the Unix epoch, then 80 random bits, in Crockford base32) behind a
// prefix that names what the ID is for ("r" for runs, "s" for sessions).
//
// The clock and the randomness are arguments, so callers decide where they
// come from (time.Now and crypto/rand.Reader in production, fixed values in
// tests) and the package holds no state.
package ids
