package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// DefaultMaxBody is the request body limit (docs/api.md "Limits"): 1 MiB,
// far above the largest documented params object.
const DefaultMaxBody = 1 << 20

// MaxUploadBody is the body limit of multipart/form-data requests, which
// carry files (meeting files: at most 20 MB a file, reference 04 "上传会议
// 文件"): 21 MiB leaves room for the part headers and form fields.
const MaxUploadBody = 21 << 20

// Args holds a request's parameters as the wire carries them (seed 000
// "Common rules" 3 to 5): flat query parameters, form fields, and the
// structured parameters, which come either from the form field `params`
// (URL-encoded JSON text) or from a JSON body.
type Args struct {
	Query  url.Values
	Form   url.Values
	Params map[string]any // nil when the request carries no structured parameters
	JSON   bool           // the body was a JSON object (room management style)
	// Files are the file parts of a multipart/form-data body by field name,
	// each kept in a temporary file on disk (nil otherwise), filled by
	// ReadFiles (multipart.go). The name of each file part is also a Form
	// value holding the client's file name, as a browser form submits it,
	// so that the flat-parameter checks see the field as present.
	Files map[string][]*File

	rest *pendingParts // the multipart body from its first file part on, until ReadFiles
}

// Token returns account_token: a query parameter for GET, DELETE and JSON
// style requests, a form field for form style requests.
func (a *Args) Token() string {
	if t := a.Query.Get("account_token"); t != "" {
		return t
	}
	return a.Form.Get("account_token")
}

// Value returns a flat parameter: a form field, else a query parameter, else
// a string or number member of the structured parameters.
func (a *Args) Value(name string) (string, bool) {
	if vs, ok := a.Form[name]; ok && len(vs) > 0 {
		return vs[0], true
	}
	if vs, ok := a.Query[name]; ok && len(vs) > 0 {
		return vs[0], true
	}
	switch v := a.Params[name].(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	}
	return "", false
}

// RequiredString returns a non-empty flat parameter or an error naming it.
func (a *Args) RequiredString(name string) (string, error) {
	v, ok := a.Value(name)
	if !ok || v == "" {
		return "", InvalidParam(name, "required parameter is missing")
	}
	return v, nil
}

// Override returns the method a POST asks to be served as (seed 000
// "Common rules" 6), upper-cased, or "" when none: `_method` in the
// query, else as a form field. Its case does not matter (`_method=delete`
// is DELETE) and an empty or blank value is no override (docs/api.md);
// the server refuses any value but PUT and DELETE with 90400.
func (a *Args) Override() string {
	m := strings.TrimSpace(a.Query.Get("_method"))
	if m == "" {
		m = strings.TrimSpace(a.Form.Get("_method"))
	}
	return strings.ToUpper(m)
}

// ReadArgs reads and decodes the parameters of r, reading at most maxBody
// bytes of body. A multipart/form-data body is read up to its first file
// part only (its text parts up to maxBody bytes): the caller authenticates,
// then calls ReadFiles, which streams the files to disk (multipart.go). A
// malformed body answers 24506; a body above the limit, 90413.
//
// Structured parameters come from the body; a request whose body carries
// none may send `params` in the query string instead (a DELETE, whose
// parameters are flat in the query per seed 000 "Common rules" 3, and a
// POST with _method=DELETE and an empty body, rule 6).
func ReadArgs(r *http.Request, maxBody int64) (*Args, error) {
	a, err := readArgs(r, maxBody)
	if err != nil || a.Params != nil {
		return a, err
	}
	if p, ok := a.Query["params"]; ok && len(p) > 0 {
		obj, err := decodeObject([]byte(p[0]))
		if err != nil {
			return nil, Errorf(CodeIllegalBody, "params is not a JSON object: %v", err)
		}
		a.Params = obj
	}
	return a, nil
}

func readArgs(r *http.Request, maxBody int64) (*Args, error) {
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, Errorf(CodeIllegalBody, "malformed query string: %v", err)
	}
	// Form stays nil (read only) until a body fills it; a request
	// without a body (net/http's NoBody: a GET) reads none.
	a := &Args{Query: query}
	if r.Body == nil || r.Body == http.NoBody {
		return a, nil
	}
	if ct, ps, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && ct == "multipart/form-data" {
		return readMultipart(r, a, ps["boundary"], maxBody)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, Errorf(CodeIllegalBody, "cannot read request body")
	}
	if int64(len(body)) > maxBody {
		return nil, Errorf(CodeBodyTooLarge, "request body exceeds %d bytes", maxBody)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return a, nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" || (ct == "" && body[0] == '{') {
		obj, err := decodeObject(body)
		if err != nil {
			return nil, Errorf(CodeIllegalBody, "request body is not a JSON object: %v", err)
		}
		a.Params, a.JSON = obj, true
		return a, nil
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, Errorf(CodeIllegalBody, "malformed form body: %v", err)
	}
	a.Form = form
	return a, a.decodeParams()
}

// decodeParams decodes the form field params (seed 000 "Common rules" 4).
func (a *Args) decodeParams() error {
	if p, ok := a.Form["params"]; ok && len(p) > 0 {
		obj, err := decodeObject([]byte(p[0]))
		if err != nil {
			return Errorf(CodeIllegalBody, "params is not a JSON object: %v", err)
		}
		a.Params = obj
	}
	return nil
}

// limitedReader reads at most left bytes and notes an attempt to read more.
type limitedReader struct {
	r          io.Reader
	left, read int64
	over       bool
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		n, err := l.r.Read(one[:])
		if n > 0 {
			l.over = true
			return 0, errors.New("request body too large")
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	l.read += int64(n)
	return n, err
}

// decodeObject decodes a JSON object, keeping numbers exact.
func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the JSON value is not an object")
	}
	return obj, nil
}

// HeaderAPILevel reads the API-Level header (seed 000 "Common rules" 7), also
// under the spelling Api_level that some clients send. It returns 0 when the
// header is absent and an error when it is not a positive integer.
func HeaderAPILevel(h http.Header) (int, error) {
	v := h.Get("API-Level")
	if v == "" {
		v = h.Get("Api_level")
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, Errorf(CodeInvalidParam, "header API-Level: %q is not a positive integer", v)
	}
	return n, nil
}
