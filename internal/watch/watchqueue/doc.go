// Package watchqueue runs monitors on a job queue in quarry's state
// database: River (github.com/riverqueue/river) with its SQLite driver
// when the state is the SQLite file, and its PostgreSQL driver when the
// state is on PostgreSQL. It also keeps the monitors' memory (what
// watch.Runner remembers: each monitor's last run and the periods it has
// told of) in that database, one row per monitor, so that every worker
// and `quarry watch run` share one memory.
//
// A periodic tick job (River's periodic jobs, enqueued by the elected
// leader only) lists the monitors and, for each one due, inserts one job
// keyed uniquely by the monitor's name and its period: the schedule's
// first time after the monitor's last run. Until that job completes the
// monitor's last run does not move, so every tick, on every worker,
// computes the same key and River skips the duplicate; once it has
// completed, the monitor's memory says it ran and the next key is the
// next period. A job's body is the same runner as `quarry watch run`,
// which checks the memory again before it runs, so a job inserted twice
// (after River's cleaner has removed the first) finds the monitor not
// due. River retries a failed run, and its rescuer hands a job left
// running by a worker that died to another worker.
package watchqueue
