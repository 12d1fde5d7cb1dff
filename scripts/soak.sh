#!/usr/bin/env bash
# Soak test (issue 11 "Soak"; not run by CI, see docs/benchmarks.md "Soak").
#
# Starts conferd on a fresh store, prepares a scenario with cmd/confer-load,
# measures the throughput of the load mix, then drives half of it for
# MINUTES minutes and samples, once a minute, conferd's resident memory
# (VmRSS), its goroutines (go_goroutines from /metrics) and its Go heap.
# At the end it says whether memory and goroutines stayed flat: the last
# third of the samples may not exceed the first third (after warm-up) by
# more than FLAT_PCT percent (RSS) or FLAT_GOROUTINES goroutines.
#
# Half the throughput is sent in one-minute slices: each minute confer-load
# sends RATE×60 requests (as fast as its workers go), then the slice idles
# until the minute ends.
#
#   scripts/soak.sh                         # 30 minutes on SQLite
#   MINUTES=5 scripts/soak.sh               # shortened
#   DB='postgres://postgres@127.0.0.1:5432/confer_soak?sslmode=disable' scripts/soak.sh
#
# Environment (defaults): MINUTES (30), DB (a SQLite file in a temporary
# folder; a postgres:// URL must name an empty database), PORT (18090),
# MIX (list=8,speaker=2), CONFS (50), MTS (4), CONC (8), MEASURE (20s),
# RATE (requests/s; default half the measured throughput), FLAT_PCT (20),
# FLAT_GOROUTINES (20), KEEP (1 keeps the temporary folder and its logs).
set -euo pipefail

MINUTES=${MINUTES:-30}
PORT=${PORT:-18090}
MIX=${MIX:-list=8,speaker=2}
CONFS=${CONFS:-50}
MTS=${MTS:-4}
CONC=${CONC:-8}
MEASURE=${MEASURE:-20s}
RATE=${RATE:-}
FLAT_PCT=${FLAT_PCT:-20}
FLAT_GOROUTINES=${FLAT_GOROUTINES:-20}

cd "$(dirname "$0")/.."
work=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	if [ "${KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

DB=${DB:-$work/confer.db}
URL=http://127.0.0.1:$PORT

go build -o "$work/conferd" ./cmd/conferd
go build -o "$work/confer-load" ./cmd/confer-load

CONFER_SIMULATED_TERMINALS=1 "$work/conferd" serve --addr "127.0.0.1:$PORT" --db "$DB" --create --files-dir "$work/files" --max-ports 20000 >"$work/conferd.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
	curl -fsS "$URL/readyz" >/dev/null 2>&1 && break
	sleep 0.1
done
curl -fsS "$URL/readyz" >/dev/null

field() { sed -n "s/^ *$1: *//p" "$work/conferd.log" | head -1; }
KEY=$(field 'license key (oauth_consumer_key)')
SECRET=$(field 'license secret (oauth_consumer_secret)')
PASSWORD=$(field 'password')
if [ -z "$KEY" ] || [ -z "$PASSWORD" ]; then
	echo "soak: conferd printed no first-start credentials (is DB empty?)" >&2
	exit 1
fi

load() {
	"$work/confer-load" --url "$URL" --key "$KEY" --secret "$SECRET" --user admin --password "$PASSWORD" \
		--confs "$CONFS" --mts "$MTS" --mix "$MIX" -c "$CONC" "$@"
}

sample() { # minute rss_kib goroutines heap_inuse_bytes
	local rss gor heap
	rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
	gor=$(curl -fsS "$URL/metrics" | awk '$1 == "go_goroutines" {print $2}')
	heap=$(curl -fsS "$URL/metrics" | awk '$1 == "go_memstats_heap_inuse_bytes" {printf "%.0f", $2}')
	echo "$1 $rss $gor $heap"
}

echo "soak: measuring the throughput of mix $MIX with $CONC connections for $MEASURE"
load --duration "$MEASURE" | tee "$work/measure.txt"
measured=$(grep -m1 -o '[0-9.]* req/s' "$work/measure.txt" | cut -d' ' -f1)
RATE=${RATE:-$(awk -v m="$measured" 'BEGIN {printf "%d", m / 2}')}
if [ "${RATE:-0}" -lt 1 ]; then
	echo "soak: no throughput measured" >&2
	exit 1
fi
echo "soak: measured $measured req/s; driving $RATE req/s for $MINUTES minutes ($(date -u +%FT%TZ), nproc $(nproc))"

: >"$work/samples.txt"
echo "$(sample 0) 0" | tee -a "$work/samples.txt"
errors=0
for m in $(seq "$MINUTES"); do
	start=$(date +%s)
	out=$(load --count $((RATE * 60)) --duration 60s)
	errs=$(echo "$out" | grep -m1 -o '[0-9]* errors' | cut -d' ' -f1)
	sent=$(echo "$out" | grep -m1 -o '[0-9]* requests in' | cut -d' ' -f1)
	errors=$((errors + ${errs:-0}))
	left=$((60 - ($(date +%s) - start)))
	[ "$left" -gt 0 ] && sleep "$left"
	echo "$(sample "$m") ${sent:-0}" | tee -a "$work/samples.txt"
done

echo "soak: minute rss_kib goroutines heap_inuse_bytes requests_sent"
cat "$work/samples.txt"
awk -v pct="$FLAT_PCT" -v gmax="$FLAT_GOROUTINES" -v errors="$errors" '
	{ m[NR] = $1; rss[NR] = $2; gor[NR] = $3 }
	END {
		n = NR - 1          # samples after minute 0 (warm-up excluded)
		third = int(n / 3); if (third < 1) third = 1
		for (i = 2; i < 2 + third; i++) { r1 += rss[i]; g1 += gor[i] }
		for (i = NR - third + 1; i <= NR; i++) { r2 += rss[i]; g2 += gor[i] }
		r1 /= third; r2 /= third; g1 /= third; g2 /= third
		rflat = (r2 <= r1 * (1 + pct / 100)); gflat = (g2 <= g1 + gmax)
		printf "soak: RSS %.0f → %.0f KiB (%+.1f%%), goroutines %.0f → %.0f; errors %d\n", r1, r2, (r2 / r1 - 1) * 100, g1, g2, errors
		printf "soak: memory %s, goroutines %s\n", rflat ? "flat" : "GROWING", gflat ? "flat" : "GROWING"
		exit !(rflat && gflat && errors == 0)
	}' "$work/samples.txt"
