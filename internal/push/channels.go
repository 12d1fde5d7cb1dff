package push

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/wire"
)

// The channel table: which state change is published on which channel of
// reference 07, and which GET builds the message's content. Every channel
// lies under /userdomains/{user_domain_moid}. To publish a new channel,
// add a row here; to publish a notification, call Notify.

// Record-driven channels: one record, one channel.
const (
	// The conference list (issue 7 "/confs"): an update when a
	// conference starts running or ends. Its content is the GET of the
	// whole list (count=0).
	pathConfs     = "/confs"
	endpointConfs = "vc.confs.list"
	// A running conference (reference 07 "会议信息"): update when its
	// information changes, delete when it ends.
	pathConf     = "/confs/{conf_id}"
	endpointConf = "vc.confs.get"
	// A terminal of the local conference (reference 07 "终端列表",
	// cascade_id 0 is the local conference): update when it changes,
	// delete when it is removed. Content: GET /confs/{conf_id}/mts/{mt_id}.
	pathMT     = "/confs/{conf_id}/cascades/0/mts/{mt_id}"
	endpointMT = "vc.confs.mts.get"
	// Failed calls of terminals (reference 07 "添加终端失败通知").
	pathMTsNotify = "/confs/{conf_id}/mts"
)

// confParts are the conference-wide channels under /confs/{conf_id}. Each
// reads its part of the conference document; when a part differs from the
// document seen before, the channel gets an update, and when a part goes
// away (a mix, composition, recording... that stopped), a delete. The keys
// are those the vc module stores: the vc info's field names where it has
// them, chairman_mt_id, speaker_mt_id, dualstream_mt_id and upload_mt_id
// for the roles (engine.Roles, written under these names by
// internal/engine/own.go), and vc_* for the media features
// (internal/vc/vmp_state.go, poll_timeline.go).
//
// State that the clock changes reaches the document through the vc due
// sweep (the polled member's index, vc/push_notices.go), so it is
// published when the sweep writes it (docs/push.md).
var confParts = []confPart{
	// The links of internal/vc/cascade_link.go: the tree changes when they do.
	{Path: "/cascades", Endpoint: "vc.confs.cascades.list", Parts: field("name", "cascade_links", "cascade_up")},
	{Path: "/chairman", Endpoint: "vc.confs.chairman.get", Parts: field("chairman_mt_id")},
	{Path: "/speaker", Endpoint: "vc.confs.speaker.get", Parts: field("speaker_mt_id")},
	{Path: "/dualstream", Endpoint: "vc.confs.dualstream.get", Parts: field("dualstream_mt_id")},
	{Path: "/vad", Endpoint: "vc.confs.vad.get", Parts: field("voice_activity_detection", "vacinterval")},
	{Path: "/upload", Endpoint: "vc.confs.upload.get", Parts: field("upload_mt_id")},
	{Path: "/poll", Endpoint: "vc.confs.poll.get", Parts: object("vc_poll", "state", nil)},
	{Path: "/mixs/{mix_id}", Endpoint: "vc.confs.mixs.get", Parts: object("vc_mix", "", map[string]string{"mix_id": "1"})},
	{Path: "/vmps/{vmp_id}", Endpoint: "vc.confs.vmps.get", Parts: object("vc_vmp", "", map[string]string{"vmp_id": "1"})},
	{Path: "/recorders/{rec_id}", Endpoint: "vc.confs.recorders.get", Parts: each("vc_recorders", "rec_id")},
	{Path: "/mtvmps/{mt_id}", Endpoint: "vc.confs.mtvmps.get", Parts: each("vc_selfvmps", "mt_id")},
	{Path: "/hduvmps/{hdu_id}", Endpoint: "vc.confs.hduvmps.get", Parts: each("vc_hduvmps", "hdu_id")},
	{Path: "/hdus/{hdu_id}", Endpoint: "vc.confs.hdus.get", Parts: each("vc_hdus", "hdu_id")},
	{Path: "/inspections/{mt_id}/{mode}", Endpoint: "vc.confs.inspections.list",
		Parts: each("vc_inspections", "mt_id=dst.mt_id", "mode"), Pick: pickInspection},
	{Path: "/monitor/{dst_ip}/{dst_port}", Endpoint: "vc.confs.monitors.get",
		Parts: each("vc_monitors", "dst_ip=dst.ip", "dst_port=dst.port")},
}

// confPart is one conference-wide channel.
type confPart struct {
	Path     string // under /confs/{conf_id}; {name} segments come from the part's params
	Endpoint string // the GET whose reply is the update's content
	// Parts reads the channel's parts of a conference document, by
	// concrete path. A channel without {name} segments has at most one.
	Parts func(doc storedDoc) map[string]part
	// Pick, when set, finds the part's element in the endpoint's reply
	// (a list endpoint for a channel that has no GET of its own).
	Pick func(reply wire.Object, params map[string]string) (wire.Object, bool)
}

// part is one instance of a channel in a conference document.
type part struct {
	params map[string]string // path parameters besides conf_id
	value  string            // JSON of what is compared between documents
}

// field is a channel that always exists; its value is the listed keys.
func field(keys ...string) func(storedDoc) map[string]part {
	return func(doc storedDoc) map[string]part {
		vals := make([]json.RawMessage, len(keys))
		for i, k := range keys {
			vals[i] = doc.member(k)
		}
		return map[string]part{"": {value: jsonOf(vals)}}
	}
}

// object is a channel that exists while doc[key] is an object (and, with
// a state field, while that field is not 0: a poll that stopped); its
// value is the object. params are its fixed path parameters (mix_id 1).
func object(key, state string, params map[string]string) func(storedDoc) map[string]part {
	return func(doc storedDoc) map[string]part {
		o := doc.object(key)
		if o == nil {
			return nil
		}
		if n, _ := o.int(state); state != "" && n == 0 {
			return nil
		}
		return map[string]part{"": {params: params, value: jsonOf(doc[key])}}
	}
}

// each is a channel per element of a collection: doc[key] is an object
// keyed by the (single) id, or a list of objects carrying the ids. An id
// is "param" (the element's field of that name) or "param=dotted.path".
// Elements with the same ids (a terminal's compositions on several video
// channels) make one part.
func each(key string, ids ...string) func(storedDoc) map[string]part {
	type id struct{ param, path string }
	var spec []id
	for _, s := range ids {
		p, path, ok := strings.Cut(s, "=")
		if !ok {
			path = p
		}
		spec = append(spec, id{p, path})
	}
	return func(doc storedDoc) map[string]part {
		params := map[string]map[string]string{}
		values := map[string][]json.RawMessage{}
		add := func(ps map[string]string, v json.RawMessage) {
			for _, sp := range spec {
				if ps[sp.param] == "" {
					return
				}
			}
			k := jsonOf(ps)
			params[k] = ps
			values[k] = append(values[k], v)
		}
		var list []json.RawMessage
		if coll := doc.object(key); coll != nil {
			if len(spec) == 1 {
				for k, v := range coll {
					add(map[string]string{spec[0].param: k}, v)
				}
			}
		} else if json.Unmarshal(doc[key], &list) == nil {
			for _, v := range list {
				ps := map[string]string{}
				for _, sp := range spec {
					ps[sp.param] = text(v, sp.path)
				}
				add(ps, v)
			}
		}
		out := make(map[string]part, len(params))
		for k, ps := range params {
			out[k] = part{params: ps, value: jsonOf(values[k])}
		}
		return out
	}
}

// pickInspection finds the viewing of a terminal and mode in the
// inspections list (there is no GET of one viewing).
func pickInspection(reply wire.Object, params map[string]string) (wire.Object, bool) {
	l, _ := reply["inspections"].([]any)
	for _, v := range l {
		el, _ := v.(wire.Object)
		if textAt(el, "dst.mt_id") == params["mt_id"] && textAt(el, "mode") == params["mode"] {
			return el, true
		}
	}
	return nil, false
}

// expand fills a channel path's {name} segments.
func expand(path string, params map[string]string) string {
	for k, v := range params {
		path = strings.ReplaceAll(path, "{"+k+"}", v)
	}
	return path
}

// textAt reads a dotted path of a reply as text.
func textAt(reply wire.Object, path string) string {
	var v any = reply
	for _, seg := range strings.Split(path, ".") {
		m, _ := v.(wire.Object)
		v = m[seg]
	}
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

// jsonOf encodes a value for comparison (object keys come out sorted).
func jsonOf(v any) string { return string(mustJSON(v)) }

// sortedKeys orders parts so that messages of one change come in a stable
// order.
func sortedKeys(m map[string]part) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Terminal call failures: the engine keeps a terminal's last call outcome
// and attempt count in its document (internal/engine/calls.go). A call
// that failed is notified once on /confs/{conf_id}/mts with the A3 code of
// its outcome.
const (
	mtOutcome  = "_outcome"
	mtAttempts = "_attempts"
	mtRedial   = "_redial"
)

// callFailureCode is the error_code of a failed call: 20401 "指定终端不可
// 及, 可能不在线" for an offline or unanswered terminal, 20410 "指定终端忙,
// 可能在另一会议中" for a busy one, 20406 "呼叫的终端没有可用的呼叫地址信息"
// for a number no real endpoint takes (media.NoRoute, docs/sip.md).
func callFailureCode(o media.Outcome) int {
	switch o {
	case media.Busy:
		return 20410
	case media.NoRoute:
		return 20406
	}
	return 20401
}
