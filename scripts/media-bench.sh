#!/usr/bin/env bash
# Media benchmark (issue 19 "Evidence"; not run by CI, see docs/benchmarks.md
# "Media"): the same workload of cmd/confer-mediaload against the bare pion
# forwarder of bench/ and against Janus's VideoRoom (Debian package janus),
# side by side in one run, and against Confer's SFU when CONFER_URL is set.
#
# For each subscriber count of SUBS, an audio workload (PUBS publishers, one
# room each, the subscribers spread over the rooms: each receives one
# publisher) runs against a fresh bare forwarder, then a fresh Janus (then
# Confer); for each count of FANIN_SUBS, the same with one room (each
# subscriber receives every publisher, LiveKit's published layout); then a
# video workload (VIDEO_PUBS publishers of Opus and VP8, VIDEO_SUBS
# subscribers, one room per publisher) does the same. Every run prints a line of figures (confer-mediaload --format tsv)
# with the load average before and after; at the end, the ratios of
# forwarded packets per server CPU-second to the bare forwarder's.
#
#   scripts/media-bench.sh
#   SUBS="100 500" DURATION=30s scripts/media-bench.sh
#   TARGETS="bare confer janus" scripts/media-bench.sh
#   TARGETS="bare confer confer-plain" scripts/media-bench.sh
#   ROUNDS=3 DURATION=60s TARGETS="bare confer" SUBS=500 FANIN_SUBS= VIDEO_SUBS= scripts/media-bench.sh
#   CONFER_URL=http://127.0.0.1:8080 CONFER_PID=$(pidof conferd) CONFER_TOKENS=t1,...,t10 \
#     CONFER_ROOMS=id1,...,id10 scripts/media-bench.sh
#
# Confer: with "confer" in TARGETS and no CONFER_URL, every row starts a
# fresh conferd of this tree (SQLite in the temporary folder), logs in,
# creates the rooms as conferences (max_join_mt 192) and asks an rtc token
# (role both) of each; "confer-plain" is the same conferd with
# --rtc-batch-io=false (pion's one system call a datagram, issue 43),
# "confer-nodirect" the same with --rtc-direct-path=false (subscribers'
# audio through pion's write path, docs/sfu-internals.md "The direct
# path"), "confer-nochecks" the same with --rtc-fast-checks=false (every
# ICE check through pion's agent, docs/sfu-internals.md "Fast checks"),
# "confer-nortcp" the same with --rtc-fast-rtcp=false (every SRTCP
# datagram through pion's read path, docs/sfu-internals.md "Fast RTCP");
# with CONFER_URL, the running server, its rooms
# CONFER_ROOMS and their tokens CONFER_TOKENS (one per room, in order).
#
# Environment (defaults): SUBS ("50 100 200 500"), FANIN_SUBS ("50 100"),
# PUBS (10), DURATION
# (15s), WARMUP (3s), JOIN_C (8), PROCS (1: processes of the generator
# receiving media, confer-mediaload --procs), VIDEO_PUBS (2), VIDEO_SUBS (20), JANUS_LOOPS (0: Janus's thread per handle),
# TARGETS ("bare janus", plus "confer" when CONFER_URL is set), KEEP (1
# keeps the temporary folder with every report), PROFILE (1: every conferd
# started here writes a CPU profile of its run, --cpu-profile, and the
# script prints its top functions after the row; issue 43's profiles),
# INTERCEPTORS (1: the generator's connections run pion's default
# interceptors, confer-mediaload --interceptors: its subscribers send
# receiver reports and NACKs as a browser does, which the default run's
# do not; issue 43's fast RTCP), ROUNDS (1: runs of each workload and target; with more, the targets take
# turns, in reverse order every other round so that a drift of the
# machine's speed falls on both sides alike, and the summary gives each
# target's median packets per CPU-second, its spread, and the ratio of the
# medians; issue 43: one 20-second run moved by +/- 12 %).
#
# SUBS, FANIN_SUBS and VIDEO_SUBS: unset takes the default; set but empty
# (SUBS= or SUBS="") or blank (SUBS=" ") skips that workload.
set -euo pipefail

SUBS=${SUBS-50 100 200 500}
FANIN_SUBS=${FANIN_SUBS-50 100}
PUBS=${PUBS:-10}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-3s}
JOIN_C=${JOIN_C:-8}
PROCS=${PROCS:-1}
VIDEO_PUBS=${VIDEO_PUBS:-2}
VIDEO_SUBS=${VIDEO_SUBS-20}
JANUS_LOOPS=${JANUS_LOOPS:-0}
TARGETS=${TARGETS:-bare${CONFER_URL:+ confer} janus}
ROUNDS=${ROUNDS:-1}

cd "$(dirname "$0")/.."
work=$(mktemp -d)
bare_pid=
confer_pid=
cleanup() {
	if [ -n "$bare_pid" ]; then kill "$bare_pid" 2>/dev/null || true; wait "$bare_pid" 2>/dev/null || true; fi
	if [ -n "$confer_pid" ]; then kill "$confer_pid" 2>/dev/null || true; wait "$confer_pid" 2>/dev/null || true; fi
	if [ "${KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

go build -o "$work/confer-mediaload" ./cmd/confer-mediaload
(cd bench && go build -o "$work/bare-forwarder" ./cmd/bare-forwarder)
case " $TARGETS " in *" confer "* | *" confer-plain "* | *" confer-nodirect "* | *" confer-nochecks "*) [ -n "${CONFER_URL:-}" ] || go build -o "$work/conferd" ./cmd/conferd ;; esac
command -v ffmpeg >/dev/null || { echo "ffmpeg is needed (Debian package ffmpeg)"; exit 1; }
ffmpeg -hide_banner -loglevel error -y -f lavfi -i sine=frequency=440:duration=10:sample_rate=48000 \
	-c:a libopus -b:a 32k -frame_duration 20 -page_duration 20000 "$work/audio.ogg"
if [ -n "${VIDEO_SUBS// /}" ]; then
	ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc=size=640x360:rate=30:duration=10 \
		-c:v libvpx -b:v 500k -g 30 -deadline realtime -cpu-used 8 "$work/video.ivf"
fi
port=$((18500 + RANDOM % 1000))

# confer_start N [FLAG...]: a fresh conferd with N rooms; sets confer_url,
# confer_pid, confer_rooms and confer_tokens.
confer_start() {
	local n=$1 d="$work/confer.$RANDOM" cport=$((port + 1)) i tok id
	shift
	mkdir -p "$d"
	"$work/conferd" license import --db "$d/c.db" --create --key bench-key --secret bench-secret-0123456789 >/dev/null
	"$work/conferd" account create --db "$d/c.db" --username bench --password 'Bench-pass-2026' --admin >/dev/null
	"$work/conferd" --addr "127.0.0.1:$cport" --db "$d/c.db" --max-ports 10000 --log-format json "$@" 2>"$d/log" &
	confer_pid=$!
	confer_url="http://127.0.0.1:$cport"
	for _ in $(seq 1 100); do curl -s -o /dev/null "$confer_url/api/vc/version" && break; sleep 0.1; done
	tok=$(curl -s -X POST "$confer_url/api/v1/system/token" -d 'oauth_consumer_key=bench-key&oauth_consumer_secret=bench-secret-0123456789' |
		sed -n 's/.*"account_token":"\([^"]*\)".*/\1/p')
	curl -s -c "$d/cookies" -H 'API-Level: 3' -X POST "$confer_url/api/v1/system/login" \
		-d "account_token=$tok&username=bench&password=Bench-pass-2026" >/dev/null
	confer_rooms= confer_tokens=
	for i in $(seq 1 "$n"); do
		id=$(curl -s -b "$d/cookies" -X POST "$confer_url/api/v1/mc/confs" --data-urlencode "account_token=$tok" \
			--data-urlencode "params={\"create_type\":1,\"name\":\"bench $i\",\"bitrate\":1024,\"max_join_mt\":192,\"duration\":0}" |
			sed -n 's/.*"conf_id":"\([^"]*\)".*/\1/p')
		[ -n "$id" ] || { echo "confer: creating room $i failed" >&2; return 1; }
		confer_rooms+=${confer_rooms:+,}$id
		confer_tokens+=${confer_tokens:+,}$(curl -s -b "$d/cookies" -X POST "$confer_url/api/v1/vc/confs/$id/rtc_tokens" \
			--data-urlencode "account_token=$tok" --data-urlencode 'params={"name":"bench","role":"both"}' |
			sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
	done
}

# one TARGET PUBS SUBS [--video]: a run, its tsv line appended to results.
one() {
	local target=$1 pubs=$2 subs=$3; shift 3
	local args=(--publishers "$pubs" --subscribers "$subs" --duration "$DURATION" --warmup "$WARMUP"
		--join-c "$JOIN_C" --procs "$PROCS" --audio-file "$work/audio.ogg" --format tsv "$@")
	[ "${INTERCEPTORS:-}" = 1 ] && args+=(--interceptors)
	[ "${1:-}" = --video ] && args+=(--video-file "$work/video.ivf")
	case $target in
	bare)
		"$work/bare-forwarder" --listen "127.0.0.1:$port" 2>"$work/bare.log" &
		bare_pid=$!
		for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
		args+=(--label bare --target whip --url "http://127.0.0.1:$port" --server-pid "$bare_pid") ;;
	janus)
		args+=(--label janus --start-janus --janus-event-loops "$JANUS_LOOPS") ;;
	confer | confer-plain | confer-nodirect | confer-nochecks | confer-nortcp)
		local nrooms=$pubs flags=()
		[ "$target" = confer-plain ] && flags=(--rtc-batch-io=false)
		[ "$target" = confer-nodirect ] && flags=(--rtc-direct-path=false)
		[ "$target" = confer-nochecks ] && flags=(--rtc-fast-checks=false)
		[ "$target" = confer-nortcp ] && flags=(--rtc-fast-rtcp=false)
		[ "${PROFILE:-}" = 1 ] && flags+=(--cpu-profile "$work/$target.$pubs.$subs.pprof")
		[ "${1:-}" = --room-count ] && nrooms=1
		if [ -n "${CONFER_URL:-}" ]; then
			confer_url=$CONFER_URL confer_rooms=$CONFER_ROOMS confer_tokens=$CONFER_TOKENS
		else
			confer_start "$nrooms" "${flags[@]}" || return 0
		fi
		local rooms=$confer_rooms toks=$confer_tokens
		[ "${1:-}" = --room-count ] && rooms=${rooms%%,*} toks=${toks%%,*}
		args+=(--label "$target" --target whip --url "$confer_url" --server-pid "${CONFER_PID:-$confer_pid}"
			--rooms "$rooms" --room-tokens "$toks") ;;
	esac
	echo "== $target: $pubs publishers, $subs subscribers $* (round $round of $ROUNDS, $(date -u +%H:%M:%S) UTC)" >&2
	if "$work/confer-mediaload" "${args[@]}" >"$work/out" 2>"$work/err"; then
		printf '%s\t%s\n' "$(tail -n 1 "$work/out")" "$round" | tee -a "$work/results"
		[ -s "$work/header" ] || printf '%s\tround\n' "$(head -n 1 "$work/out")" >"$work/header"
	else
		echo "failed: $(tail -n 3 "$work/err")" >&2
	fi
	if [ "$target" = bare ]; then kill "$bare_pid"; wait "$bare_pid" 2>/dev/null || true; bare_pid=; fi
	if [ "${target#confer}" != "$target" ] && [ -n "$confer_pid" ]; then
		# The port's own counts: what conferd's socket refused to send
		# (dropped) is loss no column above shows.
		echo "    $target's port: $(curl -s "$confer_url/metrics" | grep '^confer_rtc_udp_\(dropped\|dropped_unsent\|sent\|received\)_total\|^confer_rtc_udp_drop_errno' | tr '\n' ' ')" >&2
	fi
	if [ "${target#confer}" != "$target" ] && [ -n "$confer_pid" ]; then kill "$confer_pid"; wait "$confer_pid" 2>/dev/null || true; confer_pid=; fi
	local prof="$work/$target.$pubs.$subs.pprof"
	if [ "${PROFILE:-}" = 1 ] && [ -s "$prof" ]; then
		echo "== profile of $target, $pubs publishers, $subs subscribers (go tool pprof -top; kept in $prof with KEEP=1)" >&2
		go tool pprof -top -nodecount 40 "$work/conferd" "$prof" 2>/dev/null | sed -n '1,48p' >&2
		go tool pprof -top -cum -nodecount 40 "$work/conferd" "$prof" 2>/dev/null | sed -n '6,48p' >&2
	fi
}

: >"$work/results"
: >"$work/header"
# order R: the targets in the order of round R (reversed every other
# round).
order() {
	if [ $(($1 % 2)) = 1 ]; then echo "$TARGETS"; else echo "$TARGETS" | tr ' ' '\n' | tac | tr '\n' ' '; fi
}
for n in $SUBS; do
	for round in $(seq 1 "$ROUNDS"); do
		for t in $(order "$round"); do one "$t" "$PUBS" "$n"; done
	done
done
# Confer's WHEP session receives the conference's broadcast (one audio and
# one video track, docs/media.md), not every publisher: the one-room layout
# is not its workload.
for n in $FANIN_SUBS; do
	for round in $(seq 1 "$ROUNDS"); do
		for t in $(order "$round"); do [ "${t#confer}" != "$t" ] || one "$t" "$PUBS" "$n" --room-count 1; done
	done
done
if [ -n "${VIDEO_SUBS// /}" ]; then
	for round in $(seq 1 "$ROUNDS"); do
		for t in $(order "$round"); do one "$t" "$VIDEO_PUBS" "$VIDEO_SUBS" --video; done
	done
fi

echo
echo "== results ($(nproc) cores; columns of confer-mediaload --format tsv)"
cat "$work/header" "$work/results" | column -t -s $'\t'
echo
echo "== packets per server CPU-second, relative to the bare forwarder's in the same workload" \
	"(median of $ROUNDS round(s); with more than one: each target's median, lowest and highest, and the ratio of each round)"
awk -F'\t' -v rounds="$ROUNDS" 'NR == FNR { for (i = 1; i <= NF; i++) col[$i] = i; next }
function median(t, k,   n, i, j, x, a) {
	n = cnt[t, k]
	for (i = 1; i <= n; i++) a[i] = v[t, k, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
	lo[t, k] = a[1]; hi[t, k] = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	pubs = $col["publishers"]; subs = $col["subscribers"]
	layout = $col["nominal_per_s"] / pubs > 51 ? "video, 1 publisher a room " : ($col["tracks"] > 1.5 * subs ? "audio, 1 room             " : "audio, 1 publisher a room ")
	key = sprintf("%s %3d x %4d", layout, pubs, subs)
	v[$1, key, ++cnt[$1, key]] = $col["packets_per_cpu_s"]; byround[$1, key, $col["round"]] = $col["packets_per_cpu_s"]
	keys[key] = 1; targets[$1] = 1
}
END {
	for (k in keys) {
		for (t in targets) if ((t, k) in cnt) m[t, k] = median(t, k)
		line = k ":"
		for (t in targets)
			if ((t, k) in m && ("bare", k) in m && m["bare", k] > 0)
				line = line sprintf("  %s %.2f", t, m[t, k] / m["bare", k])
		print k "\t" 0 "\t" line
		if (rounds > 1)
			for (t in targets) {
				if (!((t, k) in m)) continue
				line = sprintf("    %-13s median %6.0f (%d runs, %.0f to %.0f, spread +/- %.0f %%)", t, m[t, k], cnt[t, k], lo[t, k], hi[t, k], m[t, k] > 0 ? 50 * (hi[t, k] - lo[t, k]) / m[t, k] : 0)
				if (t != "bare" && ("bare", k) in m) {
					line = line "; a round: "
					for (r = 1; r <= rounds; r++)
						line = line (((t, k, r) in byround && ("bare", k, r) in byround && byround["bare", k, r] > 0) ? sprintf("%.2f ", byround[t, k, r] / byround["bare", k, r]) : "- ")
				}
				print k "\t" (t == "bare" ? 1 : 2) "\t" line
			}
	}
}' "$work/header" "$work/results" | sort -t $'\t' -k1,1 -k2,2n -k3,3 | cut -f 3-
