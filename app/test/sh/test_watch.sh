#!/usr/bin/env bash
# test_watch.sh - DPDK's own tools watch a running Sluice (they are secondary
# processes: the run needs real hugepages). sl-nic.sh reserves and mounts a
# few (and --clear puts the machine back); without root or hugetlbfs, SKIP.
#  - dpdk-dumpcap captures 1000 frames of the run; tshark decodes them with
#    good IPv4 and UDP checksums, and their signatures (decoded by the tests'
#    own app/test/py/slsig.py) are valid, of this run, in order;
#  - dpdk-proc-info --stats reads the port's counters;
#  - Sluice's conservation still holds, and the capture's end leaves it running.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
nic=$top/scripts/sl-nic.sh
T=$(mktemp -d)
pass=0 fail=0 skip=0
prefix=slw$$
ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }
cleanup() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
	wait 2>/dev/null
	"$nic" hugepages --clear >/dev/null 2>&1
	rm -rf "$T" "/var/run/dpdk/$prefix"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ] || ! grep -qw hugetlbfs /proc/filesystems || ! command -v dpdk-dumpcap >/dev/null; then
	echo "SKIP - watching tools: needs root, hugetlbfs and dpdk-dumpcap"
	echo "test_watch: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
if ! "$nic" hugepages 256M >"$T/huge.out" 2>&1; then
	echo "SKIP - watching tools: no hugepages could be reserved: $(tail -1 "$T/huge.out")"
	echo "test_watch: 0 passed, 0 failed, 1 skipped"
	exit 0
fi

timeout 60 "$bin" -m 128 --no-pci -l 0-1 --vdev net_null0 --file-prefix "$prefix" \
	--log-level '*:error' -- --duration 6 --rate 500kpps --json "$T/run.json" >"$T/run.out" 2>&1 &
pid=$!
for _ in $(seq 50); do [ -S "/var/run/dpdk/$prefix/mp_socket" ] && break; sleep 0.1; done
sleep 1
timeout 20 dpdk-dumpcap --file-prefix "$prefix" -i 0 -c 1000 -w "$T/cap.pcapng" >"$T/dump.out" 2>&1 &&
	ok "dpdk-dumpcap attached and captured: $(grep -o "Packets received/dropped.*" "$T/dump.out")" ||
	ko "dpdk-dumpcap: $(tail -2 "$T/dump.out")"
timeout 20 dpdk-proc-info --file-prefix "$prefix" -- --stats >"$T/proc.out" 2>&1
tx=$(awk '/TX-packets:/ {print $2; exit}' "$T/proc.out")
if [ -n "$tx" ] && [ "$tx" -gt 0 ] 2>/dev/null; then
	ok "dpdk-proc-info --stats: port 0 TX-packets $tx"
else
	ko "dpdk-proc-info --stats: $(grep -m2 -i "tx-packets\|error" "$T/proc.out")"
fi
kill -0 "$pid" 2>/dev/null && ok "Sluice runs on after the tools ended" || ko "Sluice ended early"
wait "$pid"
rc=$?
pid=
good=$(tshark -r "$T/cap.pcapng" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
	-Y 'ip.checksum.status == "Good" && udp.checksum.status == "Good"' 2>/dev/null | wc -l)
all=$(tshark -r "$T/cap.pcapng" 2>/dev/null | wc -l)
[ "$all" -ge 1000 ] && [ "$good" = "$all" ] && ok "tshark: $all frames, $good with good IPv4 and UDP checksums" ||
	ko "tshark: $all frames, $good good"
tshark -r "$T/cap.pcapng" -T fields -e udp.payload 2>/dev/null >"$T/payloads"
sig=$(SL_TEST_PY="$top/app/test/py" python3 - "$T/payloads" <<'PY'
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
print(len(seqs), bad, len(runs), int(all(a < b for a, b in zip(seqs, seqs[1:]))), max(seqs) if seqs else -1)
PY
)
read -r nsig nbad nruns inorder maxseq <<<"$sig"
txp=$(jq .totals.tx_packets "$T/run.json" 2>/dev/null)
if [ "${nbad:-1}" = 0 ] && [ "${nruns:-0}" = 1 ] && [ "${inorder:-0}" = 1 ] && [ "${maxseq:--1}" -lt "${txp:-0}" ]; then
	ok "signatures: $nsig valid, one run, sequences increasing, all below tx_packets $txp (a subsequence of what was sent)"
else
	ko "signatures: $sig (count bad runs in-order max) against tx_packets $txp"
fi
[ "$rc" = 0 ] && jq -e '.totals.conserved and .totals.mempool_in_use == 0' "$T/run.json" >/dev/null &&
	ok "Sluice: exit 0, conserved, every mbuf back, with the capture attached" ||
	ko "Sluice: exit $rc, $(tail -1 "$T/run.out")"

echo "test_watch: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
