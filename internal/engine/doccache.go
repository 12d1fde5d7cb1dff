package engine

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/store"
)

// docCache keeps the decoded document of each conference read or written
// on this node with the stored bytes it stands for, so that a read whose
// record carries the same bytes decodes nothing (a speaker change read the
// conference, decoded it, changed one field and wrote it back: the next
// change decoded it again; docs/benchmarks.md, "Speaker changes, second
// pass"). An entry is used only when the bytes just read are the bytes it
// was made from, so a write on any node, or a conference ended and its
// number reused, is never answered from it: the record is always read.
// Readers get a deep copy (Conference.Doc is theirs to change), except
// take, which hands the entry's own document over and drops the entry.
type docCache struct {
	// mu is held for reading while get copies an entry: take hands an
	// entry's own document to a writer, who changes it (encodeConf), so a
	// copy made after the lock was released raced with that writer.
	mu sync.RWMutex
	m  map[string]docEntry // by domain + "/" + conf_id
}

type docEntry struct {
	data []byte
	// conf is the conference decoded from data (its document and own
	// members, roles.go); never handed out: copies only.
	conf Conference
	// rec is the record data was read or written as (its version, state
	// and creation time), for kept; rec.Data is data.
	rec store.Record
}

// docCacheMax bounds the entries; past it the cache starts again (a node
// holds at most its running conferences' documents, MaxConfs).
const docCacheMax = 4096

func docKey(domain, id string) string { return domain + "/" + id }

// get returns a copy of the document kept for key when it was made from
// data.
func (dc *docCache) get(key string, data []byte) (Conference, bool) {
	dc.mu.RLock()
	defer dc.mu.RUnlock()
	e, ok := dc.m[key]
	if !ok || !bytes.Equal(e.data, data) {
		return Conference{}, false
	}
	return e.conf.clone(), true
}

// take returns the record and the document last read or written on this
// node for key, without reading anything, and drops the entry: the
// document is the caller's, not a copy (the speaker path copied it twice,
// here and in update's normalize). It may be stale (another node's
// write), so it may only be the base of a write the store refuses unless
// the stored version and creation time are still the kept ones
// (store.GuardedWriter's SwapRecordWhile; Conferences.Kept); the write
// keeps its result again (update), a read the bytes it reads.
func (dc *docCache) take(key string) (Conference, bool) {
	dc.mu.Lock()
	e, ok := dc.m[key]
	if ok && e.rec.Version != 0 {
		delete(dc.m, key)
	}
	dc.mu.Unlock()
	if !ok || e.rec.Version == 0 {
		return Conference{}, false
	}
	c := e.conf
	c.Rec = e.rec
	return c, true
}

// put keeps c, which must be what decoding rec.Data gives (newConference)
// and nobody else's.
func (dc *docCache) put(key string, rec store.Record, c Conference) {
	dc.mu.Lock()
	if dc.m == nil || len(dc.m) >= docCacheMax {
		dc.m = make(map[string]docEntry)
	}
	dc.m[key] = docEntry{data: rec.Data, conf: c, rec: rec}
	dc.mu.Unlock()
}

// forget drops key's entry (a conference ended, or a document that
// normalize cannot vouch for).
func (dc *docCache) forget(key string) {
	dc.mu.Lock()
	delete(dc.m, key)
	dc.mu.Unlock()
}

// clone copies a conference's document and own members.
func (c Conference) clone() Conference {
	c.Doc = cloneDoc(c.Doc)
	return c.cloneOwn()
}

// cloneOwn copies a conference's own members (the slices and pointers
// among them), sharing its document.
func (c Conference) cloneOwn() Conference {
	if c.VIPs != nil {
		c.VIPs = append([]VIP{}, c.VIPs...)
	}
	if c.Links != nil {
		c.Links = append([]CascadeLink{}, c.Links...)
	}
	if c.Superior != nil {
		up := *c.Superior
		c.Superior = &up
	}
	if c.HDUAliases != nil {
		c.HDUAliases = maps.Clone(c.HDUAliases)
	}
	c.Mix, c.HDUPoll = c.Mix.clone(), c.HDUPoll.clone()
	c.SelfVMPs, c.HDUVMPs = cloneSelfVMPs(c.SelfVMPs), cloneSelfVMPs(c.HDUVMPs)
	c.HDUs, c.VMP = cloneHDUs(c.HDUs), c.VMP.clone()
	c.Poll, c.UploadPoll, c.ChairmanPoll = c.Poll.clone(), c.UploadPoll.clone(), c.ChairmanPoll.clone()
	c.Recorders = cloneRecorders(c.Recorders)
	c.VCState = c.VCState.vcClone()
	return c
}

// cloneDoc copies a decoded document: objects and arrays are copied,
// the leaves (string, json.Number, bool, nil) are immutable.
func cloneDoc(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneDoc(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}

// normalize returns what shape.Decode(shape.Encode(m)) returns, built
// without encoding and decoding: a deep copy whose numbers are
// json.Number and whose arrays and objects are []any and map[string]any.
// ok is false for a value whose round trip it does not know exactly
// (structs, floats written in exponent form, invalid UTF-8, ...): the
// caller then keeps nothing. TestNormalizeMatchesRoundTrip holds it to
// the real round trip.
func normalize(m map[string]any) (map[string]any, bool) {
	if m == nil {
		return nil, false
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !utf8.ValidString(k) {
			return nil, false
		}
		n, ok := normalizeValue(v)
		if !ok {
			return nil, false
		}
		out[k] = n
	}
	return out, true
}

// normalizeSlice is a slice as decoding gives it back: []any of
// normalized elements (nil stays nil: JSON null).
func normalizeSlice[T any](x []T) (any, bool) {
	if x == nil {
		return nil, true
	}
	out := make([]any, len(x))
	for i, e := range x {
		n, ok := normalizeValue(e)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

func normalizeValue(v any) (any, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case string:
		return x, utf8.ValidString(x)
	case bool:
		return x, true
	case json.Number:
		// Written as it is when valid (encoding/json checks), read back
		// as the same text.
		return x, isJSONNumber(string(x))
	case int:
		return json.Number(strconv.FormatInt(int64(x), 10)), true
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), true
	case int32:
		return json.Number(strconv.FormatInt(int64(x), 10)), true
	case uint32:
		return json.Number(strconv.FormatUint(uint64(x), 10)), true
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), true
	case float64:
		// encoding/json writes %f-like text for 1e-6 <= |f| < 1e21 (and
		// 0); other magnitudes use an exponent form it rewrites.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64)), true
	case map[string]any:
		if x == nil {
			return nil, true
		}
		return normalize(x)
	case []any:
		return normalizeSlice(x)
	case []map[string]any:
		return normalizeSlice(x)
	case []string:
		return normalizeSlice(x)
	case map[string]string:
		if x == nil {
			return nil, true
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if !utf8.ValidString(k) || !utf8.ValidString(e) {
				return nil, false
			}
			out[k] = e
		}
		return out, true
	}
	return nil, false
}

// isJSONNumber tells whether s is a number in JSON's grammar (RFC 8259
// section 6), which encoding/json writes verbatim for a json.Number.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(s)
}
