package store

import "context"

// RecordKey names one stored version of a record: what a cache of decoded
// documents needs to know whether its copy is current.
type RecordKey struct {
	ID         string
	DomainMoid string // filled by RecordKeys
	Version    int64
}

// ConfPager pages conference records ("conf") by the start time of their
// documents (start_time, then the id), in SQL: sqlstore implements it over
// an index, so that a page costs the rows it returns rather than every
// running conference. q.Kind must be "conf"; q.States holds one state;
// Desc is not supported. The count is of every match.
type ConfPager interface {
	ConfsByStart(ctx context.Context, q RecordQuery) ([]RecordKey, int, error)
}

// KeyLister lists the ids, domains and versions of the records of a kind
// in a state, in every domain, without their documents: a sweep that
// remembers what it found in each version decodes only what changed
// (sqlstore implements it).
type KeyLister interface {
	RecordKeys(ctx context.Context, kind, state string) ([]RecordKey, error)
}

// GuardedWriter reads a record with the state of another record of its
// domain, and swaps a record only while another is in a state, each in
// one statement (sqlstore implements it). A change of speaker or
// chairman checks that its terminal is online: read with the conference,
// and again by the write, which the terminal's leaving cannot pass
// (vc/control_speaker.go).
type GuardedWriter interface {
	// GetRecordAndState is GetRecord of (kind, id) with the state of
	// (kind2, id2) of the same domain, "" when that record does not exist.
	GetRecordAndState(ctx context.Context, kind, domainMoid, id, kind2, id2 string) (Record, string, error)
	// SwapRecordWhile is SwapRecord that writes only while the record
	// (kind, id) of r's domain is in state, and keeps it there until the
	// write commits (PostgreSQL locks it; SQLite's writes are serial).
	// The stored record must also have been created at r.CreatedAt, so
	// that a record kept long (engine.Conferences.Kept) cannot land on a
	// record of the same key created again since and at the same version.
	// ErrConflict when the version or creation changed or that record is
	// not in state: read both again.
	SwapRecordWhile(ctx context.Context, r Record, kind, id, state string) error
}

// DomainCounter counts the user domains (sqlstore implements it): the
// engine's per-domain shares of capacity apply only on a platform of more
// than one (engine.Config.DomainShare).
type DomainCounter interface {
	CountDomains(ctx context.Context) (int, error)
}
