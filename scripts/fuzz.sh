#!/usr/bin/env bash
# Run one libFuzzer target (app/fuzz) for SECONDS seconds.
#   scripts/fuzz.sh TARGET SECONDS    opts config cli profile field sizes rate map rx otg
#   scripts/fuzz.sh --list            the targets
#   scripts/fuzz.sh --build           configure and build them all (CI)
# Builds build-fuzz (clang, ASan + UBSan, every file instrumented) when it
# is missing; the corpus grows in build-fuzz/corpus/TARGET, seeded from
# app/fuzz/corpus/TARGET, with app/fuzz/dict/TARGET.dict. A crash, a leak,
# a broken contract or a hang (one input over 10 s) is saved in
# build-fuzz/crash/TARGET/ and the script exits 1; replay one with
#   build-fuzz/app/fuzz/fuzz-TARGET FILE
# The closing line: "fuzz TARGET: N execs in S s (N/s), cov C, ft F, corpus
# N inputs, crashes 0, hangs 0". Run long campaigns under nice -n 19.
# Environment: SLUICE_FUZZ_BUILD=dir (default build-fuzz).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${SLUICE_FUZZ_BUILD:-$top/build-fuzz}
targets=(opts config cli profile field sizes rate map stack rx otg dev api)

usage() {
	echo "usage: scripts/fuzz.sh TARGET SECONDS (TARGET: ${targets[*]})" >&2
	exit 2
}
[ "${1:-}" = --list ] && { echo "${targets[*]}"; exit 0; }
if [ "${1:-}" = --build ]; then
	t=all
else
	[ $# -eq 2 ] || usage
	t=$1 secs=$2
	[[ " ${targets[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t'" >&2; usage; }
	[[ "$secs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS: a whole number above 0, got '$secs'" >&2; usage; }
fi

if ! command -v clang >/dev/null || ! clang -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null \
	<<<'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }'; then
	echo "fuzz: needs clang with libFuzzer: scripts/setup.sh --deps installs clang and libclang-rt-14-dev" >&2
	exit 1
fi
# SLUICE_FUZZ_NOBUILD=1: run the binaries as built (a long campaign while the
# tree changes); SLUICE_BUILD_LOCK=FILE: build under flock FILE (shared machines).
lock=()
[ -n "${SLUICE_BUILD_LOCK:-}" ] && lock=(flock "$SLUICE_BUILD_LOCK")
if [ "${SLUICE_FUZZ_NOBUILD:-0}" = 1 ]; then
	[ -x "$build/app/fuzz/fuzz-$t" ] || { echo "fuzz: $build/app/fuzz/fuzz-$t not built" >&2; exit 1; }
elif [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$top" -Dfuzz=true --buildtype=debugoptimized \
		-Db_sanitize=address,undefined -Db_lundef=false >/dev/null || exit 1
fi
if [ "$t" = all ]; then
	"${lock[@]}" ninja -C "$build" "${targets[@]/#/app/fuzz/fuzz-}" >/dev/null ||
		{ echo "fuzz: build failed" >&2; exit 1; }
	exit 0
fi
if [ "${SLUICE_FUZZ_NOBUILD:-0}" != 1 ]; then
	"${lock[@]}" ninja -C "$build" "app/fuzz/fuzz-$t" >/dev/null || { echo "fuzz: build failed" >&2; exit 1; }
fi

corpus=$build/corpus/$t crash=$build/crash/$t
mkdir -p "$corpus" "$crash"
cp -n "$top/app/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
prefix=slfuzz$$
export SL_FUZZ_PREFIX=$prefix
trap 'rm -rf "/var/run/dpdk/$prefix"' EXIT
log=$build/fuzz-$t.log
stamp=$build/.fuzz-$t.stamp
touch "$stamp"
# UBSan: any report is a finding; ASan: leaks too.
t0=$(date +%s)
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	"$build/app/fuzz/fuzz-$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-close_fd_mask=3 -print_final_stats=1 -dict="$top/app/fuzz/dict/$t.dict" \
	-artifact_prefix="$crash/" "$corpus" >"$log" 2>&1
rc=$?
took=$(($(date +%s) - t0))
[ "$took" -gt 0 ] || took=1
# What this run saved (earlier runs' findings stay in the folder).
crashes=$(find "$crash" -type f -newer "$stamp" ! -name 'timeout-*' | wc -l)
hangs=$(find "$crash" -type f -newer "$stamp" -name 'timeout-*' | wc -l)
new=$((crashes + hangs))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
done_line=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$done_line")
ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$done_line")
corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$done_line")
echo "fuzz $t: ${execs:-0} execs in $took s ($(( ${execs:-0} / took ))/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} inputs, crashes $crashes, hangs $hangs"
if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
	echo "fuzz $t: FOUND a problem (exit $rc): $log, saved in $crash/" >&2
	grep -E 'ERROR|SUMMARY|contract broken|runtime error' "$log" | head -5 >&2
	exit 1
fi
exit 0
