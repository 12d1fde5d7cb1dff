#!/usr/bin/env bash
# api-ab.sh: the API load of docs/benchmarks.md on two conferd builds side
# by side, in one run, alternating, so that a shared machine's load falls
# on both alike.
#
#   scripts/api-ab.sh BEFORE_BIN AFTER_BIN [confer-load flags...]
#
# Each build serves its own fresh store (SQLite files under a temporary
# folder, or with PG=postgres://user@host:port a fresh database of that
# server per build, dropped at the end), the scenario is prepared on both,
# then ROUNDS (default 3) rounds run confer-load with the flags given on
# before, then after. LOAD is the confer-load binary (built from this tree
# when unset); CONFERD_FLAGS adds flags to both conferd (e.g.
# "--max-confs-per-domain 2000"); PORT (default 18501) is before's port,
# PORT+1 after's (another run on the machine needs other ones); SETTLE
# (seconds, default 0) pauses before each round, so that the work a round
# leaves behind (terminals added are called and come online a moment
# later) does not fall on the next round, the other build's. Example:
#
#   scripts/api-ab.sh /tmp/conferd-old /tmp/conferd-new --confs 100 --mts 4 --mix list=1 -c 16 --duration 10s --bare
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,20p "$0"; exit 2; }
before=$1 after=$2
shift 2
ROUNDS=${ROUNDS:-3}
p1=${PORT:-18501}
p2=$((p1 + 1))
work=$(mktemp -d)
pids=()
dbs=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	for d in "${dbs[@]}"; do psql "$PG/postgres?sslmode=disable" -qc "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done
	rm -rf "$work"
}
trap cleanup EXIT
cd "$(dirname "$0")/.."
LOAD=${LOAD:-}
if [ -z "$LOAD" ]; then
	LOAD=$work/confer-load
	go build -o "$LOAD" ./cmd/confer-load
fi

start() { # name bin port
	if curl -fsS "http://127.0.0.1:$3/readyz" >/dev/null 2>&1; then
		echo "api-ab: port $3 is taken by another server (set PORT)" >&2
		exit 1
	fi
	local db=$work/$1/confer.db
	mkdir -p "$work/$1"
	if [ -n "${PG:-}" ]; then
		local name="confer_ab_$1_$$"
		psql "$PG/postgres?sslmode=disable" -qc "CREATE DATABASE $name" >/dev/null
		dbs+=("$name")
		db="$PG/$name?sslmode=disable"
	fi
	# shellcheck disable=SC2086 # CONFERD_FLAGS is a list of flags
	"$2" serve --addr "127.0.0.1:$3" --db "$db" --files-dir "$work/$1/files" --max-ports 64000 --max-confs 1000 ${CONFERD_FLAGS:-} >"$work/$1/log" 2>&1 &
	pids+=($!)
	for _ in $(seq 200); do
		curl -fsS "http://127.0.0.1:$3/readyz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "api-ab: $1 did not start:" >&2; cat "$work/$1/log" >&2; exit 1
}
field() { sed -n "s/^ *$2: *//p" "$work/$1/log" | head -1; }
load() { # name port flags...
	local n=$1 port=$2
	shift 2
	"$LOAD" --url "http://127.0.0.1:$port" --key "$(field "$n" 'license key (oauth_consumer_key)')" \
		--secret "$(field "$n" 'license secret (oauth_consumer_secret)')" --user admin --password "$(field "$n" 'password')" "$@"
}

start before "$before" "$p1"
start after "$after" "$p2"
echo "== preparing the scenario on both"
load before "$p1" "$@" --count 1 --duration 10m >/dev/null
load after "$p2" "$@" --count 1 --duration 10m >/dev/null
# cpu PID...: the CPU seconds (user and system) the processes have used,
# a figure a shared machine's load moves far less than a throughput.
cpu() {
	local t=0
	for p in "$@"; do
		[ -r "/proc/$p/stat" ] || continue
		t=$((t + $(sed 's/.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
	done
	awk -v t="$t" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.2f", t / hz}'
}
# backends NAME: the PostgreSQL backends serving the build's database.
backends() {
	[ -n "${PG:-}" ] || return 0
	psql "$PG/postgres?sslmode=disable" -Atc "SELECT pid FROM pg_stat_activity WHERE datname = '${dbs[$1]}'" 2>/dev/null || true
}
for r in $(seq "$ROUNDS"); do
	for n in before after; do
		port=$p1 i=0
		[ $n = after ] && port=$p2 i=1
		sleep "${SETTLE:-0}"
		echo "== round $r, $n ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
		bk=$(backends $i)
		# shellcheck disable=SC2086 # lists of process ids
		c0=$(cpu "${pids[$i]}") b0=$(cpu $bk)
		load $n $port "$@" | tee "$work/round"
		bk=$(backends $i) # those opened during the round count from 0
		# shellcheck disable=SC2086
		c1=$(cpu "${pids[$i]}") b1=$(cpu $bk)
		# the requests conferd served (the bare handler's, after "bare:", are confer-load's own)
		reqs=$(awk '/^bare:/ {exit} match($0, /^ +[a-z]+ +n=[0-9]+ /) {split($0, f, "n="); split(f[2], g, " "); s += g[1]} END {print s + 0}' "$work/round")
		awk -v c="$c0" -v d="$c1" -v b="$b0" -v e="$b1" -v n="$reqs" -v pg="${PG:-}" 'BEGIN {
			if (n == 0) exit
			printf "  cpu: conferd %.0f us a request", (d - c) * 1e6 / n
			if (pg != "") printf ", its PostgreSQL backends %.0f us", (e - b) * 1e6 / n
			printf " (%d requests)\n", n }'
	done
done
