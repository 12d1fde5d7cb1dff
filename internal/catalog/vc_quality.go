package catalog

import "github.com/confer-platform/confer/internal/release"

// Per-participant call quality (Confer's extension, issue 41;
// docs/media.md "Call quality"): the SFU's own statistics of each online
// terminal's media session.
var vcQualityEndpoints = []Endpoint{
	{
		Name: "vc.confs.quality.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/quality",
		Summary:  "Call quality of the running conference's online terminals: each channel's codec, picture, bitrate, packet loss and jitter",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
		Reply: []Param{
			{Name: "mts", Kind: Array, Elem: Object, Doc: "online terminals, in the order they were added", Fields: []Param{
				{Name: "mt_id", Kind: String, Doc: "terminal number"},
				{Name: "alias", Kind: String, Doc: "terminal or participant name"},
				{Name: "measured", Kind: Int, Enum: []int{0, 1}, Doc: "1: this node carries its media session; 0: none here (a simulated call, or a conference another node owns: ask that node)"},
				{Name: "channels", Kind: Array, Elem: Object, Doc: "its media channels", Fields: []Param{
					{Name: "kind", Kind: String, EnumS: []string{"audio", "video", "content"}, Doc: "what it carries"},
					{Name: "direction", Kind: String, EnumS: []string{"send", "receive"}, Doc: "send: the terminal sends it; receive: it receives it"},
					{Name: "codec", Kind: String, Doc: "MIME type, e.g. video/VP8; empty while a receiving channel forwards nothing"},
					{Name: "width", Kind: Int, Doc: "picture width of the last key frame; 0 unknown or audio"},
					{Name: "height", Kind: Int, Doc: "picture height"},
					{Name: "bitrate", Kind: Int, Doc: "kbit/s as measured"},
					{Name: "loss", Kind: Number, Doc: "packets lost, percent: of a sent channel over the last second as they arrive here; of a received one as the terminal's last receiver report says"},
					{Name: "jitter", Kind: Number, Doc: "interarrival jitter, milliseconds (RFC 3550)"},
					{Name: "reported", Kind: Int, Enum: []int{0, 1}, Doc: "0: a received channel whose terminal has sent no receiver report yet (loss and jitter unknown)"},
				}},
			}},
		},
	},
}
