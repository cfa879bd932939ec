package event

// Event types of the language-model path: the agent's tool loop, its
// repairs, manual mode (a proposed query and the results a person pasted)
// and fixes of the user's own SQL. The builtin planner emits none of them.
const (
	ToolCalled      Type = "tool.called"      // the model called one tool
	RepairAttempted Type = "repair.attempted" // a failed query was fed back to the model for a repair
	QueryProposed   Type = "query.proposed"   // manual mode: the SQL a person is to run
	ResultsPasted   Type = "results.pasted"   // manual mode: the result a person ran and pasted
	FixProposed     Type = "fix.proposed"     // run: the model's fix of the user's failed SQL
	AgentFailed     Type = "agent.failed"     // the tool loop stopped without an answer
	SchemaShown     Type = "schema.shown"     // tables and columns of the schema the model was shown, and why
)

// StatusAwaitingResults is the status of a manual-mode run whose proposed
// query waits for a person to run it and paste the result.
const StatusAwaitingResults = "awaiting_results"

// ToolCalledData records one tool call of the model: its name, its
// arguments (as the model wrote them) and how it ended. The tool's output is
// not recorded: results are in the result store, knowledge in its folder.
type ToolCalledData struct {
	Tool       string  `json:"tool"`
	Step       int     `json:"step"` // the loop's step, from 1
	Input      string  `json:"input,omitempty"`
	OK         bool    `json:"ok"`
	Error      string  `json:"error,omitempty"`
	DurationMS float64 `json:"duration_ms,omitempty"`
	// Withheld says what of the tool's output the connection's privacy
	// tier kept from the model, and why; empty when nothing.
	Withheld string `json:"withheld,omitempty"`
}

// RepairAttemptedData records a failed query handed back to the model with
// its classified error: unknown_column, unknown_table, ambiguous,
// type_mismatch, syntax, timeout, too_costly, rejected, or other.
type RepairAttemptedData struct {
	Attempt int    `json:"attempt"` // 1 for the first repair
	Class   string `json:"class"`
	Error   string `json:"error"`
	SQL     string `json:"sql"`
}

// QueryProposedData records the query a person is asked to run, and the
// columns the answer expects back (empty when unknown).
type QueryProposedData struct {
	SQL     string   `json:"sql"`
	Columns []string `json:"columns,omitempty"`
}

// ResultsPastedData records the result a person ran and pasted: the format
// it was read as and its shape. The rows themselves are in the result store.
type ResultsPastedData struct {
	Format     string   `json:"format"` // csv, tsv, psql, mysql, markdown, json
	Rows       int64    `json:"rows"`
	Columns    []string `json:"columns,omitempty"`
	ResultID   string   `json:"result_id,omitempty"`
	ResultHash string   `json:"result_hash,omitempty"`
}

// FixProposedData records a fix the model proposed for the user's SQL after
// the database or the guard rejected it, and whether it was applied.
type FixProposedData struct {
	Error    string `json:"error"` // what the fixer was shown, with the SQL
	SQL      string `json:"sql"`   // the fixed SQL
	Diff     string `json:"diff"`
	Allowed  bool   `json:"allowed"` // the guard's verdict on the fix
	Accepted bool   `json:"accepted"`
}

// AgentFailedData records why the tool loop ended without an answer: max
// steps, an unknown tool, invalid arguments, the budget, the repair budget,
// a model error.
type AgentFailedData struct {
	Reason  string `json:"reason"` // max_steps, unknown_tool, invalid_arguments, budget, repairs, model, no_answer
	Message string `json:"message"`
	Steps   int    `json:"steps"`
}

// SchemaShownData records what of the schema the model was shown at one
// step, and why: by the system prompt (step 0, before the first call), a
// search_schema or a describe_table. A request carries everything shown
// at earlier steps, so the schema.shown events before a model.called say
// what that call was sent. Tokens are estimated as characters / 4.
type SchemaShownData struct {
	Step    int          `json:"step"`
	Source  string       `json:"source"`          // prompt, search_schema or describe_table
	Query   string       `json:"query,omitempty"` // the question, the search's words or the table described
	Tables  []ShownTable `json:"tables,omitempty"`
	Tokens  int          `json:"tokens"`        // of this part
	Total   int          `json:"total_tokens"`  // shown in the run so far, this part included
	Budget  int          `json:"budget_tokens"` // the run's schema budget
	Full    int          `json:"full_tokens,omitempty"`
	Omitted int          `json:"omitted,omitempty"` // tables found but left out by the budget
}

// ShownTable is one table shown: the columns shown of it, and why it was
// shown: "words" (Words are the words it matched), "join" (it joins the
// two tables in Via), "neighbour" (a foreign key joins it to Via),
// "listed" (the schema is shown in order) or "described".
type ShownTable struct {
	Table   string   `json:"table"`
	Columns []string `json:"columns,omitempty"`
	Why     string   `json:"why"`
	Words   []string `json:"words,omitempty"`
	Via     []string `json:"via,omitempty"`
	Score   float64  `json:"score,omitempty"`
}

// EventType implementations.
func (*ToolCalledData) EventType() Type      { return ToolCalled }
func (*SchemaShownData) EventType() Type     { return SchemaShown }
func (*RepairAttemptedData) EventType() Type { return RepairAttempted }
func (*QueryProposedData) EventType() Type   { return QueryProposed }
func (*ResultsPastedData) EventType() Type   { return ResultsPasted }
func (*FixProposedData) EventType() Type     { return FixProposed }
func (*AgentFailedData) EventType() Type     { return AgentFailed }
