// Package sdk is the Go client of the Confer platform API: the
// video-conferencing platform API of docs/api.md, with one typed method per
// endpoint of the catalogue.
//
// A client is made with the platform's base URL, an API license and an
// account:
//
//	c, err := sdk.New("http://confer.example:8080",
//		sdk.WithLicense(key, secret),
//		sdk.WithAccount("admin", password),
//		sdk.WithAPILevel(3))
//	confs, err := c.VCConfsList(ctx, &sdk.VCConfsListRequest{Count: sdk.Int(0)})
//
// The client logs in by itself on the first call that needs a session,
// renews the session with heartbeats (Heartbeat, KeepAlive, WithKeepAlive),
// and logs in again and retries once when the platform answers 10002 or
// 10102.
//
// # Methods
//
// Each endpoint of the catalogue has a method named after the module and
// the catalogue name: vc.confs.speaker.update is VCConfsSpeakerUpdate.
// Path parameters come after the context, in the order of the path, then
// the request (a *...Request struct whose fields carry the wire's names in
// their json tags; optional fields are pointers, see Int and String). The
// reply is a *...Reply struct, or only an error when the endpoint replies
// with nothing but the envelope. The methods are generated from the
// catalogue (go generate runs ./internal/gen/sdkgen) into the api_*.go
// files; Call calls any endpoint, and Endpoints lists them.
//
// # Errors
//
// A failure the platform answers is an *Error carrying error_code and
// description. errors.Is matches it against its Code (sdk.CodeConfNotFound)
// and against classes of codes: ErrNotFound, ErrNoPermission,
// ErrNoResource, ErrNotLoggedIn, ErrTokenInvalid, ErrLoginFailed,
// ErrInvalidParam, ErrConflict, ErrNotSupported, ErrNotImplemented. A
// failure below the envelope (connection, HTTP status, a reply that is not
// JSON) is a *TransportError, which matches ErrTransport and never a code.
//
// # Push
//
// Subscribe opens a CometD (Bayeux) session at /api/v1/publish with the
// client's session and delivers the pushed messages of the subscribed
// channels on a Go channel, handshaking and subscribing again after a
// connection loss.
package sdk

//go:generate go run ./internal/gen/sdkgen
//go:generate go run ../internal/model/gen/modelgen ../internal/model
