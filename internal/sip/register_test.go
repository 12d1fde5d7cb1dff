package sip_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testserver"
)

// createAccount creates an amc account with an E.164 number and password.
func (e *sipEnv) createAccount(t *testing.T, name, e164, password string) {
	t.Helper()
	testserver.MustOK(t, e.api.Do("POST", "/api/v1/amc/accounts", testserver.Params(t, map[string]any{
		"account": name, "password": password, "binded": 1, "e164": e164, "name": name})))
}

// A terminal registers its account's E.164 number with digest
// authentication; calling that number (account_type 5, protocol 1) then
// reaches it where it registered from (issue 26 "Registrar").
func TestRegisterAndCallByE164(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	e.createAccount(t, "room42", "5551042", "s3cret.pw")
	reg := startSIPp(t, scenario(t, "uac_register.xml", map[string]string{"E164": "5551042", "PASSWORD": "s3cret.pw", "REGCODE": "200"}), e.addr())
	reg.wait(t)
	if r, ok := e.ua.Registered(context.Background(), "5551042"); !ok || r.AccountMoid == "" {
		t.Fatalf("no registration: %+v", r)
	}
	// Presence: the account is online in upu, the terminal listed by nms.
	acc := testserver.MustOK(t, e.api.Do("GET", "/api/v1/upu/accounts?account=room42", nil))["accounts"].([]any)
	if len(acc) != 1 || fmt.Sprint(acc[0].(map[string]any)["online"]) != "1" {
		t.Fatalf("upu accounts: %v", acc)
	}
	d, err := e.env.Store.DomainByName(context.Background(), auth.DefaultDomain)
	if err != nil {
		t.Fatal(err)
	}
	terms := testserver.MustOK(t, e.api.Do("GET", "/api/v1/nms/user_domains/"+d.Moid+"/terminals", nil))["terminals"].([]any)
	found := false
	for _, x := range terms {
		m := x.(map[string]any)
		found = found || (m["e164"] == "5551042" && m["online"] == "online")
	}
	if !found {
		t.Fatalf("nms terminals: %v", terms)
	}

	conf := e.conf(t, nil)
	s := startSIPpOn(t, reg.port, scenario(t, "uas_answer.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "5551042", 5)
	e.waitOnline(t, conf, mt, "the registered terminal online")
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}

// A wrong password is refused with 403, an unknown number too; nothing
// is registered.
func TestRegisterRefused(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	e.createAccount(t, "room43", "5551043", "right.pw")
	for _, tc := range []struct{ user, pw string }{{"5551043", "wrong.pw"}, {"5559999", "right.pw"}} {
		s := startSIPp(t, scenario(t, "uac_register.xml", map[string]string{"E164": tc.user, "PASSWORD": tc.pw, "REGCODE": "403"}), e.addr())
		s.wait(t)
		if _, ok := e.ua.Registered(context.Background(), tc.user); ok {
			t.Fatalf("%s registered", tc.user)
		}
	}
}
