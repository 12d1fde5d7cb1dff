package amc

import (
	"context"
	"errors"
	"hash/fnv"
	"sort"
	"strconv"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Public groups (reference 08 "获取集团顶级公共群组列表" and the two after it).
// Confer's organisation has one top-level public group per user domain:
// the domain itself (its moid and name), whose groups are the domain's
// departments and whose users are its accounts, each in the group of
// each of its departments (the root group when it has none). Every
// account of the domain sees it except guests (limited 1), who get an
// empty list ("返回空是代表用户无权查看公共群组") and 19903 for the group.

// organisation is what the public group shows.
type organisation struct {
	deps  []store.Department
	accts []store.Account
}

// visible tells whether the caller may see the public group: guests may
// not.
func (m *Module) visible(ctx context.Context, r *api.Request) (bool, error) {
	a, err := m.st.AccountByMoid(ctx, r.Principal.AccountMoid)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	prof, err := profileOf(a)
	if err != nil {
		return false, err
	}
	return prof.Limited.Or(0) == 0, nil
}

func (m *Module) organisation(ctx context.Context, r *api.Request) (organisation, error) {
	deps, err := m.st.ListDepartments(ctx, r.Principal.DomainMoid)
	if err != nil {
		return organisation{}, err
	}
	accts, _, err := m.st.ListAccounts(ctx, store.AccountQuery{DomainMoid: r.Principal.DomainMoid})
	return organisation{deps, accts}, err
}

// version changes whenever the groups or their members change: a hash of
// what the group shows, so a client may cache it.
func (o organisation) version(root string) string {
	h := fnv.New64a()
	w := func(ss ...string) {
		for _, s := range ss {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
	}
	w(root)
	for _, d := range o.deps {
		w("d", d.Moid, d.ParentMoid, d.Name)
	}
	for _, a := range o.accts {
		w("a", a.Moid, a.Username, a.Name, a.E164, a.Email, a.Mobile, string(a.Profile))
		for _, mb := range a.Departments {
			w("m", mb.DepartmentMoid)
		}
	}
	return strconv.FormatUint(h.Sum64(), 10)
}

func (m *Module) listGroups(ctx context.Context, r *api.Request) (*model.AMCPublicGroupsListReply, error) {
	ok, err := m.visible(ctx, r)
	if err != nil {
		return nil, err
	}
	var reply model.AMCPublicGroupsListReply
	if ok {
		o, err := m.organisation(ctx, r)
		if err != nil {
			return nil, err
		}
		reply.PublicGroups = append(reply.PublicGroups, model.AMCPublicGroupsListReplyPublicGroup{PublicGroupMoid: r.Principal.DomainMoid,
			Name: r.Principal.DomainName, Version: o.version(r.Principal.DomainMoid)})
	}
	return &reply, nil
}

// group checks the group moid: the caller's domain, visible to it.
func (m *Module) group(ctx context.Context, r *api.Request) (organisation, error) {
	id := r.Path("public_group_moid")
	ok, err := m.visible(ctx, r)
	if err != nil {
		return organisation{}, err
	}
	if !ok || id != r.Principal.DomainMoid {
		return organisation{}, wire.Errorf(CodeNoGroup, "public group %s does not exist", id)
	}
	return m.organisation(ctx, r)
}

func (m *Module) getGroup(ctx context.Context, r *api.Request) (*model.AMCPublicGroupsGetReply, error) {
	o, err := m.group(ctx, r)
	if err != nil {
		return nil, err
	}
	// Parents before their children, siblings by name (a walk of the tree).
	children := map[string][]store.Department{}
	for _, d := range o.deps {
		children[d.ParentMoid] = append(children[d.ParentMoid], d)
	}
	reply := model.AMCPublicGroupsGetReply{PublicGroupMoid: r.Principal.DomainMoid, Groups: make([]model.AMCPublicGroupsGetReplyGroup, 0, len(o.deps))}
	var walk func(parent string)
	walk = func(parent string) {
		subs := children[parent]
		sort.SliceStable(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
		for _, d := range subs {
			reply.Groups = append(reply.Groups, model.AMCPublicGroupsGetReplyGroup{Moid: d.Moid, Name: d.Name, ParentMoid: d.ParentMoid})
			walk(d.Moid)
		}
	}
	walk(r.Principal.DomainMoid)
	return &reply, nil
}

func (m *Module) groupUsers(ctx context.Context, r *api.Request) (*model.AMCPublicGroupsUsersListReply, error) {
	o, err := m.group(ctx, r)
	if err != nil {
		return nil, err
	}
	reply := model.AMCPublicGroupsUsersListReply{PublicGroupMoid: r.Principal.DomainMoid}
	for _, a := range o.accts {
		if a.Disabled {
			continue
		}
		prof, _ := profileOf(a)
		u := model.AMCPublicGroupsUsersListReplyUser{Moid: a.Moid, Jid: a.Moid + jidSuffix, Account: a.Username, Email: a.Email,
			E164: a.E164, Mobile: a.Mobile, Name: a.Name, ExtNum: prof.ExtNum.Or("")}
		groupsOf := []string{}
		for _, mb := range a.Departments {
			groupsOf = append(groupsOf, mb.DepartmentMoid)
		}
		if len(groupsOf) == 0 {
			groupsOf = []string{r.Principal.DomainMoid}
		}
		for _, g := range groupsOf {
			u.GroupMoid = g
			reply.Users = append(reply.Users, u)
		}
	}
	return &reply, nil
}
