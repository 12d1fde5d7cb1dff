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
#
# WRK=1 measures the list as issue 23 did: each round runs wrk (WRK_FLAGS,
# default "-t2 -c32 -d10s") on the authenticated list (count=LIST_COUNT,
# default 20) of each build, then on a bare net/http handler serving the
# same bytes in a process of its own (confer-load's), and prints the
# ratio and the CPU a request of each server; the confer-load flags then
# only shape the scenario:
#
#   WRK=1 scripts/api-ab.sh /tmp/conferd-old /tmp/conferd-new --confs 100 --mts 4
#
# Each round also prints the share of the machine's CPU time the hypervisor
# stole, and the group commit's transactions and busy share from /metrics
# (writes only; builds before the sixth pass have no such metrics).
#
# WRK=speaker has wrk change speakers instead (PUT .../speaker, each
# request the next conference, each conference's next terminal, as
# confer-load's speaker operation) with "-t2 -c16 -d10s"; a reply
# without "success":1 counts as an error.
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
	CONFER_SIMULATED_TERMINALS=1 "$2" serve --addr "127.0.0.1:$3" --db "$db" --create --files-dir "$work/$1/files" --max-ports 64000 --max-confs 1000 ${CONFERD_FLAGS:-} >"$work/$1/log" 2>&1 &
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
load before "$p1" "$@" --count 1 --duration 10m --print-session >"$work/before/session"
load after "$p2" "$@" --count 1 --duration 10m --print-session >"$work/after/session"
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
# cpustat: the machine's CPU time in all and the part the hypervisor
# stole (/proc/stat), in clock ticks; stolen S0 S1 prints the share stolen
# between two readings: a virtual machine's neighbours move the figures.
cpustat() { awk '/^cpu / {t = 0; for (i = 2; i <= 9; i++) t += $i; print t, $9; exit}' /proc/stat; }
stolen() {
	awk -v a="$1" -v b="$2" 'BEGIN {split(a, x, " "); split(b, y, " ")
		if (y[1] > x[1]) printf "  machine: %.0f %% of the CPU time stolen by the hypervisor\n", 100 * (y[2] - x[2]) / (y[1] - x[1]) }'
}
# groupstat PORT: the group commit's counters at /metrics (commits,
# writes, busy seconds); groupline S0 S1 SECONDS prints a round's share.
groupstat() {
	curl -fsS "http://127.0.0.1:$1/metrics" 2>/dev/null | awk '/^confer_store_group_commits_total / {c = $2}
		/^confer_store_group_commit_writes_total / {w = $2} /^confer_store_group_commit_busy_seconds_total / {b = $2}
		END {print c + 0, w + 0, b + 0}'
}
groupline() {
	local note=""
	[ -z "${PG:-}" ] || note=" (PostgreSQL's two batchers: up to 200 %)"
	awk -v a="$1" -v b="$2" -v secs="$3" -v note="$note" 'BEGIN {split(a, x, " "); split(b, y, " "); c = y[1] - x[1]; w = y[2] - x[2]
		if (c > 0) printf "  group commit: %d writes in %d transactions (%.1f each), busy %.0f %% of the round%s\n", w, c, w / c, 100 * (y[3] - x[3]) / secs, note }'
}
# backends NAME: the PostgreSQL backends serving the build's database.
backends() {
	[ -n "${PG:-}" ] || return 0
	psql "$PG/postgres?sslmode=disable" -Atc "SELECT pid FROM pg_stat_activity WHERE datname = '${dbs[$1]}'" 2>/dev/null || true
}
# speaker_lua NAME: the wrk script of WRK=speaker for build NAME.
speaker_lua() {
	local tok ck
	tok=$(sed -n 's/^account_token: //p' "$work/$1/session")
	ck=$(sed -n 's/^SSO_COOKIE_KEY: //p' "$work/$1/session")
	# built in init: wrk knows the Host header then
	printf 'local reqs = {}\nlocal function build()\n'
	# the i-th request: conference i mod N, its terminal (i div N) mod M
	awk -v tok="$tok" -v ck="$ck" '/^conf: / {n++; conf[n] = $2; m[n] = NF - 2; for (j = 3; j <= NF; j++) mt[n, j - 2] = $j}
		END {
			for (r = 0; r < 4; r++) for (k = 1; k <= n; k++) {
				if (m[k] == 0) continue
				printf "reqs[#reqs+1] = wrk.format(\"PUT\", \"/api/v1/vc/confs/%s/speaker\", {[\"Content-Type\"]=\"application/x-www-form-urlencoded\", [\"Cookie\"]=\"SSO_COOKIE_KEY=%s\"}, \"account_token=%s&params=%%7B%%22mt_id%%22%%3A%%22%s%%22%%7D\")\n", conf[k], ck, tok, mt[k, r % m[k] + 1]
			}
		}' "$work/$1/session"
	cat <<'LUA'
end
local threads, made = {}, 0
function setup(thread)
	made = made + 1
	thread:set("id", made)
	table.insert(threads, thread)
end
local i, fails = 0, 0
function init(args)
	build()
	i = (id - 1) * 97
end
function request()
	i = i % #reqs + 1
	return reqs[i]
end
function response(status, headers, body)
	if status ~= 200 or not string.find(body, '"success":1', 1, true) then
		fails = fails + 1
		if fails == 1 then io.stderr:write("first failed reply: " .. status .. " " .. body .. "\n") end
	end
	failures = fails
end
function done(summary, latency, requests)
	local n = 0
	for _, t in ipairs(threads) do n = n + (t:get("failures") or 0) end
	io.write("failed replies: " .. n .. "\n")
end
LUA
}

# wrk_rounds: the rounds of WRK=1 and WRK=speaker.
wrk_rounds() {
	command -v wrk >/dev/null || { echo "api-ab: WRK needs wrk (apt-get install wrk)" >&2; exit 1; }
	local lc=${LIST_COUNT:-20} n port i tok ck bare_pid bare_addr flags
	declare -A urls cks
	for n in before after; do
		port=$p1
		[ $n = after ] && port=$p2
		tok=$(sed -n 's/^account_token: //p' "$work/$n/session")
		ck=$(sed -n 's/^SSO_COOKIE_KEY: //p' "$work/$n/session")
		urls[$n]="http://127.0.0.1:$port/api/v1/vc/confs?count=$lc&account_token=$tok"
		cks[$n]="SSO_COOKIE_KEY=$ck"
		[ "$WRK" = speaker ] && speaker_lua $n >"$work/$n/speaker.lua"
	done
	if [ "$WRK" = speaker ]; then
		flags=${WRK_FLAGS:--t2 -c16 -d10s}
	else
		flags=${WRK_FLAGS:--t2 -c32 -d10s}
		curl -fsS -H "Cookie: ${cks[before]}" "${urls[before]}" >"$work/body"
		echo "list reply: $(wc -c <"$work/body") bytes"
		CONFER_LOAD_SERVE_BARE=$work/body "$LOAD" >"$work/bare.addr" &
		bare_pid=$!
		pids+=("$bare_pid")
		for _ in $(seq 100); do [ -s "$work/bare.addr" ] && break; sleep 0.1; done
		bare_addr=$(cat "$work/bare.addr")
	fi
	# shellcheck disable=SC2086 # flags and process id lists
	for r in $(seq "$ROUNDS"); do
		for n in before after; do
			i=0
			[ $n = after ] && i=1
			sleep "${SETTLE:-0}"
			echo "== round $r, $n ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
			local bk c0 c1 b0 b1 s0 g0 g1 t0 t1 k0=0 k1=0 conf bare=""
			bk=$(backends $i)
			c0=$(cpu "${pids[$i]}") b0=$(cpu $bk) s0=$(cpustat) g0=$(groupstat $((p1 + i))) t0=$(date +%s.%N)
			if [ "$WRK" = speaker ]; then
				conf=$(wrk $flags --latency -s "$work/$n/speaker.lua" "http://127.0.0.1:$([ $n = after ] && echo $p2 || echo $p1)")
			else
				conf=$(wrk $flags --latency -H "Cookie: ${cks[$n]}" "${urls[$n]}")
			fi
			bk=$(backends $i)
			c1=$(cpu "${pids[$i]}") b1=$(cpu $bk) g1=$(groupstat $((p1 + i))) t1=$(date +%s.%N)
			if [ "$WRK" != speaker ]; then
				k0=$(cpu "$bare_pid")
				bare=$(wrk $flags --latency "http://$bare_addr/api/v1/vc/confs?count=$lc")
				k1=$(cpu "$bare_pid")
			fi
			awk -v c0="$c0" -v c1="$c1" -v b0="$b0" -v b1="$b1" -v k0="$k0" -v k1="$k1" -v pg="${PG:-}" -v conf="$conf" -v bare="$bare" '
			function field(out, name, col,   n, l, i, f) {
				n = split(out, l, "\n")
				for (i = 1; i <= n; i++) if (l[i] ~ name) { split(l[i], f, " "); return f[col] }
				return ""
			}
			function errs(out) { return out ~ /Non-2xx|Socket errors/ || field(out, "^failed replies:", 3) > 0 }
			BEGIN {
				cr = field(conf, "Requests/sec", 2); cn = field(conf, "requests in", 1)
				printf "confer: %.0f req/s, p99 %s%s\n", cr, field(conf, "^ +99%", 2), errs(conf) ? " (ERRORS: see wrk)" : ", 0 errors"
				if (bare != "") {
					br = field(bare, "Requests/sec", 2); bn = field(bare, "requests in", 1)
					printf "bare:   %.0f req/s, p99 %s%s\n", br, field(bare, "^ +99%", 2), errs(bare) ? " (ERRORS: see wrk)" : ", 0 errors"
					if (br > 0) printf "ratio confer/bare: %.2f\n", cr / br
				}
				printf "  cpu: conferd %.0f us a request", (c1 - c0) * 1e6 / cn
				if (pg != "") printf ", its PostgreSQL backends %.0f us", (b1 - b0) * 1e6 / cn
				if (bare != "") printf "; bare handler %.0f us", (k1 - k0) * 1e6 / bn
				printf "\n"
			}'
			stolen "$s0" "$(cpustat)"
			[ "$WRK" = speaker ] && groupline "$g0" "$g1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
			if grep -qE "Non-2xx|Socket errors|^failed replies: [1-9]" <<<"$conf$bare"; then echo "$conf"; echo "$bare"; fi
		done
	done
}

[ -n "${WRK:-}" ] && { wrk_rounds; exit 0; }
for r in $(seq "$ROUNDS"); do
	for n in before after; do
		port=$p1 i=0
		[ $n = after ] && port=$p2 i=1
		sleep "${SETTLE:-0}"
		echo "== round $r, $n ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
		bk=$(backends $i)
		# shellcheck disable=SC2086 # lists of process ids
		c0=$(cpu "${pids[$i]}") b0=$(cpu $bk) s0=$(cpustat) g0=$(groupstat "$port") t0=$(date +%s.%N)
		load $n $port "$@" | tee "$work/round"
		g1=$(groupstat "$port") t1=$(date +%s.%N)
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
		stolen "$s0" "$(cpustat)"
		groupline "$g0" "$g1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
	done
done
