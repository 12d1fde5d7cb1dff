// Package deploy_test checks the deployment files against the documents
// and the build (issue 22 item 6): docs/deployment.md shows each file as
// it is, and the Dockerfile builds as scripts/build.sh does, with the Go
// of go.mod. No container engine runs here; these are the checks that do
// not need one.
package deploy_test

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docs/deployment.md shows every deployment file whole, in a block of its
// own.
func TestDocsShowTheFiles(t *testing.T) {
	doc := read(t, "../docs/deployment.md")
	for _, f := range []struct{ name, lang string }{
		{"conferd.service", "ini"}, {"conferd.conf", ""}, {"conferd.env", ""}, {"compose.yaml", "yaml"},
	} {
		if !strings.Contains(doc, "```"+f.lang+"\n"+read(t, f.name)+"```\n") {
			t.Errorf("docs/deployment.md does not show deploy/%s as it is", f.name)
		}
	}
}

// dockerLines are the instructions of a Dockerfile, continuation lines
// joined, comments dropped.
func dockerLines(src string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			cur += s
			continue
		}
		if line := strings.TrimSpace(cur + l); line != "" {
			out = append(out, line)
		}
		cur = ""
	}
	return out
}

var goBuild = regexp.MustCompile(`CGO_ENABLED=0 go build -trimpath -ldflags "([^"]*)" -o \S+/(conferd|confer) \./cmd/(conferd|confer)`)

func TestDockerfileBuildsAsTheScript(t *testing.T) {
	df := dockerLines(read(t, "../Dockerfile"))
	script := read(t, "../scripts/build.sh")
	gomod := read(t, "../go.mod")

	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(gomod)
	if goVersion == nil || !contains(df, "FROM golang:"+goVersion[1]+" AS build") {
		t.Errorf("the build stage is not FROM golang:<go.mod's go> (%v)", goVersion)
	}

	// The script's flags: CGO_ENABLED=0, -trimpath, ldflags with the version.
	ld := regexp.MustCompile(`ldflags="([^"]*)"`).FindStringSubmatch(script)
	if ld == nil || !strings.Contains(script, "export CGO_ENABLED=0") || !strings.Contains(script, `go build -trimpath -ldflags "$ldflags"`) {
		t.Fatalf("scripts/build.sh no longer builds with CGO_ENABLED=0 -trimpath -ldflags \"$ldflags\"")
	}
	built := map[string]bool{}
	for _, l := range df {
		for _, m := range goBuild.FindAllStringSubmatch(l, -1) {
			if m[2] != m[3] {
				t.Errorf("Dockerfile builds ./cmd/%s as %s", m[3], m[2])
			}
			if got := strings.ReplaceAll(m[1], "${VERSION}", "$VERSION"); got != ld[1] {
				t.Errorf("Dockerfile's ldflags %q, scripts/build.sh's %q", m[1], ld[1])
			}
			built[m[2]] = true
		}
	}
	if !built["conferd"] || !built["confer"] {
		t.Errorf("Dockerfile builds %v, want conferd and confer the way scripts/build.sh does", built)
	}

	// Runtime: non-root, the data folder a volume, the port exposed,
	// conferd's settings pointing at them.
	env := map[string]string{}
	for _, l := range df {
		if rest, ok := strings.CutPrefix(l, "ENV "); ok {
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		}
	}
	for _, want := range []string{"USER nonroot:nonroot", "VOLUME /var/lib/confer", "EXPOSE 8080 7882/udp 7881 5060/udp 5060/tcp 40000-40199/udp", `ENTRYPOINT ["/usr/local/bin/conferd"]`} {
		if !contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if env["CONFER_ADDR"] != ":8080" || path.Dir(env["CONFER_DB"]) != "/var/lib/confer" || !strings.HasPrefix(env["CONFER_FILES_DIR"], "/var/lib/confer/") {
		t.Errorf("Dockerfile's ENV %v: want the address of EXPOSE and the database and files in the volume", env)
	}

	// The compose file runs that image on PostgreSQL with the same port and volume.
	compose := read(t, "compose.yaml")
	if env["CONFER_SIP_RTP_PORTS"] != "40000-40199" {
		t.Errorf("Dockerfile's CONFER_SIP_RTP_PORTS %q, want the range it exposes", env["CONFER_SIP_RTP_PORTS"])
	}
	for _, want := range []string{"context: ..", "CONFER_DB: postgres://", `"8080:8080"`, `"7882:7882/udp"`, `"7881:7881"`, `"5060:5060/udp"`,
		`"5060:5060/tcp"`, `"40000-40199:40000-40199/udp"`, "CONFER_RTC_PUBLIC_IP:", "CONFER_SIP_PUBLIC_IP:", ":/var/lib/confer", "condition: service_healthy"} {
		if !strings.Contains(compose, want) {
			t.Errorf("deploy/compose.yaml lacks %q", want)
		}
	}

	// README and docs/deployment.md show the image's build command, and a
	// run line that publishes the media and SIP ports and sets the public IP.
	for _, doc := range []string{"../README.md", "../docs/deployment.md", "../Dockerfile"} {
		text := read(t, doc)
		if !strings.Contains(text, "docker build -t confer --build-arg VERSION=v0.1.0 .") {
			t.Errorf("%s does not show the image's build command", doc)
		}
		for _, want := range []string{"-p 7882:7882/udp", "-p 7881:7881", "-p 5060:5060/udp", "-p 40000-40199:40000-40199/udp", "CONFER_RTC_PUBLIC_IP="} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the docker run line lacks %q", doc, want)
			}
		}
	}
}

func contains(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// The systemd unit lets conferd write the folders its example
// configuration names (ProtectSystem=strict makes the rest read-only).
func TestUnitWritesTheConfiguredFolders(t *testing.T) {
	unit := read(t, "conferd.service")
	m := regexp.MustCompile(`(?m)^ReadWritePaths=(.*)$`).FindStringSubmatch(unit)
	if m == nil {
		t.Fatal("deploy/conferd.service has no ReadWritePaths")
	}
	writable := map[string]bool{}
	for _, p := range strings.Fields(m[1]) {
		writable[strings.TrimPrefix(p, "-")] = true
	}
	for _, key := range []string{"files-dir", "rec-dir"} {
		v := regexp.MustCompile(`(?m)^` + key + ` = (\S+)$`).FindStringSubmatch(read(t, "conferd.conf"))
		if v == nil {
			t.Errorf("deploy/conferd.conf sets no %s", key)
			continue
		}
		if !writable[v[1]] {
			t.Errorf("deploy/conferd.conf's %s %s is not in the unit's ReadWritePaths (%s)", key, v[1], m[1])
		}
	}
}
