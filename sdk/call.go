package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// maxReply bounds the size of a reply the client reads.
const maxReply = 64 << 20

type ctxKey int

const (
	keyValidate ctxKey = iota
	keyCapture
)

// ValidateOnly returns a context under which changes (POST, PUT, DELETE)
// are sent in debug mode, as with WithDebug, for the calls made with it.
func ValidateOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, keyValidate, true)
}

// CaptureReply returns a context under which the body of every reply of
// the calls made with it is stored in *dst, as the platform sent it (the
// confer CLI prints it for --json).
func CaptureReply(ctx context.Context, dst *json.RawMessage) context.Context {
	return context.WithValue(ctx, keyCapture, dst)
}

// Call calls an endpoint: path fills its path parameters in order; req is
// its request (a generated request struct, a map[string]any, url.Values
// for flat parameters, or json.RawMessage for params and JSON styles; nil
// for none); the reply is decoded into out (a pointer to a generated reply
// struct, a map, or *json.RawMessage; nil to discard it). The generated
// methods are thin wrappers of Call.
//
// Call logs in first when the endpoint needs a session, and once more
// (retrying the call once) when the platform answers 10002 or 10102.
func (c *Client) Call(ctx context.Context, ep *Endpoint, path []string, req, out any) error {
	if ep == nil {
		return errors.New("confer: Call with a nil Endpoint")
	}
	for attempt := 0; ; attempt++ {
		var s session
		var err error
		switch {
		case !ep.Public:
			s, err = c.ensureSession(ctx)
		case ep.Token:
			s, err = c.ensureToken(ctx)
		}
		if err != nil {
			return err
		}
		cookie, err := c.exchange(ctx, ep, path, req, out, s)
		if attempt == 0 && !ep.Public && c.canLogin() && (errors.Is(err, CodeTokenInvalid) || errors.Is(err, CodeNotLoggedIn)) {
			if _, err := c.relogin(ctx, s.generation); err != nil {
				return err
			}
			continue
		}
		if err == nil && cookie != "" && ep.Token {
			// A login through SystemLogin: the client adopts its session.
			c.mu.Lock()
			c.token, c.cookie = s.token, cookie
			c.generation++
			if info, ok := out.(*SystemLoginReply); ok {
				c.info = info
			}
			c.mu.Unlock()
		}
		return err
	}
}

// exchange sends one request with session s and decodes its reply into
// out. It returns the SSO_COOKIE_KEY cookie the reply sets, if any.
func (c *Client) exchange(ctx context.Context, ep *Endpoint, path []string, req, out any, s session) (string, error) {
	p, err := ep.Expand(path)
	if err != nil {
		return "", err
	}
	shown := c.base + redact(ep, path)
	method := ep.Method
	q := url.Values{}
	var body io.Reader
	var ctype string
	withToken := s.token != "" && (!ep.Public || ep.Token)
	switch ep.Style {
	case StyleQuery, StyleForm:
		vals, files, err := flatValues(req)
		if err != nil {
			return "", fmt.Errorf("confer: %s: %w", ep.Name, err)
		}
		bodyless := ep.Style == StyleQuery && (method == http.MethodGet || method == http.MethodDelete)
		if withToken {
			vals.Set("account_token", s.token)
		}
		switch {
		case bodyless:
			q = vals
		case len(files) > 0:
			body, ctype, err = multipartBody(vals, files)
			if err != nil {
				return "", fmt.Errorf("confer: %s: %w", ep.Name, err)
			}
		default:
			body, ctype = strings.NewReader(vals.Encode()), "application/x-www-form-urlencoded;charset=utf-8"
		}
	case StyleParams:
		form := url.Values{}
		if !isNil(req) {
			js, err := jsonText(req)
			if err != nil {
				return "", fmt.Errorf("confer: %s: params: %w", ep.Name, err)
			}
			form.Set("params", js)
		}
		if withToken {
			form.Set("account_token", s.token)
		}
		body, ctype = strings.NewReader(form.Encode()), "application/x-www-form-urlencoded;charset=utf-8"
	case StyleJSON:
		js := "{}"
		if !isNil(req) {
			if js, err = jsonText(req); err != nil {
				return "", fmt.Errorf("confer: %s: body: %w", ep.Name, err)
			}
		}
		if withToken {
			q.Set("account_token", s.token)
		}
		body, ctype = strings.NewReader(js), "application/json;charset=utf-8"
	}
	// Debug mode applies to the changes of the API, not to the token and
	// login a client needs to make them.
	debug := method != http.MethodGet && !ep.Public && (c.debug || ctx.Value(keyValidate) != nil)
	if debug {
		q.Set("debug", "1")
	}
	if c.override && (method == http.MethodPut || method == http.MethodDelete) {
		q.Set("_method", method) // seed 000 "Common rules" 6
		method = http.MethodPost
	}
	target := c.base + p
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	hr, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return "", &TransportError{Method: method, URL: shown, Err: err}
	}
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	hr.Header.Set("Accept", "application/json")
	hr.Header.Set("User-Agent", c.userAgent)
	if c.level > 0 {
		hr.Header.Set("API-Level", strconv.Itoa(c.level))
	}
	if s.cookie != "" && !ep.Public {
		hr.AddCookie(&http.Cookie{Name: CookieName, Value: s.cookie})
	}
	resp, err := c.hc.Do(hr)
	if err != nil {
		return "", &TransportError{Method: method, URL: shown, Err: scrub(err, s.token)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return "", &TransportError{Method: method, URL: shown, StatusCode: resp.StatusCode, Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return "", &TransportError{Method: method, URL: shown, StatusCode: resp.StatusCode, Err: fmt.Errorf("reply %s", snippet(raw))}
	}
	if dst, ok := ctx.Value(keyCapture).(*json.RawMessage); ok && dst != nil {
		*dst = append((*dst)[:0], raw...)
	}
	var cookie string
	for _, ck := range resp.Cookies() {
		if ck.Name == CookieName && ck.Value != "" {
			cookie = ck.Value
		}
	}
	return cookie, decodeReply(ep, redact(ep, path), method, shown, raw, out, debug)
}

// decodeReply checks the envelope and decodes the reply into out.
func decodeReply(ep *Endpoint, path, method, shown string, raw []byte, out any, debug bool) error {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(raw, &env); err != nil {
		if ep.Raw {
			return &TransportError{Method: method, URL: shown, StatusCode: 200, Err: fmt.Errorf("reply is not JSON: %s", snippet(raw))}
		}
		return &TransportError{Method: method, URL: shown, StatusCode: 200, Err: fmt.Errorf("reply is not a JSON object: %s", snippet(raw))}
	}
	success, hasSuccess := env["success"]
	if ep.Raw && (!hasSuccess || truthy(success)) {
		return decodeInto(raw, out)
	}
	if !hasSuccess {
		return &TransportError{Method: method, URL: shown, StatusCode: 200, Err: fmt.Errorf("reply without success: %s", snippet(raw))}
	}
	if !truthy(success) {
		e := &Error{Endpoint: ep.Name, Method: ep.Method, Path: path}
		for k, v := range env {
			switch k {
			case "success":
			case "error_code":
				e.Code = int(number(v))
			case "description":
				_ = json.Unmarshal(v, &e.Description)
			default:
				var x any
				if json.Unmarshal(v, &x) == nil {
					if e.Fields == nil {
						e.Fields = map[string]any{}
					}
					e.Fields[k] = x
				}
			}
		}
		return e
	}
	if debug {
		for _, k := range []string{"debug_list", "debuglist", "dubug_list"} { // seed 000 "Errors" 3 spellings
			var list map[string]any
			if v, ok := env[k]; ok && json.Unmarshal(v, &list) == nil && len(list) > 0 {
				return &DebugError{Endpoint: ep.Name, List: list}
			}
		}
		return nil
	}
	return decodeInto(raw, out)
}

// redact shows a path with any account_token path parameter hidden.
func redact(ep *Endpoint, args []string) string {
	names := ep.PathParams()
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = a
		if i < len(names) && names[i] == "account_token" {
			shown[i] = "***"
		}
	}
	p, err := ep.Expand(shown)
	if err != nil {
		return ep.Path
	}
	return p
}

// scrub removes the token from an error text (url.Error quotes the URL).
func scrub(err error, token string) error {
	if token == "" || !strings.Contains(err.Error(), token) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), token, "***"))
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strconv.Quote(s)
}

// truthy reads success: 1, "1" or true.
func truthy(v json.RawMessage) bool {
	s := strings.Trim(strings.TrimSpace(string(v)), `"`)
	return s == "1" || s == "true"
}

// number reads an integer that may be quoted.
func number(v json.RawMessage) float64 {
	s := strings.Trim(strings.TrimSpace(string(v)), `"`)
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// jsonText encodes the params or body of a request as a JSON object.
func jsonText(req any) (string, error) {
	if raw, ok := req.(json.RawMessage); ok {
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			return "", fmt.Errorf("not a JSON object: %w", err)
		}
		return string(raw), nil
	}
	b, err := json.Marshal(req)
	if err != nil {
		return "", err
	}
	if len(b) == 0 || b[0] != '{' {
		return "", fmt.Errorf("a %T does not encode as a JSON object", req)
	}
	return string(b), nil
}

type formFile struct {
	field string
	file  *File
}

// flatValues turns a request into flat parameters (query string or form
// fields): scalars as text, anything else as JSON text. Unset optional
// fields (nil pointers, omitempty zero values) are left out.
func flatValues(req any) (url.Values, []formFile, error) {
	vals := url.Values{}
	if isNil(req) {
		return vals, nil, nil
	}
	switch r := req.(type) {
	case url.Values:
		for k, vs := range r {
			vals[k] = append([]string(nil), vs...)
		}
		return vals, nil, nil
	case map[string]string:
		for k, v := range r {
			vals.Set(k, v)
		}
		return vals, nil, nil
	case json.RawMessage:
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(r))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			return nil, nil, fmt.Errorf("parameters are not a JSON object: %w", err)
		}
		req = m
	}
	if m, ok := req.(map[string]any); ok {
		var files []formFile
		for k, v := range m {
			if f, ok := v.(*File); ok {
				files = append(files, formFile{k, f})
				continue
			}
			s, err := flatText(reflect.ValueOf(v))
			if err != nil {
				return nil, nil, err
			}
			vals.Set(k, s)
		}
		return vals, files, nil
	}
	rv := reflect.ValueOf(req)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("cannot send a %T as flat parameters", req)
	}
	var files []formFile
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		name, omit, ok := jsonName(sf)
		if !ok {
			continue
		}
		fv := rv.Field(i)
		if f, ok := fv.Interface().(*File); ok {
			if f != nil {
				files = append(files, formFile{name, f})
			}
			continue
		}
		if (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface) && fv.IsNil() || omit && fv.IsZero() {
			continue
		}
		s, err := flatText(fv)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		vals.Set(name, s)
	}
	return vals, files, nil
}

// jsonName reads a struct field's JSON name and omitempty.
func jsonName(sf reflect.StructField) (name string, omitempty, ok bool) {
	if !sf.IsExported() {
		return "", false, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = sf.Name
	}
	return name, strings.Contains(","+opts+",", ",omitempty,"), true
}

// flatText writes one flat value.
func flatText(v reflect.Value) (string, error) {
	if !v.IsValid() {
		return "", nil
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", nil
		}
		v = v.Elem()
	}
	if n, ok := v.Interface().(json.Number); ok {
		return n.String(), nil
	}
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64), nil
	}
	b, err := json.Marshal(v.Interface())
	return string(b), err
}

// multipartBody writes a multipart/form-data body (meeting-file uploads).
func multipartBody(vals url.Values, files []formFile) (io.Reader, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, vs := range vals {
		for _, v := range vs {
			if err := w.WriteField(k, v); err != nil {
				return nil, "", err
			}
		}
	}
	for _, f := range files {
		name := f.file.Name
		if name == "" {
			name = f.field
		}
		part, err := w.CreateFormFile(f.field, name)
		if err != nil {
			return nil, "", err
		}
		if f.file.Content != nil {
			if _, err := io.Copy(part, f.file.Content); err != nil {
				return nil, "", fmt.Errorf("reading %s: %w", name, err)
			}
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return &buf, w.FormDataContentType(), nil
}
