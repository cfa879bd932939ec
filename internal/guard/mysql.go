package guard

// mysqlEngine returns the MySQL parser as the engine check.
func mysqlEngine() Engine { return nil }
