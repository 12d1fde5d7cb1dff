package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// mapDecode is the decoding decodeOnce replaces: the whole document
// decoded into the map, then the own members read again from their JSON
// and taken out of it.
func mapDecode(rec store.Record) (Conference, error) {
	if _, err := shape.Decode(rec.Data); err != nil {
		return Conference{}, err
	}
	doc, err := decodeConfDoc(rec.Data)
	if err != nil {
		return Conference{}, err
	}
	return newConference(rec, doc), nil
}

// mapDocument is the map document the engine held before ConfDoc: the
// stored document decoded, the own members read taken out.
func mapDocument(c Conference, data []byte) map[string]any {
	doc, _ := shape.Decode(data)
	for _, m := range c.ownRead() {
		if m.read {
			delete(doc, m.name)
		}
	}
	return doc
}

// TestDecodeOnceAsTheMap: decoding a stored document once gives the
// conference the map decoding gave (its document, own members and
// roles), for own members of every form (ownMemberDocs), own members
// named twice, of another form, escaped or odd names, and documents that
// are not objects or not valid JSON (the same error, or none).
func TestDecodeOnceAsTheMap(t *testing.T) {
	docs := append([]string{
		`{}`, ` { } `, `null`, `{"name":"a"}  `,
		`{"name":"a","viplist":[{"cascade_id":"0","mt_id":"1"}],"viplist":"x"}`,
		`{"name":"a","viplist":"x","viplist":[{"cascade_id":"0","mt_id":"1"}]}`,
		`{"speaker_mt_id":"1","speaker_mt_id":2}`,
		`{"speaker_mt_id":2,"speaker_mt_id":"1"}`,
		`{"cascade_up":{"conf_id":"1","mt_id":"2"},"cascade_up":null}`,
		`{"vc_mix":7,"name":"a","name":"b"}`,
		`{"vc\u005fmix":{"mode":1,"mt_ids":["1"]},"na\"me":"a","n\\x":1,"\u00e9":2,"\ttab":3}`,
		"{\"\xff\xfe\":1,\"name\":\"\xff\"}",
		`{"a":{"b":[1,2.50,-0,1e3,"\u2028<&>"]},"speaker_mt_id":"3"}`,
		`[1]`, `"x"`, `1`, `{"a":1} x`, `{"a":1}{"b":2}`, `{"a":}`, `{"a":1`, ``,
	}, ownMemberDocs...)
	for _, data := range docs {
		rec := store.Record{ID: "1", Data: []byte(data)}
		want, werr := mapDecode(rec)
		got, gerr := decode(rec)
		if _, once := decodeOnce(rec); once != (json.Valid(rec.Data) && werr == nil) {
			t.Errorf("%s: decoded once %v", data, once)
		}
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Errorf("%s: error %v, want %v", data, gerr, werr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", data, got, want)
		}
		if gerr == nil && !reflect.DeepEqual(got.Document(), mapDocument(got, rec.Data)) {
			t.Errorf("%s: Document() = %#v, the map document %#v", data, got.Document(), mapDocument(got, rec.Data))
		}
	}
}
