package sdk

import (
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Style is how a request carries its parameters (docs/api.md "Requests").
type Style int

const (
	// StyleQuery: parameters flat in the query string (GET, DELETE).
	StyleQuery Style = iota
	// StyleForm: plain form fields (token, login, file uploads).
	StyleForm
	// StyleParams: a form whose field params holds the parameters as JSON.
	StyleParams
	// StyleJSON: a JSON body, account_token in the query (krtc).
	StyleJSON
)

func (s Style) String() string {
	switch s {
	case StyleQuery:
		return "query"
	case StyleForm:
		return "form"
	case StyleParams:
		return "params"
	case StyleJSON:
		return "json"
	}
	return fmt.Sprintf("Style(%d)", int(s))
}

// Endpoint describes one endpoint of the platform, as the catalogue does.
// Every generated method passes its Endpoint to Client.Call; Endpoints and
// LookupEndpoint give them to callers that work by name (the confer CLI's
// generic call, for instance).
type Endpoint struct {
	Name     string // catalogue name, e.g. "vc.confs.speaker.update"
	Method   string // GET, POST, PUT or DELETE
	Path     string // pattern with {name} parameters
	Style    Style
	MinLevel int  // minimum API-Level
	Public   bool // served without login
	Token    bool // public, but carries the client's account_token (login)
	Raw      bool // the reply is a document of its own, not the envelope
}

// PathParams returns the names of the path parameters, in order.
func (e *Endpoint) PathParams() []string {
	var names []string
	rest := e.Path
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return names
		}
		names = append(names, rest[i+1:i+j])
		rest = rest[i+j+1:]
	}
}

// Expand fills the path parameters in order, escaping each value.
func (e *Endpoint) Expand(args []string) (string, error) {
	names := e.PathParams()
	if len(args) != len(names) {
		return "", fmt.Errorf("confer: %s needs %d path parameters (%s), got %d", e.Name, len(names), strings.Join(names, ", "), len(args))
	}
	p := e.Path
	for i, n := range names {
		if args[i] == "" {
			return "", fmt.Errorf("confer: %s: path parameter %s is empty", e.Name, n)
		}
		p = strings.Replace(p, "{"+n+"}", url.PathEscape(args[i]), 1)
	}
	return p, nil
}

// Match tells whether a concrete path (no query) is this endpoint's
// pattern filled in, and returns the path parameters.
func (e *Endpoint) Match(path string) ([]string, bool) {
	ps := strings.Split(strings.Trim(e.Path, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return nil, false
	}
	var args []string
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			v, err := url.PathUnescape(xs[i])
			if err != nil || v == "" {
				return nil, false
			}
			args = append(args, v)
			continue
		}
		if p != xs[i] {
			return nil, false
		}
	}
	return args, true
}

// Endpoints returns every endpoint of the catalogue, in its order.
func Endpoints() []*Endpoint {
	out := make([]*Endpoint, len(endpoints))
	for i, e := range endpoints {
		out[i] = e.ep
	}
	return out
}

// LookupEndpoint finds an endpoint by its catalogue name.
func LookupEndpoint(name string) (*Endpoint, bool) {
	for _, e := range endpoints {
		if e.ep.Name == name {
			return e.ep, true
		}
	}
	return nil, false
}

// MatchEndpoint finds the endpoint serving method and path (a concrete path,
// e.g. /api/v1/vc/confs/1110000/speaker) and returns its path parameters.
// A literal segment wins over a parameter.
func MatchEndpoint(method, path string) (*Endpoint, []string, bool) {
	method = strings.ToUpper(method)
	var best *Endpoint
	var bestArgs []string
	for _, e := range endpoints {
		if e.ep.Method != method {
			continue
		}
		args, ok := e.ep.Match(path)
		if ok && (best == nil || len(args) < len(bestArgs)) {
			best, bestArgs = e.ep, args
		}
	}
	return best, bestArgs, best != nil
}

// MethodName returns the name of the Client method that calls the endpoint
// with the given catalogue name ("" when there is none).
func MethodName(endpoint string) string {
	for _, e := range endpoints {
		if e.ep.Name == endpoint {
			return e.method
		}
	}
	return ""
}

// File is a file to upload in a form-style request (meeting files).
type File struct {
	Name    string    // file name sent to the platform
	Content io.Reader // the bytes
}
