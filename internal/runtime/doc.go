// Package runtime is quarry built once from its configuration: the one
// place that opens the state store, the connections (with their role
// check, column policy and guard), the knowledge folder, the result cache
// and the model gateway, and the one request API every surface calls:
// Ask (builtin, model or manual planner, sessions and follow-ups
// included), Resume (a manual run continued with a pasted result), Run
// (the user's own SQL), the fixer of a failed statement, and the parts a
// server shares between requests (Server).
//
// The pipeline itself (plan → compile → guard → policy → execute → record
// → verify → explain) is internal/analyst's; a language model's tool loop
// (internal/agent) runs its statements through the same steps. The
// surfaces (cmd/quarry, internal/httpapi, internal/mcpserver, eval) parse
// their input, call the runtime and print what it returns.
package runtime
