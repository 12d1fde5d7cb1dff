// Package model holds the typed models of the platform API, generated
// from the endpoint catalogue (internal/catalog) as the SDK's types are:
// one request struct and one reply struct per endpoint, named after the
// endpoint (vc.confs.speaker.update: VCConfsSpeakerUpdateRequest), and
// the platform objects as the replies that show them (Conference is
// VCConfsGetReply, model_objects.go).
//
// Handlers work with these types; the open-form JSON object
// (wire.JSONObject) stays at the wire edge.
// A request is read from the decoded parameters after the pipeline's
// compatibility rules and validation (Decode: the newest model); a reply
// is written as the wire's object by Wire, in the newest model, and the
// pipeline applies the caller's release rules to it (internal/compat):
//
//	var q model.VCConfsSpeakerUpdateRequest
//	if err := q.Decode(r.Args); err != nil {
//		return nil, err
//	}
//	...
//	return (&model.VCConfsSpeakerGetReply{MtID: id}).Wire(), nil
//
// Optional scalar members of a request are Opt values (Set false when the
// request left them out, so that 0 and "" can be told from absence;
// q.Count.Or(10) reads a default); optional objects are pointers.
// Regenerate after a change of the catalogue, with the SDK's types:
//
//	go generate ./sdk     # or go generate ./internal/model for these only
package model

//go:generate go run ./gen/modelgen
