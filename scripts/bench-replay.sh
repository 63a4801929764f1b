#!/usr/bin/env bash
# bench-replay.sh - pcap replay, Sluice against tcpreplay (Debian's), side by
# side in one run on the veth testbed (scripts/testbed.sh: Sluice's port is
# a veth end in the root namespace, net_af_packet; the kernel peer in its own
# namespace). Needs root, tcpreplay, tcpdump, python3-scapy.
#
#  1. Timing: a capture of 5000 frames, 100 us apart with +-30 us of jitter
#     (10 kpps), replayed at its own timing by each tool, captured at the
#     peer by tcpdump (nanosecond stamps): each frame's error against the
#     capture's schedule, its start taken as the median offset
#     (app/test/py/replay_check.py): max, p99, mean, in us.
#  2. Rate: a capture of 64-byte frames replayed at fixed rates, 2 s each,
#     rising; the peer's kernel RX counter says what arrived: the highest
#     rate at which every frame arrived, per tool; and each tool's top
#     speed (its own figure) with what the peer lost there.
#
# Usage: scripts/bench-replay.sh [ROUNDS]   (default 3; medians of part 1)
# Figures vary with the machine's load: compare the columns of one run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
PY=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
rounds=${1:-3}
export SL_TB_PREFIX=slrb
tb() { "$top/scripts/testbed.sh" "$@"; }
tmp=$(mktemp -d)
cleanup() { tb down >/dev/null 2>&1 || true; rm -rf "$tmp" /var/run/dpdk/slrb$$; }
trap cleanup EXIT
for c in tcpreplay tcpdump; do
	command -v "$c" >/dev/null || { echo "bench-replay: $c is missing: apt-get install $c" >&2; exit 1; }
done
[ -x "$bin" ] || { echo "bench-replay: build first (scripts/setup.sh)" >&2; exit 1; }

tb up >/dev/null
gen=slrb-gen peer=slrb-peer p0=slrb-p0
mac=$(tb dst-mac)
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
rx() { ip netns exec "$peer" cat "/sys/class/net/$p0/statistics/rx_packets"; }

"$PY" - "$tmp" "$mac" <<'EOF'
import random, sys
from scapy.all import Ether, IP, UDP, Raw, wrpcap
t, mac = sys.argv[1], sys.argv[2]
random.seed(11)
pk, ts = [], 1.0
for i in range(5000):
    p = Ether(dst=mac, src="02:00:00:00:00:01") / IP(src="198.18.0.1", dst="198.18.0.2") / \
        UDP(sport=1000 + i % 16, dport=9) / Raw(bytes([i % 256]) * (18 + i % 64))
    p.time = ts
    ts += 100e-6 + random.uniform(-30e-6, 30e-6)
    pk.append(p)
wrpcap(t + "/timing.pcap", pk)
pk = []
for i in range(1000):
    p = Ether(dst=mac, src="02:00:00:00:00:01") / IP(src="198.18.0.1", dst="198.18.0.2") / \
        UDP(sport=1000 + i % 16, dport=9) / Raw(b"\0" * 18)
    p.time = 1.0 + i * 1e-6
    pk.append(p)
wrpcap(t + "/small.pcap", pk)
EOF

sluice() { # sluice ARGS...: one run on the veth end, JSON in $tmp/s.json
	"$bin" --no-huge -m 512 --no-pci -l 0-1 --log-level '*:error' --file-prefix "slrb$$" \
		--vdev "net_af_packet0,iface=$gen" -- "$@" --json "$tmp/s.json" >/dev/null 2>&1
}
capture() { # capture CMD...: the peer's capture of what CMD sends, in $tmp/cap.pcap
	rm -f "$tmp/cap.pcap"
	ip netns exec "$peer" tcpdump -i "$p0" -n -B 65536 --time-stamp-precision nano -U \
		-w "$tmp/cap.pcap" udp >/dev/null 2>&1 &
	local tp=$!
	sleep 1
	"$@"
	sleep 0.5
	kill -INT "$tp"
	wait "$tp" 2>/dev/null || true
}

echo "# 1. Timing: 5000 frames at 10 kpps with +-30 us jitter, at their own timing;"
echo "#    each frame's error against the schedule at the kernel peer (tcpdump), us"
printf "%-10s %10s %10s %10s %8s\n" tool max p99 mean frames
for tool in sluice tcpreplay; do : >"$tmp/$tool.max"; : >"$tmp/$tool.p99"; : >"$tmp/$tool.mean"; : >"$tmp/$tool.n"; done
for ((r = 0; r < rounds; r++)); do
	for tool in sluice tcpreplay; do
		if [ $tool = sluice ]; then
			capture sluice --pcap "$tmp/timing.pcap"
		else
			capture tcpreplay -q -i "$gen" "$tmp/timing.pcap" >/dev/null 2>&1
		fi
		read -r _ mx p99 mean <<<"$("$PY" "$top/app/test/py/replay_check.py" "$tmp/timing.pcap" \
			"$tmp/cap.pcap" 1 1 2>/dev/null | grep '^anchored_err_us')"
		echo "$mx" >>"$tmp/$tool.max"; echo "$p99" >>"$tmp/$tool.p99"; echo "$mean" >>"$tmp/$tool.mean"
		"$PY" "$top/app/test/py/replay_check.py" "$tmp/timing.pcap" "$tmp/cap.pcap" 0 1 2>/dev/null |
			awk '/^frames/ { print $3 }' >>"$tmp/$tool.n"
	done
done
for tool in sluice tcpreplay; do
	printf "%-10s %10s %10s %10s %8s\n" $tool "$(median <"$tmp/$tool.max")" "$(median <"$tmp/$tool.p99")" \
		"$(median <"$tmp/$tool.mean")" "$(median <"$tmp/$tool.n")"
done
echo "(medians of $rounds rounds; frames: what the peer's capture holds of 5000)"

echo
echo "# 2. Rate: 64-byte frames, 2 s asked at each rate: the rate each tool reached"
echo "#    (kpps, its own figure), and ! where the peer's RX counter missed frames"
printf "%-10s" "asked"
rates="50 100 200 300 400 600 800"
for k in $rates; do printf "%9s" "$k"; done
echo
for tool in sluice tcpreplay; do
	printf "%-10s" "$tool"
	best=0
	for k in $rates; do
		n=$((k * 2000))
		a=$(rx)
		if [ $tool = sluice ]; then
			sluice --flow "r port 0 pcap $tmp/small.pcap rate ${k}kpps loop $((n / 1000))"
			got_rate=$(jq -r '.totals.tx_pps / 1000 | floor' "$tmp/s.json")
		else
			got_rate=$(tcpreplay -i "$gen" --pps=$((k * 1000)) --loop=$((n / 1000)) \
				"$tmp/small.pcap" 2>&1 | grep -o 'Rated: .* pps' | awk '{print int($(NF-1) / 1000)}')
		fi
		sleep 0.3
		got=$(($(rx) - a))
		mark=" "
		[ "$got" -ge "$n" ] || mark="!"
		printf "%8s%s" "$got_rate" "$mark"
		[ "$got" -ge "$n" ] && [ "$got_rate" -gt "$best" ] && best=$got_rate
	done
	echo "  highest with every frame: ${best} kpps"
done
echo
echo "# Top speed, 2,000,000 frames of 64 bytes"
a=$(rx)
sluice --pcap "$tmp/small.pcap" --pcap-speed max --pcap-loop 2000
sleep 0.3
printf "%-10s %12s pps sent, %s%% received by the peer\n" sluice \
	"$(jq -r '.totals.tx_pps | floor' "$tmp/s.json")" "$((100 * ($(rx) - a) / 2000000))"
a=$(rx)
out=$(tcpreplay -i "$gen" --topspeed --loop=2000 "$tmp/small.pcap" 2>&1)
sleep 0.3
printf "%-10s %12s pps sent, %s%% received by the peer\n" tcpreplay \
	"$(grep -o 'Rated: [0-9.]* Bps, [0-9.]* Mbps, [0-9.]* pps' <<<"$out" | awk '{print int($(NF-1))}')" \
	"$((100 * ($(rx) - a) / 2000000))"
