package wire

import (
	"errors"
	"fmt"
)

// Error is a failure the client sees: HTTP 200, success 0, error_code and a
// description that ends with the code in parentheses (seed 000 "Errors" 1).
// Extra holds fields some failures add to the envelope, such as the lockout
// counters maxlocknum, currentnum and unlocktime.
type Error struct {
	Code  int
	Desc  string
	Extra map[string]any
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
