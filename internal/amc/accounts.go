package amc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/confer-platform/confer/internal/model"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/sipcred"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Accounts (reference 08 "创建账号" to "重置密码"): the accounts that log in
// through /api/v1/system/login. Only administrators of the user domain
// manage them; an account of another domain does not exist (19001).

// accountDoc is an account in the reference's reply shape, a profile
// member it never set at its default (defaultProfile). The password is
// never returned: only its bcrypt hash is kept.
func accountDoc(a store.Account) model.AMCAccountsGetReply {
	p, _ := profileOf(a)
	d := defaultProfile
	doc := model.AMCAccountsGetReply{
		Account: a.Username, AccountMoid: a.Moid, AccountJid: a.Moid + jidSuffix,
		Name: a.Name, E164: a.E164, Email: a.Email, Mobile: a.Mobile,
		Binded: flag(a.E164 != ""), Enable: flag(!a.Disabled),
		DateOfBirth: p.DateOfBirth.Or(d.DateOfBirth.Value), ExtNum: p.ExtNum.Or(d.ExtNum.Value), Fax: p.Fax.Or(d.Fax.Value),
		JobNum: p.JobNum.Or(d.JobNum.Value), Limited: p.Limited.Or(d.Limited.Value),
		OfficeLocation: p.OfficeLocation.Or(d.OfficeLocation.Value), Sex: p.Sex.Or(d.Sex.Value),
		Departments: make([]model.AMCAccountsGetReplyDepartment, 0, len(a.Departments)),
	}
	for _, d := range a.Departments {
		doc.Departments = append(doc.Departments, model.AMCAccountsGetReplyDepartment{DepartmentMoid: d.DepartmentMoid,
			DepartmentName: d.DepartmentName, DepartmentPosition: d.Position})
	}
	return doc
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Character rules of reference 08 "创建账号".
var fieldRules = []struct {
	name    string
	maxLen  int
	allowed string
	what    string
	get     func(q *model.AMCAccountsUpdateRequest) model.Opt[string]
}{
	{"name", 64, "", "must not contain control characters", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.Name }},
	{"email", 64, letters + digits + "_@.-", "may hold only letters, digits, _ @ . -", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.Email }},
	{"mobile", 32, digits + "._-*# ", "may hold only digits, . _ - * # and spaces", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.Mobile }},
	{"ext_num", 64, digits + "()（）,，-;；*+# .", "may hold only digits, ( ) , - ; * + # . and spaces", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.ExtNum }},
	{"fax", 32, digits + "-", "may hold only digits and -", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.Fax }},
	{"job_num", 32, letters + digits, "may hold only letters and digits", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.JobNum }},
	{"office_location", 128, "", "must not contain control characters", func(q *model.AMCAccountsUpdateRequest) model.Opt[string] { return q.OfficeLocation }},
}

// checkPassword applies the reference's password rule.
func checkPassword(field, pw string) error {
	if pw == "" {
		return wire.InvalidParam(field, "must not be empty")
	}
	return checkChars(field, pw, 64, letters+digits+"_.", "", "may hold only letters, digits, _ and .")
}

// applyFields checks the account fields sent in q (an account's creation
// is read as its edit for these: the same members) and writes them into
// a (the store columns and the profile object). Absent fields are kept.
func (m *Module) applyFields(ctx context.Context, r *api.Request, q *model.AMCAccountsUpdateRequest, a *store.Account, prof *profile) error {
	for _, f := range fieldRules {
		v, ok := f.get(q).Get()
		if !ok {
			continue
		}
		if err := checkChars(f.name, v, f.maxLen, f.allowed, "\x00", f.what); err != nil {
			return err
		}
		switch f.name {
		case "name":
			if strings.TrimSpace(v) == "" {
				return wire.InvalidParam("name", "must not be empty")
			}
			a.Name = v
		case "email":
			a.Email = v
		case "mobile":
			a.Mobile = v
		default:
			*prof.str(f.name) = model.Some(v)
		}
	}
	if dob, ok := q.DateOfBirth.Get(); ok {
		v := strings.TrimSpace(dob)
		if v != "" {
			if _, err := record.ParseTime(v); err != nil {
				if _, err := time.Parse("2006-01-02", v); err != nil {
					return wire.InvalidParam("date_of_birth", "must be an ISO 8601 date or time such as 2016-11-11T15:30:00+08:00")
				}
			}
		}
		prof.DateOfBirth = model.Some(v)
	}
	if v, ok := q.Sex.Get(); ok {
		prof.Sex = model.Some(v)
	}
	if v, ok := q.Limited.Get(); ok {
		prof.Limited = model.Some(v)
	}
	if v, ok := q.Enable.Get(); ok {
		a.Disabled = v == 0
	}
	if q.Departments != nil {
		deps, err := m.memberships(ctx, r, q.Departments)
		if err != nil {
			return err
		}
		a.Departments = deps
	}
	return nil
}

// memberships reads the departments parameter: each department_moid
// must name a department of the caller's domain (19903), once.
func (m *Module) memberships(ctx context.Context, r *api.Request, list []model.AMCAccountsUpdateRequestDepartment) ([]store.Membership, error) {
	ds, err := m.st.ListDepartments(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, d := range ds {
		known[d.Moid] = true
	}
	seen := map[string]bool{}
	out := []store.Membership{}
	for i, e := range list {
		moid := e.DepartmentMoid
		field := fmt.Sprintf("departments[%d].department_moid", i)
		if !known[moid] {
			return nil, noDepartment(field, moid)
		}
		if seen[moid] {
			return nil, wire.InvalidParam(field, "department listed twice")
		}
		seen[moid] = true
		pos := e.DepartmentPosition.Value
		if len(pos) > 64 {
			return nil, wire.InvalidParam(fmt.Sprintf("departments[%d].department_position", i), "longer than 64 bytes")
		}
		out = append(out, store.Membership{DepartmentMoid: moid, Position: pos})
	}
	return out, nil
}

// binding reads binded and e164: 0 no number, 1 the e164 sent (digits),
// 2 a number from the automatic range (keeping one already bound). An
// e164 sent without binded is a manual binding.
func binding(q *model.AMCAccountsUpdateRequest, create bool) (mode int, e164 string, err error) {
	mode = -1 // unchanged
	if create {
		mode = 2
	}
	if b, ok := q.Binded.Get(); ok {
		mode = b
	} else if q.E164.Value != "" {
		mode = 1
	}
	if mode == 1 {
		e164 = q.E164.Value
		if e164 == "" {
			return 0, "", wire.InvalidParam("e164", "required when binded is 1")
		}
		if err := checkChars("e164", e164, 20, digits, "", "may hold only digits"); err != nil {
			return 0, "", err
		}
	}
	return mode, e164, nil
}

// storeErr maps the store's account errors to the reference's codes.
func storeErr(err error, a store.Account) error {
	var de *store.DuplicateError
	switch {
	case errors.As(err, &de):
		switch de.Field {
		case "account":
			return wire.Errorf(CodeAccountUsed, "user account %s is already used", a.Username)
		case "e164":
			return wire.Errorf(CodeE164Exists, "E164 number %s already exists", a.E164)
		case "email":
			return wire.Errorf(CodeEmailUsed, "e-mail %s is already used", a.Email)
		case "mobile":
			return wire.Errorf(CodeMobileUsed, "mobile %s is already used", a.Mobile)
		default:
			return wire.Errorf(CodeMobileIsE164, "a mobile number equals an E164 number of another account")
		}
	case errors.Is(err, store.ErrDuplicate):
		return wire.Errorf(CodeAccountUsed, "user account, E164 number, e-mail or mobile already used")
	case errors.Is(err, store.ErrNoDepartment):
		return wire.Errorf(CodeNoGroup, "a department of the account does not exist")
	case errors.Is(err, store.ErrNotFound):
		return notFoundAccount(a.Moid)
	}
	return err
}

// withNumber runs write with the account's E164 number; when auto, it
// takes numbers from the automatic range until one is free (52001 when
// none is).
func (m *Module) withNumber(ctx context.Context, a *store.Account, auto bool, write func() error) error {
	if !auto {
		return storeErr(write(), *a)
	}
	size := m.cfg.E164Max - m.cfg.E164Min + 1
	for i := int64(0); i < size; i++ {
		n, err := m.st.NextNumber(ctx, e164Counter, m.cfg.E164Min, m.cfg.E164Max)
		if err != nil {
			return err
		}
		a.E164 = strconv.FormatInt(n, 10)
		err = write()
		var de *store.DuplicateError
		if errors.As(err, &de) && (de.Field == "e164" || de.Field == "e164_mobile") {
			continue
		}
		return storeErr(err, *a)
	}
	return wire.Errorf(CodeNoNumber, "no E164 number is left to assign (%d to %d)", m.cfg.E164Min, m.cfg.E164Max)
}

func (m *Module) createAccount(ctx context.Context, r *api.Request) (*model.AMCAccountsCreateReply, error) {
	if err := adminOnly(r, "create accounts"); err != nil {
		return nil, err
	}
	var c model.AMCAccountsCreateRequest
	if err := c.Decode(r.Args); err != nil {
		return nil, err
	}
	var q model.AMCAccountsUpdateRequest // the members an edit has too
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	user := c.Account
	if err := checkName("account", user, maxAccountNameLen); err != nil {
		return nil, err
	}
	if strings.Trim(user, digits) == "" {
		return nil, wire.Errorf(CodeDigitsOnly, "account %s must not be digits only", user)
	}
	if !auth.ValidUsername(user) {
		return nil, wire.InvalidParam("account", "must not begin or end with spaces")
	}
	pw := c.Password
	if err := checkPassword("password", pw); err != nil {
		return nil, err
	}
	mode, e164, err := binding(&q, true)
	if err != nil {
		return nil, err
	}
	a := store.Account{Moid: auth.NewMoid(), DomainMoid: r.Principal.DomainMoid, Username: user, CreatedAt: m.clk.Now(), E164: e164}
	prof := defaultProfile
	if err := m.applyFields(ctx, r, &q, &a, &prof); err != nil {
		return nil, err
	}
	if a.Profile, err = json.Marshal(prof); err != nil {
		return nil, err
	}
	if a.PasswordHash, err = auth.HashSecret(pw); err != nil {
		return nil, err
	}
	if err := m.withNumber(ctx, &a, mode == 2, func() error { return m.st.CreateAccount(ctx, a) }); err != nil {
		return nil, err
	}
	if err := sipcred.Save(ctx, m.st, a, pw, m.clk.Now()); err != nil { // docs/sip.md "Registrar"
		return nil, err
	}
	return &model.AMCAccountsCreateReply{AccountMoid: a.Moid}, nil
}

// updateAccount serves the edit: only the fields sent change; enable 0
// disables the account and a password replaces it, both ending its
// sessions at once.
func (m *Module) updateAccount(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "edit accounts"); err != nil {
		return err
	}
	a, err := m.loadAccount(ctx, r, r.Path("account_moid"))
	if err != nil {
		return err
	}
	var q model.AMCAccountsUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	was := a.Disabled
	prof, err := profileOf(a)
	if err != nil {
		return err
	}
	if err := m.applyFields(ctx, r, &q, &a, &prof); err != nil {
		return err
	}
	if a.Disabled && !was && a.Moid == r.Principal.AccountMoid {
		return wire.Errorf(CodeSelf, "an account cannot disable itself")
	}
	pw := ""
	if v, ok := q.Password.Get(); ok {
		pw = v
		if err := checkPassword("password", pw); err != nil {
			return err
		}
	}
	mode, e164, err := binding(&q, false)
	if err != nil {
		return err
	}
	auto := false
	switch mode {
	case 0:
		a.E164 = ""
	case 1:
		a.E164 = e164
	case 2:
		auto = a.E164 == ""
	}
	if a.Profile, err = json.Marshal(prof); err != nil {
		return err
	}
	if err := m.withNumber(ctx, &a, auto, func() error { return m.auth.SaveAccount(ctx, a, pw, was) }); err != nil {
		return err
	}
	return nil
}

func (m *Module) deleteAccount(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "delete accounts"); err != nil {
		return err
	}
	moid := r.Path("account_moid")
	if moid == r.Principal.AccountMoid {
		return wire.Errorf(CodeSelf, "an account cannot delete itself")
	}
	if err := m.auth.RemoveAccount(ctx, r.Principal.DomainMoid, moid); errors.Is(err, store.ErrNotFound) {
		return notFoundAccount(moid)
	} else if err != nil {
		return err
	}
	return nil
}

// getAccount serves one account: administrators read any of the domain,
// every account reads its own.
func (m *Module) getAccount(ctx context.Context, r *api.Request) (*model.AMCAccountsGetReply, error) {
	moid := r.Path("account_moid")
	if moid != r.Principal.AccountMoid {
		if err := adminOnly(r, "read other accounts"); err != nil {
			return nil, err
		}
	}
	a, err := m.loadAccount(ctx, r, moid)
	if err != nil {
		return nil, err
	}
	doc := accountDoc(a)
	return &doc, nil
}

// listAccounts pages through the domain's accounts, oldest first; account
// finds the user names that contain it, case-insensitively.
func (m *Module) listAccounts(ctx context.Context, r *api.Request) (*model.AMCAccountsListReply, error) {
	if err := adminOnly(r, "list accounts"); err != nil {
		return nil, err
	}
	q := store.AccountQuery{DomainMoid: r.Principal.DomainMoid, Search: r.Args.Query.Get("account")}
	if len(q.Search) > maxAccountNameLen { // no user name is longer; and SQLite refuses huge LIKE patterns
		return nil, wire.InvalidParam("account", fmt.Sprintf("longer than %d bytes", maxAccountNameLen))
	}
	w := paging.Read(r.Args.Query, paging.Offsets)
	q.Start, q.Count = w.Start, w.Count
	as, total, err := m.st.ListAccounts(ctx, q)
	if err != nil {
		return nil, err
	}
	reply := model.AMCAccountsListReply{Total: total, Accounts: make([]model.AMCAccountsListReplyAccount, 0, len(as))}
	for _, a := range as {
		reply.Accounts = append(reply.Accounts, model.AMCAccountsListReplyAccount(accountDoc(a)))
	}
	return &reply, nil
}

// disableAccount disables an account and ends its sessions; the e164
// sent, when the account has a number, must be that number.
func (m *Module) disableAccount(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "disable accounts"); err != nil {
		return err
	}
	a, err := m.loadAccount(ctx, r, r.Path("account_moid"))
	if err != nil {
		return err
	}
	var q model.AMCAccountsDisableUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	if e := q.E164.Value; e != "" && e != a.E164 {
		return wire.InvalidParam("e164", "is not the E164 number of the account")
	}
	if a.Moid == r.Principal.AccountMoid {
		return wire.Errorf(CodeSelf, "an account cannot disable itself")
	}
	was := a.Disabled
	a.Disabled = true
	if err := m.auth.SaveAccount(ctx, a, "", was); err != nil {
		return storeErr(err, a)
	}
	return nil
}

// setPassword replaces an account's password: it works at the next login,
// the account's sessions end, and a lock after failed logins is lifted.
func (m *Module) setPassword(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "reset passwords"); err != nil {
		return err
	}
	var q model.AMCAccountsPasswordUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	pw := q.Value
	if err := checkPassword("value", pw); err != nil {
		return err
	}
	a, err := m.loadAccount(ctx, r, r.Path("account_moid"))
	if err != nil {
		return err
	}
	if err := m.auth.SaveAccount(ctx, a, pw, a.Disabled); err != nil {
		return storeErr(err, a)
	}
	return nil
}
