#!/usr/bin/env bash
# test_docs.sh - every Sluice command line in the docs runs as written
# (issue 15 item 8): the commands in docs/*.md and README.md code blocks and
# the profiles' "# run:" lines are extracted (app/test/py/doc_cmds.py) and
# run in a scratch directory with the repository's config/, bounded by a timeout; each must exit
# with the status the doc shows after it ("exit N"), or 0. Commands on
# virtual ports only must carry --no-pci (else EAL probes the machine's own
# NICs). Only two things are changed: build/app/sluice/sluice is $SLUICE_BIN,
# and --file-prefix is made unique. Commands that need a NIC, the veth
# testbed, hugepages or a value from the reader are checked for --no-pci only
# and said SKIP with the reason.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 skip=0
ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }
sk() { echo "SKIP - $*"; skip=$((skip + 1)); }

python3 "$top/app/test/py/doc_cmds.py" "$top" >"$T/cmds" || ko "cannot extract the commands"
n=0
while IFS= read -r j; do
	n=$((n + 1))
	where=$(jq -r '"\(.file):\(.line)"' <<<"$j")
	cmd=$(jq -r .cmd <<<"$j")
	want=$(jq -r '.exit // 0' <<<"$j")
	eal=${cmd%% -- *}
	# EAL options given (not just "-- --version") and no PCI device allowed: virtual only
	if [[ $eal == *" -"* && $eal != *" -a "* && $eal != *--no-pci* ]]; then
		ko "$where: virtual ports only, without --no-pci: $cmd"
		continue
	fi
	reason=
	case $cmd in
	*"-a 0000:"*) reason="needs a NIC bound to DPDK (docs/nics.md)" ;;
	*net_af_packet* | *net_af_xdp*) reason="needs the veth testbed (docs/testbed.md)" ;;
	*'$'[a-z]* | *'"$'* | *"..."*) reason="takes a value from the reader" ;;
	*"&") reason="a background process in a sequence" ;;
	sluice\ *) reason="runs an installed sluice with hugepages (docs/nics.md)" ;;
	esac
	if [ -n "$reason" ]; then
		sk "$where: $reason (--no-pci checked)"
		continue
	fi
	# as written, less the transcript's own '; echo "exit $?"' and any pipe after it
	run=${cmd%%; echo \"exit*}
	run=${run%% | *}
	run=${run/build\/app\/sluice\/sluice/$bin}
	if [[ $run == *--file-prefix* ]]; then
		run=$(sed -E "s/--file-prefix [^ ]+/--file-prefix sldoc$$x$n/" <<<"$run")
	else
		run=${run/$bin/$bin --file-prefix sldoc$$x$n}
	fi
	# in a directory of its own (files a command writes, such as out.json, land
	# there), with the repository's profiles where the commands expect them
	mkdir -p "$T/cwd" && ln -sfn "$top/config" "$T/cwd/config"
	(cd "$T/cwd" && timeout 90 bash -c "$run" </dev/null >"$T/out" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$where: exit $rc as the doc says"
	else
		ko "$where: exit $rc, the doc says $want: $cmd | $(grep -m2 -E 'sluice:|error|EAL: (FATAL|Error)' "$T/out" | tr '\n' ' ')"
	fi
done <"$T/cmds"
[ "$n" -gt 10 ] || ko "only $n commands found in the docs"
echo "test_docs: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
