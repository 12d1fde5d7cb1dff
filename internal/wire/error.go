package wire

import (
	"errors"
	"fmt"
)

// Error is a failure the client sees: HTTP 200, success 0, error_code and a
// description that ends with the code in parentheses (seed 000 "Errors" 1).
// Lockout holds the members a failed login adds to the envelope.
type Error struct {
	Code    int
	Desc    string
	Lockout *Lockout
}

// Lockout is what a failed login adds to the failure envelope (seed 000
// "Errors" 4): the lockout counters maxlocknum and currentnum (left out
// when nil: a throttled login has none) and unlocktime, the end of the
// lock as RFC 3339 text ("" for none), or as UNIX seconds in the
// recording system's login (UnlockUnix, which then replaces it).
type Lockout struct {
	MaxLockNum *int
	CurrentNum *int
	UnlockTime string
	// UnlockUnix, when set, is unlocktime instead of UnlockTime.
	UnlockUnix *int64
}

// Counted returns the lockout counters with unlocktime.
func Counted(max, current int, unlock string) *Lockout {
	return &Lockout{MaxLockNum: &max, CurrentNum: &current, UnlockTime: unlock}
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d)", e.Desc, e.Code) }

// Errorf builds an Error with a formatted description.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Desc: fmt.Sprintf(format, args...)}
}

// E builds an Error with the code's default description.
func E(code int) *Error { return &Error{Code: code, Desc: CodeText(code)} }

// InvalidParam reports a bad parameter; path names it (e.g. "mts[1].bitrate").
func InvalidParam(path, problem string) *Error {
	return Errorf(CodeInvalidParam, "parameter %s: %s", path, problem)
}

// AsError turns any error into a client-facing Error. Anything that is not
// already an *Error becomes 99999, with no internal detail in the description.
func AsError(err error) *Error {
	var we *Error
	if errors.As(err, &we) {
		return we
	}
	return E(CodeSystemError)
}
