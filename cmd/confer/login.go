package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/confer-platform/confer/sdk"
)

// loginCommands are the commands on profiles and sessions.
func loginCommands() []*command {
	return []*command{
		{
			name: "login", summary: "Log in and store a profile (URL, license key, user) and its session",
			example: `confer login --url http://confer.example:8080 --key confer-1a2b --user admin
CONFER_SECRET=... CONFER_PASSWORD=... confer login --profile lab --url http://10.0.0.5:8080 --key k --user ops`,
			setup: setupLogin,
		},
		{
			name: "logout", summary: "Forget the cached session of a profile (the profile stays)",
			example: "confer logout --profile lab",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, _ []string) error {
					cfg, dir, err := a.loadConfig()
					if err != nil {
						return err
					}
					name := a.chooseProfile(cfg)
					if err := os.Remove(sessionPath(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
						return err
					}
					fmt.Fprintf(a.out, "Forgot the session of profile %s.\n", name)
					return nil
				}
			},
		},
		{
			name: "profiles", summary: "List the stored profiles",
			example: "confer profiles",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(a *app, _ []string) error {
					cfg, dir, err := a.loadConfig()
					if err != nil {
						return err
					}
					names := make([]string, 0, len(cfg.Profiles))
					for n := range cfg.Profiles {
						names = append(names, n)
					}
					sort.Strings(names)
					if a.g.json {
						return a.printValue(cfg)
					}
					rows := [][]string{}
					for _, n := range names {
						p := cfg.Profiles[n]
						mark, sess := "", "no"
						if n == a.chooseProfile(cfg) {
							mark = "*"
						}
						if a.loadSession(dir, n) != nil {
							sess = "yes"
						}
						rows = append(rows, []string{mark, n, p.URL, p.User, p.Key, levelText(p.APILevel), sess})
					}
					a.table([]string{"", "PROFILE", "URL", "USER", "KEY", "API_LEVEL", "SESSION"}, rows)
					return nil
				}
			},
		},
	}
}

func levelText(l int) string {
	if l == 0 {
		return "-"
	}
	return fmt.Sprint(l)
}

// setupLogin: confer login stores the profile (URL, key, user, API-Level,
// the secret and password files if given) and the session. The secret
// and the password come from a file, an environment variable, or a
// prompt that does not echo; a standard input that is not a terminal is
// read one line each (secret first).
func setupLogin(fs *flag.FlagSet) runFunc {
	key := fs.String("key", "", "API license `key` (oauth_consumer_key) (default the profile's)")
	user := fs.String("user", "", "account `name` (default the profile's)")
	secretFile := fs.String("secret-file", "", "read the license secret from this `file` (its path is kept in the profile)")
	passwordFile := fs.String("password-file", "", "read the password from this `file` (its path is kept in the profile)")
	secretEnv := fs.String("secret-env", "CONFER_SECRET", "read the license secret from this environment `variable` when set")
	passwordEnv := fs.String("password-env", "CONFER_PASSWORD", "read the password from this environment `variable` when set")
	noDefault := fs.Bool("no-default", false, "do not make this profile the default")
	return func(a *app, _ []string) error {
		cfg, dir, err := a.loadConfig()
		if err != nil {
			return err
		}
		name := a.chooseProfile(cfg)
		if !profileName.MatchString(name) {
			return usagef("profile name %q: use letters, digits, '.', '_' and '-'", name)
		}
		p := cfg.Profiles[name]
		if p == nil {
			p = &profile{}
		}
		set := func(dst *string, v string) {
			if v != "" {
				*dst = v
			}
		}
		set(&p.URL, a.g.url) // the global --url: e.g. http://confer.example:8080
		set(&p.Key, *key)
		set(&p.User, *user)
		set(&p.SecretFile, *secretFile)
		set(&p.PasswordFile, *passwordFile)
		if a.g.level > 0 {
			p.APILevel = a.g.level
		}
		switch {
		case p.URL == "":
			return usagef("--url is needed for a new profile")
		case p.Key == "":
			return usagef("--key is needed for a new profile")
		case p.User == "":
			return usagef("--user is needed for a new profile")
		}
		for _, f := range []*string{&p.SecretFile, &p.PasswordFile} {
			if *f == "" {
				continue
			}
			if abs, err := filepath.Abs(*f); err == nil {
				*f = abs
			}
		}
		secret, err := a.readSecretFrom("License secret", *secretFile, *secretEnv, p.SecretFile)
		if err != nil {
			return err
		}
		password, err := a.readSecretFrom("Password of "+p.User, *passwordFile, *passwordEnv, p.PasswordFile)
		if err != nil {
			return err
		}
		opts := []sdk.Option{sdk.WithLicense(p.Key, secret), sdk.WithAccount(p.User, password), sdk.WithUserAgent("confer-cli/" + sdk.Version)}
		if p.APILevel > 0 {
			opts = append(opts, sdk.WithAPILevel(p.APILevel))
		}
		c, err := sdk.New(p.URL, opts...)
		if err != nil {
			return usagef("%v", err)
		}
		info, err := c.Login(a.capture())
		if err != nil {
			return err
		}
		cfg.Profiles[name] = p
		if !*noDefault || cfg.Default == "" {
			cfg.Default = name
		}
		if err := a.saveConfig(cfg); err != nil {
			return err
		}
		tok, ck := c.Session()
		if err := writeSession(dir, name, &cachedSession{Token: tok, Cookie: ck, User: info.Username,
			DomainName: info.Userdomainname, DomainMoid: info.Userdomainmoid}); err != nil {
			return err
		}
		if a.g.json {
			a.printJSON(a.raw)
			return nil
		}
		domain := ""
		if info.Userdomainname != "" {
			domain = " (user domain " + info.Userdomainname + ")"
		}
		fmt.Fprintf(a.out, "Logged in to %s as %s%s.\nProfile %s saved in %s; session cached in %s.\n",
			p.URL, info.Username, domain, name, filepath.Join(dir, "config.json"), sessionPath(dir, name))
		return nil
	}
}

// readSecretFrom reads a secret from the file given on the command line,
// an environment variable, the profile's file, the terminal (without
// echo) or a line of standard input, in that order.
func (a *app) readSecretFrom(what, flagFile, env, storedFile string) (string, error) {
	read := func(file string) (string, error) {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("%s: %v", strings.ToLower(what), err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	if flagFile != "" {
		return read(flagFile)
	}
	if env != "" {
		if v := a.getenv(env); v != "" {
			return v, nil
		}
	}
	if storedFile != "" {
		return read(storedFile)
	}
	if a.terminal != nil && a.terminal() && a.readSecret != nil {
		fmt.Fprintf(a.errw, "%s: ", what)
		s, err := a.readSecret()
		fmt.Fprintln(a.errw)
		if err != nil {
			return "", err
		}
		return strings.TrimRight(s, "\r\n"), nil
	}
	if a.lines == nil {
		a.lines = bufio.NewReader(a.in)
	}
	line, err := a.lines.ReadString('\n')
	if err != nil && (!errors.Is(err, io.EOF) || line == "") {
		return "", fmt.Errorf("%s: none given (use a file, an environment variable or a terminal)", strings.ToLower(what))
	}
	return strings.TrimRight(line, "\r\n"), nil
}
