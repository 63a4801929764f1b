#!/usr/bin/env bash
# test_profiles.sh - every profile in config/ that can run here runs for a
# second and exits 0 with conserved counters. A profile's "# run:" line holds
# its sluice arguments; "# needs:" marks one that needs hardware (skipped).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 skip=0
cd "$top"
for f in config/*.cmd; do
	name=$(basename "$f" .cmd)
	if grep -q '^# needs:' "$f"; then
		echo "SKIP - $name: $(sed -n 's/^# needs: //p' "$f")"
		skip=$((skip + 1))
		continue
	fi
	args=$(sed -n 's/^# run: //p' "$f")
	[ -n "$args" ] || { echo "FAIL - $name: no '# run:' line"; fail=$((fail + 1)); continue; }
	args=$(sed -E 's/--duration [0-9.]+/--duration 1/' <<<"$args")
	# the run line is shell words, quoted as a reader pastes them
	mapfile -t words < <(python3 -c 'import shlex, sys; print("\n".join(shlex.split(sys.argv[1])))' "$args")
	if timeout 60 "$bin" --file-prefix "slpf$$" --log-level '*:error' "${words[@]}" --json "$T/$name.json" \
		>"$T/$name.log" 2>&1 && [ "$(jq .totals.conserved "$T/$name.json")" = true ] &&
		[ "$(jq .totals.tx_packets "$T/$name.json")" -gt 0 ]; then
		echo "ok   - $name: ran 1 s, $(jq .totals.tx_packets "$T/$name.json") packets, conserved"
		pass=$((pass + 1))
	else
		echo "FAIL - $name: $(tail -3 "$T/$name.log")"
		fail=$((fail + 1))
	fi
done
echo "test_profiles: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
