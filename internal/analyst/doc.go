// Package analyst is the runtime behind every surface: it turns the user's
// own SQL (Run) or a question (Ask) into a recorded run. Each step emits
// typed events through an event.Recorder, so the run's status, SQL, rows,
// checks and answer are a fold of its log.
//
// It depends only on small interfaces it declares (a connection that
// queries, a guard, a result store, a planner) and on the pure cores
// (sqlguard verdicts, semantic, verify, narrate); cmd wires the concrete
// adapters.
package analyst
