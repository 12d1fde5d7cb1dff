package catalog

import "github.com/confer-platform/confer/internal/release"

// TV walls as configured devices (Confer's extension, issue 41;
// docs/live.md "TV walls"): an administrator registers the user domain's
// walls, each one channel of a screen that shows the /wall/{hdu_id} page,
// and removes them. The platform's GET /api/v1/vc/hdus lists them.
var vcTVWallEndpoints = []Endpoint{
	{
		Name: "vc.tv_walls.create", Module: VC, Method: "POST", Path: "/api/v1/vc/tv_walls",
		Summary:  "Register a TV wall of the user domain (administrators)",
		MinLevel: 1, Since: release.Baseline, Style: Params, Extension: true,
		Params: []Param{
			{Name: "hdu_id", Kind: String, Required: true, Doc: "the wall's id, device and channel: digits, an underscore, digits (e.g. 3_0; reference 05 item 67)"},
			{Name: "hdu_name", Kind: String, Required: true, Doc: "the wall's name, 1 to 64 bytes"},
		},
		Reply: []Param{
			{Name: "hdu_id", Kind: String, Doc: "the registered wall"},
			{Name: "page", Kind: String, Doc: "path of the wall's page, to open on its screen: /wall/{hdu_id}"},
		},
	},
	{
		Name: "vc.tv_walls.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/tv_walls/{hdu_id}",
		Summary:  "Remove a TV wall of the user domain (administrators); a wall in use is refused with 20058",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
	},
}
