#!/usr/bin/env bash
# Receive-side benchmark, one invocation, figures side by side:
#
#  1. per frame size (64 B, 1518 B), one TX lcore, unpaced:
#       TX only          net_null, nothing received
#       TX + analysis    net_ring0 loops TX into its own RX; one dedicated RX
#                        lcore analyzes every frame (signature, window, latency)
#     with the frames lost (must be 0), the analyzer's own cost per frame
#     (TSC cycles inside sl_rx_analyze(), as ns) and the rate one RX lcore
#     could analyze at that cost (1e9 / ns);
#  2. the analyzer's cost per frame with 1, 100 and 4096 flows (the flow
#     table, 64 B), unpaced and at 4 Mpps shared by the flows (paced flows
#     interleave frame by frame: every frame another flow's state);
#  3. self-calibration: the loopback's latency at a low rate (100 kpps): the
#     floor that generation, the ring and the analysis add, with no DUT;
#  4. scripts/bench-gen.sh: TX with signatures against testpmd txonly.
#
# Usage: scripts/bench-rx.sh [SECONDS] [ROUNDS]   (default 3 3; medians)
#        scripts/bench-rx.sh --calibrate [SECONDS]  (part 2 only, default 3 s:
#        the latency floor to compare a DUT's latency with, docs/measure.md)
# On a 2-CPU machine the TX and RX lcores get one CPU each (the main lcore
# shares CPU 0 with the RX lcore and sleeps). Figures vary with the machine's
# load: compare columns of one run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
only_calibrate=0
if [ "${1:-}" = --calibrate ]; then
	only_calibrate=1
	shift
fi
secs=${1:-3}
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "/var/run/dpdk/slbrx$$"' EXIT
[ -x "$bin" ] || { echo "bench: build first (scripts/setup.sh)" >&2; exit 1; }
eal=(--no-huge -m 1024 --no-pci --log-level '*:error' --file-prefix slbrx$$)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
json() { jq -r "$1" "$tmp/r.json"; }

txonly() { # SIZE -> Mpps
	"$bin" "${eal[@]}" -l 0-1 --vdev net_null0 -- --size "$1" --duration "$secs" \
		--json "$tmp/r.json" >/dev/null 2>&1
	json '.totals.tx_pps / 1e6'
}
loop() { # SIZE [OPTS] -> writes $tmp/r.json
	local sz=$1
	shift
	"$bin" "${eal[@]}" --lcores '0,1@1,2@0' --vdev net_ring0 -- --rx 0 --map 1:0.0 \
		--size "$sz" --json "$tmp/r.json" "$@" >/dev/null 2>&1 || true
}

calibrate() { # the loopback at a low rate, no DUT: the latency floor
	echo "# Self-calibration: loopback latency at 100 kpps, 64 B ($((secs)) s), the floor Sluice adds"
	loop 64 --rate 100kpps --duration "$secs"
	json '.streams[0].latency_ns | "min \(.min/1000) us  p50 \(.p50/1000) us  p99 \(.p99/1000) us  p99.9 \(.p99_9/1000) us  max \(.max/1000) us  jitter \(.jitter/1000 * 1000 | round / 1000) us  (clock \(.clock), \(.samples) samples\(if .backwards > 0 then ", \(.backwards) ran backwards" else "" end))"'
}
if [ "$only_calibrate" = 1 ]; then
	calibrate
	exit
fi

echo "# Sluice receive side, net_ring0 loopback, ${secs}s runs, median of $rounds ($(nproc) CPUs, $(date -u +%F))"
printf "%-6s %10s %12s %8s %12s %14s\n" size "TX Mpps" "TX+RX Mpps" lost "ns/frame" "RX lcore Mpps"
for sz in 64 1518; do
	: >"$tmp/a"; : >"$tmp/b"; : >"$tmp/l"; : >"$tmp/c"
	for ((i = 0; i < rounds; i++)); do
		txonly "$sz" >>"$tmp/a"
		loop "$sz" --duration "$secs"
		json '.ports[0].rx_packets / .duration_s / 1e6' >>"$tmp/b"
		json '.rx.lost' >>"$tmp/l"
		json '.ports[0].rx_ns_per_frame' >>"$tmp/c"
	done
	a=$(median <"$tmp/a"); b=$(median <"$tmp/b"); c=$(median <"$tmp/c")
	printf "%-6s %10.2f %12.2f %8s %12.1f %14.1f\n" "$sz" "$a" "$b" "$(sort -g "$tmp/l" | tail -1)" \
		"$c" "$(echo "1000 / $c" | bc -l)"
done
echo "(TX+RX Mpps: frames analyzed per second of the run; lost: the worst round;"
echo " RX lcore Mpps: what one RX lcore could analyze at that cost per frame)"

echo
echo "# The analyzer's cost per frame by the number of flows (64 B; unpaced, and 4 Mpps shared)"
printf "%-6s %14s %14s %14s %14s %8s\n" flows "unpaced Mpps" "ns/frame" "4Mpps: Mpps" "ns/frame" lost
for nf in 1 100 4096; do
	for ((k = 0; k < nf; k++)); do
		echo "flow add f$k port 0 src 198.18.$((k / 250)).$((k % 250 + 1)) dst 198.19.0.1 sport $((1000 + k))"
	done >"$tmp/flows.txt"
	echo start >>"$tmp/flows.txt"
	: >"$tmp/b"; : >"$tmp/c"; : >"$tmp/d"; : >"$tmp/e"; : >"$tmp/l"
	for ((i = 0; i < rounds; i++)); do
		loop 64 --duration "$secs" --cmdline-file "$tmp/flows.txt"
		json '.ports[0].rx_packets / .duration_s / 1e6' >>"$tmp/b"
		json '.ports[0].rx_ns_per_frame' >>"$tmp/c"
		json '.rx.lost' >>"$tmp/l"
		loop 64 --duration "$secs" --rate 4Mpps --cmdline-file "$tmp/flows.txt"
		json '.ports[0].rx_packets / .duration_s / 1e6' >>"$tmp/d"
		json '.ports[0].rx_ns_per_frame' >>"$tmp/e"
		json '.rx.lost' >>"$tmp/l"
	done
	printf "%-6s %14.2f %14.1f %14.2f %14.1f %8s\n" "$nf" "$(median <"$tmp/b")" "$(median <"$tmp/c")" \
		"$(median <"$tmp/d")" "$(median <"$tmp/e")" "$(sort -g "$tmp/l" | tail -1)"
done
echo "(ns/frame: TSC cycles inside sl_rx_analyze() per frame, as ns; paced frames come a few"
echo " a burst, so each burst's fixed cost weighs more; lost: the worst run)"

echo
calibrate

echo
"$top/scripts/bench-gen.sh" "$((secs < 3 ? 3 : secs))" "$rounds"
