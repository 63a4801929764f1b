#!/usr/bin/env bash
# test_fuzz.sh - every libFuzzer target (scripts/fuzz.sh --list) runs for a
# few seconds from its seed corpus and finds nothing (no crash, leak,
# sanitizer report, broken contract or hang), and every input a campaign
# ever found (app/fuzz/regress/TARGET/*) replays clean. About 25 s;
# scripts/setup.sh builds the targets (scripts/fuzz.sh --build), this
# rebuilds only what changed. SL_FUZZ_SECONDS: per target (1; the long
# suite runs 30).
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
secs=${SL_FUZZ_SECONDS:-1}
build=${SLUICE_FUZZ_BUILD:-$top/build-fuzz}
pass=0 fail=0

if ! "$top/scripts/fuzz.sh" --build; then
	echo "FAIL - the fuzz targets do not build (clang, libclang-rt-14-dev: scripts/setup.sh --deps)"
	echo "test_fuzz: 0 passed, 1 failed"
	exit 1
fi
for t in $("$top/scripts/fuzz.sh" --list); do
	if line=$("$top/scripts/fuzz.sh" "$t" "$secs" 2>&1); then
		echo "ok   - $line"
		pass=$((pass + 1))
	else
		echo "FAIL - $t: $line"
		fail=$((fail + 1))
	fi
	for f in "$top/app/fuzz/regress/$t"/*; do
		[ -f "$f" ] || continue
		if out=$(SL_FUZZ_PREFIX=slfzr$$ "$build/app/fuzz/fuzz-$t" -close_fd_mask=3 "$f" 2>&1); then
			echo "ok   - $t: regression input $(basename "$f") replays clean"
			pass=$((pass + 1))
		else
			echo "FAIL - $t: regression input $(basename "$f"): $(grep -E 'ERROR|contract' <<<"$out" | head -2)"
			fail=$((fail + 1))
		fi
		rm -rf "/var/run/dpdk/slfzr$$"
	done
done
echo "test_fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
