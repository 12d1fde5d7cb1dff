package sdk

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Error is a failure the platform answered: HTTP 200 with success 0, an
// error_code and a description (docs/errors.md). It matches, with
// errors.Is, its Code, the class sentinels that list the code (ErrNotFound,
// ErrNoPermission, ...), and another *Error with the same code.
type Error struct {
	Code        int            // error_code
	Description string         // description; it ends with the code in parentheses
	Endpoint    string         // catalogue name of the endpoint, e.g. "vc.confs.get"
	Method      string         // HTTP method of the endpoint
	Path        string         // request path
	Fields      map[string]any // further fields of the reply, e.g. maxlocknum, currentnum, unlocktime
}

func (e *Error) Error() string {
	d := e.Description
	if d == "" {
		d = fmt.Sprintf("error %d", e.Code)
	} else if !strings.HasSuffix(d, fmt.Sprintf("(%d)", e.Code)) {
		d = fmt.Sprintf("%s (%d)", d, e.Code)
	}
	if e.Endpoint != "" {
		return "confer: " + e.Endpoint + ": " + d
	}
	return "confer: " + d
}

// Is reports whether target names this error's code: a Code, a class
// sentinel, or an *Error with the same code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return int(t) == e.Code
	case *class:
		return t.has(e.Code)
	case *Error:
		return t.Code != 0 && t.Code == e.Code
	}
	return false
}

// Code is an error_code of the platform. A Code is an error, so that
// errors.Is(err, sdk.CodeConfNotFound) tells whether err is that failure.
type Code int

func (c Code) Error() string { return fmt.Sprintf("confer error code %d", int(c)) }

// Error codes of the platform (vendor reference A3) and Confer's own 90xxx
// codes (docs/errors.md).
const (
	CodeSoftwareAuthFailed     Code = 10001 // unknown license key or wrong secret
	CodeTokenInvalid           Code = 10002 // missing, unknown or expired account_token
	CodeWrongPassword          Code = 10101 // wrong password
	CodeNotLoggedIn            Code = 10102 // missing, forged or expired session cookie
	CodeConfNotFound           Code = 12103 // conference does not exist
	CodeMTNotFound             Code = 12104 // terminal does not exist
	CodeUserNotFound           Code = 19001 // user does not exist
	CodeWrongCredentials       Code = 19002 // wrong user name or password
	CodeUserDuplicate          Code = 19004 // user name already exists
	CodeNoPermission           Code = 20005 // no permission for this operation
	CodeNoTemplateSpace        Code = 20103 // every template id is taken
	CodeNameExists             Code = 20105 // the name exists
	CodeNumberUsed             Code = 20106 // conference number duplicate
	CodeVADCannotCancelSpeaker Code = 20344 // voice activation picks the speaker
	CodeVADCannotSetSpeaker    Code = 20346 // voice activation picks the speaker
	CodeMTUnreachable          Code = 20401 // the terminal is not online
	CodeFileEmpty              Code = 24016 // empty file
	CodeFileNotFound           Code = 24018 // file does not exist
	CodeIllegalBody            Code = 24506 // body or params that cannot be parsed
	CodeMaxConfs               Code = 27505 // maximum number of conferences
	CodeNoConfResource         Code = 27506 // no idle conference resource
	CodeInvalidParam           Code = 90400 // a parameter is missing, of the wrong type or out of range
	CodeAccountDisabled        Code = 90403 // the account is disabled
	CodeNoSuchEndpoint         Code = 90404 // no endpoint at this path
	CodeMethodNotAllowed       Code = 90405 // the path exists, the method does not
	CodeFileLimit              Code = 90409 // the meeting keeps the most files it may
	CodeBodyTooLarge           Code = 90413 // request body above the limit
	CodeAccountLocked          Code = 90423 // too many failed logins
	CodeNotImplemented         Code = 90501 // catalogued, not served yet
	CodeNotSupported           Code = 90505 // not at this platform release or API-Level
	CodeRoomInUse              Code = 99991 // the virtual meeting room is in use
	CodeRoomLimit              Code = 99993 // room limit reached
	CodeRoomNameExists         Code = 99995 // room name exists
	CodeRoomNotFound           Code = 99996 // virtual meeting room does not exist
	CodeTemplateNotFound       Code = 99998 // template does not exist
	CodeSystemError            Code = 99999 // system error
)

// class is a named group of error codes.
type class struct {
	name  string
	codes []Code
}

func newClass(name string, codes ...Code) *class { return &class{name: name, codes: codes} }

func (c *class) Error() string { return "confer: " + c.name }

func (c *class) has(code int) bool {
	for _, x := range c.codes {
		if int(x) == code {
			return true
		}
	}
	return false
}

// Codes returns the error codes of a class sentinel (nil for any other
// error).
func Codes(sentinel error) []Code {
	if c, ok := sentinel.(*class); ok {
		return append([]Code(nil), c.codes...)
	}
	return nil
}

// Classes of platform failures, for errors.Is.
var (
	// ErrNotFound: the conference, terminal, template, room, file, user or
	// other object named by the request does not exist (or belongs to
	// another user domain).
	ErrNotFound error = newClass("not found", CodeConfNotFound, CodeMTNotFound, 12105, CodeUserNotFound, 19005, 19903,
		20055, 20442, 21733, 22008, CodeFileNotFound, 24106, 24502, 24503, 25003, 27508, 52010, 99992,
		CodeRoomNotFound, CodeTemplateNotFound)
	// ErrNoPermission: the account may not do this.
	ErrNoPermission error = newClass("no permission", CodeNoPermission, 19003, 19008, 21721)
	// ErrNoResource: the platform lacks the resource the request needs
	// (conference ports, conferences, template or room space, media
	// adapters).
	ErrNoResource error = newClass("no resource", CodeNoConfResource, CodeMaxConfs, 20101, CodeNoTemplateSpace, 20164,
		20901, 20903, 21664, 24102, 24205, 28552, CodeRoomLimit)
	// ErrNotLoggedIn: the session cookie is missing or expired (10102).
	ErrNotLoggedIn error = newClass("not logged in", CodeNotLoggedIn)
	// ErrTokenInvalid: the account_token is missing, unknown or expired
	// (10002).
	ErrTokenInvalid error = newClass("account_token invalid", CodeTokenInvalid)
	// ErrLoginFailed: the license or the account's credentials were
	// refused, or the account is locked or disabled.
	ErrLoginFailed error = newClass("login failed", CodeSoftwareAuthFailed, CodeWrongPassword, CodeWrongCredentials,
		CodeAccountLocked, CodeAccountDisabled)
	// ErrInvalidParam: a parameter is missing, of the wrong type or out of
	// range, or the body cannot be parsed. A *DebugError matches it too.
	ErrInvalidParam error = newClass("invalid parameter", CodeInvalidParam, CodeIllegalBody)
	// ErrConflict: the name, number or object exists already, or is in use.
	ErrConflict error = newClass("conflict", CodeUserDuplicate, 19902, 19904, CodeNameExists, CodeNumberUsed, 20107,
		CodeRoomInUse, CodeRoomNameExists)
	// ErrNotSupported: the platform (its release, API-Level or build) has
	// no such endpoint.
	ErrNotSupported error = newClass("not supported", CodeNoSuchEndpoint, CodeMethodNotAllowed, CodeNotSupported)
	// ErrNotImplemented: the endpoint is catalogued but Confer does not
	// serve it yet (90501).
	ErrNotImplemented error = newClass("not implemented", CodeNotImplemented)
)

// DebugError is the answer to a change sent in debug mode (WithDebug,
// ValidateOnly) that the platform would refuse: nothing was executed, and
// List holds the platform's debug_list, whose first-level keys are
// parameter names. It matches ErrInvalidParam.
type DebugError struct {
	Endpoint string
	List     map[string]any
}

func (e *DebugError) Error() string {
	return "confer: " + e.Endpoint + ": debug mode: " + strings.Join(e.Problems(), "; ")
}

// Is makes a DebugError match ErrInvalidParam and CodeInvalidParam.
func (e *DebugError) Is(target error) bool {
	return target == ErrInvalidParam || target == CodeInvalidParam
}

// Problems lists the messages of the debug_list as "path: message", in
// order: "mts[0].bitrate: required parameter is missing".
func (e *DebugError) Problems() []string {
	var out []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if prefix != "" && k != prefix[strings.LastIndex(prefix, ".")+1:] {
					p = prefix + "." + k
				} else if prefix != "" {
					p = prefix
				}
				walk(p, x[k])
			}
		case []any:
			for i, el := range x {
				walk(fmt.Sprintf("%s[%d]", prefix, i), el)
			}
		default:
			out = append(out, fmt.Sprintf("%s: %v", prefix, x))
		}
	}
	walk("", e.List)
	return out
}

// ErrTransport is matched by every TransportError.
var ErrTransport = errors.New("confer: transport error")

// TransportError is a failure below the platform's envelope: the request
// could not be sent, the connection failed, the HTTP status was not 200, or
// the reply was not the JSON object the platform sends. It is never a
// platform error code.
type TransportError struct {
	Method     string
	URL        string // without the query string, which may carry the token
	StatusCode int    // HTTP status; 0 when no reply came
	Err        error
}

func (e *TransportError) Error() string {
	if e.StatusCode != 0 && e.StatusCode != 200 {
		return fmt.Sprintf("confer: %s %s: HTTP %d: %v", e.Method, e.URL, e.StatusCode, e.Err)
	}
	return fmt.Sprintf("confer: %s %s: %v", e.Method, e.URL, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// Is makes every TransportError match ErrTransport.
func (e *TransportError) Is(target error) bool { return target == ErrTransport }

// ErrNoCredentials is returned when the client must log in (again) but was
// given no license and account to do it with.
var ErrNoCredentials = errors.New("confer: no license key, secret, user name and password to log in with")
