package sdk

// The optional fields of requests are pointers, so that an unset field is
// left out of the request while 0 and "" can still be sent. These helpers
// make them inline: &sdk.VCConfsMuteUpdateRequest{Value: 1, ForceMute: sdk.Int(0)}.

// Int returns a pointer to v.
func Int(v int) *int { return &v }

// String returns a pointer to v.
func String(v string) *string { return &v }

// Bool returns a pointer to v.
func Bool(v bool) *bool { return &v }

// Float returns a pointer to v.
func Float(v float64) *float64 { return &v }

// Ptr returns a pointer to v, for any type.
func Ptr[T any](v T) *T { return &v }
