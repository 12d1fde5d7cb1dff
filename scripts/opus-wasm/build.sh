#!/bin/sh
# build.sh builds internal/audio/opus/libopus.wasm from a libopus source tree.
#
#   scripts/opus-wasm/build.sh OPUS_SOURCE_DIR
#
# OPUS_SOURCE_DIR is an unpacked libopus release (tested: 1.5.2, git tag
# v1.5.2, commit ddbe48383984d56acd9e1ab6a090c54ca6b735a6, or the release
# tarball opus-1.5.2.tar.gz). Needs clang, wasm-ld (lld) and wasi-libc
# (Debian: clang lld wasi-libc). The result is reproducible: the same
# sources and compiler give the same bytes.
#
# Fixed-point, without WebAssembly SIMD: measured under wazero this
# decodes 3x and encodes 1.1x faster than the float build, and SIMD made
# the float build slower (docs/benchmarks.md, "Opus in WebAssembly").
# Measured again 2026-12-06 (docs/benchmarks.md "Mixed audio"): the
# fixed-point build with SIMD (EXTRA_CFLAGS=-msimd128) encodes 1.3x slower
# and decodes no faster, so it is not used. EXTRA_CFLAGS adds compiler
# flags for such trials; the committed module is built without.
# DISABLE_FLOAT_API leaves out the float entry points and the encoder's
# speech/music analysis, which a voice mix does not need.
set -eu
src=${1:?usage: build.sh OPUS_SOURCE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/../../internal/audio/opus/libopus.wasm}
CC=${CC:-clang}

# The source lists come from the release's own make fragments.
list() { # list FILE VAR...: the .c files of the variables
	f=$1; shift
	for v in "$@"; do
		awk -v v="$v" '$1 == v && $2 == "=" {on=1; next} on && /^[ \t]*$/ {on=0} on {gsub(/\\/, ""); for (i = 1; i <= NF; i++) print $i}' "$src/$f"
	done
}
files="$(list opus_sources.mk OPUS_SOURCES)
$(list celt_sources.mk CELT_SOURCES)
$(list silk_sources.mk SILK_SOURCES SILK_SOURCES_FIXED)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="--target=wasm32-wasi -O3 -ffile-prefix-map=$src=opus
 -DOPUS_BUILD -DUSE_ALLOCA -DHAVE_LRINTF -DHAVE_LRINT -DPACKAGE_VERSION=\"1.5.2\"
 -I$src/include -I$src/celt -I$src/silk -I$src/silk/fixed -DFIXED_POINT -DDISABLE_FLOAT_API -I$src/src -I$src ${EXTRA_CFLAGS:-}"
i=0
objs=
for f in $files glue.c; do
	case $f in glue.c) p=$here/glue.c ;; *) p=$src/$f ;; esac
	i=$((i + 1))
	$CC $flags -c "$p" -o "$tmp/$i.o"
	objs="$objs $tmp/$i.o"
done
# A reactor: no main, _initialize sets up libc; 64 KiB of stack (libopus
# allocates its scratch on the stack with alloca).
$CC --target=wasm32-wasi -mexec-model=reactor -O3 -Wl,--strip-all \
	-Wl,-z,stack-size=65536 -Wl,--initial-memory=262144 -nodefaultlibs $objs -lc -lm -o "$out"
echo "built $out ($(wc -c < "$out") bytes)"
