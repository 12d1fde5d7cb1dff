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
