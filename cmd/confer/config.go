package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// config is the file config.json of the configuration folder: the
// profiles (no secret, no password, no session) and the default profile.
type config struct {
	Default  string              `json:"default,omitempty"`
	Profiles map[string]*profile `json:"profiles"`
}

// profile is what confer login stores: where the platform is and who logs
// in. The license secret and the password are never stored; the files they
// were read from are, when given, so that an expired session can be
// renewed without a prompt.
type profile struct {
	URL          string `json:"url"`
	Key          string `json:"key"`
	User         string `json:"user"`
	APILevel     int    `json:"api_level,omitempty"`
	SecretFile   string `json:"secret_file,omitempty"`
	PasswordFile string `json:"password_file,omitempty"`
}

// cachedSession is a sessions/<profile>.json file, written with mode 0600.
type cachedSession struct {
	Token      string `json:"account_token"`
	Cookie     string `json:"cookie"`
	User       string `json:"user,omitempty"`
	DomainName string `json:"user_domain_name,omitempty"`
	DomainMoid string `json:"user_domain_moid,omitempty"`
}

var profileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// configDir is the configuration folder: --config, $CONFER_CONFIG, else
// confer under the user's configuration folder ($XDG_CONFIG_HOME or
// ~/.config on Linux).
func (a *app) configDir() (string, error) {
	if a.g.config != "" {
		return a.g.config, nil
	}
	if d := a.getenv("CONFER_CONFIG"); d != "" {
		return d, nil
	}
	if x := a.getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "confer"), nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration folder (%v): use --config", err)
	}
	return filepath.Join(base, "confer"), nil
}

func (a *app) loadConfig() (*config, string, error) {
	dir, err := a.configDir()
	if err != nil {
		return nil, "", err
	}
	cfg := &config{Profiles: map[string]*profile{}}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, dir, nil
	}
	if err != nil {
		return nil, "", err
	}
	if err := json.Unmarshal(b, cfg); err != nil {
		return nil, "", fmt.Errorf("%s: %v", filepath.Join(dir, "config.json"), err)
	}
	if cfg.Profiles == nil {
		cfg.Profiles = map[string]*profile{}
	}
	return cfg, dir, nil
}

func (a *app) saveConfig(cfg *config) error {
	dir, err := a.configDir()
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return writePrivate(filepath.Join(dir, "config.json"), append(b, '\n'))
}

// writePrivate writes a file readable by its owner only (0600, in a 0700
// folder), replacing it atomically.
func writePrivate(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// chooseProfile names the profile of the command: --profile,
// $CONFER_PROFILE, the configuration's default, else "default".
func (a *app) chooseProfile(cfg *config) string {
	switch {
	case a.g.profile != "":
		return a.g.profile
	case a.getenv("CONFER_PROFILE") != "":
		return a.getenv("CONFER_PROFILE")
	case cfg.Default != "":
		return cfg.Default
	}
	return "default"
}

func sessionPath(dir, name string) string { return filepath.Join(dir, "sessions", name+".json") }

func (a *app) loadSession(dir, name string) *cachedSession {
	b, err := os.ReadFile(sessionPath(dir, name))
	if err != nil {
		return nil
	}
	var s cachedSession
	if json.Unmarshal(b, &s) != nil {
		return nil
	}
	return &s
}

func writeSession(dir, name string, s *cachedSession) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writePrivate(sessionPath(dir, name), append(b, '\n'))
}

// connect makes the command's client from its profile, cached session,
// and the secrets of the environment or the profile's files.
// errNoProfile is connect's error when no platform is named: no profile,
// no --url, no CONFER_URL.
var errNoProfile = usagef("no profile yet: run 'confer login' first (or give --url)")

func (a *app) connect() (*sdk.Client, error) {
	if a.client != nil {
		return a.client, nil
	}
	cfg, dir, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	name := a.chooseProfile(cfg)
	p := cfg.Profiles[name]
	if p == nil {
		if a.g.url == "" && a.getenv("CONFER_URL") == "" {
			if len(cfg.Profiles) == 0 {
				return nil, errNoProfile
			}
			return nil, usagef("no profile %q: run 'confer login --profile %s' first", name, name)
		}
		p = &profile{}
	}
	p = &profile{URL: p.URL, Key: p.Key, User: p.User, APILevel: p.APILevel, SecretFile: p.SecretFile, PasswordFile: p.PasswordFile}
	if u := a.g.url; u != "" {
		p.URL = u
	} else if u := a.getenv("CONFER_URL"); u != "" && p.URL == "" {
		p.URL = u
	}
	opts := []sdk.Option{sdk.WithUserAgent("confer-cli/" + sdk.Version)}
	if lvl := a.level(p); lvl > 0 {
		opts = append(opts, sdk.WithAPILevel(lvl))
	}
	if a.g.debug {
		opts = append(opts, sdk.WithDebug())
	}
	if a.g.override {
		opts = append(opts, sdk.WithMethodOverride())
	}
	// Secrets for a login, when the session is missing or expires.
	secret := a.secretFrom("CONFER_SECRET", p.SecretFile)
	password := a.secretFrom("CONFER_PASSWORD", p.PasswordFile)
	if p.Key != "" && secret != "" && p.User != "" && password != "" {
		opts = append(opts, sdk.WithLicense(p.Key, secret), sdk.WithAccount(p.User, password))
	}
	if s := a.loadSession(dir, name); s != nil && a.g.url == "" {
		opts = append(opts, sdk.WithSession(s.Token, s.Cookie))
		a.before = [2]string{s.Token, s.Cookie}
	}
	c, err := sdk.New(p.URL, opts...)
	if err != nil {
		return nil, err
	}
	a.client, a.prof, a.profName = c, p, name
	return c, nil
}

// level is the API-Level to send: --api-level, else the profile's.
func (a *app) level(p *profile) int {
	if a.g.level > 0 {
		return a.g.level
	}
	return p.APILevel
}

// secretFrom reads a secret from an environment variable, else a file.
func (a *app) secretFrom(env, file string) string {
	if v := a.getenv(env); v != "" {
		return v
	}
	if file != "" {
		if b, err := os.ReadFile(file); err == nil {
			return strings.TrimRight(string(b), "\r\n")
		}
	}
	return ""
}

// saveSession writes the client's session to the cache when the command
// logged in again.
func (a *app) saveSession() {
	if a.client == nil || a.profName == "" || a.g.url != "" {
		return
	}
	tok, ck := a.client.Session()
	if tok == "" || ck == "" || [2]string{tok, ck} == a.before {
		return
	}
	dir, err := a.configDir()
	if err != nil {
		return
	}
	s := &cachedSession{Token: tok, Cookie: ck}
	if info := a.client.LoginInfo(); info != nil {
		s.User, s.DomainName, s.DomainMoid = info.Username, info.Userdomainname, info.Userdomainmoid
	}
	if err := writeSession(dir, a.profName, s); err != nil {
		fmt.Fprintf(a.errw, "confer: warning: cannot cache the session: %v\n", err)
	}
}
