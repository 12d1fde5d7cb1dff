package sip

import (
	"strings"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
)

// Checks every request passes before its method's handler (docs/sip.md
// "Bad input"): the protocol version (RFC 3261 section 8.2.2.1's
// neighbour: 505), the extensions it requires (section 8.2.2.3: 420) and
// the body it carries (section 8.2.3: 415).

// supportedExtensions are the option tags Confer supports (Supported,
// Require).
var supportedExtensions = map[string]bool{"timer": true}

// checked wraps a handler with the checks; ACK and CANCEL are never
// refused (section 8.2.2.3), a bad ACK is dropped.
func checked(h sipgo.RequestHandler) sipgo.RequestHandler {
	return func(req *sip.Request, tx sip.ServerTransaction) {
		if req.SipVersion != "SIP/2.0" {
			if !req.IsAck() {
				res := sip.NewResponseFromRequest(req, 505, "Version Not Supported", nil)
				res.SipVersion = "SIP/2.0"
				_ = tx.Respond(res)
			}
			return
		}
		if req.IsAck() || req.IsCancel() {
			h(req, tx)
			return
		}
		if bad := unsupported(req); len(bad) > 0 {
			respond(req, tx, 420, "Bad Extension", sip.NewHeader("Unsupported", strings.Join(bad, ", ")))
			return
		}
		if len(req.Body()) > 0 {
			if enc := header(req, "Content-Encoding", "e"); enc != "" && !strings.EqualFold(enc, "identity") {
				respond(req, tx, 415, "Unsupported Media Type", sip.NewHeader("Accept-Encoding", "identity"),
					sip.NewHeader("Accept", "application/sdp"))
				return
			}
			if !isSDP(req) {
				respond(req, tx, 415, "Unsupported Media Type", sip.NewHeader("Accept", "application/sdp"),
					sip.NewHeader("Accept-Encoding", "identity"))
				return
			}
		}
		h(req, tx)
	}
}

// unsupported lists the option tags of Require that Confer lacks.
func unsupported(req *sip.Request) []string {
	var bad []string
	for _, h := range req.GetHeaders("Require") {
		for _, v := range strings.Split(h.Value(), ",") {
			if t := strings.ToLower(strings.TrimSpace(v)); t != "" && !supportedExtensions[t] {
				bad = append(bad, t)
			}
		}
	}
	return bad
}

// isSDP tells whether a message's body is a session description (its
// Content-Type application/sdp, or none: RFC 3261 section 20.15 lets a
// body without Content-Type through only as the method's default).
func isSDP(m headered) bool {
	ct := header(m, "Content-Type", "c")
	if ct == "" {
		return true
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/sdp")
}
