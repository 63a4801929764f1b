#!/usr/bin/env bash
# Run Sluice's tests: build if needed, run the meson test suites, and print
# one closing line "N passed, N failed" that counts the individual checks
# (each test program prints its own such line), then ", N skipped": every
# "SKIP - reason" line a test printed, listed above it.
#   scripts/test.sh                 fast, stress and net: at most 10 minutes
#                                   on a 2-CPU machine (what CI runs)
#   scripts/test.sh --long          those and the long suite: large counts,
#                                   10 M frames, the full bench matrix, soak
#   scripts/test.sh --suite fast    one suite (meson test options pass through)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${SLUICE_BUILD:-$top/build}

if [ ! -f "$build/build.ninja" ]; then
	echo "test: no build in $build: run scripts/setup.sh first" >&2
	exit 1
fi
ninja -C "$build" >/dev/null || { echo "test: build failed" >&2; exit 1; }

args=("$@")
if [ "${1:-}" = --long ]; then
	args=(--suite fast --suite stress --suite net --suite long "${@:2}")
elif [ ${#args[@]} -eq 0 ]; then
	args=(--suite fast --suite stress --suite net)
fi
# Its own log (--logbase): a meson test run by hand meanwhile writes testlog.json.
meson test -C "$build" --print-errorlogs --no-rebuild --logbase sl-suite "${args[@]}"
rc=$?

python3 - "$build/meson-logs/sl-suite.json" <<'PY'
import json, re, sys
passed = failed = skipped = 0
reasons = []
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    lines = []
for line in lines:
    t = json.loads(line)
    out = t.get("stdout", "")
    m = None
    for m in re.finditer(r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?", out):
        pass
    ok = t["result"] == "OK"
    if m:
        p, f = int(m.group(1)), int(m.group(2))
        if not ok and f == 0:
            f = 1  # crashed or timed out after its last summary
        passed += p
        failed += f
    else:
        passed += ok
        failed += not ok
    # Every skip says why on one "SKIP - reason" line; count those lines.
    for s in re.findall(r"^SKIP\b.*$", out, re.M):
        skipped += 1
        reasons.append(f"{t['name']}: {s}")
    print(f"  {t['name']:<36} {t['result']}")
for r in reasons:
    print(f"  {r}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $rc
