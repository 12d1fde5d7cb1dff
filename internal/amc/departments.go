package amc

import (
	"context"
	"errors"
	"sort"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Departments (reference 08 "创建部门" to "查询单个部门的用户信息"). The
// root of a domain's tree is the user domain itself: its moid is the
// parent_department_moid of a top-level department, and its accounts are
// those in no department.

func noDepartment(field, moid string) error {
	return wire.Errorf(CodeNoGroup, "department %s does not exist (%s)", moid, field)
}

func (m *Module) createDepartment(ctx context.Context, r *api.Request) (*model.AMCDepartmentsCreateReply, error) {
	if err := adminOnly(r, "create departments"); err != nil {
		return nil, err
	}
	var q model.AMCDepartmentsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	name, parent := q.DepartmentName, q.ParentDepartmentMoid
	if err := checkName("department_name", name, 64); err != nil {
		return nil, err
	}
	d := store.Department{Moid: auth.NewMoid(), DomainMoid: r.Principal.DomainMoid, ParentMoid: parent, Name: name, CreatedAt: m.clk.Now()}
	switch err := m.st.CreateDepartment(ctx, d); {
	case errors.Is(err, store.ErrNoDepartment):
		return nil, noDepartment("parent_department_moid", parent)
	case errors.Is(err, store.ErrDuplicate):
		return nil, wire.Errorf(CodeGroupExists, "a department named %q already exists under %s", name, parent)
	case err != nil:
		return nil, err
	}
	return &model.AMCDepartmentsCreateReply{DepartmentMoid: d.Moid}, nil
}

func (m *Module) renameDepartment(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "rename departments"); err != nil {
		return err
	}
	var q model.AMCDepartmentsUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	moid, name := r.Path("department_moid"), q.DepartmentName
	if moid == r.Principal.DomainMoid {
		return wire.InvalidParam("department_moid", "the root department is the user domain; it cannot be renamed")
	}
	if err := checkName("department_name", name, 64); err != nil {
		return err
	}
	switch err := m.st.RenameDepartment(ctx, r.Principal.DomainMoid, moid, name); {
	case errors.Is(err, store.ErrNotFound):
		return noDepartment("department_moid", moid)
	case errors.Is(err, store.ErrDuplicate):
		return wire.Errorf(CodeGroupExists, "a sibling department is already named %q", name)
	case err != nil:
		return err
	}
	return nil
}

func (m *Module) deleteDepartment(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "delete departments"); err != nil {
		return err
	}
	moid := r.Path("department_moid")
	if moid == r.Principal.DomainMoid {
		return wire.InvalidParam("department_moid", "the root department is the user domain; it cannot be deleted")
	}
	switch err := m.st.DeleteDepartment(ctx, r.Principal.DomainMoid, moid); {
	case errors.Is(err, store.ErrNotFound):
		return noDepartment("department_moid", moid)
	case errors.Is(err, store.ErrConflict):
		return wire.Errorf(CodeNotEmpty, "department %s still has sub-departments or accounts; move or delete them first", moid)
	case err != nil:
		return err
	}
	return nil
}

// listDepartments serves the department tree, siblings by name: every
// account of the domain may read it.
func (m *Module) listDepartments(ctx context.Context, r *api.Request) (*model.AMCDepartmentsListReply, error) {
	ds, err := m.st.ListDepartments(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name }) // siblings by name
	children := map[string][]store.Department{}
	for _, d := range ds {
		children[d.ParentMoid] = append(children[d.ParentMoid], d)
	}
	// A department's departments are departments as the reply shows the
	// root (the catalogue leaves the recursive list untyped).
	var node func(moid, name string) *model.AMCDepartmentsListReply
	node = func(moid, name string) *model.AMCDepartmentsListReply {
		d := &model.AMCDepartmentsListReply{DepartmentMoid: moid, DepartmentName: name}
		for _, c := range children[moid] {
			d.Departments = append(d.Departments, node(c.Moid, c.Name).Wire())
		}
		return d
	}
	return node(r.Principal.DomainMoid, r.Principal.DomainName), nil
}

// departmentAccounts serves the accounts of one department (of the root:
// the accounts in no department), paged; administrators only, as the
// entries carry personal data.
func (m *Module) departmentAccounts(ctx context.Context, r *api.Request) (*model.AMCDepartmentsAccountsListReply, error) {
	if err := adminOnly(r, "list the accounts of a department"); err != nil {
		return nil, err
	}
	moid := r.Path("department_moid")
	q := store.AccountQuery{DomainMoid: r.Principal.DomainMoid}
	name := r.Principal.DomainName
	if moid == r.Principal.DomainMoid {
		q.NoDepartment = true
	} else {
		d, err := m.department(ctx, r, moid)
		if err != nil {
			return nil, err
		}
		q.DepartmentMoid, name = d.Moid, d.Name
	}
	w := paging.Read(r.Args.Query, paging.Offsets)
	q.Start, q.Count = w.Start, w.Count
	as, total, err := m.st.ListAccounts(ctx, q)
	if err != nil {
		return nil, err
	}
	reply := model.AMCDepartmentsAccountsListReply{Total: total, Accounts: make([]model.AMCDepartmentsAccountsListReplyAccount, 0, len(as))}
	for _, a := range as {
		d := accountDoc(a)
		e := model.AMCDepartmentsAccountsListReplyAccount{Account: d.Account, AccountJid: d.AccountJid, AccountMoid: d.AccountMoid,
			Binded: d.Binded, DateOfBirth: d.DateOfBirth, E164: d.E164, Email: d.Email, Enable: d.Enable, ExtNum: d.ExtNum,
			Fax: d.Fax, JobNum: d.JobNum, Limited: d.Limited, Mobile: d.Mobile, Name: d.Name, OfficeLocation: d.OfficeLocation,
			Sex: d.Sex, DepartmentMoid: moid, DepartmentName: name}
		for _, mb := range a.Departments {
			if mb.DepartmentMoid == moid {
				e.DepartmentPosition = mb.Position
			}
		}
		reply.Accounts = append(reply.Accounts, e)
	}
	return &reply, nil
}

// department finds a department of the caller's domain (19903).
func (m *Module) department(ctx context.Context, r *api.Request, moid string) (store.Department, error) {
	ds, err := m.st.ListDepartments(ctx, r.Principal.DomainMoid)
	if err != nil {
		return store.Department{}, err
	}
	for _, d := range ds {
		if d.Moid == moid {
			return d, nil
		}
	}
	return store.Department{}, noDepartment("department_moid", moid)
}
