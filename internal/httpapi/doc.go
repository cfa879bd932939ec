// Package httpapi is quarry's HTTP transport: the chat over server-sent
// events, the POST /ask contract, the user's own SQL, runs and their
// events, full results as JSON or CSV, chat sessions, feedback, and the web
// UI's static files.
//
// The package decodes requests, calls the analyst (the same runtime as the
// CLI) and encodes what it returns; it holds no SQL and no prompts. It is
// local by default: requests whose Host is not the bound address or a
// loopback name are refused (DNS rebinding), cross-origin requests are
// refused, every response carries a strict Content-Security-Policy, model
// Markdown is rendered on the server and sanitised with images turned into
// plain links, bodies are limited, concurrent runs are capped, and no
// response ever carries the configuration's URLs or keys.
//
// A run started by a request runs on a context detached from it: a client
// that goes away stops its stream, never the run, which finishes and is
// recorded. docs/api.md documents every route.
package httpapi
