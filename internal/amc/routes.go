package amc

import "github.com/confer-platform/confer/internal/api"

// Routes is the amc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
// A handler answers its generated reply type (api.Typed) or the envelope
// alone (api.Done); the edge encodes it (docs/architecture.md "Typed models").
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// accounts.go
		"amc.accounts.create":          api.Typed(m.createAccount),
		"amc.accounts.update":          api.Done(m.updateAccount),
		"amc.accounts.delete":          api.Done(m.deleteAccount),
		"amc.accounts.get":             api.Typed(m.getAccount),
		"amc.accounts.list":            api.Typed(m.listAccounts),
		"amc.accounts.disable.update":  api.Done(m.disableAccount),
		"amc.accounts.password.update": api.Done(m.setPassword),
		// approval.go
		"amc.approval_infos.get":    api.Typed(m.getApproval),
		"amc.approval_infos.update": api.Done(m.setApproval),
		"amc.pending_confs.list":    api.Typed(m.listPending),
		"amc.pending_confs.approve": api.Typed(m.approve),
		"amc.pending_confs.delete":  api.Typed(m.rejectPending),
		// audit.go
		"amc.audit.list": api.Typed(m.listAudit),
		// departments.go
		"amc.departments.create":        api.Typed(m.createDepartment),
		"amc.departments.update":        api.Done(m.renameDepartment),
		"amc.departments.delete":        api.Done(m.deleteDepartment),
		"amc.departments.list":          api.Typed(m.listDepartments),
		"amc.departments.accounts.list": api.Typed(m.departmentAccounts),
		// groups.go
		"amc.public_groups.list":       api.Typed(m.listGroups),
		"amc.public_groups.get":        api.Typed(m.getGroup),
		"amc.public_groups.users.list": api.Typed(m.groupUsers),
	}
}
