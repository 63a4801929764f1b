#!/usr/bin/env bash
# Generator benchmark: testpmd txonly and Sluice on the same vdev (net_null),
# one worker lcore each, in one invocation, alternated, and the ratio.
#
#   64 B, one flow:       testpmd --txpkts=60          vs  sluice --size 64
#   the same unsigned:    testpmd --txpkts=60          vs  sluice --size 64 --sign off
#   64 B, many flows:     testpmd --txonly-multi-flow  vs  sluice --flows 1024
#   IMIX 7:4:1:           testpmd cannot mix sizes per packet; Sluice alone
#   64 B, 1000 flows of the flow table (each its own stream, one port), and
#   a VXLAN header stack: Sluice alone, as a ratio to its own 1 flow
#
# Sizes: Sluice counts the FCS (64 -> 60 bytes handed to the PMD); testpmd's
# --txpkts is the mbuf length, so --txpkts=60 is the same frame.
# Usage: scripts/bench-gen.sh [SECONDS] [ROUNDS]   (default 5 3; SECONDS >= 3: testpmd's
# first per-second line is dropped, and a median needs some left)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
secs=${1:-5}
[ "$secs" -ge 3 ] 2>/dev/null || { echo "bench: SECONDS must be a whole number >= 3" >&2; exit 2; }
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
eal=(--no-huge -m 1024 --no-pci -l 0-1 --vdev net_null0 --log-level '*:error')

command -v dpdk-testpmd >/dev/null || { echo "bench: dpdk-testpmd not found (apt install dpdk)" >&2; exit 1; }

# testpmd: median of its per-second Tx-pps lines, first one dropped (start-up).
testpmd() {
	{ timeout -s INT $((secs + 3)) dpdk-testpmd "${eal[@]}" --file-prefix slbtp$$ -- \
		--forward-mode=txonly --stats-period 1 --total-num-mbufs 16384 \
		--burst 32 "$@" 2>/dev/null </dev/null || true; } |
		awk '/Tx-pps:/ { for (i = 1; i <= NF; i++) if ($i == "Tx-pps:") print $(i + 1) }' |
		tail -n +2 | head -n "$secs" | sort -g | awk '{a[NR]=$1} END {printf "%.3f\n", a[int((NR+1)/2)]/1e6}'
}

sluice() {
	"$bin" "${eal[@]}" --file-prefix slbsl$$ -- --duration "$secs" --json "$tmp/s.json" "$@" \
		>/dev/null 2>&1
	jq -r '.totals.tx_pps / 1e6 | . * 1000 | round / 1000' "$tmp/s.json"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "# Sluice vs testpmd txonly, net_null, 1 worker lcore, ${secs}s runs, median of $rounds ($(nproc) CPUs, $(date -u +%F))"
printf "%-24s %12s %12s %8s\n" workload "testpmd Mpps" "sluice Mpps" ratio
runs=()
for ((k = 0; k < 1000; k++)); do
	echo "flow add f$k port 0 src 198.18.$((k / 250)).$((k % 250 + 1)) dst 198.19.0.1 sport $((1000 + k))"
done >"$tmp/table.txt"
echo start >>"$tmp/table.txt"
printf '%s\n' "flow add vx port 0 stack eth/ipv4/udp/vxlan(vni=5000)/eth/ipv4/udp size 110" start \
	>"$tmp/vxlan.txt"
single=
for w in single unsigned multi imix table vxlan; do
	: >"$tmp/t"
	: >"$tmp/s"
	for ((i = 0; i < rounds; i++)); do
		case $w in
		single)
			testpmd --txpkts=60 >>"$tmp/t"
			sluice --size 64 >>"$tmp/s" ;;
		unsigned)
			testpmd --txpkts=60 >>"$tmp/t"
			sluice --size 64 --sign off >>"$tmp/s" ;;
		multi)
			testpmd --txpkts=60 --txonly-multi-flow >>"$tmp/t"
			sluice --size 64 --flows 1024 >>"$tmp/s" ;;
		imix)
			echo 0 >>"$tmp/t"
			sluice --imix >>"$tmp/s" ;;
		table)
			echo 0 >>"$tmp/t"
			sluice --cmdline-file "$tmp/table.txt" >>"$tmp/s" ;;
		vxlan)
			echo 0 >>"$tmp/t"
			sluice --cmdline-file "$tmp/vxlan.txt" >>"$tmp/s" ;;
		esac
	done
	t=$(median <"$tmp/t")
	s=$(median <"$tmp/s")
	case $w in
	single) name="64 B, 1 flow" ;;
	unsigned) name="64 B, 1 flow, unsigned" ;;
	multi) name="64 B, 1024 flows" ;;
	imix) name="IMIX 64/594/1518 7:4:1" ;;
	table) name="64 B, 1000 table flows" ;;
	vxlan) name="110 B VXLAN stack" ;;
	esac
	[ "$w" = single ] && single=$s
	runs_t=$(tr '\n' ' ' <"$tmp/t" | head -c 200)
	if [ "$w" = table ] || [ "$w" = vxlan ]; then
		printf "%-24s %12s %12s %8s  (%.2f of 1 flow)\n" "$name" "n/a" "$s" "-" \
			"$(echo "$s / $single" | bc -l)"
		runs_t="n/a"
	elif [ -z "$t" ] || awk -v t="$t" 'BEGIN { exit !(t + 0 == 0) }'; then
		printf "%-24s %12s %12s %8s\n" "$name" "n/a" "$s" "-"
		runs_t="n/a (testpmd cannot mix sizes per packet)"
	else
		printf "%-24s %12s %12s %8.2f\n" "$name" "$t" "$s" "$(echo "$s / $t" | bc -l)"
	fi
	runs+=("  $name runs: testpmd ${runs_t% }; sluice $(tr '\n' ' ' <"$tmp/s" | head -c 200 | sed 's/ $//')")
done
printf "%s\n" "${runs[@]}"
