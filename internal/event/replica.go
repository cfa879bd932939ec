package event

// StampReplica returns events with replica in each run.started that names
// none, leaving the caller's slice as it was. An empty replica changes
// nothing.
func StampReplica(replica string, events []Event) []Event {
	if replica == "" {
		return events
	}
	return stampStarted(events, func(d *RunStartedData) bool {
		if d.Replica != "" {
			return false
		}
		d.Replica = replica
		return true
	})
}
