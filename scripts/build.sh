#!/usr/bin/env bash
# Release binaries of conferd and confer, without make, cgo or network
# beyond the Go module proxy (README.md "Install").
#
#   scripts/build.sh                         every target, version from git
#   VERSION=v0.2.0 scripts/build.sh          a given version
#   TARGETS="linux/amd64" scripts/build.sh   some targets only
#   DIST=/tmp/out scripts/build.sh           another output folder
#
# For each target it writes dist/confer_<version>_<os>_<arch>/ with both
# commands (.exe on windows), LICENSE, README.md and CHANGELOG.md, an
# archive of it (.zip for windows when zip is installed, else .tar.gz),
# and dist/SHA256SUMS. The version is stamped into both binaries with
# -ldflags -X main.version=...; `conferd version` prints it.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
TARGETS=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"}
DIST=${DIST:-dist}
case $VERSION in
  *[!A-Za-z0-9._+-]*) echo "build.sh: VERSION $VERSION: use letters, digits and . _ + -" >&2; exit 2 ;;
esac

mkdir -p "$DIST"
# SQLite is modernc.org/sqlite (pure Go), so cgo is not needed and every
# target cross-compiles from any host. -trimpath drops this machine's paths
# (and makes the compiled packages independent of the clone's folder, so
# .ci/run's cross-build stage, built with the same flags, leaves them in
# Go's build cache for this script).
export CGO_ENABLED=0
ldflags="-s -w -X main.version=$VERSION"

archives=()
for target in $TARGETS; do
  os=${target%/*} arch=${target#*/}
  name="confer_${VERSION}_${os}_${arch}"
  out="$DIST/$name"
  ext=""
  [ "$os" = windows ] && ext=.exe
  rm -rf "$out"
  mkdir -p "$out"
  echo "building $name"
  # Both commands in one go build (one package load, the links side by
  # side); -o into the folder names them conferd and confer (.exe).
  GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$out/" ./cmd/conferd ./cmd/confer
  cp LICENSE README.md CHANGELOG.md "$out/"
  if [ "$os" = windows ] && command -v zip >/dev/null 2>&1; then
    (cd "$DIST" && rm -f "$name.zip" && zip -qr "$name.zip" "$name")
    archives+=("$name.zip")
  else
    tar -C "$DIST" -czf "$DIST/$name.tar.gz" "$name"
    archives+=("$name.tar.gz")
  fi
done
(cd "$DIST" && sha256sum "${archives[@]}" >SHA256SUMS)
echo "done: $DIST/ (${#archives[@]} archives, SHA256SUMS)"
