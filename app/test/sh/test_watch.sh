#!/usr/bin/env bash
# test_watch.sh - DPDK's own tools watch a running Sluice (they are secondary
# processes: the run needs real hugepages). sl-nic.sh reserves and mounts a
# few (and --clear puts the machine back); without root or hugetlbfs, SKIP.
# Two runs at the prompt, two net_null ports at 500 kpps each; while they run:
#  - dpdk-dumpcap captures 1000 frames of port 0, then again 1000 (a capture
#    started and stopped twice); tshark decodes them with good IPv4 and UDP
#    checksums, and their signatures (decoded by the tests' own
#    app/test/py/slsig.py) are valid, of this run, in order, the second
#    capture's after the first's;
#  - dpdk-pdump captures port 1 twice, each ended normally (SIGINT): the
#    same checks on its pcap files;
#  - dpdk-proc-info --stats reads the ports' counters;
#  - dpdk-dumpcap on port 0 and dpdk-pdump on port 1 capture, the run is
#    stopped, and once they are idle they are killed (SIGKILL); a second
#    run starts and counts; a new capture of such a port is refused until
#    sluice-capture-reset clears the dead ones' hooks (and dpdk-pdump's rings
#    and ports), then dpdk-dumpcap captures both ports again; a new
#    dpdk-pdump on port 1 (which reuses the killed one's pool and crashes at
#    its own exit, DPDK's) leaves Sluice running and counting;
#  - at the end Sluice exits 0, both runs conserved, every mbuf back.
# A tool is killed only while no traffic flows: killed inside an operation on
# the ring or pool it shares with Sluice (it does thousands a second while it
# captures) it leaves Sluice's sending lcore spinning in DPDK's capture
# callback; killed while it starts (reserving its ring and pool) it can
# leave DPDK's memzone lock held (docs/watching.md). On this VM a step can
# stall for minutes (seen: the kernel reaping an exited tool; DPDK's 5 s IPC
# time-outs under load): the runs' own bound (--duration) is long, and the
# test stops them at the prompt.
set -uo pipefail
trap '' PIPE # a write to a Sluice that ended fails and is reported, not fatal

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
	for p in "${bg[@]}"; do kill -9 "$p" 2>/dev/null; done
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

# Two runs at the prompt (the tools are killed between them), each as long as
# the tools take (a loaded machine makes them slow), bounded at 800 s by its
# own --duration (the test's own time-out is 900 s; a wedged Sluice is
# killed by the EXIT trap).
mkfifo "$T/fifo"
t0=$SECONDS
"$bin" -m 128 --no-pci -l 0-1 --vdev net_null0 --vdev net_null1 --file-prefix "$prefix" \
	--log-level '*:error' -- -i --duration 800 --rate 500kpps --json "$T/run.json" \
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
txnow() { tel /sluice/totals | jq '."/sluice/totals".tx_packets' 2>/dev/null || echo -1; }
alive() { kill -0 "$pid" 2>/dev/null; }
# Why Sluice is gone, or that it is not, and when (seconds into the run).
state() { if alive; then echo "alive at $((SECONDS - t0)) s"; else echo "ended at $((SECONDS - t0)) s: $(tail -2 "$T/run.out" | tr '\n' ' ')"; fi; }
# A file that has grown past 100 kB: the tool writing it is capturing.
big() { [ -s "$1" ] && [ "$(stat -c %s "$1")" -gt 100000 ]; }

# 1. dpdk-dumpcap, twice on port 0 (started and stopped while Sluice runs).
for c in 1 2; do
	timeout 60 dpdk-dumpcap --file-prefix "$prefix" -i 0 -c 1000 -w "$T/cap$c.pcapng" >"$T/dump$c.out" 2>&1 &&
		ok "dpdk-dumpcap capture $c attached and ended: $(grep -o "Packets received/dropped.*" "$T/dump$c.out")" ||
		ko "dpdk-dumpcap capture $c: $(tail -2 "$T/dump$c.out" | tr '\n' ' '); Sluice $(state)"
done
timeout 20 dpdk-proc-info --file-prefix "$prefix" -- --stats >"$T/proc.out" 2>&1
tx=$(awk '/TX-packets:/ {print $2; exit}' "$T/proc.out")
if [ -n "$tx" ] && [ "$tx" -gt 0 ] 2>/dev/null; then
	ok "dpdk-proc-info --stats: port 0 TX-packets $tx"
else
	ko "dpdk-proc-info --stats: $(grep -m2 -i "tx-packets\|error" "$T/proc.out")"
fi

# 2. dpdk-pdump, twice on port 1, each ended with SIGINT (its normal end).
for c in 1 2; do
	timeout 60 dpdk-pdump --file-prefix "$prefix" --no-pci --log-level '*:error' -- \
		--pdump "port=1,queue=*,tx-dev=$T/pd$c.pcap" >"$T/pd$c.out" 2>&1 &
	p=$!
	bg+=("$p")
	for _ in $(seq 300); do big "$T/pd$c.pcap" && break; kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
	kill -INT "$p"
	wait "$p"
	rc=$?
	[ "$rc" = 0 ] && [ -s "$T/pd$c.pcap" ] &&
		ok "dpdk-pdump capture $c of port 1 ended by SIGINT: exit 0, $(grep -o 'packets transmitted to vdev:.*' "$T/pd$c.out" | tr -s '\t ' ' ')" ||
		ko "dpdk-pdump capture $c: exit $rc: $(grep -v '^ -\|^#' "$T/pd$c.out" | tail -2 | tr '\n' ' '); Sluice $(state)"
done
alive && ok "Sluice runs on after four captures that ended normally" || ko "Sluice $(state)"

# 3. Killed: dumpcap on port 0, pdump on port 1, one at a time, each once
# it captures (its file past 100 kB). Killed between two runs: by then the
# traffic has stopped and the tools are idle (their files no longer grow), so
# neither dies inside an operation on the ring or pool it shares with
# Sluice's sending lcore (killed inside one, it would leave that lcore
# spinning in DPDK's capture callback: docs/watching.md). A tool that does not
# capture within 30 s is ended normally (SIGINT), never killed. Not under
# timeout(1): its SIGKILL would kill timeout, and the tool would capture on.
kp=
dpdk-dumpcap --file-prefix "$prefix" -i 0 -w "$T/killed.pcapng" >"$T/kd.out" 2>&1 &
kd=$!
bg+=("$kd")
for _ in $(seq 300); do big "$T/killed.pcapng" && break; kill -0 "$kd" 2>/dev/null || break; sleep 0.1; done
if big "$T/killed.pcapng"; then
	dpdk-pdump --file-prefix "$prefix" --no-pci --log-level '*:error' -- \
		--pdump "port=1,queue=*,tx-dev=$T/killed.pcap" >"$T/kp.out" 2>&1 &
	kp=$!
	bg+=("$kp")
	for _ in $(seq 300); do big "$T/killed.pcap" && break; kill -0 "$kp" 2>/dev/null || break; sleep 0.1; done
fi
capturing=no
big "$T/killed.pcapng" && big "$T/killed.pcap" && capturing=yes
# The first run ends (its JSON is kept for the captures above).
echo stop >&7
for _ in $(seq 600); do grep -q "total:" "$T/run.out" && [ -s "$T/run.json" ] && break; sleep 0.1; done
sleep 0.5
cp "$T/run.json" "$T/run1.json" 2>/dev/null
# Idle: both files the same size over a second.
for _ in $(seq 30); do
	s1=$(stat -c %s "$T/killed.pcapng" "$T/killed.pcap" 2>/dev/null | tr '\n' ' ')
	sleep 1
	[ "$(stat -c %s "$T/killed.pcapng" "$T/killed.pcap" 2>/dev/null | tr '\n' ' ')" = "$s1" ] && break
done
if [ "$capturing" = yes ]; then
	kill -9 "$kd" "$kp" 2>/dev/null
	wait "$kd" "$kp" 2>/dev/null
	krc="$?"
	pgrep -f "$T/killed.pcap" >/dev/null &&
		ko "a killed tool still runs: $(pgrep -af "$T/killed.pcap")" ||
		ok "both tools captured, then were killed idle between two runs (SIGKILL, exit $krc: they are gone)"
else
	kill -INT "$kd" ${kp:+"$kp"} 2>/dev/null
	wait "$kd" ${kp:+"$kp"} 2>/dev/null
	ko "the tools to kill did not capture within 30 s (ended with SIGINT, not killed): $(tail -1 "$T/kd.out") / $(tail -1 "$T/kp.out" 2>/dev/null); Sluice $(state)"
fi
# The second run, with the dead tools' hooks in its ports.
echo start >&7
sleep 1
a=$(txnow)
sleep 1
b=$(txnow)
if alive && [ "$a" -gt 0 ] && [ "$b" -gt "$a" ] 2>/dev/null; then
	ok "after the kills Sluice's second run counts: tx_packets $a, then $b"
else
	ko "after the kills: Sluice $(state), tx_packets '$a' then '$b'"
fi
# The dead tools' hooks are still in Sluice's ports (DPDK's pdump keeps no
# owner): a new capture is refused, until sluice-capture-reset clears them.
timeout 60 dpdk-dumpcap --file-prefix "$prefix" -i 0 -c 100 -w "$T/again.pcapng" >"$T/again.out" 2>&1
rc=$?
# (refused, not timed out: DPDK reports a request to Sluice that timed out
# with the same "Operation not permitted")
[ "$rc" != 0 ] && grep -q "Operation not permitted" "$T/again.out" &&
	! grep -q "Fail to recv reply\|Request timed out" "$T/again.out" &&
	ok "a new capture of a port whose capture was killed is refused (DPDK: $(grep -o 'Packet dump enable failed.*' "$T/again.out"))" ||
	ko "a new capture after the kill: exit $rc: $(tail -3 "$T/again.out" | tr '\n' ' ') (not the refusal docs/watching.md documents); Sluice $(state)"
if [ -x "$reset" ]; then
	timeout 60 "$reset" --file-prefix "$prefix" >"$T/reset.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] && ok "sluice-capture-reset: $(tail -1 "$T/reset.out")" || ko "sluice-capture-reset: exit $rc: $(tail -2 "$T/reset.out")"
	# dpdk-dumpcap on both ports (a new dpdk-pdump would reuse the dead
	# one's pool, capture, and crash at its exit: docs/watching.md)
	for p in 0 1; do
		timeout 60 dpdk-dumpcap --file-prefix "$prefix" -i "$p" -c 1000 -w "$T/again$p.pcapng" \
			>"$T/again$p.out" 2>&1 &&
			ok "after the reset dpdk-dumpcap captures port $p again: $(grep -o "Packets received/dropped.*" "$T/again$p.out")" ||
			ko "after the reset, port $p: $(tail -2 "$T/again$p.out" | tr '\n' ' '); Sluice $(state)"
	done
	# A new dpdk-pdump after a killed one reuses the dead one's pool and
	# crashes in rte_mempool_free() at its own exit (DPDK 22.11: the pool's
	# free callback is an address in the dead process; docs/watching.md).
	# Sluice must not care: it runs on and counts.
	timeout 60 dpdk-pdump --file-prefix "$prefix" --no-pci --log-level '*:error' -- \
		--pdump "port=1,queue=*,tx-dev=$T/after.pcap" >"$T/after.out" 2>&1 &
	p=$!
	bg+=("$p")
	for _ in $(seq 300); do big "$T/after.pcap" && break; kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
	kill -INT "$p"
	wait "$p"
	rc=$?
	a=$(txnow)
	sleep 1
	b=$(txnow)
	if alive && [ "$a" -gt 0 ] && [ "$b" -gt "$a" ] 2>/dev/null; then
		ok "a dpdk-pdump after the killed one ended with exit $rc ($( [ "$rc" = 139 ] && echo "its own crash at exit, DPDK's" || echo "no crash this time")); Sluice runs on and counts: tx_packets $a, then $b"
	else
		ko "after the second dpdk-pdump (exit $rc): Sluice $(state), tx_packets '$a' then '$b'"
	fi
else
	ko "no $reset (build it: ninja -C build)"
fi
alive && ok "Sluice runs on after every tool ended ($(state))" || ko "Sluice $(state)"

printf 'stop\nquit\n' >&7
exec 7>&-
# A run that cannot stop waits on a lock a killed tool holds (docs/watching.md).
for _ in $(seq 600); do alive || break; sleep 0.1; done
if alive; then
	ko "Sluice did not exit within 60 s of stop: $(cat /proc/"$pid"/stack 2>/dev/null | head -3 | tr '\n' ' ')(killed)"
	kill -9 "$pid" 2>/dev/null
fi
wait "$pid"
rc=$?
pid=
# The four captures are of the first run.
txp0=$(jq .ports[0].tx_packets "$T/run1.json" 2>/dev/null)
txp1=$(jq .ports[1].tx_packets "$T/run1.json" 2>/dev/null)
prev=-1
for f in cap1.pcapng cap2.pcapng pd1.pcap pd2.pcap; do
	case $f in pd*) txp=$txp1 ;; *) txp=$txp0; prev=${prev} ;; esac
	read -r all good <<<"$(checksums "$T/$f" 3000)"
	[ "$all" -ge 1000 ] && [ "$good" = "$all" ] && ok "$f: tshark: $all frames, $good with good IPv4 and UDP checksums" ||
		ko "$f: tshark: $all frames, $good good"
	read -r nsig nbad nruns inorder minseq maxseq <<<"$(sigs "$T/$f" 3000)"
	if [ "${nbad:-1}" = 0 ] && [ "${nruns:-0}" = 1 ] && [ "${inorder:-0}" = 1 ] &&
		[ "${maxseq:--1}" -lt "${txp:-0}" ]; then
		ok "$f: signatures: $nsig valid, one run, sequences $minseq..$maxseq increasing, below the port's tx_packets $txp"
	else
		ko "$f: signatures: $nsig valid $nbad bad $nruns runs in-order $inorder max $maxseq against tx_packets $txp"
	fi
	eval "min_${f%%.*}=$minseq max_${f%%.*}=$maxseq"
done
# shellcheck disable=SC2154
[ "$min_cap2" -gt "$max_cap1" ] && [ "$min_pd2" -gt "$max_pd1" ] &&
	ok "the second captures come after the first (port 0: $max_cap1 < $min_cap2, port 1: $max_pd1 < $min_pd2)" ||
	ko "capture order: cap1 ..$max_cap1 cap2 $min_cap2.., pd1 ..$max_pd1 pd2 $min_pd2.."
jq -e '.totals.conserved and .totals.mempool_in_use == 0' "$T/run1.json" >/dev/null &&
	ok "the first run: conserved (generated $(jq .totals.generated "$T/run1.json") = tx $(jq .totals.tx_packets "$T/run1.json") + dropped + backlog), every mbuf back, after 5 captures" ||
	ko "the first run: $(jq -c .totals "$T/run1.json" 2>/dev/null)"
[ "$rc" = 0 ] && ! cmp -s "$T/run.json" "$T/run1.json" &&
	jq -e '.totals.conserved and .totals.mempool_in_use == 0' "$T/run.json" >/dev/null &&
	ok "Sluice: exit 0; the second run conserved (generated $(jq .totals.generated "$T/run.json") = tx $(jq .totals.tx_packets "$T/run.json") + dropped + backlog), every mbuf back, after 2 killed captures, a refused one, 2 after the reset and 1 crashed" ||
	ko "Sluice: exit $rc, $(grep total: "$T/run.out" | tail -1) $(tail -1 "$T/run.out")"

echo "test_watch: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
