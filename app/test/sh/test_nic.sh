#!/usr/bin/env bash
# test_nic.sh - scripts/sl-nic.sh with stand-ins for dpdk-devbind.py, modprobe
# and dpdk-hugepages.py (they only log their argv), a fake sysfs tree for the
# fake PCI devices, and veths in a test namespace. Nothing here can bind a
# real device: every run goes to the stand-ins, and --force only ever meets
# fake devices. Needs root and ip netns.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
nic=$top/scripts/sl-nic.sh
P=$(printf 'sltn%s' "$$" | cut -c1-10) # interfaces ${P}a..d: <= 11 chars
ns=$P-ns
T=$(mktemp -d)
log=$T/calls.log
pass=0 fail=0 skip=0

cleanup() {
	if ip netns list | awk '{print $1}' | grep -qxF "$ns"; then
		ip -n "$ns" link del "${P}a" 2>/dev/null || true
		ip -n "$ns" link del "${P}c" 2>/dev/null || true
		ip netns del "$ns"
	fi
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
has() { grep -qF -- "$2" <<<"$1"; }
not() { ! "$@"; }
empty_log() { [ ! -s "$log" ]; }
no_state() { [ ! -e "$SL_NIC_STATE" ]; }
rc_is() { [ "$rc" = "$1" ]; }
said() { has "$out" "$1"; }
logged() { has "$(cat "$log")" "$1"; }
nothing_done() { empty_log && no_state; }

# Stand-ins: log argv, change nothing. Everything sl-nic.sh runs goes here.
mkdir -p "$T/bin"
for b in dpdk-devbind.py modprobe dpdk-hugepages.py; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$b" "$log" >"$T/bin/$b"
	chmod +x "$T/bin/$b"
done
export SL_DEVBIND=$T/bin/dpdk-devbind.py SL_MODPROBE=$T/bin/modprobe SL_HUGEPAGES=$T/bin/dpdk-hugepages.py
export SL_NIC_STATE=$T/state/nic-bindings

# run [ENV=V...] ARGS...: sl-nic.sh ARGS; sets $out (stdout+stderr) and $rc.
run() {
	: >"$log"
	out=$(env "$@" 2>&1) && rc=0 || rc=$?
}
# fake ARGS...: sl-nic.sh on the fake sysfs, inside the test namespace.
fake() { run SL_SYSFS="$T/sys" ip netns exec "$ns" "$nic" "$@"; }

# Test namespace: ${P}a (up, 198.18.2.1/30) <-> ${P}b (up, IPv6 link-local
# only: free), ${P}c (up, 198.18.3.1/30, default route) <-> ${P}d.
ip netns add "$ns"
ip -n "$ns" link add "${P}a" type veth peer name "${P}b"
ip -n "$ns" link add "${P}c" type veth peer name "${P}d"
ip -n "$ns" addr add 198.18.2.1/30 dev "${P}a"
ip -n "$ns" addr add 198.18.3.1/30 dev "${P}c"
for i in a b c d; do ip -n "$ns" link set "$P$i" up; done
ip -n "$ns" route add default via 198.18.3.2 dev "${P}c"

# Fake sysfs: PCI 0000:99:00.N (ixgbe) behind ${P}a, ${P}b, ${P}c; no IOMMU.
S=$T/sys
mkdir -p "$S/bus/pci/drivers/ixgbe" "$S/class/net" "$S/kernel/iommu_groups" \
	"$S/kernel/mm/hugepages/hugepages-2048kB" "$S/module/vfio/parameters"
echo 0 >"$S/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
echo 0 >"$S/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
echo N >"$S/module/vfio/parameters/enable_unsafe_noiommu_mode"
n=0
for i in a b c; do
	pci=0000:99:00.$n
	d=$S/devices/pci0000:99/$pci
	mkdir -p "$d/net/$P$i" "$S/bus/pci/devices"
	echo 0x020000 >"$d/class"
	echo 0x8086 >"$d/vendor"
	echo 0x10fb >"$d/device"
	echo 0 >"$d/numa_node"
	ln -s "$S/bus/pci/drivers/ixgbe" "$d/driver"
	ln -s "$d" "$d/net/$P$i/device"
	ln -s "$d" "$S/bus/pci/devices/$pci"
	ln -s "$d/net/$P$i" "$S/class/net/$P$i"
	n=$((n + 1))
done
A=0000:99:00.0 B=0000:99:00.1 C=0000:99:00.2

# (a) The interface that carries this machine's real default route.
defif=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") {print $(i + 1); exit}}')
defpci=""
if [ -n "$defif" ]; then
	defpci=$(readlink -f "/sys/class/net/$defif/device" 2>/dev/null |
		grep -oE '[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]' | tail -1 || true)
fi
if [ -n "$defpci" ]; then
	for dev in "$defif" "$defpci"; do
		run "$nic" bind "$dev"
		check "(a) bind $dev (real default route) is refused, exit 1" rc_is 1
		check "(a) ... and says it carries the default route" said "carries the default route"
		check "(a) ... and ran nothing, recorded nothing" nothing_done
	done
	run "$nic" bind --dry-run "$defif"
	check "(a) bind --dry-run $defif is refused too, exit 1" rc_is 1
	check "(a) ... printed no dpdk-devbind.py command" not said "dpdk-devbind.py -b"
else
	echo "SKIP - (a) the real default route is not on a PCI interface (${defif:-none})"
	skip=$((skip + 1))
fi
fake bind "${P}c"
check "(a) fake: default-route device ${P}c is refused, exit 1" rc_is 1
check "(a) fake: ... says it carries the default route" said "$C (${P}c) carries the default route"
check "(a) fake: ... ran nothing, recorded nothing" nothing_done

# (b) Up with an address: refused without --force; one refusal stops all.
fake bind "${P}a"
check "(b) ${P}a (up, 198.18.2.1/30) is refused, exit 1" rc_is 1
check "(b) ... says it is in use" said "$A (${P}a) is up with an address"
check "(b) ... ran nothing, recorded nothing" nothing_done
fake bind "$B" "${P}a" "$C"
check "(b) free + two refused devices: exit 1" rc_is 1
check "(b) ... one line per refused device" [ "$(grep -c 'refused:' <<<"$out")" = 2 ]
check "(b) ... and nothing changed for any device" nothing_done
fake bind 0000:99:00.7 nosuchif0
check "(b) unknown PCI address and interface are refused, exit 1" rc_is 1
check "(b) ... ran nothing, recorded nothing" nothing_done

# (c) --dry-run prints the commands and changes nothing.
for dev in "${P}b" "$B" 99:00.1; do
	fake bind --dry-run "$dev"
	check "(c) bind --dry-run $dev exits 0" rc_is 0
	check "(c) ... prints modprobe vfio-pci" said "modprobe vfio-pci"
	check "(c) ... prints dpdk-devbind.py -b vfio-pci $B" said "dpdk-devbind.py -b vfio-pci $B"
	check "(c) ... ran nothing, recorded nothing" nothing_done
done
check "(c) no IOMMU: bind prints how to enable no-IOMMU mode" \
	said "echo 1 > /sys/module/vfio/parameters/enable_unsafe_noiommu_mode"
noiommu=$S/module/vfio/parameters/enable_unsafe_noiommu_mode
fake bind --dry-run --noiommu "$B"
check "(c) --dry-run --noiommu prints the sysfs write" said "echo 1 > $noiommu"
check "(c) ... and leaves the file alone" [ "$(cat "$noiommu")" = N ]

# bind and restore for real, on the fake devices and the stand-ins.
fake bind --noiommu "${P}b"
check "bind ${P}b (free, fake) exits 0" rc_is 0
check "... ran modprobe vfio-pci then dpdk-devbind.py -b vfio-pci $B" \
	[ "$(cat "$log")" = "$(printf 'modprobe vfio-pci\ndpdk-devbind.py -b vfio-pci %s' "$B")" ]
check "... --noiommu wrote 1 through SL_SYSFS" [ "$(cat "$noiommu")" = 1 ]
check "... recorded the original driver" [ "$(cat "$SL_NIC_STATE" 2>/dev/null)" = "$B ixgbe" ]
fake bind "${P}a" --force
check "bind --force on the fake in-use device ${P}a exits 0" rc_is 0
check "... and passes --force on" logged "dpdk-devbind.py -b vfio-pci --force $A"
check "... the record holds both devices" [ "$(wc -l <"$SL_NIC_STATE")" = 2 ]
fake restore --dry-run
check "restore --dry-run prints the rebinds" said "dpdk-devbind.py -b ixgbe $B"
check "... runs nothing" empty_log
check "... keeps the record" [ -s "$SL_NIC_STATE" ]
fake restore
check "restore exits 0" rc_is 0
check "... rebinds $B to ixgbe" logged "dpdk-devbind.py -b ixgbe $B"
check "... rebinds $A to ixgbe" logged "dpdk-devbind.py -b ixgbe $A"
check "... clears the record" no_state
fake restore
check "restore with nothing recorded exits 0" rc_is 0
check "... runs nothing" empty_log

# (d) status, on this machine and on the fake tree.
run "$nic" status
check "(d) status exits 0" rc_is 0
check "(d) status prints a hugepages line" grep -qE '^hugepages [0-9]+kB: total [0-9]+ free [0-9]+' <<<"$out"
check "(d) status prints an IOMMU line" grep -qE '^iommu: (on|off)' <<<"$out"
check "(d) status prints the vfio-pci state" grep -qE '^vfio-pci: (loaded|not loaded)' <<<"$out"
check "(d) status ran nothing" empty_log
if [ -n "$defpci" ]; then
	check "(d) status marks $defpci ($defif) as carrying the default route" \
		grep -qE "^  $defpci .*if=$defif .*default-route=YES" <<<"$out"
fi
fake status
check "(d) fake status lists $A if=${P}a driver=ixgbe with addr=yes" \
	grep -qE "^  $A \[8086:10fb\] driver=ixgbe numa=0 if=${P}a admin=up .*addr=yes" <<<"$out"
check "(d) fake status lists $B if=${P}b as free (addr=no route=no)" \
	grep -qE "^  $B .*if=${P}b .*addr=no route=no default-route=no" <<<"$out"

# (e) usage errors exit 2 and run nothing.
for args in "" "bogus" "bind" "bind --bogus $B" "bind --driver" "hugepages" \
	"hugepages 1X" "hugepages -p 3Q 1G" "restore now" "status x"; do
	# shellcheck disable=SC2086 # split the argument list on purpose
	run "$nic" $args
	check "(e) sl-nic.sh $args: exit 2" rc_is 2
	check "(e) ... ran nothing" empty_log
done
run "$nic" --help
check "(e) --help exits 0" rc_is 0
check "(e) ... and prints the usage" said "usage: sl-nic.sh"

# hugepages goes to dpdk-hugepages.py.
run "$nic" hugepages 1G
check "hugepages 1G runs dpdk-hugepages.py -p 2M --setup 1G" \
	[ "$(cat "$log")" = "dpdk-hugepages.py -p 2M --setup 1G" ]
run "$nic" hugepages -p 1G -n 0 4G
check "hugepages -p 1G -n 0 4G runs dpdk-hugepages.py -p 1G -n 0 --setup 4G" \
	[ "$(cat "$log")" = "dpdk-hugepages.py -p 1G -n 0 --setup 4G" ]
run "$nic" hugepages --dry-run 1G
check "hugepages --dry-run 1G prints the command" said "dpdk-hugepages.py -p 2M --setup 1G"
check "... runs nothing" empty_log

echo "test_nic: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
