#!/usr/bin/env bash
# Two builds of Sluice side by side, in one invocation: the workloads of
# bench-gen.sh and bench-xmit.sh, each run alternately with the old and the
# new binary (old, new, old, new, ...), medians and the ratio new/old. Use it
# before and after a change that must not cost the data path anything.
#
# Usage: scripts/bench-compare.sh OLD_BIN [NEW_BIN] [SECONDS] [ROUNDS]   (default new:
#        build/app/sluice/sluice, 2 s, 5 rounds). Build the old one from a
#        worktree: git worktree add /tmp/old REV && meson setup /tmp/old/build /tmp/old
#        && ninja -C /tmp/old/build
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: bench-compare.sh OLD_BIN [NEW_BIN] [SECONDS] [ROUNDS]}
new=${2:-$top/build/app/sluice/sluice}
secs=${3:-2}
rounds=${4:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for b in "$old" "$new"; do [ -x "$b" ] || { echo "bench: $b is not executable" >&2; exit 2; }; done

run() { # BIN LCORES EAL_PORT -- OPTS: Mpps (tx_packets / duration)
	local bin=$1 lcores=$2 port=$3
	shift 3
	"$bin" --no-huge -m 1024 --no-pci --lcores "$lcores" $port --file-prefix slbc$$ \
		--log-level '*:error' -- --duration "$secs" --json "$tmp/r.json" "$@" >/dev/null 2>&1 ||
		{ echo 0; return; }
	jq -r '.totals.tx_packets / .duration_s / 1e6' "$tmp/r.json"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

workloads=(
	"gen: 64 B, 1 flow|0-1|--vdev net_null0|--size 64"
	"gen: 64 B, 1024 flows|0-1|--vdev net_null0|--size 64 --flows 1024"
	"gen: IMIX|0-1|--vdev net_null0|--imix"
	"gen: IMIX, 1024 flows|0-1|--vdev net_null0|--imix --flows 1024"
	"gen: TCP 64 B, 1024 flows|0-1|--vdev net_null0|--tcp --size 64 --flows 1024"
	"gen: 2 lcores, 1 queue|0,(1-2)@(0-1)|--vdev net_null0|--size 64 --flows 1024 --map 1-2:0.0 --lltx on"
	"xmit: exclusive, engine|0-1|--vdev net_null0|--xmit engine"
	"xmit: exclusive, direct|0-1|--vdev net_null0|--xmit direct"
	"xmit: sim400G locked N=2|0,(1-2)@(0-1)||--sim 400G --map 1-2:0.0"
	"xmit: sim400G spin N=2|0,(1-2)@(0-1)||--sim 400G --map 1-2:0.0 --lock spin"
	"xmit: sim400G locked N=4|0,(1-4)@(0-1)||--sim 400G --map 1-4:0.0"
	"xmit: null lltx N=2|0,(1-2)@(0-1)|--vdev net_null0|--map 1-2:0.0 --lltx on"
)
echo "# old: $old"
echo "# new: $new"
echo "# ${secs}s runs, median of $rounds, old and new alternated ($(nproc) CPUs, $(date -u +%F))"
printf "%-28s %10s %10s %8s\n" workload "old Mpps" "new Mpps" new/old
for w in "${workloads[@]}"; do
	IFS='|' read -r name lcores port opts <<<"$w"
	: >"$tmp/o"
	: >"$tmp/n"
	for ((i = 0; i < rounds; i++)); do
		# shellcheck disable=SC2086
		run "$old" "$lcores" "$port" $opts >>"$tmp/o"
		# shellcheck disable=SC2086
		run "$new" "$lcores" "$port" $opts >>"$tmp/n"
	done
	o=$(median <"$tmp/o")
	n=$(median <"$tmp/n")
	printf "%-28s %10.2f %10.2f %8.3f\n" "$name" "$o" "$n" "$(echo "$n / $o" | bc -l)"
done
