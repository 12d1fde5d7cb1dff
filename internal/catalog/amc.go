package catalog

import "github.com/confer-platform/confer/internal/release"

// Account management (reference 08-amc-accounts.md; seed 001 "Account
// management (amc)"). Endpoints that seed 001 does not list and that A1
// does not list as added exist from the baseline.
var amcEndpoints = []Endpoint{
	// Departments.
	{
		Name: "amc.departments.create", Module: AMC, Method: "POST", Path: "/api/v1/amc/departments",
		Summary: "Create a department", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{
			{Name: "parent_department_moid", Kind: String, Required: true, Doc: "moid of the parent department"},
			{Name: "department_name", Kind: String, Required: true, Doc: "department name"},
		},
		Reply: []Param{{Name: "department_moid", Kind: String, Doc: "moid of the new department"}},
	},
	{
		Name: "amc.departments.update", Module: AMC, Method: "PUT", Path: "/api/v1/amc/departments/{department_moid}",
		Summary: "Rename a department", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "department_name", Kind: String, Required: true, Doc: "department name"}},
	},
	{
		Name: "amc.departments.delete", Module: AMC, Method: "DELETE", Path: "/api/v1/amc/departments/{department_moid}",
		Summary: "Delete a department", MinLevel: 1, Since: release.Baseline, Style: Query,
	},
	{
		Name: "amc.departments.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/departments",
		Summary: "Department tree", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: amcDepartmentNode(3),
	},
	{
		Name: "amc.departments.accounts.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/departments/{department_moid}/accounts",
		Summary: "Accounts of a department", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: amcPaging(),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "number of accounts"},
			{Name: "accounts", Kind: Array, Elem: Object, Doc: "accounts", Fields: append(amcAccountFields(),
				Param{Name: "department_moid", Kind: String, Doc: "department moid (UUID)"},
				Param{Name: "department_name", Kind: String, Doc: "department name"},
				Param{Name: "department_position", Kind: String, Doc: "position"},
			)},
		},
	},

	// Accounts.
	{
		Name: "amc.accounts.create", Module: AMC, Method: "POST", Path: "/api/v1/amc/accounts",
		Summary: "Create an account", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: append([]Param{
			{Name: "account", Kind: String, Required: true, Doc: "login account, max 64 bytes; no % & * ^ ~ ' \" ? / \\ < > | ` $, and no _ - . @ as first or last character"},
		}, amcAccountParams(true)...),
		Reply: []Param{{Name: "account_moid", Kind: String, Doc: "moid of the new account"}},
	},
	{
		// Only the fields to change are sent; enable switches the account on or off.
		Name: "amc.accounts.update", Module: AMC, Method: "PUT", Path: "/api/v1/amc/accounts/{account_moid}",
		Summary: "Edit an account", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: amcAccountParams(false),
	},
	{
		// Disables the account, unbinds its E164 number and deletes it.
		Name: "amc.accounts.delete", Module: AMC, Method: "DELETE", Path: "/api/v1/amc/accounts/{account_moid}",
		Summary: "Delete an account", MinLevel: 1, Since: release.Baseline, Style: Query,
	},
	{
		Name: "amc.accounts.get", Module: AMC, Method: "GET", Path: "/api/v1/amc/accounts/{account_moid}",
		Summary: "Account info by moid", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: append(amcAccountFields(), amcDepartments(false)),
	},
	{
		Name: "amc.accounts.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/accounts",
		Summary: "List all accounts", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: append(amcPaging(), Param{Name: "account", Kind: String, Doc: "optional account name to look up"}),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "number of accounts"},
			{Name: "accounts", Kind: Array, Elem: Object, Doc: "accounts", Fields: append(amcAccountFields(), amcDepartments(false))},
		},
	},
	{
		// The reference stars e164 but says to leave it out when the
		// account has no E164 number bound, so it is optional here.
		Name: "amc.accounts.disable.update", Module: AMC, Method: "PUT", Path: "/api/v1/amc/accounts/{account_moid}/disable",
		Summary: "Disable an account", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "e164", Kind: String, Doc: "E164 number of the account; omitted when none is bound"}},
	},
	{
		Name: "amc.accounts.password.update", Module: AMC, Method: "PUT", Path: "/api/v1/amc/accounts/{account_moid}/password",
		Summary: "Reset the password of an account", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "value", Kind: String, Required: true, Doc: "new password: letters, digits, _ and . only"}},
	},

	// Conference approval (from 5.2.0.4.0, seed 001).
	{
		// The reference stars user_domain_moid but gives the caller's own
		// user domain as its default, so it is optional here.
		Name: "amc.approval_infos.get", Module: AMC, Method: "GET", Path: "/api/v1/amc/approval_infos",
		Summary: "Conference approval settings", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Query,
		Params: []Param{{Name: "user_domain_moid", Kind: String, Doc: "user domain to query; default the caller's"}},
		Reply:  amcApprovalFields(false),
	},
	{
		Name: "amc.approval_infos.update", Module: AMC, Method: "PUT", Path: "/api/v1/amc/approval_infos",
		Summary: "Enable or disable conference approval", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Params,
		Params: amcApprovalFields(true),
	},

	// Approval of pending conferences: Confer's own (docs/amc.md). With
	// video_approval on, a conference created by an account that is not an
	// administrator of its user domain waits in state pending until an
	// administrator approves it (it then starts, or stays booked until its
	// start time) or rejects it; its creator may withdraw it.
	{
		Name: "amc.pending_confs.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/pending_confs",
		Summary: "Conferences awaiting approval (administrators see the domain's, others their own)", MinLevel: 1,
		Since: release.R5_2_0_4_0, Style: Query, Extension: true,
		Params: amcPaging(),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "number of pending conferences"},
			{Name: "confs", Kind: Array, Elem: Object, Doc: "pending conferences, oldest first", Fields: amcPendingFields()},
		},
	},
	{
		Name: "amc.pending_confs.approve", Module: AMC, Method: "POST", Path: "/api/v1/amc/pending_confs/{conf_id}/approve",
		Summary: "Approve a pending conference: it starts now, or is booked until its start time", MinLevel: 1,
		Since: release.R5_2_0_4_0, Style: Params, Extension: true,
		Reply: []Param{
			{Name: "conf_id", Kind: String, Doc: "conference number"},
			{Name: "meeting_id", Kind: String, Doc: "meeting id"},
			{Name: "state", Kind: String, EnumS: []string{"running", "booked"}, Doc: "running: started now; booked: starts at its start_time"},
			{Name: "description", Kind: String, Doc: "result message"},
		},
	},
	{
		Name: "amc.pending_confs.delete", Module: AMC, Method: "DELETE", Path: "/api/v1/amc/pending_confs/{conf_id}",
		Summary: "Reject (administrator) or withdraw (creator) a pending conference", MinLevel: 1,
		Since: release.R5_2_0_4_0, Style: Query, Extension: true,
		Reply: []Param{{Name: "description", Kind: String, Doc: "result message"}},
	},

	// Public groups.
	{
		Name: "amc.public_groups.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/public_groups",
		Summary: "Top-level public groups", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: []Param{
			{Name: "public_groups", Kind: Array, Elem: Object, Doc: "public groups; empty when the user may not see any", Fields: []Param{
				{Name: "public_group_moid", Kind: String, Doc: "public group moid"},
				{Name: "name", Kind: String, Doc: "public group name"},
				{Name: "version", Kind: String, Doc: "version"},
			}},
		},
	},
	{
		Name: "amc.public_groups.get", Module: AMC, Method: "GET", Path: "/api/v1/amc/public_groups/{public_group_moid}",
		Summary: "Organisation of a public group", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: []Param{
			{Name: "public_group_moid", Kind: String, Doc: "the public group queried"},
			{Name: "groups", Kind: Array, Elem: Object, Doc: "groups without the root; empty when none", Fields: []Param{
				{Name: "moid", Kind: String, Doc: "group moid"},
				{Name: "name", Kind: String, Doc: "group name"},
				{Name: "parent_moid", Kind: String, Doc: "parent group moid"},
			}},
		},
	},
	{
		Name: "amc.public_groups.users.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/public_groups/{public_group_moid}/users",
		Summary: "Members of a public group", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: []Param{
			{Name: "public_group_moid", Kind: String, Doc: "the public group queried"},
			{Name: "users", Kind: Array, Elem: Object, Doc: "accounts; empty when none", Fields: []Param{
				{Name: "moid", Kind: String, Doc: "account moid"},
				{Name: "jid", Kind: String, Doc: "XMPP account"},
				{Name: "account", Kind: String, Doc: "custom account"},
				{Name: "email", Kind: String, Doc: "e-mail"},
				{Name: "e164", Kind: String, Doc: "E164 number"},
				{Name: "mobile", Kind: String, Doc: "telephone"},
				{Name: "name", Kind: String, Doc: "name"},
				{Name: "group_moid", Kind: String, Doc: "group moid"},
				{Name: "ext_num", Kind: String, Doc: "extension"},
				{Name: "seat", Kind: String, Doc: "seat number"},
				{Name: "brief", Kind: String, Doc: "introduction"},
				{Name: "portrait40", Kind: String, Doc: "address of the 40-pixel portrait"},
				{Name: "portrait64", Kind: String, Doc: "address of the 64-pixel portrait"},
				{Name: "portrait128", Kind: String, Doc: "address of the 128-pixel portrait"},
			}},
		},
	},
}

func amcPaging() []Param {
	return []Param{
		{Name: "start", Kind: Int, Doc: "first row, 0-based; default 0"},
		{Name: "count", Kind: Int, Doc: "number of rows from start; default 10, 0 for all"},
	}
}

// amcDepartmentNode is a department with its sub-departments, depth levels
// deep; the innermost departments array is left without fields.
func amcDepartmentNode(depth int) []Param {
	sub := Param{Name: "departments", Kind: Array, Elem: Any, Doc: "sub-departments, each shaped like its parent"}
	if depth > 1 {
		sub.Fields = amcDepartmentNode(depth - 1)
	}
	return []Param{
		{Name: "seqencing", Kind: Int, Doc: "group kind: 0 other, 1 special (number group, guests, ungrouped users)"},
		{Name: "department_moid", Kind: String, Doc: "department moid"},
		{Name: "department_name", Kind: String, Doc: "department name"},
		sub,
	}
}

// amcAccountFields are the reply fields of an account, without departments.
func amcAccountFields() []Param {
	return []Param{
		{Name: "account", Kind: String, Doc: "login account"},
		{Name: "account_jid", Kind: String, Doc: "chat account jid"},
		{Name: "account_moid", Kind: String, Doc: "account moid"},
		{Name: "binded", Kind: Int, Doc: "E164 number bound to the account: 0 no, 1 yes"},
		{Name: "date_of_birth", Kind: String, Doc: "date of birth"},
		{Name: "e164", Kind: String, Doc: "E164 number"},
		{Name: "email", Kind: String, Doc: "e-mail"},
		{Name: "enable", Kind: Int, Doc: "0 disabled, 1 enabled"},
		{Name: "ext_num", Kind: String, Doc: "telephone and extension, e.g. 025-5555522-2189"},
		{Name: "fax", Kind: String, Doc: "fax"},
		{Name: "job_num", Kind: String, Doc: "employee number"},
		{Name: "limited", Kind: Int, Doc: "guest user: 0 no, 1 yes"},
		{Name: "mobile", Kind: String, Doc: "mobile"},
		{Name: "name", Kind: String, Doc: "real name"},
		{Name: "office_location", Kind: String, Doc: "office address"},
		{Name: "password", Kind: String, Doc: "password"},
		{Name: "sex", Kind: Int, Doc: "0 female, 1 male"},
	}
}

// amcDepartments is the departments list of an account; department_moid is
// required in requests.
func amcDepartments(req bool) Param {
	return Param{Name: "departments", Kind: Array, Elem: Object, Doc: "departments of the account", Fields: []Param{
		{Name: "department_moid", Kind: String, Required: req, Doc: "department moid (UUID)"},
		{Name: "department_name", Kind: String, Doc: "department name"},
		{Name: "department_position", Kind: String, Doc: "position"},
	}}
}

// amcAccountParams are the account fields of creating (create true: name
// and password required) and editing an account.
func amcAccountParams(create bool) []Param {
	return []Param{
		{Name: "enable", Kind: Int, Enum: []int{0, 1}, Doc: "0 disabled, 1 enabled"},
		{Name: "name", Kind: String, Required: create, Doc: "real name"},
		{Name: "email", Kind: String, Doc: "e-mail: letters, digits, _ @ . - only"},
		{Name: "mobile", Kind: String, Doc: "mobile: digits, . _ - * # and space only"},
		{Name: "password", Kind: String, Required: create, Doc: "password: letters, digits, _ and . only"},
		{Name: "binded", Kind: Int, Enum: []int{0, 1, 2}, Doc: "E164 number: 0 none, 1 manual, 2 automatic (default)"},
		{Name: "e164", Kind: String, Doc: "E164 number; only when binded is 1"},
		{Name: "sex", Kind: Int, Enum: []int{0, 1}, Doc: "0 female, 1 male (default)"},
		{Name: "date_of_birth", Kind: String, Doc: "date of birth, ISO 8601"},
		{Name: "ext_num", Kind: String, Doc: "telephone and extension, e.g. 025-5555522-2189"},
		{Name: "fax", Kind: String, Doc: "fax: digits and - only"},
		{Name: "office_location", Kind: String, Doc: "office address"},
		amcDepartments(true),
		{Name: "job_num", Kind: String, Doc: "employee number: digits and letters"},
		{Name: "limited", Kind: Int, Enum: []int{0, 1}, Doc: "guest user: 0 no (default), 1 yes"},
	}
}

// amcPendingFields describe a conference awaiting approval.
func amcPendingFields() []Param {
	return []Param{
		{Name: "conf_id", Kind: String, Doc: "conference number, held while pending"},
		{Name: "meeting_id", Kind: String, Doc: "meeting id"},
		{Name: "name", Kind: String, Doc: "conference name"},
		{Name: "start_time", Kind: String, Doc: "requested start, ISO 8601; a past one means: start when approved"},
		{Name: "end_time", Kind: String, Doc: "requested end, ISO 8601; empty for a permanent conference"},
		{Name: "duration", Kind: Int, Doc: "minutes; 0 permanent"},
		{Name: "max_join_mt", Kind: Int, Doc: "maximum joining terminals"},
		{Name: "creator", Kind: Object, Doc: "the creating account", Fields: []Param{
			{Name: "name", Kind: String, Doc: "user name"},
			{Name: "account", Kind: String, Doc: "account moid"},
		}},
	}
}

func amcApprovalFields(req bool) []Param {
	return []Param{
		{Name: "real_approval", Kind: Int, Required: req, Enum: []int{0, 1}, Doc: "approval of physical meetings: 0 off, 1 on"},
		{Name: "video_approval", Kind: Int, Required: req, Enum: []int{0, 1}, Doc: "approval of video conferences: 0 off, 1 on"},
	}
}
