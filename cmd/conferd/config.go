package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/ops"
)

// applyConfig sets, from a config file, the flags of fs that neither the
// command line nor the environment set (docs/operations.md). The file
// holds "name = value" lines, name being a flag's name without dashes;
// blank lines and lines starting with # are ignored, and a value may be
// wrapped in double quotes. A flag's environment variable is CONFER_ and
// its name in upper case with _ for -; it counts when the flag's usage
// names it (the flags that read the environment say so).
func applyConfig(fs *flag.FlagSet, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	sc := bufio.NewScanner(f)
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("config %s:%d: want name = value", path, n)
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		if name == "config" || fs.Lookup(name) == nil {
			return fmt.Errorf("config %s:%d: unknown setting %q", path, n, name)
		}
		if prev, dup := seen[name]; dup {
			return fmt.Errorf("config %s:%d: %s is already set on line %d", path, n, name, prev)
		}
		seen[name] = n
		if set[name] {
			continue // the command line wins
		}
		if v, ok := os.LookupEnv(envName(name)); ok && v != "" && strings.Contains(fs.Lookup(name).Usage, envName(name)) {
			continue // so does the environment, for flags that read it
		}
		if err := fs.Set(name, value); err != nil {
			return fmt.Errorf("config %s:%d: %s: %v", path, n, name, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}

// envName is the environment variable of a flag: db → CONFER_DB.
func envName(flagName string) string {
	return "CONFER_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// logDelay is how long a log line may wait to be written with others
// (docs/operations.md "Logs").
const logDelay = 2 * time.Millisecond

// newLogger returns conferd's logger, text or JSON lines on w; with lines
// (w itself, buffered), warnings and errors are written at once. The
// handlers write slog's own bytes, cheaper for the request line
// (ops.NewTextHandler, performance issue 23).
func newLogger(format string, w io.Writer, lines *ops.LineBuffer) (*slog.Logger, error) {
	var h slog.Handler
	switch format {
	case "text", "":
		h = ops.NewTextHandler(w, nil)
	case "json":
		h = ops.NewJSONHandler(w, nil)
	default:
		return nil, errors.New("--log-format must be text or json")
	}
	if lines != nil {
		h = ops.FlushFrom(h, lines, slog.LevelWarn)
	}
	return slog.New(h), nil
}

// redirectHTTPS answers every plain HTTP request with a permanent redirect
// (308, which keeps the method and body) to the same path at target, the
// HTTPS listener's configured host and port: never the request's Host,
// which a client chooses (issue 38 item 10).
func redirectHTTPS(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://"+target+r.URL.RequestURI(), http.StatusPermanentRedirect)
	})
}

// redirectTarget is the host[:port] redirects go to: --public-host (with
// the TLS listener's port unless it names one), else the TLS listener's
// own address when it is a specific one, else the certificate's first
// DNS name or IP address. "" when none is known.
func redirectTarget(publicHost string, tlsAddr net.Addr, cert tls.Certificate) string {
	host, port, _ := net.SplitHostPort(tlsAddr.String())
	switch {
	case publicHost != "":
		if _, _, err := net.SplitHostPort(publicHost); err == nil {
			return publicHost
		}
		host = strings.Trim(publicHost, "[]")
	case host != "" && !net.ParseIP(host).IsUnspecified():
	default:
		host = ""
		if leaf, err := x509.ParseCertificate(cert.Certificate[0]); err == nil {
			if len(leaf.DNSNames) > 0 {
				host = leaf.DNSNames[0]
			} else if len(leaf.IPAddresses) > 0 {
				host = leaf.IPAddresses[0].String()
			}
		}
		if host == "" {
			return ""
		}
	}
	if port == "443" || port == "" {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return net.JoinHostPort(host, port)
}

// checkOrigins refuses an --allowed-origins entry that is not
// scheme://host[:port] with scheme http or https.
func checkOrigins(origins []string) error {
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" {
			return fmt.Errorf("--allowed-origins: %q is not an origin (scheme://host[:port])", o)
		}
	}
	return nil
}
