package compat

// a1Rules are the changes of reference A1-api-changes.md (5.0.0.4.1 to
// 6.0.0.3.0) that the seeds' history does not already state.
func a1Rules() []Rule { return nil }
