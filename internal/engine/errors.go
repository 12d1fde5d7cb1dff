package engine

import (
	"errors"
	"fmt"
)

// Errors by meaning (docs/architecture.md "Errors by meaning"): the engine
// says what went wrong, with a description for the caller; the API edge
// (api.Failure, internal/api/errors.go) names the platform's error code of
// each meaning in one table. Test a meaning with errors.Is.
var (
	ErrConfNotFound = errors.New("conference not found")
	ErrMaxConfs     = errors.New("the maximum number of conferences is reached")
	ErrNoResource   = errors.New("no idle conference resource")
	ErrNumberUsed   = errors.New("conference number in use")
	ErrQuota        = errors.New("the conference quota is reached")
)

// Error is a failure of the engine: its meaning (one of the Err values
// above, which errors.Is finds) and the description a client is given.
type Error struct {
	Meaning error
	Desc    string
}

func (e *Error) Error() string { return e.Desc }

// Unwrap returns the meaning.
func (e *Error) Unwrap() error { return e.Meaning }

// failf builds an Error with a formatted description.
func failf(meaning error, format string, args ...any) *Error {
	return &Error{Meaning: meaning, Desc: fmt.Sprintf(format, args...)}
}

// ConfNotFound is the failure of a conference that does not exist (or
// not in the state asked for); vc answers it for conferences that end
// under its writes too.
func ConfNotFound(confID string) error {
	return failf(ErrConfNotFound, "conference %s does not exist", confID)
}
