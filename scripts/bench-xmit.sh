#!/usr/bin/env bash
# TX engine benchmark: one invocation, the same workload in every queue mode.
#
#  A. exclusive queue, 1 lcore, net_null: the engine (sl_xmit) against a plain
#     rte_eth_tx_burst() loop on the same packets (--xmit direct); alternated
#     rounds, median of each, ratio (target: within 3 %).
#  B. one queue shared by N lcores (N = 2, 4, 8; 4 and 8 outnumber the CPUs
#     when the machine has 2): locked (trylock + backlog), spin (blocking
#     baseline), lltx (driver-side locking), on the simulated NIC at 400G
#     (the CPU is the limit), at 10G (the wire is the limit: the ring fills
#     and producers are back-pressured) and on net_null (--lltx on for
#     lltx). The sim's two LLTX personalities each: lltx=on (coarse: its
#     own trylock over the whole transmit) and lltx=fine (descriptors
#     reserved with a CAS, filled outside any lock); for each, lltx mode
#     against the engine lock on top of it (locked+drv, --lltx off).
#     Each cell's modes run alternately, round by round, so a burst of load
#     from elsewhere hits them alike; the load average is printed with the
#     table. Worker lcore i runs on CPU (i - 1) mod CPUs (pinned).
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

echo "## B. one queue shared by N lcores, 64 B (median of $rounds runs each, modes alternated)"
echo "locked: trylock (the worker keeps a burst while the lock is held and sends it with its"
echo "next; else a bounded wait, then the backlog) on a driver without its own lock; spin:"
echo "blocking spinlock; lltx: no engine lock, the driver's own locking; locked+drv: engine"
echo "lock on top of an LLTX driver (what LLTX saves). The sim's LLTX personalities: coarse"
echo "(lltx=on, a trylock over its whole transmit) and fine (lltx=fine, CAS-reserved"
echo "descriptors filled concurrently); net_null is lock-free (lltx = --lltx on)."
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-8s %2s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n" "" "" "" "" coarse coarse fine fine \
	locked/ coarse fine
printf "%-8s %2s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n" driver N locked spin lltx lck+drv \
	lltx lck+drv spin lx/l+d lx/l+d
ratio() { if [ "$2" = - ]; then echo -; else printf "%.2f" "$(echo "$1 / $2" | bc -l)"; fi; }
for drv in sim400G sim10G null; do
	for n in 2 4 8; do
		# Each worker pinned, round-robin over the CPUs: floating lcores
		# let the kernel put two on one CPU with the other idle now and
		# then, and the runs of one mode came out at 30 or at 60 Mpps.
		lc=0@0
		for ((i = 1; i <= n; i++)); do lc+=",$i@$(((i - 1) % $(nproc)))"; done
		map="1-$n:0.0"
		if [ "${drv#sim}" != "$drv" ]; then
			sp=${drv#sim}
			modes=("$sp|" "$sp|--lock spin" "$sp,lltx=on|" "$sp,lltx=on|--lltx off"
			       "$sp,lltx=fine|" "$sp,lltx=fine|--lltx off")
		else
			# net_null has no lock of its own and is MT-safe: lltx is lock-free
			modes=("|--lltx off" "|--lltx off --lock spin" "|--lltx on")
		fi
		for ((m = 0; m < ${#modes[@]}; m++)); do : >"$tmp/m$m"; done
		for ((i = 0; i < rounds; i++)); do
			for ((m = 0; m < ${#modes[@]}; m++)); do
				sim=${modes[m]%%|*}
				# shellcheck disable=SC2086 # the options are words
				if [ -n "$sim" ]; then
					run "$lc" "" --sim "$sim" --map "$map" ${modes[m]#*|} >>"$tmp/m$m"
				else
					run "$lc" "--vdev net_null0" --map "$map" ${modes[m]#*|} >>"$tmp/m$m"
				fi
			done
		done
		v=()
		for ((m = 0; m < 6; m++)); do
			if [ $m -lt ${#modes[@]} ]; then v+=("$(median <"$tmp/m$m")"); else v+=(-); fi
		done
		# net_null: the engine lock on it is plain locked
		[ "${drv#sim}" != "$drv" ] || v[3]=${v[0]}
		printf "%-8s %2s" "$drv" "$n"
		for ((m = 0; m < 6; m++)); do
			if [ "${v[m]}" = - ]; then printf " %7s" -; else printf " %7.2f" "${v[m]}"; fi
		done
		printf " %7s %7s %7s\n" "$(ratio "${v[0]}" "${v[1]}")" "$(ratio "${v[2]}" "${v[3]}")" \
			"$(ratio "${v[4]}" "${v[5]}")"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "(Mpps = packets the driver took / run time. $(nproc) CPUs: N > $(nproc) means more lcores than CPUs.)"
