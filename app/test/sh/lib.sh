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
rc_is() { [ "$rc" = "$1" ]; }
