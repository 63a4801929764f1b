#!/usr/bin/env bash
# test_run.sh - whole runs of sluice on net_null vdevs and simulated ports
# (nothing leaves the machine): exact --count per port, --duration, stop on
# SIGINT/SIGTERM with the JSON still written, the queue modes of a shared
# sim queue with the wire verifier on, the live stats lines. Every run checks
# packet conservation and that every mbuf went back to its pool.
# Machines with fewer CPUs than lcores get --lcores (0-N)@(CPUs) instead of
# -l 0-N: the same lcore ids, sharing the CPUs. Needs jq.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
sluice=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
eq() { [ "$1" = "$2" ]; }
rc_in() { grep -qxF -- "$rc" < <(printf '%s\n' "$@"); }
# j FILTER: jq -c on the last run's JSON ("" if missing or broken).
j() { jq -c "$1" "$T/run.json" 2>/dev/null || true; }
# jt FILTER: the filter (a boolean expression) holds on the last run's JSON.
jt() { [ "$(j "$1")" = true ]; }
json_ok() { [ -s "$T/run.json" ] && jq -e . "$T/run.json" >/dev/null 2>&1; }

ncpu=$(nproc)
# lc N: lcores 0..N, one CPU each if there are enough CPUs.
lc() {
	if [ "$ncpu" -gt "$1" ]; then
		echo "-l 0-$1"
	else
		echo "--lcores (0-$1)@(0-$((ncpu - 1)))"
	fi
}
new_prefix() {
	n=$((n + 1))
	prefix=slr$$x$n
	prefixes+=("$prefix")
}
# run LCORES EAL... -- OPTS...: sluice with --json $T/run.json; stdout and
# stderr in $T/out and $T/err, exit code in $rc.
run() {
	local l=$1
	shift
	new_prefix
	rm -f "$T/run.json"
	# shellcheck disable=SC2046 # $(lc N) is two words on purpose
	timeout "${tmo:-120}" "$sluice" --no-huge -m 512 --no-pci --file-prefix "$prefix" $(lc "$l") "$@" \
		--json "$T/run.json" >"$T/out" 2>"$T/err" && rc=0 || rc=$?
}
# The bookkeeping every run must end with.
settled() {
	local what=$1
	check "$what: JSON written and valid" json_ok
	check "$what: totals.conserved is true" jt '.totals.conserved == true'
	check "$what: generated == tx_packets + dropped + backlog" \
		jt '.totals | .generated == .tx_packets + .dropped + .backlog'
	check "$what: backlog 0, mempool_in_use 0" eq "$(j '[.totals.backlog, .totals.mempool_in_use]')" "[0,0]"
}

# (a) --count 12345 on one net_null port, one worker.
run 1 --vdev net_null0 -- --count 12345
check "(a) net_null --count 12345: exit 0" rc_is 0
check "(a) totals.tx_packets == 12345" eq "$(j .totals.tx_packets)" 12345
check "(a) totals.generated == 12345, dropped 0" eq "$(j '[.totals.generated, .totals.dropped]')" "[12345,0]"
check "(a) ports[0].tx_packets == 12345" eq "$(j '.ports[0].tx_packets')" 12345
check "(a) tx_bytes == 12345 * 60 (64-byte frames without FCS)" eq "$(j .totals.tx_bytes)" $((12345 * 60))
settled "(a)"
check "(a) summary line says conserved" grep -q '(conserved)' "$T/out"

# (b) Two workers, two net_null ports: default map, two queues per port.
run 2 --vdev net_null0 --vdev net_null1 -- --count 10001
check "(b) 2 workers x 2 ports --count 10001: exit 0" rc_is 0
check "(b) each port's tx_packets == 10001" eq "$(j '[.ports[].tx_packets]')" "[10001,10001]"
check "(b) each port's tx_bytes == 10001 * 60" eq "$(j '[.ports[].tx_bytes]')" "[600060,600060]"
check "(b) totals.tx_packets == 20002" eq "$(j .totals.tx_packets)" 20002
check "(b) four exclusive queues: port.queue 0.0 0.1 1.0 1.1, lcores 1 and 2" \
	eq "$(j '[.txqs[] | [.port, .queue, .mode, .lcores]]')" \
	'[[0,0,"exclusive",[1]],[0,1,"exclusive",[2]],[1,0,"exclusive",[1]],[1,1,"exclusive",[2]]]'
check "(b) each port's queues add up to 10001" \
	jt '[.txqs | group_by(.port)[] | map(.tx_packets) | add] == [10001, 10001]'
check "(b) both workers sent on each port" jt '[.txqs[].tx_packets] | all(. > 0)'
settled "(b)"

# (c) --duration 2.
t0=$(date +%s%N)
run 1 --vdev net_null0 -- --duration 2
t1=$(date +%s%N)
check "(c) --duration 2: exit 0" rc_is 0
check "(c) duration_s between 2.0 and 2.25 (got $(j .duration_s))" jt '.duration_s >= 2.0 and .duration_s <= 2.25'
check "(c) tx_packets > 0" jt '.totals.tx_packets > 0'
check "(c) the process took less than 5 s" [ $(((t1 - t0) / 1000000)) -lt 5000 ]
settled "(c)"

# (d), (e) A signal ends a long run early, cleanly, with the JSON written.
stop_by() {
	local sig=$1 what=$2 pid="" t0 t1 waited
	new_prefix
	rm -f "$T/run.json"
	# shellcheck disable=SC2046
	timeout 60 "$sluice" --no-huge -m 512 --no-pci --file-prefix "$prefix" $(lc 1) \
		--vdev net_null0 -- --duration 30 --json "$T/run.json" >"$T/out" 2>"$T/err" &
	bgpid=$!
	# The run has started once the queue modes are printed.
	for _ in $(seq 100); do
		grep -q 'txq 0: mode' "$T/out" 2>/dev/null && break
		sleep 0.1
	done
	pid=$(pgrep -P "$bgpid" || true)
	sleep 2
	t0=$(date +%s%N)
	if [ -n "$pid" ]; then kill "-$sig" "$pid"; else kill "-$sig" "$bgpid"; fi
	# Up to 5 s to exit.
	for _ in $(seq 50); do
		kill -0 "$bgpid" 2>/dev/null || break
		sleep 0.1
	done
	t1=$(date +%s%N)
	waited=$(((t1 - t0) / 1000000))
	if kill -0 "$bgpid" 2>/dev/null; then
		ko "$what: still running 5 s after SIG$sig"
		kill -KILL "$bgpid" 2>/dev/null || true
	else
		ok "$what: exited ${waited} ms after SIG$sig"
	fi
	wait "$bgpid" && rc=0 || rc=$?
	bgpid=""
	check "$what: exit 0" rc_is 0
	check "$what: duration_s < 10 (got $(j .duration_s))" jt '.duration_s > 1 and .duration_s < 10'
	check "$what: tx_packets > 0" jt '.totals.tx_packets > 0'
	check "$what: summary printed" grep -q 'sluice summary' "$T/out"
	settled "$what"
}
stop_by INT "(d) SIGINT"
stop_by TERM "(e) SIGTERM"

# (f) Four lcores on one shared sim queue, the verifier on.
shared() { # shared WHAT MODE LCORES OPTS...: one sim run, --count 200000
	local what=$1 mode=$2 lcores=$3
	shift 3
	run 4 -- "$@" --count 200000
	check "$what: exit 0" rc_is 0
	check "$what: one queue, mode $mode (got $(j '.txqs[0].mode'))" \
		eq "$(j '[(.txqs | length), .txqs[0].mode]')" "[1,\"$mode\"]"
	check "$what: lcores $lcores" eq "$(j '.txqs[0].lcores')" "$lcores"
	check "$what: generated == 200000" eq "$(j '[.totals.generated, .txqs[0].generated]')" "[200000,200000]"
	check "$what: tx_packets == 200000, dropped 0" eq "$(j '[.totals.tx_packets, .totals.dropped]')" "[200000,0]"
	check "$what: tx_bytes == 200000 * 60" eq "$(j .totals.tx_bytes)" 12000000
	check "$what: verify: lost, duplicates, reordered, violations all 0" \
		eq "$(j '[.verify.lost, .verify.duplicates, .verify.reordered, .verify.violations]')" "[0,0,0,0]"
	check "$what: verify saw all 200000 frames on the wire" eq "$(j .verify.frames)" 200000
	# Frames on the wire "before" they were signed (two CPUs' TSCs) are counted
	# apart from the latency, not in it: a count, and a max below a minute.
	check "$what: verify's latency: backwards $(j .verify.latency_ns.backwards), max $(j .verify.latency_ns.max) ns" \
		eq "$(j '.verify.latency_ns | (.backwards | type == "number") and .max < 60e9')" true
	check "$what: no dead loops" eq "$(j .txqs[0].dead_loops)" 0
	settled "$what"
}
shared "(f) 1-4:0.0 on sim (lltx off)" locked "[1,2,3,4]" --sim 10G,verify=on --map 1-4:0.0
shared "(f) 1-4:0.0 on sim lltx=on" lltx "[1,2,3,4]" --sim 10G,lltx=on,verify=on --map 1-4:0.0
shared "(f) 1-4:0.0 on sim, --lock spin" spin "[1,2,3,4]" --sim 10G,verify=on --map 1-4:0.0 --lock spin
shared "(f) 1:0.0 on sim" exclusive "[1]" --sim 10G,verify=on --map 1:0.0
check "(f) 1:0.0: the unmapped lcores 2-4 do not count as producers" eq "$(j '.txqs[0].collisions')" 0

# (g) Live stats.
run 1 --vdev net_null0 -- --stats-period 1 --duration 2.5
check "(g) --stats-period 1 --duration 2.5: exit 0" rc_is 0
live=$(grep -cE '^\[ *[0-9]+\.[0-9]+s(/[0-9.]+s)?\] port 0: .*Mpps' "$T/out" || true)
check "(g) at least 2 live lines with Mpps (got $live)" [ "$live" -ge 2 ]
check "(g) at most 3 live lines in 2.5 s (got $live)" [ "$live" -le 3 ]
check "(g) the live rate is above 0 Mpps" \
	grep -qE '^\[ *[0-9.]+s(/[0-9.]+s)?\] port 0: +[0-9]*[1-9][0-9]*\.[0-9]+ Mpps|^\[ *[0-9.]+s(/[0-9.]+s)?\] port 0: +0\.[0-9]*[1-9][0-9]* Mpps' "$T/out"
settled "(g)"

# (h) A saturated sim: the reported L1 rate can never be above the line
# rate (1% allowed: frames still in the descriptor ring when time is up).
for spec in 10G:64:10.1e9 10G:1518:10.1e9 1G:1518:1.01e9; do
	IFS=: read -r rate sz max <<<"$spec"
	run 1 -- --sim "$rate,verify=on" --size "$sz" --duration 1
	check "(h) sim $rate --size $sz --duration 1: exit 0" rc_is 0
	check "(h) $rate size $sz: tx_bps_l1 ($(j .totals.tx_bps_l1)) > 0 and <= $max" \
		jt ".totals.tx_bps_l1 > 0 and .totals.tx_bps_l1 <= $max"
	check "(h) $rate size $sz: tx_bps_l2 < tx_bps_l1" jt '.totals.tx_bps_l2 < .totals.tx_bps_l1'
	check "(h) $rate size $sz: verify: nothing lost, duplicated or reordered" \
		eq "$(j '[.verify.lost, .verify.duplicates, .verify.reordered, .verify.violations]')" "[0,0,0,0]"
	# A sim port always reports its wire: a missing key is a failure, not a skip.
	check "(h) $rate size $sz: ports[0].wire: every frame left the wire (frames == tx_packets)" \
		jt '.ports[0].wire.frames == .totals.tx_packets'
	check "(h) $rate size $sz: ports[0].wire.bps_l1 ($(j .ports[0].wire.bps_l1)) <= $max" \
		jt ".ports[0].wire.bps_l1 > 0 and .ports[0].wire.bps_l1 <= $max"
	settled "(h) $rate size $sz"
done

# (i) --count smaller than the number of producers on a port: some get a
# share of 0 and must not keep the run alive. 10 s bound (timeout: 124).
tmo=10 run 2 --vdev net_null0 -- --count 1
check "(i) 2 workers, 1 port, --count 1: ends by itself, exit 0 (got $rc)" rc_is 0
check "(i) ... duration_s < 5 (got $(j .duration_s))" jt '.duration_s < 5'
check "(i) ... tx_packets == 1" eq "$(j .totals.tx_packets)" 1
tmo=10 run 4 -- --sim 10G,verify=on --map 1-4:0.0 --count 3
check "(i) 4 lcores on one sim queue, --count 3: ends by itself, exit 0 (got $rc)" rc_is 0
check "(i) ... duration_s < 5 (got $(j .duration_s))" jt '.duration_s < 5'
check "(i) ... tx_packets == 3, verify saw 3 frames" eq "$(j '[.totals.tx_packets, .verify.frames]')" "[3,3]"

# (j) A tiny --duration is accepted as positive: it must not turn into "no
# duration" (a run without end).
tmo=10 run 1 --vdev net_null0 -- --duration 0.0000001
check "(j) --duration 0.0000001: ends by itself (exit 0, or 2 if refused; got $rc)" \
	rc_in 0 2
[ "$rc" = 0 ] && check "(j) ... duration_s < 1 (got $(j .duration_s))" jt '.duration_s < 1'

echo "test_run: $pass passed, $fail failed"
[ "$fail" = 0 ]
