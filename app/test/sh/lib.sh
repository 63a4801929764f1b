# shellcheck shell=bash
# lib.sh - what the app-level shell tests share: a temp dir, the DPDK
# runtime directories of the file prefixes they used (removed at exit),
# and ok/ko/check that count into "NAME: N passed, N failed".
T=$(mktemp -d)
pass=0 fail=0 n=0
prefixes=()

cleanup() {
	local p
	for p in "${prefixes[@]}"; do
		rm -rf "/var/run/dpdk/$p"
	done
	rm -rf "$T"
}
trap cleanup EXIT

ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else ko "$what"; fi
}
# skip REASON: a check that cannot run here, and why (scripts/test.sh lists them).
skip() { echo "SKIP - $*"; }
rc_is() { [ "$rc" = "$1" ]; }
eq() { [ "$1" = "$2" ]; }
# new_prefix: a fresh DPDK --file-prefix in $prefix ($tag-PID-N), its runtime
# directory removed at exit.
new_prefix() {
	n=$((n + 1))
	prefix=${tag:-sl}-$$-$n
	prefixes+=("$prefix")
}
# want ITEM: run the items listed in $SL_ITEMS ("13": items 1 and 3; all by default).
want() { case ${SL_ITEMS:-all} in all | *"$1"*) true ;; *) false ;; esac; }
