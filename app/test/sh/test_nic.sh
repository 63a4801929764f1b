#!/usr/bin/env bash
# test_nic.sh - scripts/sl-nic.sh with stand-ins for dpdk-devbind.py, modprobe,
# dpdk-hugepages.py, mount and umount (they log their argv; the last three act
# on the fake sysfs tree and a fake mount table only), a fake sysfs tree for
# the fake PCI devices and huge pages, and veths in a test namespace. Nothing
# here can bind a real device, reserve real pages or mount anything: every
# run goes to the stand-ins, and --force only ever meets fake devices. Needs
# root and ip netns.
# shellcheck disable=SC2016 # the eval checks expand their variables when they run
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

# Hugepages stand-ins. dpdk-hugepages.py writes $HP_SET (if set) into the
# fake node0 2048kB count and exits $HP_RC (0); mount needs an existing
# directory and adds the mount to the fake table ($HP_MOUNT=refuse: fails
# like mount, =silent: exits 0 and mounts nothing, as dpdk-hugepages.py does
# when its mount fails); umount removes it ($HP_UMOUNT=busy: fails). They are
# written with quoted here-documents and get their paths from SLT_*.
export SLT_LOG=$log SLT_HPN=$T/sys/devices/system/node/node0/hugepages/hugepages-2048kB SLT_MOUNTS=$T/mounts
cat >"$T/bin/dpdk-hugepages.py" <<'END'
#!/bin/sh
echo "dpdk-hugepages.py $*" >>"$SLT_LOG"
[ -z "${HP_SET:-}" ] || echo "$HP_SET" >"$SLT_HPN/nr_hugepages"
[ "${HP_RC:-0}" = 0 ] || echo "Unable to set pages ($HP_SET instead of more)." >&2
exit "${HP_RC:-0}"
END
cat >"$T/bin/mount" <<'END'
#!/bin/bash
echo "mount $*" >>"$SLT_LOG"
dir=${!#}
ps=$(grep -o 'pagesize=[0-9]*[KMG]' <<<"$*")
case ${HP_MOUNT:-} in
refuse) echo "mount: $dir: permission denied." >&2; exit 32 ;;
silent) exit 0 ;;
esac
[ -d "$dir" ] || { echo "mount: $dir: mount point does not exist." >&2; exit 32; }
echo "nodev $dir hugetlbfs rw,relatime,$ps 0 0" >>"$SLT_MOUNTS"
END
cat >"$T/bin/umount" <<'END'
#!/bin/sh
echo "umount $*" >>"$SLT_LOG"
[ "${HP_UMOUNT:-}" != busy ] || { echo "umount: $1: target is busy." >&2; exit 32; }
awk -v m="$1" '$2 != m' "$SLT_MOUNTS" >"$SLT_MOUNTS.new" && mv "$SLT_MOUNTS.new" "$SLT_MOUNTS"
rm -f "$1"/*map_* # the page files go with the mount
END
# The kernel's side of a write to nr_hugepages (SL_SYSFS_WRITE): the count
# cannot go below the pages in use, one per page file (*map_*) in the
# hugetlbfs mounts of the fake table, plus $HP_HELD held without a file.
cat >"$T/bin/sysfs-write" <<'END'
#!/bin/bash
v=$2
if [ "${1##*/}" = nr_hugepages ]; then
	used=${HP_HELD:-0}
	for m in $(awk '$3 == "hugetlbfs" {print $2}' "$SLT_MOUNTS"); do
		for f in "$m"/*map_*; do [ -e "$f" ] && used=$((used + 1)); done
	done
	[ "$v" -ge "$used" ] || v=$used
fi
echo "$v" >"$1"
END
chmod +x "$T/bin/dpdk-hugepages.py" "$T/bin/mount" "$T/bin/umount" "$T/bin/sysfs-write"
: >"$T/mounts"
export SL_MOUNT=$T/bin/mount SL_UMOUNT=$T/bin/umount SL_MOUNTS=$T/mounts
export SL_HUGE_DIR=$T/dev/hugepages SL_HUGE_STATE=$T/state/hugepages

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
HPN=$S/devices/system/node/node0/hugepages/hugepages-2048kB
mkdir -p "$HPN"
echo 0 >"$HPN/nr_hugepages"
echo 0 >"$HPN/free_hugepages"
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
	"hugepages 1X" "hugepages -p 3Q 1G" "hugepages 3M" "hugepages --clear 1G" \
	"restore now" "status x"; do
	# shellcheck disable=SC2086 # split the argument list on purpose
	run "$nic" $args
	check "(e) sl-nic.sh $args: exit 2" rc_is 2
	check "(e) ... ran nothing" empty_log
done
run "$nic" --help
check "(e) --help exits 0" rc_is 0
check "(e) ... and prints the usage" said "usage: sl-nic.sh"

# (f) hugepages, on the fake sysfs and the fake mount table only.
# hp [ENV=V...] ARGS...: sl-nic.sh hugepages ARGS on the fake tree.
hp() {
	local e=()
	while [[ ${1:-} == *=* ]]; do
		e+=("$1")
		shift
	done
	run SL_SYSFS="$S" "${e[@]}" "$nic" hugepages "$@"
}
HD=$SL_HUGE_DIR HS=$SL_HUGE_STATE
nr() { cat "$HPN/nr_hugepages"; }
mounted() { awk -v m="$1" '$2 == m {f = 1} END {exit !f}' "$T/mounts"; }
state_is() { [ "$(cat "$HS" 2>/dev/null)" = "$1" ]; }
nothing_left() { [ "$(nr)" = 0 ] && [ ! -e "$HS" ] && [ ! -e "$HD" ] && [ ! -s "$T/mounts" ]; }
rec="pages devices/system/node/node0/hugepages/hugepages-2048kB 0"
rec3=$(printf '%s\nmkdir %s\nmount %s' "$rec" "$HD" "$HD")

hp --dry-run 128M
check "(f) hugepages --dry-run 128M exits 0" rc_is 0
check "(f) ... prints dpdk-hugepages.py -p 2M --reserve 128M" said "dpdk-hugepages.py -p 2M --reserve 128M"
check "(f) ... prints mkdir -p $HD (the mount point is missing)" said "mkdir -p $HD"
check "(f) ... prints mount -t hugetlbfs -o pagesize=2M nodev $HD" said "mount -t hugetlbfs -o pagesize=2M nodev $HD"
check "(f) ... runs nothing, creates nothing, records nothing" eval 'empty_log && nothing_left'

hp HP_SET=64 128M
check "(f) hugepages 128M (mount point missing) exits 0" rc_is 0
check "(f) ... reserved with dpdk-hugepages.py -p 2M --reserve 128M, then mounted" \
	[ "$(cat "$log")" = "$(printf 'dpdk-hugepages.py -p 2M --reserve 128M\nmount -t hugetlbfs -o pagesize=2M nodev %s' "$HD")" ]
check "(f) ... created the mount point and mounted hugetlbfs pagesize=2M there" \
	grep -qxF "nodev $HD hugetlbfs rw,relatime,pagesize=2M 0 0" "$T/mounts"
check "(f) ... recorded the old count, the mkdir and the mount" state_is "$rec3"
check "(f) ... says how to check and undo" said "undo: sl-nic.sh hugepages --clear"
fake status
check "(f) status shows the mount with its page size" said "hugetlbfs mounts: $HD (2048kB pages)"
check "(f) status shows what sl-nic.sh made" \
	said "hugepages made by sl-nic.sh (undo: hugepages --clear): pages node0 hugepages-2048kB (were 0), mkdir $HD, mount $HD"
hp HP_SET=64 128M
check "(f) the same again exits 0 and runs no mount" eval 'rc_is 0 && ! logged "mount "'
check "(f) ... the record still holds the first count and one mount" state_is "$rec3"

# (g) A failure after an earlier success: this run is undone, the earlier stays.
hp HP_SET=100 HP_RC=1 256M
check "(g) 256M, only 100 of 128 pages (not enough memory): exit 1" rc_is 1
check "(g) ... says how many pages it got and why" eval 'said "100 of 128 pages" && said "not enough free memory"'
check "(g) ... the count is back to 64 (as before this run)" [ "$(nr)" = 64 ]
check "(g) ... the earlier mount and record are untouched" eval 'mounted "$HD" && state_is "$rec3"'

# (h) --clear undoes exactly the record. A page file a run left in the
# mount it made goes with the unmount: nothing to remove by hand.
hpk() { hp SL_SYSFS_WRITE="$T/bin/sysfs-write" "$@"; }
: >"$HD/hmap_0"
hpk --clear --dry-run
check "(h) --clear --dry-run prints umount, rmdir and the count write" \
	eval 'said "umount $HD" && said "rmdir $HD" && said "echo 0 > $HPN/nr_hugepages"'
check "(h) ... and no removal of $HD/hmap_0 (the unmount drops it)" not said "flock"
check "(h) ... runs nothing, changes nothing" eval 'empty_log && mounted "$HD" && [ "$(nr)" = 64 ] && state_is "$rec3"'
hpk --clear
check "(h) --clear exits 0" rc_is 0
check "(h) ... unmounted, removed the mount point, count 0, record gone" nothing_left
check "(h) ... removed no page file itself" not said "removed"
hp --clear
check "(h) --clear with nothing recorded exits 0 and says so" eval 'rc_is 0 && said "nothing to clear"'
check "(h) ... runs nothing" empty_log

# (i) Failure paths: each exits 1 and leaves nothing behind.
hp HP_SET=10 HP_RC=1 128M
check "(i) not enough free memory (10 of 64 pages): exit 1" rc_is 1
check "(i) ... says so and what to do" eval 'said "10 of 64 pages" && said "hugepages=64"'
check "(i) ... no mkdir, no mount, count back to 0, no record" eval '! logged "mount" && nothing_left'
hp HP_SET=64 HP_MOUNT=refuse 128M
check "(i) mount refused: exit 1" rc_is 1
check "(i) ... shows mount's message and says it is not mounted" \
	eval 'said "permission denied" && said "is not mounted on $HD"'
check "(i) ... the mount point it created is removed, count 0, no record" nothing_left
hp HP_SET=64 HP_MOUNT=silent 128M
check "(i) mount exits 0 but mounts nothing (dpdk-hugepages.py's case): exit 1" rc_is 1
check "(i) ... nothing left" nothing_left
: >"$T/afile"
hp HP_SET=64 SL_HUGE_DIR="$T/afile/hugepages" 128M
check "(i) mount point missing and cannot be created: exit 1" rc_is 1
check "(i) ... says so" said "cannot create the mount point $T/afile/hugepages"
check "(i) ... no mount, count 0, no record" eval '! logged "mount" && nothing_left'
hp -p 16M 128M
check "(i) a page size the kernel does not offer: exit 1, runs nothing" eval 'rc_is 1 && empty_log && said "not offered"'
hp -n 3 128M
check "(i) no such NUMA node: exit 1, runs nothing" eval 'rc_is 1 && empty_log'

# (j) Mounts made by others are used and left alone.
echo "nodev $T/other hugetlbfs rw,relatime,pagesize=2M 0 0" >"$T/mounts"
hp HP_SET=64 128M
check "(j) hugetlbfs 2M already on $T/other: exit 0, no mkdir, no mount" \
	eval 'rc_is 0 && ! logged "mount" && [ ! -e "$HD" ]'
check "(j) ... says it uses it and leaves it alone" said "already mounted on $T/other"
check "(j) ... only the count is recorded" state_is "$rec"
hp --clear
check "(j) --clear: count back to 0, $T/other still mounted, nothing unmounted" \
	eval 'rc_is 0 && [ "$(nr)" = 0 ] && mounted "$T/other" && ! logged umount && [ ! -e "$HS" ]'
mkdir -p "$HD"
echo "nodev $HD hugetlbfs rw,relatime,pagesize=1G 0 0" >"$T/mounts"
hp HP_SET=64 128M
check "(j) $HD holds 1G pages: the 2M pages are mounted on $HD-2M" \
	eval 'rc_is 0 && grep -qxF "nodev $HD-2M hugetlbfs rw,relatime,pagesize=2M 0 0" "$T/mounts"'
: >"$HD-2M/jmap_0"
sleep 60 3<"$HD-2M/jmap_0" &
holder=$!
hp HP_UMOUNT=busy --clear
check "(j) --clear with the mount busy: exit 1, keeps the record and the count" \
	eval 'rc_is 1 && [ -s "$HS" ] && [ "$(nr)" = 64 ]'
check "(j) ... names the process that holds a file in it ($holder (sleep)) and what to do" \
	eval 'said "cannot unmount $HD-2M: it is in use by $holder (sleep)" && said "stop the processes that use it"'
kill "$holder"
wait "$holder" 2>/dev/null || true
hp --clear
check "(j) --clear again: unmounts $HD-2M only; $HD (1G, not ours) stays" \
	eval 'rc_is 0 && mounted "$HD" && ! mounted "$HD-2M" && [ ! -e "$HD-2M" ] && [ "$(nr)" = 0 ]'
: >"$T/mounts"
rmdir "$HD"

# (k) A hugetlbfs mounted by someone else (Debian's systemd mounts
# /dev/hugepages at boot) keeps the page files that ended DPDK runs leave
# (one per page still allocated at exit); each holds a page, so the count
# cannot go back (the stand-in kernel, SL_SYSFS_WRITE) until they are gone.
O=$T/other
mkdir -p "$O"
echo "nodev $O hugetlbfs rw,relatime,pagesize=2M 0 0" >"$T/mounts"
hpk HP_SET=64 128M
check "(k) hugetlbfs 2M already on $O (not ours): hugepages 128M exits 0, records only the count" \
	eval 'rc_is 0 && state_is "$rec"'
: >"$O/kamap_0"
: >"$O/kamap_4"
: >"$O/kbmap_0"
: >"$O/unrelated"
sleep 60 3<"$O/kbmap_0" &
holder=$!
hpk --clear --dry-run
check "(k) --clear --dry-run (64 pages in use): prints the removal of the 2 unused page files only" \
	eval 'rc_is 0 && said "flock -n -x $O/kamap_0 rm -f $O/kamap_0" && said "flock -n -x $O/kamap_4 rm -f $O/kamap_4" && ! said "$O/kbmap_0"'
check "(k) ... and changes nothing" \
	eval 'empty_log && [ "$(nr)" = 64 ] && [ -e "$O/kamap_0" ] && [ -e "$O/kamap_4" ] && state_is "$rec"'
hpk --clear
check "(k) --clear, 3 page files left, 1 held open by $holder (sleep): exit 1" rc_is 1
check "(k) ... removed the 2 no process uses and says so" \
	eval 'said "removed 2 page files left by DPDK runs that have ended" && [ ! -e "$O/kamap_0" ] && [ ! -e "$O/kamap_4" ]'
check "(k) ... names the one in use and its process, says what to do" \
	eval 'said "$O/kbmap_0 (used by $holder (sleep))" && said "stop those processes, then run '\''sl-nic.sh hugepages --clear'\'' again"'
check "(k) ... does not say 'stop the DPDK processes' alone" not said "stop the DPDK processes"
check "(k) ... the count is 1 (the file in use), the record kept, other files and the mount left alone" \
	eval '[ "$(nr)" = 1 ] && state_is "$rec" && [ -e "$O/kbmap_0" ] && [ -e "$O/unrelated" ] && mounted "$O" && ! logged umount'
kill "$holder"
wait "$holder" 2>/dev/null || true
hpk --clear
check "(k) --clear again, the process gone: exit 0, count 0, record gone" \
	eval 'rc_is 0 && [ "$(nr)" = 0 ] && [ ! -e "$HS" ]'
check "(k) ... removed $O/kbmap_0; $O still mounted, nothing unmounted, other files kept" \
	eval '[ ! -e "$O/kbmap_0" ] && mounted "$O" && ! logged umount && [ -e "$O/unrelated" ]'
hpk HP_SET=64 128M
hpk HP_HELD=2 --clear
check "(k) 2 pages held without a page file: --clear exits 1, keeps the record" \
	eval 'rc_is 1 && [ "$(nr)" = 2 ] && state_is "$rec"'
check "(k) ... says no page file holds them and how to find the process" \
	eval 'said "2 huge pages are in use, and no page file" && said "grep -l huge /proc/*/numa_maps"'
hpk --clear
check "(k) ... and --clear once they are released: exit 0, count 0" eval 'rc_is 0 && [ "$(nr)" = 0 ] && [ ! -e "$HS" ]'
: >"$T/mounts"
rm -rf "$O"

echo "test_nic: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
