// Package robust holds reliability tests that span the whole server (issue
// 11 "Reliability tests"): a malformed-input corpus and a user-domain
// isolation check, both generated from the endpoint catalogue and run
// against a real server on SQLite and PostgreSQL. It has no code of its
// own; see docs/benchmarks.md ("Malformed input", "Isolation").
package robust
