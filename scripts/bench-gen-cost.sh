#!/usr/bin/env bash
# Generator cost per frame, load-proof: scripts/bench-gen-cost.c built against
# this tree's lib/gen (and an older tree's, to compare), each run ROUNDS times
# alternately; prints cycles per frame of sl_gen_burst() (the minimum over
# 200,000 bursts of 32 per stream). The trees must be built (build/).
#
# Usage: scripts/bench-gen-cost.sh [OLD_TREE] [ROUNDS]   (default: this tree only, 2)
#   e.g. git -C . archive main | tar -x -C /tmp/old && meson setup /tmp/old/build /tmp/old &&
#        ninja -C /tmp/old/build && scripts/bench-gen-cost.sh /tmp/old
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
old=${1:-}
rounds=${2:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # TREE OUT
	local t=$1 d=
	grep -q sl_gen_share "$t/lib/gen/sl_gen.h" && d=-DHAVE_SHARE
	[ -f "$t/build/lib/gen/libsl_gen.a" ] || { echo "bench: build $t first" >&2; exit 1; }
	# shellcheck disable=SC2046
	gcc -O3 $d -I"$t/lib/gen" -I"$t/lib/sig" -I"$t/lib/wire" $(pkg-config --cflags libdpdk) \
		"$top/scripts/bench-gen-cost.c" "$t/build/lib/gen/libsl_gen.a" -o "$2" \
		$(pkg-config --libs libdpdk)
}
run() { "$1" --no-huge -m 256 --no-pci -l 1 --file-prefix slgc$$ --log-level '*:error' 2>/dev/null; }

build "$top" "$tmp/bin-new"
[ -n "$old" ] && build "$old" "$tmp/bin-old"
echo "# sl_gen_burst() cycles per frame, min of 200,000 bursts of 32 ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $(date -u +%F))"
for ((i = 0; i < rounds; i++)); do
	if [ -n "$old" ]; then
		run "$tmp/bin-old" >"$tmp/res-o$i"
	fi
	run "$tmp/bin-new" >"$tmp/res-n$i"
done
if [ -n "$old" ]; then
	printf "%-36s %s\n" stream "old (per round) | new (per round)"
	paste -d'|' "$tmp"/res-o* "$tmp"/res-n* | awk -F'|' '{ line = ""; name = "";
		for (i = 1; i <= NF; i++) { n = split($i, a, " "); if (name == "") for (k = 1; k < n; k++) name = name a[k] " ";
			line = line sprintf(" %6s", a[n]) (i == NF / 2 ? "  |" : "") }
		printf "%-36s%s\n", name, line }'
else
	paste -d'|' "$tmp"/res-n* | tr '|' ' '
fi
