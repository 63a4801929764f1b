#!/usr/bin/env bash
# TX engine benchmark: one invocation, the same workload in every queue mode.
#
#  A. exclusive queue, 1 lcore, net_null: the engine (sl_xmit) against a plain
#     rte_eth_tx_burst() loop on the same packets (--xmit direct); alternated
#     rounds, median of each, ratio (target: within 3 %).
#  B. one queue shared by N lcores (N = 2, 4, 8; 4 and 8 outnumber the CPUs
#     when the machine has 2): locked (trylock + backlog), spin (blocking
#     baseline), lltx (driver-side locking), on the simulated NIC at 400G
#     (the CPU is the limit; lltx=on for lltx), at 10G (the wire is the
#     limit: the ring fills and producers are back-pressured) and on
#     net_null (--lltx on for lltx).
#
# Usage: scripts/bench-xmit.sh [SECONDS_PER_RUN] [ROUNDS]   (default 3 3)
# Prints Mpps per run and the ratios. Figures are from this machine, now.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
secs=${1:-3}
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$bin" ] || { echo "bench: build first (scripts/setup.sh)" >&2; exit 1; }

# run NAME LCORES EAL_PORT -- sluice options ; prints Mpps (tx_packets / duration)
run() {
	local lcores=$1 port=$2
	shift 2
	local json=$tmp/r.json
	"$bin" --no-huge -m 1024 --no-pci --lcores "$lcores" $port --file-prefix slbench$$ \
		--log-level '*:error' -- --duration "$secs" --json "$json" "$@" >/dev/null 2>&1 ||
		{ echo "bench: run failed: $*" >&2; echo 0; return; }
	jq -r '(if .totals.tx_packets > 0 then .totals.tx_packets else .totals.generated end)
		/ .duration_s / 1e6' "$json"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "# Sluice TX engine benchmark ($(nproc) CPUs, ${secs}s per run, $(date -u +%F))"
echo
echo "## A. exclusive queue, 1 lcore, net_null, 64 B"
: >"$tmp/eng"
: >"$tmp/dir"
for ((i = 0; i < rounds; i++)); do
	run 0-1 "--vdev net_null0" --xmit direct >>"$tmp/dir"
	run 0-1 "--vdev net_null0" --xmit engine >>"$tmp/eng"
done
d=$(median <"$tmp/dir")
e=$(median <"$tmp/eng")
printf "plain rte_eth_tx_burst loop  %8.2f Mpps   (runs: %s)\n" "$d" "$(tr '\n' ' ' <"$tmp/dir")"
printf "sl_xmit, exclusive           %8.2f Mpps   (runs: %s)\n" "$e" "$(tr '\n' ' ' <"$tmp/eng")"
printf "ratio engine/plain           %8.3f\n" "$(echo "$e / $d" | bc -l)"
echo

echo "## B. one queue shared by N lcores, 64 B (median of $rounds runs each)"
echo "locked: trylock + backlog on a driver without its own lock; spin: blocking spinlock;"
echo "lltx: no engine lock, the driver's own trylock; locked+drv: engine lock on top of the"
echo "LLTX driver's own lock (what LLTX saves)."
printf "%-8s %3s %9s %9s %9s %10s %12s %12s\n" driver N locked spin lltx locked+drv locked/spin lltx/lck+drv
med() { # run the same thing $rounds times, print the median
	local i
	for ((i = 0; i < rounds; i++)); do run "$@"; done | median
}
for drv in sim400G sim10G null; do
	for n in 2 4 8; do
		lc="0,(1-$n)@(0-$(($(nproc) - 1)))"
		map="1-$n:0.0"
		if [ "${drv#sim}" != "$drv" ]; then
			sp=${drv#sim}
			l=$(med "$lc" "" --sim "$sp" --map "$map")
			s=$(med "$lc" "" --sim "$sp" --map "$map" --lock spin)
			x=$(med "$lc" "" --sim "$sp,lltx=on" --map "$map")
			d=$(med "$lc" "" --sim "$sp,lltx=on" --map "$map" --lltx off)
		else
			# net_null has no lock of its own and is MT-safe: lltx is lock-free
			l=$(med "$lc" "--vdev net_null0" --map "$map" --lltx off)
			s=$(med "$lc" "--vdev net_null0" --map "$map" --lltx off --lock spin)
			x=$(med "$lc" "--vdev net_null0" --map "$map" --lltx on)
			d=$l
		fi
		printf "%-8s %3s %9.2f %9.2f %9.2f %10.2f %12.2f %12.2f\n" "$drv" "$n" "$l" "$s" "$x" "$d" \
			"$(echo "$l / $s" | bc -l)" "$(echo "$x / $d" | bc -l)"
	done
done
echo
echo "(Mpps = packets the driver took / run time. $(nproc) CPUs: N > $(nproc) means more lcores than CPUs.)"
