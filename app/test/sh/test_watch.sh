#!/usr/bin/env bash
# test_watch.sh - DPDK's own tools watch a running Sluice (they are secondary
# processes: the run needs real hugepages). sl-nic.sh reserves and mounts a
# few (and --clear puts the machine back); without root or hugetlbfs, SKIP.
# Three runs at the prompt, two net_null ports at 50 kpps each:
#  - run 1: dpdk-dumpcap captures 1000 frames of port 0, then again 1000 (a
#    capture started and stopped twice); tshark decodes them with good IPv4
#    and UDP checksums, and their signatures (decoded by the tests' own
#    app/test/py/slsig.py) are valid, of this run, in order, the second
#    capture's after the first's; dpdk-pdump captures port 1 twice, each
#    ended normally (SIGINT): the same checks on its pcap files;
#    dpdk-proc-info --stats reads the ports' counters; then dpdk-dumpcap on
#    port 0 and dpdk-pdump on port 1 capture, the run stops, and once they
#    are idle both are killed (SIGKILL);
#  - run 2 counts with the dead tools' hooks in its ports, and a new capture
#    of such a port is refused; after it stops, sluice-capture-reset clears
#    the hooks (and dpdk-pdump's rings and ports);
#  - run 3: dpdk-dumpcap captures both ports again; a new dpdk-pdump on port
#    1 (which reuses the killed one's pool and crashes at its own exit,
#    DPDK's) leaves Sluice running and counting;
#  - Sluice exits 0, each run conserved, every mbuf back.
# Captures still end while traffic flows (dumpcap's -c, dpdk-pdump's SIGINT):
# the normal use. That can hang a sending lcore in DPDK's capture callback
# (the tool frees its ring while the lcore is inside: at 500 kpps, 3 of about
# 45 runs, one a clean-clone CI run), so the rate is 50 kpps: a tenth of the
# time inside the callback, and still 1000 frames in 20 ms.
# A tool is killed, and the reset frees a dead tool's rings, only while no
# traffic flows: DPDK 22.11 does not wait for a sending lcore inside its
# capture callback, and a ring or pool left half-way through an operation
# leaves that lcore spinning there for good; a tool killed while it starts
# can leave DPDK's memzone lock held (docs/watching.md). A step can stall on
# a loaded VM (DPDK's 5 s IPC time-outs): each wait has a deadline, and the
# tool steps stop with a FAIL once the test has used 600 s (its time-out is
# 900 s).
set -uo pipefail
trap : PIPE # a write to a Sluice that ended fails and is reported, not fatal

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
reset=${SLUICE_RESET_BIN:-$(dirname "$bin")/../capture-reset/sluice-capture-reset}
nic=$top/scripts/sl-nic.sh
T=$(mktemp -d)
pass=0 fail=0 skip=0
prefix=slw$$
ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }
bg=()
cleanup() {
	# bg holds timeout(1)'s pids: its tool too; then anything of this run.
	for p in "${bg[@]}"; do pkill -KILL -P "$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; done
	pkill -KILL -f -- "--file-prefix $prefix( |$)" 2>/dev/null
	exec 7>&- 2>/dev/null
	[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
	wait 2>/dev/null
	"$nic" hugepages --clear >/dev/null 2>&1
	rm -rf "$T" "/var/run/dpdk/$prefix"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ] || ! grep -qw hugetlbfs /proc/filesystems || ! command -v dpdk-dumpcap >/dev/null ||
	! command -v dpdk-pdump >/dev/null; then
	echo "SKIP - watching tools: needs root, hugetlbfs, dpdk-dumpcap and dpdk-pdump"
	echo "test_watch: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
if ! "$nic" hugepages 256M >"$T/huge.out" 2>&1; then
	echo "SKIP - watching tools: no hugepages could be reserved: $(tail -1 "$T/huge.out")"
	echo "test_watch: 0 passed, 0 failed, 1 skipped"
	exit 0
fi

# Each run lasts as long as the tools take (a loaded machine makes them
# slow): started and stopped at the prompt, bounded by its own --duration.
mkfifo "$T/fifo"
t0=$SECONDS
"$bin" -m 128 --no-pci -l 0-1 --vdev net_null0 --vdev net_null1 --file-prefix "$prefix" \
	--log-level '*:error' -- -i --sign on --duration 800 --rate 50kpps --json "$T/run.json" \
	<"$T/fifo" >"$T/run.out" 2>&1 &
pid=$!
exec 7>"$T/fifo"
echo start >&7
for _ in $(seq 100); do [ -S "/var/run/dpdk/$prefix/mp_socket" ] && break; sleep 0.1; done
if ! kill -0 "$pid" 2>/dev/null; then
	ko "Sluice did not start on hugepages: $(tail -2 "$T/run.out")"
	echo "test_watch: $pass passed, $fail failed, $skip skipped"
	exit 1
fi
for _ in $(seq 50); do [ -S "/var/run/dpdk/$prefix/mp_socket" ] && break; sleep 0.1; done
sleep 1

# Signatures of a capture: count, bad, runs, in order, first and last sequence.
sigs() {
	tshark -r "$1" -c "${2:-100000}" -T fields -e udp.payload 2>/dev/null >"$T/payloads"
	SL_TEST_PY="$top/app/test/py" python3 - "$T/payloads" <<'PY'
import os, sys
sys.path.insert(0, os.environ["SL_TEST_PY"])
from slsig import sig_v2
seqs, runs, bad = [], set(), 0
for line in open(sys.argv[1]):
    b = bytes.fromhex(line.strip())
    s = sig_v2(b[-16:]) if len(b) >= 16 else None
    if s is None:
        bad += 1
        continue
    seqs.append(s[2])
    runs.add(s[4])
print(len(seqs), bad, len(runs), int(all(a < b for a, b in zip(seqs, seqs[1:]))),
      min(seqs) if seqs else -1, max(seqs) if seqs else -1)
PY
}
# Frames of a capture, and how many have good IPv4 and UDP checksums.
checksums() {
	local good all
	good=$(tshark -r "$1" -c "${2:-100000}" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-Y 'ip.checksum.status == "Good" && udp.checksum.status == "Good"' 2>/dev/null | wc -l)
	all=$(tshark -r "$1" -c "${2:-100000}" 2>/dev/null | wc -l)
	echo "$all $good"
}
tel() { echo "$1" | timeout 10 dpdk-telemetry.py -f "$prefix" 2>/dev/null | tail -1; }
txnow() {
	local v
	v=$(tel /sluice/totals | jq '."/sluice/totals".tx_packets' 2>/dev/null)
	[[ "$v" =~ ^[0-9]+$ ]] && echo "$v" || echo -1
}
alive() { kill -0 "$pid" 2>/dev/null; }
# Why Sluice is gone, or that it is not, and when (seconds into the test).
state() { if alive; then echo "alive at $((SECONDS - t0)) s"; else echo "ended at $((SECONDS - t0)) s: $(tail -2 "$T/run.out" | tr '\n' ' ')"; fi; }
# A file that has grown past 100 kB: the tool writing it is capturing.
big() { [ -s "$1" ] && [ "$(stat -c %s "$1")" -gt 100000 ]; }
# waitfor SECONDS COMMAND...: until COMMAND holds, at most SECONDS.
waitfor() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.1
	done
}
gone() { ! kill -0 "$1" 2>/dev/null; }
# bwait PID: its exit status, waiting at most 20 s (then it and its children
# are killed).
bwait() {
	if ! waitfor 20 gone "$1"; then
		pkill -KILL -P "$1" 2>/dev/null
		kill -9 "$1" 2>/dev/null
	fi
	wait "$1"
}
# counts: tx_packets grows over a second.
counts() {
	a=$(txnow)
	sleep 1
	b=$(txnow)
	alive && [ "$a" -gt 0 ] && [ "$b" -gt "$a" ]
}
# The run's summary N printed and its JSON written.
summary() { [ "$(grep -c 'total:' "$T/run.out")" -ge "$1" ] && [ -s "$T/run.json" ]; }
summary_or_gone() { summary "$1" || ! alive; }
# stop_run N: stop run N at the prompt and keep its JSON as runN.json.
stop_run() {
	rm -f "$T/run.json"
	echo stop >&7
	if waitfor 60 summary_or_gone "$1" && summary "$1"; then
		cp "$T/run.json" "$T/run$1.json"
	else
		ko "run $1: no summary and JSON within 60 s of stop: Sluice $(state)"
		return 1
	fi
}
# The tool steps' budget: 600 s of the test's 900, and a Sluice to watch.
skipping=no
budget() {
	[ $((SECONDS - t0)) -lt 600 ] && alive && return 0
	[ "$skipping" = no ] && ko "before $1: Sluice $(state); the steps left are skipped"
	skipping=yes
	return 1
}
# sluice-capture-reset's counts: "N hook set(s) cleared, M leftover(s) ...".
reset_counts() { sed -n 's/^\([0-9]*\) hook set(s) cleared, \([0-9]*\) leftover.*/\1 \2/p' "$T/reset.out"; }

# Run 1.
# 1. dpdk-dumpcap, twice on port 0 (started and stopped while Sluice runs).
for c in 1 2; do
	timeout -k 10 60 dpdk-dumpcap --file-prefix "$prefix" -i 0 -c 1000 -w "$T/cap$c.pcapng" >"$T/dump$c.out" 2>&1 &&
		ok "dpdk-dumpcap capture $c attached and ended: $(grep -o "Packets received/dropped.*" "$T/dump$c.out")" ||
		ko "dpdk-dumpcap capture $c: $(tail -2 "$T/dump$c.out" | tr '\n' ' '); Sluice $(state)"
done
timeout -k 10 20 dpdk-proc-info --file-prefix "$prefix" -- --stats >"$T/proc.out" 2>&1
tx=$(awk '/TX-packets:/ {print $2; exit}' "$T/proc.out")
if [[ "$tx" =~ ^[0-9]+$ ]] && [ "$tx" -gt 0 ]; then
	ok "dpdk-proc-info --stats: port 0 TX-packets $tx"
else
	ko "dpdk-proc-info --stats: $(grep -m2 -i "tx-packets\|error" "$T/proc.out")"
fi

# 2. dpdk-pdump, twice on port 1, each ended with SIGINT (its normal end;
# timeout(1) passes it on).
for c in 1 2; do
	timeout -k 10 60 dpdk-pdump --file-prefix "$prefix" --no-pci --log-level '*:error' -- \
		--pdump "port=1,queue=*,tx-dev=$T/pd$c.pcap" >"$T/pd$c.out" 2>&1 &
	p=$!
	bg+=("$p")
	waitfor 30 big "$T/pd$c.pcap"
	kill -INT "$p" 2>/dev/null
	bwait "$p"
	rc=$?
	[ "$rc" = 0 ] && [ -s "$T/pd$c.pcap" ] &&
		ok "dpdk-pdump capture $c of port 1 ended by SIGINT: exit 0, $(grep -o 'packets transmitted to vdev:.*' "$T/pd$c.out" | tr -s '\t ' ' ')" ||
		ko "dpdk-pdump capture $c: exit $rc: $(grep -v '^ -\|^#' "$T/pd$c.out" | tail -2 | tr '\n' ' '); Sluice $(state)"
done
alive && ok "Sluice runs on after four captures that ended normally" || ko "Sluice $(state)"

# 3. To be killed: dumpcap on port 0, then pdump on port 1, each once it
# captures (its file past 100 kB). Killed once the run has stopped and both
# are idle (their files no longer grow). A tool that does not capture
# within 30 s is ended normally (SIGINT), never killed. Not under timeout(1):
# its SIGKILL would kill timeout, and the tool would capture on.
kd='' kp='' stopped=no idle=no
if budget "the tools to kill"; then
	dpdk-dumpcap --file-prefix "$prefix" -i 0 -w "$T/killed.pcapng" >"$T/kd.out" 2>&1 &
	kd=$!
	bg+=("$kd")
	waitfor 30 big "$T/killed.pcapng"
	if big "$T/killed.pcapng"; then
		dpdk-pdump --file-prefix "$prefix" --no-pci --log-level '*:error' -- \
			--pdump "port=1,queue=*,tx-dev=$T/killed.pcap" >"$T/kp.out" 2>&1 &
		kp=$!
		bg+=("$kp")
		waitfor 30 big "$T/killed.pcap"
	fi
fi
capturing=no
[ -n "$kd" ] && [ -n "$kp" ] && big "$T/killed.pcapng" && big "$T/killed.pcap" &&
	kill -0 "$kd" 2>/dev/null && kill -0 "$kp" 2>/dev/null && capturing=yes
stop_run 1 && stopped=yes
# Idle: both files the same size over a second.
sizes() { stat -c %s "$T/killed.pcapng" "$T/killed.pcap" 2>/dev/null | tr '\n' ' '; }
for _ in $(seq 30); do
	s1=$(sizes)
	sleep 1
	[ "$(sizes)" = "$s1" ] && { idle=yes; break; }
done
if [ "$capturing" = yes ] && [ "$stopped" = yes ] && [ "$idle" = yes ] && kill -0 "$kd" 2>/dev/null &&
	kill -0 "$kp" 2>/dev/null; then
	kill -9 "$kd" "$kp"
	wait "$kd"
	rkd=$?
	wait "$kp"
	rkp=$?
	[ "$rkd" = 137 ] && [ "$rkp" = 137 ] &&
		ok "both tools captured, then were killed idle after the run stopped (SIGKILL: exit $rkd and $rkp)" ||
		ko "the tools to kill: exit $rkd and $rkp, not 137 (ended before the kill?): $(tail -1 "$T/kd.out") / $(tail -1 "$T/kp.out")"
else
	for t in $kd $kp; do kill -INT "$t" 2>/dev/null; bwait "$t"; done
	ko "the tools to kill (ended with SIGINT, not killed): capturing $capturing, run stopped $stopped, idle $idle: $(tail -1 "$T/kd.out" 2>/dev/null) / $(tail -1 "$T/kp.out" 2>/dev/null); Sluice $(state)"
fi

# Run 2, with the dead tools' hooks in its ports (DPDK's pdump keeps no
# owner): it counts, and a new capture is refused.
echo start >&7
sleep 1
counts && ok "after the kills Sluice's second run counts: tx_packets $a, then $b" ||
	ko "after the kills: Sluice $(state), tx_packets '$a' then '$b'"
if budget "the refused capture"; then
	timeout -k 10 60 dpdk-dumpcap --file-prefix "$prefix" -i 0 -c 100 -w "$T/again.pcapng" >"$T/again.out" 2>&1
	rc=$?
	# (refused, not timed out: DPDK reports a request to Sluice that timed
	# out with the same "Operation not permitted")
	[ "$rc" != 0 ] && grep -q "Operation not permitted" "$T/again.out" &&
		! grep -q "Fail to recv reply\|Request timed out" "$T/again.out" &&
		ok "a new capture of a port whose capture was killed is refused (DPDK: $(grep -o 'Packet dump enable failed.*' "$T/again.out"))" ||
		ko "a new capture after the kill: exit $rc: $(tail -3 "$T/again.out" | tr '\n' ' ') (not the refusal docs/watching.md documents); Sluice $(state)"
fi
stop_run 2

# Between runs 2 and 3, no traffic: the reset.
if [ ! -x "$reset" ]; then
	ko "no $reset (build it: ninja -C build)"
elif budget "the reset"; then
	timeout -k 10 60 "$reset" --file-prefix "$prefix" >"$T/reset.out" 2>&1
	rc=$?
	read -r cleared left <<<"$(reset_counts)"
	# dumpcap's RX and TX hooks on port 0, dpdk-pdump's TX hooks on port 1;
	# dpdk-pdump's ring and pcap port.
	[ "$rc" = 0 ] && [ "${cleared:-0}" -ge 2 ] && [ "${left:-0}" -ge 1 ] &&
		ok "sluice-capture-reset: $(tail -1 "$T/reset.out")" ||
		ko "sluice-capture-reset: exit $rc: $(tail -2 "$T/reset.out" | tr '\n' ' ') (want 2 or more hook sets and 1 or more leftovers)"
fi

# Run 3: dpdk-dumpcap on both ports (a new dpdk-pdump would reuse the dead
# one's pool, capture, and crash at its exit: docs/watching.md).
echo start >&7
sleep 1
for p in 0 1; do
	budget "dumpcap on port $p after the reset" || break
	timeout -k 10 60 dpdk-dumpcap --file-prefix "$prefix" -i "$p" -c 1000 -w "$T/again$p.pcapng" \
		>"$T/again$p.out" 2>&1 &&
		ok "after the reset dpdk-dumpcap captures port $p again: $(grep -o "Packets received/dropped.*" "$T/again$p.out")" ||
		ko "after the reset, port $p: $(tail -2 "$T/again$p.out" | tr '\n' ' '); Sluice $(state)"
done
# A new dpdk-pdump after a killed one reuses the dead one's pool and crashes
# in rte_mempool_free() at its own exit (DPDK 22.11: the pool's free callback
# is an address in the dead process; docs/watching.md). Sluice must not
# care: it runs on and counts.
if budget "the dpdk-pdump after the reset"; then
	timeout -k 10 60 dpdk-pdump --file-prefix "$prefix" --no-pci --log-level '*:error' -- \
		--pdump "port=1,queue=*,tx-dev=$T/after.pcap" >"$T/after.out" 2>&1 &
	p=$!
	bg+=("$p")
	waitfor 30 big "$T/after.pcap"
	kill -INT "$p" 2>/dev/null
	bwait "$p"
	rc=$?
	if counts; then
		ok "a dpdk-pdump after the killed one ended with exit $rc ($([ "$rc" = 139 ] && echo "its own crash at exit, DPDK's" || echo "no crash this time")); Sluice runs on and counts: tx_packets $a, then $b"
	else
		ko "after the second dpdk-pdump (exit $rc): Sluice $(state), tx_packets '$a' then '$b'"
	fi
fi
alive && ok "Sluice runs on after every tool ended ($(state))" || ko "Sluice $(state)"

rm -f "$T/run.json"
printf 'stop\nquit\n' >&7
exec 7>&-
# A run that cannot stop spins in DPDK's capture path (docs/watching.md).
if ! waitfor 60 gone "$pid"; then
	ko "Sluice did not exit within 60 s of stop: $(command -v gdb >/dev/null &&
		timeout 20 gdb -p "$pid" -batch -ex 'thread apply all bt 4' 2>/dev/null | grep -E '^#[0-3] ' | tr -s ' \n' ' ')(killed)"
	kill -9 "$pid" 2>/dev/null
fi
wait "$pid"
rc=$?
pid=
# The four captures are of the first run.
txp0=$(jq .ports[0].tx_packets "$T/run1.json" 2>/dev/null)
txp1=$(jq .ports[1].tx_packets "$T/run1.json" 2>/dev/null)
for f in cap1.pcapng cap2.pcapng pd1.pcap pd2.pcap; do
	case $f in pd*) txp=$txp1 ;; *) txp=$txp0 ;; esac
	read -r all good <<<"$(checksums "$T/$f" 3000)"
	[ "${all:-0}" -ge 1000 ] && [ "$good" = "$all" ] && ok "$f: tshark: $all frames, $good with good IPv4 and UDP checksums" ||
		ko "$f: tshark: $all frames, $good good"
	read -r nsig nbad nruns inorder minseq maxseq <<<"$(sigs "$T/$f" 3000)"
	if [ "${nbad:-1}" = 0 ] && [ "${nruns:-0}" = 1 ] && [ "${inorder:-0}" = 1 ] &&
		[[ "${txp:-x}" =~ ^[0-9]+$ ]] && [ "${maxseq:--1}" -lt "$txp" ]; then
		ok "$f: signatures: $nsig valid, one run, sequences $minseq..$maxseq increasing, below the port's tx_packets $txp"
	else
		ko "$f: signatures: $nsig valid $nbad bad $nruns runs in-order $inorder max $maxseq against tx_packets $txp"
	fi
	eval "min_${f%%.*}=${minseq:--1} max_${f%%.*}=${maxseq:--1}"
done
# shellcheck disable=SC2154
[ "$min_cap2" -gt "$max_cap1" ] && [ "$min_pd2" -gt "$max_pd1" ] &&
	ok "the second captures come after the first (port 0: $max_cap1 < $min_cap2, port 1: $max_pd1 < $min_pd2)" ||
	ko "capture order: cap1 ..$max_cap1 cap2 $min_cap2.., pd1 ..$max_pd1 pd2 $min_pd2.."
[ "$rc" = 0 ] && ok "Sluice: exit 0" || ko "Sluice: exit $rc, $(tail -2 "$T/run.out" | tr '\n' ' ')"
[ -s "$T/run.json" ] && cp "$T/run.json" "$T/run3.json"
what=("" "6 captures (4 ended, 2 killed idle)" "the dead tools' hooks and a refused capture" "the reset, 2 dumpcaps and a crashed dpdk-pdump")
for r in 1 2 3; do
	jq -e '.totals.conserved and .totals.mempool_in_use == 0 and .totals.tx_packets > 0' "$T/run$r.json" >/dev/null 2>&1 &&
		ok "run $r: conserved (generated $(jq .totals.generated "$T/run$r.json") = tx $(jq .totals.tx_packets "$T/run$r.json") + dropped + backlog), every mbuf back, after ${what[$r]}" ||
		ko "run $r: $(jq -c .totals "$T/run$r.json" 2>&1 | head -1)"
done

echo "test_watch: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
