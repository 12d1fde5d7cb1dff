package catalog

import "github.com/confer-platform/confer/internal/release"

// Recording system (seed 001 "Recording system (vrs)" table, "Field names by
// resource" and "Versioning" 5.1.0.4.0; reference 09-vrs-recording-system.md).
//
// The seeds write the paths /api/v1/vrs/..., the reference /api/v2/vrs/...:
// each entry serves both, the v1 path first. Modify requests carry their
// parameters as the JSON form field params, as the reference shows (also for
// the DELETEs, whose reference sections show a params body). The seed table
// has no Since column and the reference's change list adds no vrs endpoint,
// so every endpoint exists from the baseline; the recording-system fields that
// seed 001 dates at 5.1.0.4.0 say so in their Doc (the reference's change
// list places them at 5.2.0.2.0; the seeds win). The version query is in
// system.go (the reference misspells its path /api/vrs/ver2sion).
var vrsEndpoints = append(append([]Endpoint{}, vrsProgramEndpoints...), vrsRoomEndpoints...)

// vrsLoginFailureFields are the extra fields of a failed local login (seed
// 000 Errors 4; seed 001 5.1.0.4.0): they travel beside success=0 and
// error_code, never in the success reply.
var vrsLoginFailureFields = []Param{
	{Name: "maxlocknum", Kind: Int, Doc: "maximum number of attempts (from 5.1.0.4.0)"},
	{Name: "currentnum", Kind: Int, Doc: "current number of attempts (from 5.1.0.4.0)"},
	{Name: "unlocktime", Kind: Int, Doc: "lock time (from 5.1.0.4.0)"},
}

// vrsProgramEndpoints: local login, folders, programs, live rooms,
// transcoding tasks and the VRS addresses.
var vrsProgramEndpoints = []Endpoint{
	{
		// The reference's method; the seeds list GET (vrs.login.get).
		Name: "vrs.login", Module: VRS, Method: "POST", Path: "/api/v1/vrs/login", Aliases: []string{"/api/v2/vrs/login"},
		Summary: "Local user login of the recording system", MinLevel: 1, Since: release.Baseline, Public: true, Style: Params,
		Params: vrsLoginParams(), Reply: vrsLoginReply(),
	},
	{
		// The seeds' method (seed 001 table, seed 000 Errors 4); parameters
		// flat in the query string.
		Name: "vrs.login.get", Module: VRS, Method: "GET", Path: "/api/v1/vrs/login", Aliases: []string{"/api/v2/vrs/login"},
		Summary: "Local user login of the recording system (GET form)", MinLevel: 1, Since: release.Baseline, Public: true, Style: Query,
		Params: vrsLoginParams(), Reply: vrsLoginReply(),
	},
	{
		Name: "vrs.program_folder.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/program_folder", Aliases: []string{"/api/v2/vrs/program_folder"},
		Summary: "List program folders", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: append([]Param{vrsUserDomainParam(),
			{Name: "prgtypemask", Kind: Int, Doc: "program type mask: 0 all (default), 1 ASF, 2 MP4 (from 5.1.0.4.0)"},
		}, vrsProgramMasks()...),
		Reply: []Param{
			{Name: "folderinfo", Kind: Array, Elem: Object, Doc: "folders", Fields: []Param{
				{Name: "foldername", Kind: String, Doc: "folder name"},
				{Name: "folderid", Kind: Int, Doc: "folder id"},
				{Name: "prgcount", Kind: Int, Doc: "number of programs in the folder"},
				{Name: "userdomainmoid", Kind: String, Doc: "user domain of the programs (from 5.1.0.4.0)"},
			}},
		},
	},
	{
		Name: "vrs.program_folder.create", Module: VRS, Method: "POST", Path: "/api/v1/vrs/program_folder", Aliases: []string{"/api/v2/vrs/program_folder"},
		Summary: "Add a program folder", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "foldername", Kind: String, Required: true, Doc: "folder name"}},
		Reply:  []Param{{Name: "folderid", Kind: Int, Doc: "folder id"}},
	},
	{
		Name: "vrs.program_folder.update", Module: VRS, Method: "PUT", Path: "/api/v1/vrs/program_folder/{id}", Aliases: []string{"/api/v2/vrs/program_folder/{id}"},
		Summary: "Rename a program folder", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "foldername", Kind: String, Required: true, Doc: "folder name"}},
	},
	{
		Name: "vrs.program_folder.delete", Module: VRS, Method: "DELETE", Path: "/api/v1/vrs/program_folder/{id}", Aliases: []string{"/api/v2/vrs/program_folder/{id}"},
		Summary: "Delete a program folder", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			// The reference's table marks foldername required, apparently
			// copied from the modify request; its example sends only
			// isdelprogram, so foldername stays optional.
			{Name: "foldername", Kind: String, Doc: "folder name"},
			{Name: "isdelprogram", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "also delete the folder's programs: 0 no, 1 yes"},
		},
	},
	{
		Name: "vrs.program.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/program", Aliases: []string{"/api/v2/vrs/program"},
		Summary: "List programs", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: append(append([]Param{
			{Name: "folderid", Kind: Int, Required: true, Doc: "folder id"},
			vrsUserDomainParam(),
		}, vrsPaging(true)...),
			Param{Name: "orderindex", Kind: Int, Enum: []int{1, 2, 3, 4, 5, 6, 7},
				Doc: "sort key: 1 name, 2 creation time, 3 duration, 4 size, 5 publication state, 6 format, 7 popularity (plays); default publication state ascending, creation time descending"},
			Param{Name: "desc", Kind: Int, Enum: []int{0, 1}, Doc: "order: 0 ascending (default), 1 descending; only with orderindex"},
			Param{Name: "starttime", Kind: Int, Doc: "start of a time search, UNIX timestamp"},
			Param{Name: "endtime", Kind: Int, Doc: "end of a time search, UNIX timestamp"},
			Param{Name: "prgtypemask", Kind: Int, Doc: "program type: 0 all (default), 1 asf, 2 mp4"},
			Param{Name: "remoteprgtypemask", Kind: Int, Doc: "remote program type mask: 0 all (default), 1 asf, 2 mp4 (from 5.1.0.4.0)"},
			Param{Name: "localvrs", Kind: Int, Enum: []int{0, 1}, Doc: "restrict to this VRS when the user domain has several: 0 no (default), 1 yes (from 5.1.0.4.0)"},
			Param{Name: "prgencmask", Kind: Int, Doc: "encryption mask: 0 all (default), 1 none, 2 standard, 4 national (SM), 6 standard or national (from 5.1.0.4.0)"},
			Param{Name: "prgauthmask", Kind: Int, Doc: "authentication mask: 0 all (default), 1 normal, 2 strong (from 5.1.0.4.0)"},
		),
		Reply: []Param{
			{Name: "prgcount", Kind: Int, Doc: "total number of programs"},
			{Name: "pageid", Kind: Int, Doc: "page returned"},
			{Name: "prginfo", Kind: Array, Elem: Object, Doc: "programs", Fields: vrsProgramFields()},
		},
	},
	{
		Name: "vrs.program.delete", Module: VRS, Method: "DELETE", Path: "/api/v1/vrs/program", Aliases: []string{"/api/v2/vrs/program"},
		Summary: "Delete programs in a batch", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			{Name: "prgdelpckinfo", Kind: Array, Elem: Object, Required: true, Doc: "programs to delete", Fields: []Param{
				// The reference's table says str; its examples and the
				// reply use an integer.
				{Name: "prggid", Kind: Int, Required: true, Doc: "program gid"},
				{Name: "enforcedel", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "force deletion: 0 no, 1 yes"},
			}},
		},
		Reply: []Param{
			{Name: "prgdelpckinfo", Kind: Array, Elem: Object, Doc: "programs", Fields: []Param{
				{Name: "prggid", Kind: Int, Doc: "program gid"},
				{Name: "delerrno", Kind: Int, Doc: "deletion error code, 0 success"},
			}},
		},
	},
	{
		Name: "vrs.program_release_batch.update", Module: VRS, Method: "PUT", Path: "/api/v1/vrs/program_release_batch", Aliases: []string{"/api/v2/vrs/program_release_batch"},
		Summary: "Publish or withdraw programs in a batch", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			{Name: "info", Kind: Array, Elem: Object, Required: true, Doc: "programs", Fields: []Param{
				{Name: "prggid", Kind: Int, Required: true, Doc: "program gid"},
				{Name: "prgstate", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "publish: 0 no, 1 yes"},
			}},
		},
		Reply: []Param{
			{Name: "info", Kind: Array, Elem: Object, Doc: "programs", Fields: []Param{
				{Name: "prggid", Kind: Int, Doc: "program gid"},
				{Name: "prgstate", Kind: Int, Enum: []int{0, 1}, Doc: "published: 0 no, 1 yes"},
				{Name: "relerrno", Kind: Int, Doc: "publication error code, 0 success"},
			}},
		},
	},
	{
		Name: "vrs.program_to_folder.move", Module: VRS, Method: "PUT", Path: "/api/v1/vrs/program_to_folder", Aliases: []string{"/api/v2/vrs/program_to_folder"},
		Summary: "Move programs to a folder in a batch", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			{Name: "prginfo", Kind: Array, Elem: Object, Required: true, Doc: "programs to move", Fields: []Param{
				{Name: "prggid", Kind: Int, Required: true, Doc: "program gid"},
			}},
			{Name: "dstfolderid", Kind: Int, Required: true, Doc: "target folder id"},
		},
	},
	{
		Name: "vrs.liveroom.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/liveroom", Aliases: []string{"/api/v2/vrs/liveroom"},
		Summary: "List live rooms", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: append(append([]Param{
			vrsUserDomainParam(),
			{Name: "livetype", Kind: Int, Enum: []int{0, 1, 2}, Doc: "live type: 0 HTML5 (default), 1 ASF, 2 HTML5 and ASF (from 5.1.0.4.0)"},
		}, vrsPaging(false)...),
			Param{Name: "orderindex", Kind: Int, Enum: []int{1, 2, 7}, Doc: "sort key: 1 name, 2 creation time, 7 popularity (plays); default creation time ascending"},
			Param{Name: "desc", Kind: Int, Enum: []int{0, 1}, Doc: "order: 0 ascending (default), 1 descending; only with orderindex"},
		),
		Reply: []Param{
			{Name: "pageid", Kind: Int, Doc: "page returned"},
			{Name: "roomcount", Kind: Int, Doc: "number of live rooms"},
			{Name: "roomstate", Kind: Array, Elem: Object, Doc: "live rooms", Fields: []Param{
				{Name: "roomid", Kind: Int, Doc: "live room id"},
				{Name: "roomidstr", Kind: String, Doc: "live room id as a string (from 5.1.0.4.0)"},
				{Name: "roomname", Kind: String, Doc: "live room name"},
				{Name: "userdomainmoid", Kind: String, Doc: "user domain of the live room"},
				{Name: "prgid", Kind: Int, Doc: "program id"},
				{Name: "elapse", Kind: Int, Doc: "time the program has played"},
				{Name: "lcastpoint", Kind: String, Doc: "live point"},
				{Name: "livestreampath", Kind: String, Doc: "live source description file; use an IP of the VRS IP group and pass the SSO_COOKIE_KEY cookie as ?sso_token=..."},
				{Name: "livesnapshotpath", Kind: String, Doc: "path of the live snapshot picture"},
				{Name: "mte164", Kind: String, Doc: "conference E164, or terminal E164 for a terminal call"},
				{Name: "livestatnum", Kind: Int, Doc: "number of viewers"},
				{Name: "createtime", Kind: Int, Doc: "creation time of the live room"},
				{Name: "encmode", Kind: Int, Enum: []int{1, 2, 4}, Doc: "file encryption: 1 none, 2 standard, 4 national (SM); always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
				{Name: "authmode", Kind: Int, Enum: []int{1, 2}, Doc: "authentication: 1 normal, 2 strong; always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
				{Name: "prgwatermark", Kind: Int, Enum: []int{0, 1}, Doc: "watermark: 0 off, 1 on"},
				{Name: "shorturl", Kind: String, Doc: "short link"},
			}},
		},
	},
	{
		Name: "vrs.resroom.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/resroom", Aliases: []string{"/api/v2/vrs/resroom"},
		Summary: "List reserved live rooms", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: append([]Param{vrsUserDomainParam()}, vrsPaging(false)...),
		Reply: []Param{
			{Name: "livecount", Kind: Int, Doc: "total number of reserved lives"},
			{Name: "pageid", Kind: Int, Doc: "page returned"},
			{Name: "liveinfo", Kind: Array, Elem: Object, Doc: "reserved lives", Fields: []Param{
				{Name: "confname", Kind: String, Doc: "conference name"},
				{Name: "starttime", Kind: String, Doc: "conference time"},
				{Name: "encmode", Kind: Int, Enum: []int{1, 2, 4}, Doc: "file encryption: 1 none, 2 standard, 4 national (SM); always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
			}},
		},
	},
	{
		Name: "vrs.transtask.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/transtask", Aliases: []string{"/api/v2/vrs/transtask"},
		Summary: "List transcoding tasks", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: append(append([]Param{
			vrsUserDomainParam(),
			{Name: "prggid", Kind: Int, Doc: "gid of the transcoded program"},
			{Name: "state", Kind: Int, Enum: []int{0, 3, 4}, Doc: "task state: 0 all (default), 3 finished, 4 unfinished"},
		}, vrsPaging(false)...),
			Param{Name: "orderindex", Kind: Int, Enum: []int{1, 2, 3, 4}, Doc: "sort key: 1 program name, 2 progress, 3 target format, 4 state; default unsorted"},
			Param{Name: "desc", Kind: Int, Enum: []int{0, 1}, Doc: "order: 0 ascending (default), 1 descending"},
		),
		Reply: []Param{
			{Name: "prgcount", Kind: Int, Doc: "total number of transcoding tasks"},
			{Name: "pageid", Kind: Int, Doc: "page returned"},
			{Name: "taskinfo", Kind: Array, Elem: Object, Doc: "transcoding tasks", Fields: []Param{
				{Name: "dsttype", Kind: Int, Enum: []int{2}, Doc: "target file format: 2 MP4"},
				{Name: "percent", Kind: Int, Doc: "transcoding progress"},
				{Name: "picmergerstyle", Kind: Int, Enum: vrsPicMergerStyles, Doc: vrsPicMergerDoc},
				{Name: "prgalias", Kind: String, Doc: "program alias"},
				{Name: "prggid", Kind: Int, Doc: "program gid"},
				{Name: "restype", Kind: Int, Enum: []int{1, 2}, Doc: "output resolution: 1 one to one, 2 one to many"},
				{Name: "state", Kind: Int, Enum: []int{1, 2, 3, 4, 5, 6}, Doc: "task state: 1 ready, 2 transcoding, 3 paused, 4 interrupted, 5 finished, 6 failed"},
				{Name: "taskerrno", Kind: Int, Enum: []int{0, 1, 2, 3, 4, 5, 10},
					Doc: "task error: 0 none, 1 live interrupted, 2 remote disk disconnected, 3 disk full, 4 paused by user, 5 CPU or GPU resources short, 10 file error"},
			}},
		},
	},
	{
		Name: "vrs.transtask.create", Module: VRS, Method: "POST", Path: "/api/v1/vrs/transtask", Aliases: []string{"/api/v2/vrs/transtask"},
		Summary: "Add transcoding tasks in a batch", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			{Name: "addparams", Kind: Array, Elem: Object, Required: true, Doc: "programs to transcode", Fields: []Param{
				{Name: "prggid", Kind: Int, Required: true, Doc: "program gid"},
				{Name: "restype", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "target resolution: 1 original, 2 one to many"},
				{Name: "picmergerstyle", Kind: Int, Required: true, Enum: vrsPicMergerStyles, Doc: vrsPicMergerDoc},
				{Name: "dsttype", Kind: Int, Required: true, Enum: []int{2}, Doc: "target file format: 2 MP4"},
				{Name: "enforcetrans", Kind: Int, Doc: "force transcoding"},
			}},
		},
		Reply: []Param{
			{Name: "addreturns", Kind: Array, Elem: Object, Doc: "results per program", Fields: []Param{
				{Name: "prggid", Kind: Int, Doc: "program gid"},
				{Name: "prgalias", Kind: String, Doc: "program alias"},
				{Name: "adderrno", Kind: Int, Doc: "error code, 0 success"},
			}},
		},
	},
	{
		Name: "vrs.transtask.operate", Module: VRS, Method: "PUT", Path: "/api/v1/vrs/transtask", Aliases: []string{"/api/v2/vrs/transtask"},
		Summary: "Start, pause or cancel transcoding tasks in a batch", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			{Name: "operateparams", Kind: Array, Elem: Object, Required: true, Doc: "operations", Fields: []Param{
				{Name: "prggid", Kind: Int, Required: true, Doc: "program gid"},
				{Name: "opcode", Kind: Int, Required: true, Enum: []int{1, 2, 3}, Doc: "operation: 1 start, 2 pause, 3 cancel"},
			}},
		},
		Reply: []Param{
			{Name: "operatereturns", Kind: Array, Elem: Object, Doc: "results per program", Fields: []Param{
				{Name: "prggid", Kind: Int, Doc: "program gid"},
				{Name: "prgalias", Kind: String, Doc: "program alias"},
				{Name: "operrno", Kind: Int, Doc: "error code, 0 success"},
			}},
		},
	},
	{
		Name: "vrs.vrsip.get", Module: VRS, Method: "GET", Path: "/api/v1/vrs/vrsip", Aliases: []string{"/api/v2/vrs/vrsip"},
		Summary: "IP group of the VRS", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: []Param{
			{Name: "ipinfo", Kind: Array, Elem: Object, Doc: "addresses", Fields: []Param{
				{Name: "emisp", Kind: Int, Enum: []int{0, 1, 2, 3, 4, 5, 6, 7, 8},
					Doc: "carrier: 0 unknown, 1 China Telecom, 2 China Unicom, 3 China Mobile, 4 cable, 5 China Tietong, 6 overseas, 7 local, 8 other"},
				{Name: "ip", Kind: Int, Doc: "IP address as an integer"},
				{Name: "port", Kind: Int, Doc: "port"},
			}},
		},
	},
}

// vrsPicMergerStyles are the picture-merge styles of transcoding.
var vrsPicMergerStyles = []int{0, 200, 201, 202, 300, 301, 400}

const vrsPicMergerDoc = "picture merging: 0 none, 200 two pictures with the main video bottom right inside the content video, " +
	"201 two pictures with the content video bottom right inside the main video, 202 two equal pictures, " +
	"300 three equal pictures one above two, 301 three equal pictures one left two right, 400 four equal pictures"

func vrsLoginParams() []Param {
	return []Param{
		{Name: "username", Kind: String, Required: true, Doc: "user name"},
		{Name: "psd", Kind: String, Required: true, Doc: "password"},
	}
}

// vrsLoginReply is the success reply of the local login; the failure fields
// are vrsLoginFailureFields.
func vrsLoginReply() []Param {
	return []Param{
		{Name: "username", Kind: String, Doc: "user name"},
		{Name: "usermoid", Kind: String, Doc: "user moid"},
		{Name: "userdomainmoid", Kind: String, Doc: "user domain moid"},
		{Name: "rightmask", Kind: Int, Enum: []int{1, 2, 3, 4, 5, 6, 7},
			Doc: "rights mask: 1 download, 2 live, 4 on demand, sums combine them"},
		{Name: "userrole", Kind: Int, Enum: []int{0, 1, 2}, Doc: "role: 0 super administrator, 1 administrator, 2 user"},
		{Name: "token", Kind: String, Doc: "SSO cookie value"},
	}
}

func vrsUserDomainParam() Param {
	return Param{Name: "userdomainmoid", Kind: String, Doc: "user domain moids to query, comma separated; default all user domains of the group"}
}

// vrsPaging is the page parameters of the vrs lists; programs names the
// search differently.
func vrsPaging(programs bool) []Param {
	search := "search string"
	if programs {
		search = "display name of the programs searched"
	}
	return []Param{
		{Name: "prgs1page", Kind: Int, Doc: "entries per page, default 20"},
		{Name: "pageid", Kind: Int, Doc: "page requested, default 1"},
		{Name: "includename", Kind: String, Doc: search},
	}
}

// vrsProgramMasks are the program filters added in 5.1.0.4.0 (after
// prgtypemask).
func vrsProgramMasks() []Param {
	return []Param{
		{Name: "remoteprgtypemask", Kind: Int, Doc: "remote program type mask: 0 all (default), 1 ASF, 2 MP4 (from 5.1.0.4.0)"},
		{Name: "localvrs", Kind: Int, Enum: []int{0, 1}, Doc: "restrict to this VRS when the user domain has several: 0 no (default), 1 yes (from 5.1.0.4.0)"},
		{Name: "prgencmask", Kind: Int, Doc: "encryption mask: 0 all (default), 1 none, 2 standard, 4 national (SM), 6 standard or national (from 5.1.0.4.0)"},
		{Name: "prgauthmask", Kind: Int, Doc: "authentication mask: 0 all (default), 1 normal, 2 strong (from 5.1.0.4.0)"},
		{Name: "prgskid", Kind: String, Doc: "program search key id (seed 001; from 5.1.0.4.0)"},
		{Name: "vrsmoid", Kind: String, Doc: "recording server moid (seed 001; from 5.1.0.4.0)"},
	}
}

// vrsProgramFields is one program of the program list.
func vrsProgramFields() []Param {
	return []Param{
		{Name: "prggid", Kind: Int, Doc: "program gid"},
		{Name: "prgalias", Kind: String, Doc: "display name"},
		{Name: "createtime", Kind: Int, Doc: "creation time"},
		{Name: "issuetime", Kind: Int, Doc: "publication time"},
		{Name: "prgstate", Kind: Int, Enum: []int{0, 1}, Doc: "state: 0 unpublished, 1 published"},
		{Name: "prgencmode", Kind: Int, Enum: []int{1, 2, 4}, Doc: "file encryption: 1 none, 2 standard, 4 national (SM) (from 5.1.0.4.0)"},
		{Name: "prgauthmode", Kind: Int, Enum: []int{1, 2}, Doc: "authentication: 1 normal, 2 strong (from 5.1.0.4.0)"},
		{Name: "prgwatermark", Kind: Int, Enum: []int{0, 1}, Doc: "watermark: 0 off, 1 on"},
		{Name: "prgskid", Kind: String, Doc: "file skid (from 5.1.0.4.0)"},
		{Name: "prgdesc", Kind: String, Doc: "description"},
		{Name: "prgallduration", Kind: Int, Doc: "total duration (s)"},
		{Name: "prgallsize", Kind: Int, Doc: "total size (bytes)"},
		{Name: "streamjsonpath", Kind: String, Doc: "location of the MP4-format JSON file"},
		{Name: "vrsmoid", Kind: String, Doc: "moid of the program's VRS (from 5.1.0.4.0)"},
		{Name: "userdomainmoid", Kind: String, Doc: "moid of the program's user domain (from 5.1.0.4.0)"},
		{Name: "prgdetail", Kind: Array, Elem: Object, Doc: "program files", Fields: []Param{
			{Name: "prgid", Kind: Int, Doc: "program id"},
			{Name: "prggindex", Kind: Int, Doc: "program index"},
			{Name: "prgname", Kind: String, Doc: "program name"},
			{Name: "prgtype", Kind: String, Doc: "file suffix"},
			{Name: "ip", Kind: Int, Doc: "IP address as an integer"},
			{Name: "relativepath", Kind: String, Doc: "relative storage path"},
			{Name: "prgsize", Kind: Int, Doc: "size (bytes)"},
			{Name: "prgduration", Kind: Int, Doc: "duration (s)"},
			{Name: "prgvideostreamcount", Kind: Int, Doc: "number of video streams in the file"},
			{Name: "presenter", Kind: String, Doc: "presenter"},
			{Name: "vodnum", Kind: Int, Doc: "number of plays on demand"},
			{Name: "coverpath", Kind: String, Doc: "cover file path"},
			{Name: "prgtab", Kind: Array, Elem: String, Doc: "tags (an array of five elements)"},
			{Name: "covername", Kind: String, Doc: "cover file name"},
			{Name: "downloadnum", Kind: Int, Doc: "number of downloads"},
		}},
	}
}
