#!/usr/bin/env bash
# test_session.sh - the run session's contract, on every path that runs traffic:
#  (a) a failed --json write is exit 1 on every path: a plain run, a
#      benchmark, a profile with start, a profile without start, the prompt,
#      the prompt with -a (the same runs writing a real file exit 0);
#  (b) telemetry read in a tight loop while a profile starts and stops 50
#      times: every answer is whole JSON, and the process ends normally;
#  (c) set rate refuses what --rate refuses, with the same words, and accepts
#      what it accepts;
#  (d) the JSON, telemetry, the summary and show txq stats agree after a run,
#      and so do the JSON, telemetry, the summary and show port stats 0;
#  (e) --xmit direct: the plain burst baseline counts what it sent.
# Needs root (/dev/full is written through a writable /dev), jq, python3.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
eal=(--no-huge -m 256 --no-pci --log-level lib.eal:warning)
n=0
pfx() { n=$((n + 1)); prefix=sls$$x$n; prefixes+=("$prefix"); }
jqe() { jq -e "$@" >/dev/null; } # a jq condition as a check (its output hidden, not check's)

# (a) --json /dev/full: fopen succeeds, the write fails at the end.
jp_port=(--vdev net_null0) # json_path's port (none: the sim, in ARGS)
json_path() { # NAME JSON EXPECTED-RC INPUT-MODE ARGS...
	local name=$1 json=$2 want=$3 mode=$4 rc
	shift 4
	pfx
	case $mode in
	none) timeout 60 "$bin" "${eal[@]}" -l 0-1 "${jp_port[@]}" --file-prefix "$prefix" -- \
		--json "$json" "$@" </dev/null >"$T/a.out" 2>&1 && rc=0 || rc=$? ;;
	prompt) { sleep 0.5; echo quit; } | timeout 60 "$bin" "${eal[@]}" -l 0-1 --vdev net_null0 \
		--file-prefix "$prefix" -- --json "$json" "$@" >"$T/a.out" 2>&1 && rc=0 || rc=$? ;;
	esac
	if [ "$rc" = "$want" ]; then
		ok "(a) $name, --json $json: exit $rc"
	else
		ko "(a) $name, --json $json: exit $rc, want $want: $(grep sluice: "$T/a.out" | head -2)"
	fi
}
printf 'set count 1000\nstart\n' >"$T/start.cmd"
printf 'set count 1000\n' >"$T/nostart.cmd"
printf 'set count 1000\nstart\n' >"$T/prompt.in"
for json in "$T/ok.json" /dev/full; do
	want=0
	[ "$json" = /dev/full ] && want=1
	json_path "a plain run" "$json" $want none --count 1000
	json_path "a profile with start" "$json" $want none --cmdline-file "$T/start.cmd"
	json_path "a profile without start" "$json" $want none --cmdline-file "$T/nostart.cmd"
	json_path "the prompt (start, then quit)" "$json" $want prompt -i --cmdline-file "$T/start.cmd"
	json_path "the prompt with -a" "$json" $want prompt -i -a --count 1000
	jp_port=()
	json_path "a benchmark (--bench trial)" "$json" $want none --sim 10G,dut=0 \
		--bench trial,load=100kpps,trial=0.2,sizes=64
	jp_port=(--vdev net_null0)
done
grep -q "write failed" "$T/a.out" && ok "(a) the failed write is named" ||
	ko "(a) no 'write failed' line: $(tail -2 "$T/a.out")"

# (b) 50 starts and stops under a telemetry client that never pauses.
{
	echo "set duration 0.05"
	for _ in $(seq 50); do echo start; done
} >"$T/fifty.cmd"
pfx
python3 "$top/app/test/py/tel_hammer.py" "$prefix" 120 >"$T/tel.out" 2>&1 &
hammer=$!
# Port 0 sends through the sim DUT to port 1, which receives: the streams'
# tables are built and released with each run too.
timeout 120 "$bin" "${eal[@]}" --lcores '0,(1-2)@(0-1)' --file-prefix "$prefix" -- \
	--sim 10G,dut=1 --sim 10G --map 1-2:0.0 --cmdline-file "$T/fifty.cmd" >"$T/b.out" 2>&1 &&
	rc=0 || rc=$?
wait "$hammer" && hrc=0 || hrc=$?
runs=$(grep -c "sluice summary" "$T/b.out" || true)
conserved=$(grep -c "(conserved); mbufs not returned: 0" "$T/b.out" || true)
check "(b) 50 starts and stops under telemetry: exit $rc, $runs summaries, $conserved conserved" \
	test "$rc" = 0 -a "$runs" = 50 -a "$conserved" = 50
check "(b) telemetry client: $(cat "$T/tel.out" | tail -1) (exit $hrc)" test "$hrc" = 0
replies=$(awk '/^replies/ {print $2}' "$T/tel.out")
check "(b) the client was answered during the runs ($replies replies)" test "${replies:-0}" -gt 100

# (c) The same check and the same words for --rate and set rate.
rate_pair() { # PORT-ARGS... -- RATE
	local r=$1 opt cmd
	shift
	pfx
	timeout 30 "$bin" "${eal[@]}" -l 0-1 --file-prefix "$prefix" -- "$@" --rate "$r" \
		--count 10 >"$T/c1.out" 2>&1 || true
	opt=$(sed -n 's/^sluice: --rate: //p' "$T/c1.out")
	pfx
	printf 'set rate 0 %s\n' "$r" | timeout 30 "$bin" "${eal[@]}" -l 0-1 --file-prefix "$prefix" \
		-- "$@" -i >"$T/c2.out" 2>&1 || true
	cmd=$(sed -n 's/^.*error: set rate: //p' "$T/c2.out")
	if [ "$opt" = "$cmd" ]; then
		ok "(c) $* rate $r: ${opt:-accepted by both}"
	else
		ko "(c) $* rate $r: --rate '${opt}' vs set rate '${cmd}'"
	fi
}
for r in 1Mpps 14Mpps 15Mpps 10Gbps 10.1Gbps 7Gbps-l2 8Gbps-l2 50% 100% max; do
	rate_pair "$r" --sim 10G
done
for r in 800kpps 900kpps 9.9Gbps; do
	rate_pair "$r" --sim 10G --size 1518
done
rate_pair 2Mpps --sim 1G --imix
rate_pair 50% --vdev net_null0 --no-pci

# (c2) Issue 15 item 5: 100 % of a made-up link speed (net_null says 10G) is
# that speed, paced; on the sim, whose wire enforces its line, it is unpaced.
pfx
timeout 30 "$bin" "${eal[@]}" -l 0-1 --vdev net_null0 --file-prefix "$prefix" -- --rate 100% \
	--duration 1 --json "$T/c3.json" >"$T/c3.out" 2>&1 || true
check "(c2) net_null --rate 100%: paced at 10 Gb/s L1 ($(jq -c '.ports[0] | [.pace_unit, .pace_value, .tx_pps]' "$T/c3.json" 2>/dev/null)), at most 14.881 Mpps" \
	jqe '.ports[0].pace_unit == "bps_l1" and .ports[0].pace_value == 1e10 and .ports[0].tx_pps <= 14880952 * 1.002' "$T/c3.json"
pfx
timeout 30 "$bin" "${eal[@]}" -l 0-1 --file-prefix "$prefix" -- --sim 10G --rate 100% \
	--duration 0.5 --json "$T/c4.json" >"$T/c4.out" 2>&1 || true
check "(c2) sim --rate 100%: the wire paces ($(jq -c '.ports[0].pace_unit' "$T/c4.json" 2>/dev/null))" \
	jqe '.ports[0].pace_unit == "max"' "$T/c4.json"

# (c2) The default-MAC warning is for ports whose peer filters by MAC (the
# driver says so): none for net_null or the sim (test_afpacket has a port
# that gets it).
for f in c3 c4; do
	d=$(jq -r '.ports[0].driver' "$T/$f.json" 2>/dev/null || echo "no JSON")
	if ! grep -q "^port 0: " "$T/$f.out"; then
		ko "(c2) $f: the run printed no port line: $(tail -2 "$T/$f.out")"
	elif grep -q "sends to the default MAC" "$T/$f.out"; then
		ko "(c2) $f: a default-MAC warning on $d"
	else
		ok "(c2) $f: no default-MAC warning on $d"
	fi
done

# (c3) Issue 15 item 4: a port with fewer TX queues than workers (net_pcap has
# one) is shared by the default map, and says so; port config txq 1 likewise.
pfx
timeout 30 "$bin" "${eal[@]}" --lcores '0,(1-3)@(0-1)' --vdev "net_pcap0,tx_pcap=$T/q.pcap" \
	--file-prefix "$prefix" -- --count 3000 --json "$T/c5.json" >"$T/c5.out" 2>&1 && rc=0 || rc=$?
check "(c3) 3 workers, a 1-queue port: exit $rc, $(jq -c '[.txqs[0].mode, .txqs[0].lcores, .totals.tx_packets]' "$T/c5.json" 2>/dev/null) ($(grep -m1 -E 'sluice:|share' "$T/c5.out"))" \
	jqe '(.txqs | length) == 1 and .txqs[0].lcores == [1,2,3] and .totals.tx_packets == 3000 and .totals.conserved' "$T/c5.json"
check "(c3) the start-up table says the queue is shared" grep -q "3 lcores share 1 queue(s): the port offers no more" "$T/c5.out"
pfx
printf 'port config 0 txq 1\nstart\n' | timeout 30 "$bin" "${eal[@]}" --lcores '0,(1-2)@(0-1)' \
	--vdev net_null0 --file-prefix "$prefix" -- -i --count 1000 >"$T/c6.out" 2>&1 || true
check "(c3) port config 0 txq 1 with 2 workers: they share it ($(grep -m1 -E 'error|txq 0:' "$T/c6.out"))" \
	grep -qE "txq 0: mode locked +lcores 1,2" "$T/c6.out"

# (c5) Issue 15 item 7: start with every port stopped says so, and starts nothing.
pfx
printf 'port stop all\nstart\nshow port stats 0\n' | timeout 30 "$bin" "${eal[@]}" -l 0-1 \
	--vdev net_null0 --file-prefix "$prefix" -- -i >"$T/c8.out" 2>&1 || true
check "(c5) start with every port stopped: $(grep -m1 'error:' "$T/c8.out")" \
	bash -c "grep -q 'error: not started: every port is stopped (port start <port>|all first)' '$T/c8.out' &&
		! grep -q 'sluice summary' '$T/c8.out' && grep -q 'no run yet' '$T/c8.out'"

# (c4) Issue 15 item 7: the output within 100 columns whatever the port's name,
# the columns aligned, L2 beside L1, txq lines with their packets, the sim
# verifier in the text summary, the JSON with the configuration and versions.
pfx
long=net_null_a_rather_long_port_name_for_testing0
timeout 30 "$bin" "${eal[@]}" -l 0-1 --vdev "$long" --file-prefix "$prefix" -- \
	--sim 10G,verify=on --rate 1mpps --count 300000 --duration 2 --stats-period 0.2 \
	--field dst-ip=inc:198.18.0.2,10 --json "$T/c7.json" >"$T/c7.out" 2>"$T/c7.err" || true
wide=$(awk 'length($0) > 100' "$T/c7.out" | wc -l)
check "(c4) every line within 100 columns with a ${#long}-character port name ($wide longer; longest $(awk '{ print length($0) }' "$T/c7.out" | sort -n | tail -1))" \
	test "$wide" = 0 -a -s "$T/c7.out"
cols=$(awk '/^port [0-9]+  tx / { print index($0, " pkts ") }' "$T/c7.out" | sort -u | tr '\n' ' ')
check "(c4) the port lines' columns align (' pkts ' at column(s) $cols)" test "$(wc -w <<<"$cols")" = 1
check "(c4) rates with L1 and L2, txq lines with their packet count" \
	bash -c "grep -qE '^ +[0-9.]+ [kMG]?pps +[0-9.]+ [kMGT]?b/s L1 +[0-9.]+ [kMGT]?b/s L2' '$T/c7.out' &&
		grep -qE '^  txq 0 [a-z]+ +pkts 300000 ' '$T/c7.out'"
check "(c4) the sim verifier's results in the text summary: $(grep -m1 '^sim verifier' "$T/c7.out")" \
	grep -qE "^sim verifier: 300000 frames on the wire, lost 0 duplicates 0 reordered 0 violations 0" "$T/c7.out"
check "(c4) JSON: config, versions, the whole name ($(jq -c '[.version, .dpdk, .config.fields, .config.ports[0].rate, .ports[0].name]' "$T/c7.json" 2>/dev/null))" \
	jqe --arg n "$long" '(.version | length) > 0 and (.dpdk | startswith("DPDK")) and .config.fields == ["dst-ip=inc:198.18.0.2,10"] and .config.ports[0].rate == "1 Mpps" and .config.ports[0].rate_unit == "pps" and .config.count == 300000 and (.config.map | length) == 2 and .ports[0].name == $n and (.ports[1].src_mac | length) == 17' "$T/c7.json"
check "(c4) no TELEMETRY legacy-socket line on stderr" bash -c "! grep -q 'No legacy callbacks' '$T/c7.err'"

# (d) Four views of one run's queue counters, and of its port counters,
# read once the run has ended (its summary printed): a fixed sleep read
# them mid-run on a loaded machine. Found by review.
pfx
ended() { for _ in $(seq 600); do grep -q 'sluice summary' "$T/d.out" 2>/dev/null && return; sleep 0.1; done; }
{
	ended
	echo "show txq stats"
	echo "show port stats 0"
	sleep 3 # the telemetry reads below happen here
	echo quit
} | timeout 60 "$bin" "${eal[@]}" --lcores '0,(1-3)@(0-1)' --file-prefix "$prefix" -- \
	--sim 10G --map 1-3:0.0 --count 300000 --json "$T/d.json" -i -a >"$T/d.out" 2>&1 &
runner=$!
ended
echo "/sluice/txqs,0" | timeout 10 dpdk-telemetry.py -f "$prefix" 2>/dev/null | tail -1 >"$T/d.tel" || true
echo "/sluice/ports,0" | timeout 10 dpdk-telemetry.py -f "$prefix" 2>/dev/null | tail -1 >"$T/d.ptel" || true
wait "$runner" || true
keys='tx_packets busy collisions requeued backlog dropped'
js=$(jq -r --arg k "$keys" '.txqs[0] as $q | ($k | split(" ")) | map($q[.] | tostring) | join(" ")' "$T/d.json")
tel=$(jq -r --arg k "$keys" '."/sluice/txqs"."0" as $q | ($k | split(" ")) | map($q[.] | tostring) | join(" ")' "$T/d.tel" 2>/dev/null || echo none)
# show txq stats: port queue mode lcores pkts bytes busy collisions requeued backlog dropped
show=$(awk '$1 == "0" && $2 == "0" && $3 == "locked" {print $5, $7, $8, $9, $10, $11}' "$T/d.out" | tail -1)
showbytes=$(awk '$1 == "0" && $2 == "0" && $3 == "locked" {print $6}' "$T/d.out" | tail -1)
# summary: "  txq 0 locked pkts P busy B collisions C requeued R backlog K dropped D dead_loops L"
sum=$(awk '$1 == "txq" && $3 == "locked" {print $5, $7, $9, $11, $13, $15}' "$T/d.out" | tail -1)
check "(d) JSON [$js] == telemetry [$tel]" test "$js" = "$tel"
check "(d) JSON [$js] == show txq stats [$show]" test "$js" = "$show"
check "(d) show txq stats bytes $showbytes == JSON $(jq .txqs[0].tx_bytes "$T/d.json")" \
	test "$showbytes" = "$(jq .txqs[0].tx_bytes "$T/d.json")"
check "(d) JSON [$js] == summary's txq line [$sum]" test "$js" = "$sum"
check "(d) the run sent its count and shared the queue: $(jq -c '.txqs[0] | [.tx_packets, .collisions]' "$T/d.json")" \
	jqe '.txqs[0].tx_packets == 300000 and .txqs[0].collisions > 0' "$T/d.json"
# The port counters (sl_port_counters): tx_packets tx_bytes dropped [backlog].
pkeys='tx_packets tx_bytes dropped backlog'
pjs=$(jq -r --arg k "$pkeys" '.ports[0] as $q | ($k | split(" ")) | map($q[.] | tostring) | join(" ")' "$T/d.json")
ptel=$(jq -r --arg k "$pkeys" '."/sluice/ports" as $q | ($k | split(" ")) | map($q[.] | tostring) | join(" ")' "$T/d.ptel" 2>/dev/null || echo none)
# show port stats 0: "  TX-packets: P TX-dropped: D TX-bytes: B backlog: K"
pshow=$(awk '$1 == "TX-packets:" {print $2, $6, $4, $8}' "$T/d.out" | tail -1)
# summary: "port 0  tx P pkts B bytes  dropped D sim0"
psum=$(awk '$1 == "port" && $2 == "0" && $3 == "tx" {print $4, $6, $9}' "$T/d.out" | tail -1)
check "(d) ports: JSON [$pjs] == telemetry /sluice/ports,0 [$ptel]" test "$pjs" = "$ptel"
check "(d) ports: JSON [$pjs] == show port stats 0 [$pshow]" test "$pjs" = "$pshow"
check "(d) ports: JSON [${pjs% *}] == summary's port line [$psum]" test "${pjs% *}" = "$psum"
check "(d) ports: the run sent its count: [$pjs]" test "${pjs%% *}" = 300000

# (e) --xmit direct.
pfx
timeout 30 "$bin" "${eal[@]}" -l 0-1 --vdev net_null0 --file-prefix "$prefix" -- \
	--xmit direct --count 100000 --json "$T/e.json" >"$T/e.out" 2>&1 && rc=0 || rc=$?
check "(e) --xmit direct: exit $rc, tx $(jq -c '[.totals.tx_packets, .totals.tx_bytes]' "$T/e.json" 2>/dev/null) (bytes counted too), conserved" \
	jqe '.totals.tx_packets == 100000 and .totals.tx_bytes == 6000000 and .totals.conserved and .txqs[0].tx_packets == 100000 and .totals.mempool_in_use == 0' "$T/e.json"
pfx
timeout 30 "$bin" "${eal[@]}" -l 0-1 --file-prefix "$prefix" -- --sim 10G --xmit direct \
	--count 10 >"$T/e2.out" 2>&1 && rc=0 || rc=$?
check "(e) --xmit direct on a sim: exit $rc, $(grep -o 'sluice: --xmit direct.*simulated' "$T/e2.out" | head -1)" \
	grep -q "sluice: --xmit direct: port 0 queue 0 is simulated" "$T/e2.out"
test "$rc" = 2 || ko "(e) --xmit direct on a sim: exit $rc, want 2"

# (f) A start that fails for lack of resources is exit 1 on every path, not 2.
for how in plain file; do
	pfx
	args=(-- --duration 0.1)
	[ $how = file ] && args=(-- --cmdline-file "$T/start.cmd")
	timeout 30 "$bin" --no-huge -m 64 --no-pci -l 0-1 --log-level '*:error' --file-prefix "$prefix" \
		--vdev net_null0 --vdev net_null1 --vdev net_null2 --vdev net_null3 "${args[@]}" \
		>"$T/f.out" 2>&1 && rc=0 || rc=$?
	check "(f) $how: out of memory at start: exit $rc (want 1): $(grep -m1 'sluice:' "$T/f.out")" \
		test "$rc" = 1
done

# (g) Small things a user expects: --json - writes to stdout (after the
# summary), exit quits like quit, /sluice/txqs without a port lists the ports.
pfx
timeout 30 "$bin" "${eal[@]}" -l 0-1 --vdev net_null0 --file-prefix "$prefix" -- --count 1000 \
	--json - >"$T/g.out" 2>&1 && rc=0 || rc=$?
check "(g) --json -: exit $rc, the JSON on stdout says tx $(sed -n '/^{/,$p' "$T/g.out" | jq -c .totals.tx_packets 2>/dev/null), no file named -" \
	eval "sed -n '/^{/,\$p' '$T/g.out' | jq -e '.totals.tx_packets == 1000' >/dev/null && [ ! -e ./- ]"
pfx
printf 'exit\n' | timeout 30 "$bin" "${eal[@]}" -l 0-1 --vdev net_null0 --file-prefix "$prefix" -- -i \
	>"$T/g2.out" 2>&1 && rc=0 || rc=$?
check "(g) exit at the prompt ends the program: exit $rc" test "$rc" = 0
pfx
{ sleep 2; echo quit; } | timeout 30 "$bin" "${eal[@]}" -l 0-1 --vdev net_null0 --vdev net_null1 \
	--file-prefix "$prefix" -- -i >/dev/null 2>&1 &
runner=$!
sleep 1
echo "/sluice/txqs" | timeout 10 dpdk-telemetry.py -f "$prefix" 2>/dev/null | tail -1 >"$T/g.tel" || true
wait "$runner" || true
check "(g) /sluice/txqs without a port: the port ids $(cat "$T/g.tel")" \
	jqe '."/sluice/txqs" == [0, 1]' "$T/g.tel"

# (h) set rate all while running: checked on every port before any takes it
# (port 1's two pairs refuse 1.5 pps: port 0 kept 1 Mpps; it took 1.5 pps
# alone before, found by review).
pfx
{ printf 'set rate all 1mpps\nstart\n'; sleep 1; printf 'set rate all 1.5pps\n'; sleep 0.5
  printf 'stop\nquit\n'; } | timeout 30 "$bin" --no-huge -m 512 --no-pci --file-prefix "$prefix" \
	--log-level '*:error' --lcores '0,(1-3)@(0-1)' --vdev net_null0 --vdev net_null1 -- -i \
	--map 1:0.0,2-3:1.0 --json "$T/h.json" >"$T/h.out" 2>&1
check "(h) set rate all refused on port 1 changes no port: $(jq -c '[.ports[] | .pace_value]' "$T/h.json" 2>/dev/null)" \
	sh -c "grep -q 'set rate: port 1 .*below 1 per second' '$T/h.out' &&
		jq -e '[.ports[] | .pace_value] == [1000000, 1000000]' '$T/h.json' >/dev/null"

# (i) set rate while running: --json's config says the rate it ran at last,
# as the port's pace does (found by review: the run's description kept the
# rate it started with).
pfx
{ printf 'set rate 0 100kpps\nstart\n'; sleep 1; printf 'set rate 0 2000pps\n'; sleep 0.5
  printf 'stop\nquit\n'; } | timeout 30 "$bin" --no-huge -m 512 --no-pci --file-prefix "$prefix" \
	--log-level '*:error' -l 0-1 --vdev net_null0 -- -i --json "$T/i.json" >"$T/i.out" 2>&1
check "(i) set rate while running: the JSON's config and pace say 2000 pps: $(jq -c '[.config.ports[0].rate_value, .ports[0].pace_value]' "$T/i.json" 2>/dev/null)" \
	jq -e '.config.ports[0].rate_value == 2000 and .ports[0].pace_value == 2000' "$T/i.json"

echo "test_session: $pass passed, $fail failed"
[ "$fail" = 0 ]
