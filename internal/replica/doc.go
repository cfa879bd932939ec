// Package replica lets several quarry serve processes (replicas) share one
// state: each says it is alive (Member's heartbeat in the state's replicas
// table), stamps the runs it starts with its ID (Stamp), and sweeps the
// runs of replicas that stopped saying so, finishing them as failed
// (Stale decides, Finish appends, once, however many replicas sweep), and
// a Hub wakes the streams of runs whose logs grew, from PostgreSQL's
// notifications or by polling.
package replica
