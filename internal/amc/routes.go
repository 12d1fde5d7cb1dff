package amc

import "github.com/confer-platform/confer/internal/api"

// Routes is the amc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		// accounts.go
		"amc.accounts.create":          m.createAccount,
		"amc.accounts.update":          m.updateAccount,
		"amc.accounts.delete":          m.deleteAccount,
		"amc.accounts.get":             m.getAccount,
		"amc.accounts.list":            m.listAccounts,
		"amc.accounts.disable.update":  m.disableAccount,
		"amc.accounts.password.update": m.setPassword,
		// approval.go
		"amc.approval_infos.get":    m.getApproval,
		"amc.approval_infos.update": m.setApproval,
		"amc.pending_confs.list":    m.listPending,
		"amc.pending_confs.approve": m.approve,
		"amc.pending_confs.delete":  m.rejectPending,
		// audit.go
		"amc.audit.list": m.listAudit,
		// departments.go
		"amc.departments.create":        m.createDepartment,
		"amc.departments.update":        m.renameDepartment,
		"amc.departments.delete":        m.deleteDepartment,
		"amc.departments.list":          m.listDepartments,
		"amc.departments.accounts.list": m.departmentAccounts,
		// groups.go
		"amc.public_groups.list":       m.listGroups,
		"amc.public_groups.get":        m.getGroup,
		"amc.public_groups.users.list": m.groupUsers,
	}
}
