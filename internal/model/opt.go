package model

import "encoding/json"

// Opt is an optional request member: Set tells whether the request gave
// it, so that 0 and "" can be told from absence. It is a value, not a
// pointer, so that reading a request allocates nothing for it.
type Opt[T any] struct {
	Value T
	Set   bool
}

// Some returns an Opt holding v.
func Some[T any](v T) Opt[T] { return Opt[T]{Value: v, Set: true} }

// Get returns the value and whether the request gave it.
func (o Opt[T]) Get() (T, bool) { return o.Value, o.Set }

// Or returns the value, or def when the request left the member out.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.Value
	}
	return def
}

// IsZero tells that the member is absent (json's omitzero).
func (o Opt[T]) IsZero() bool { return !o.Set }

// MarshalJSON writes the value, or null when absent.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Set {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

// UnmarshalJSON reads a value; null leaves the member absent.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = Opt[T]{}
		return nil
	}
	o.Set = true
	return json.Unmarshal(b, &o.Value)
}
