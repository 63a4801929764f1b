#!/usr/bin/env bash
# test_hugepages.sh - Sluice on real huge pages, end to end: sl-nic.sh
# hugepages reserves 64 more 2 MiB pages on node 0 (128 MiB) and mounts
# hugetlbfs if no 2M one is mounted, Sluice runs without --no-huge on
# net_null and on the sim (exact --count, conservation, its page files in
# the mount), then sl-nic.sh hugepages --clear puts everything back as it
# was: the page count, the mounts, /dev/hugepages; the same again on a
# hugetlbfs mounted beforehand (as Debian's systemd does), where the page
# files the runs leave must be cleared by --clear. Sluice's message when
# EAL finds no hugetlbfs to use is checked too. Changes system state: needs
# root and a kernel with hugetlbfs (else SKIP). It runs in a mount namespace
# of its own (unshare -m), so its mounts never outlive it and other mounts
# can be hidden from it; the page counts and /dev/hugepages are the
# machine's. Its own record (SL_HUGE_STATE in its temp dir), so a user's
# record is never touched; a hugetlbfs mounted by someone else is used and
# left alone. The failure paths are in test_nic.sh, with stand-ins.
# shellcheck disable=SC2016,SC2317 # eval checks expand when they run; functions called by check and the trap
set -euo pipefail

# Into a private mount namespace (before anything is made).
if [ "$(id -u)" = 0 ] && [ -z "${SL_HP_NS:-}" ] && unshare -m --propagation private true 2>/dev/null; then
	SL_HP_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
top=$(cd "$(dirname "$0")/../../.." && pwd)
sluice=${SLUICE_BIN:-$top/build/app/sluice/sluice}
nic=$top/scripts/sl-nic.sh
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
skip=0

finish() {
	echo "test_hugepages: $pass passed, $fail failed, $skip skipped"
	[ "$fail" = 0 ]
	exit
}
skip_all() {
	echo "SKIP - $1"
	skip=1
	echo "test_hugepages: $pass passed, $fail failed, $skip skipped"
	exit 77
}
[ "$(id -u)" = 0 ] || skip_all "needs root (it reserves huge pages and mounts hugetlbfs)"
[ -n "${SL_HP_NS:-}" ] || skip_all "cannot make a mount namespace of its own (unshare -m)"
grep -qw hugetlbfs /proc/filesystems 2>/dev/null ||
	skip_all "this kernel has no hugetlbfs (not in /proc/filesystems)"
[ -d /sys/kernel/mm/hugepages/hugepages-2048kB ] ||
	skip_all "this kernel offers no 2 MiB huge pages (/sys/kernel/mm/hugepages/hugepages-2048kB)"
command -v jq >/dev/null || skip_all "needs jq"
avail=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
[ "${avail:-0}" -ge 524288 ] || skip_all "less than 512 MiB of memory available (${avail:-?} kB)"

# Node 0's count if the kernel has NUMA nodes, else the global one.
hpd=/sys/devices/system/node/node0/hugepages/hugepages-2048kB
nopt=(-n 0) lbl=" node0"
[ -d "$hpd" ] || { hpd=/sys/kernel/mm/hugepages/hugepages-2048kB nopt=() lbl=""; }
export SL_HUGE_STATE=$T/hugepages.state
nr() { cat "$hpd/nr_hugepages"; }
mounts() { awk '$3 == "hugetlbfs" {print $2, $4}' /proc/mounts | sort; }
mount2m() { awk '$3 == "hugetlbfs" && $4 ~ /pagesize=2M/ {print $2; exit}' /proc/mounts; }
nr0=$(nr)
mounts0=$(mounts)
devhp0=no
[ -e /dev/hugepages ] && devhp0=yes
want=$((nr0 + 64))
size=$((want * 2))M
files=()

# Whatever happens, leave the machine as it was: Sluice's page files,
# then what sl-nic.sh recorded, then the count.
bg=""
hp_cleanup() {
	local f
	if [ -n "$bg" ] && kill -0 "$bg" 2>/dev/null; then
		kill -TERM "$bg" 2>/dev/null || true
		wait "$bg" 2>/dev/null || true
	fi
	[ ! -s "$SL_HUGE_STATE" ] || "$nic" hugepages --clear >/dev/null 2>&1 || true
	# Only if a check failed before --clear ran: this test's own page files.
	for f in "${files[@]}"; do rm -f "$f"map_*; done
	! mountpoint -q "$T/pre" || umount -l "$T/pre"
	[ "$(nr)" = "$nr0" ] || echo "$nr0" >"$hpd/nr_hugepages" || true
	[ "$(nr)" = "$nr0" ] || echo "$nr0" >"$hpd/nr_hugepages" || true
}
trap 'hp_cleanup; cleanup' EXIT
trap 'exit 143' INT TERM # so the EXIT trap puts the machine back
eq() { [ "$1" = "$2" ]; }
said() { grep -qF -- "$1" <<<"$out"; }
said_all() {
	local x
	for x; do said "$x" || return 1; done
}
j() { jq -c "$1" "$T/run.json" 2>/dev/null || true; }
jt() { [ "$(j "$1")" = true ]; }

# (a) Pages reserved, but EAL finds no hugetlbfs to use: Sluice says which
# command fixes it. Each run in a mount namespace of its own where no
# hugetlbfs is mounted but, with MNT (1G or 2M), one for that page size on
# $T/hmnt. hidden MNT EAL... -- OPTS...
hidden() {
	local m=$1
	shift
	n=$((n + 1))
	prefixes+=("hgp$$x$n")
	out=$(timeout 60 unshare -m --propagation private sh -c '
		for d in $(awk '\''$3 == "hugetlbfs" {print $2}'\'' /proc/mounts); do umount -l "$d" || exit 99; done
		[ "$1" = none ] || mount -t hugetlbfs -o "pagesize=$1" nodev "$2" || exit 98
		shift 2
		exec "$@"' sh "$m" "$T/hmnt" "$sluice" --no-pci -l 0-1 --file-prefix "hgp$$x$n" "$@" \
		--vdev net_null0 -- --count 10 2>&1) && rc=0 || rc=$?
}
# no_mount_msg WHAT: the checks on the message of a run without a usable hugetlbfs.
no_mount_msg() {
	check "$1: sluice exits 1" rc_is 1
	check "$1: ... names the command: scripts/sl-nic.sh hugepages" said "'scripts/sl-nic.sh hugepages 1G'"
	check "$1: ... no misleading '(Permission denied)'" not said "(Permission denied)"
	said "scripts/sl-nic.sh hugepages" || grep '^sluice:' <<<"$out" | sed 's/^/# /' || true
}
not() { ! "$@"; }
mkdir -p "$T/hmnt" "$T/plain"
echo "$want" >"$hpd/nr_hugepages"
hidden none
no_mount_msg "(a) $want pages of 2M reserved, no hugetlbfs mounted"
check "(a) ... its message says no hugetlbfs is mounted for the page size with free pages" \
	said "no hugetlbfs is mounted for a page size with free hugepages (2M)"
if [ -d /sys/kernel/mm/hugepages/hugepages-1048576kB ]; then
	hidden 1G
	no_mount_msg "(a) only a hugetlbfs for 1G pages mounted (none free)"
else
	echo "SKIP - (a) a hugetlbfs for 1G pages only: this kernel offers no 1G pages"
	skip=$((skip + 1))
fi
hidden 2M --huge-dir "$T/plain"
no_mount_msg "(a) --huge-dir $T/plain, a plain directory (a 2M hugetlbfs elsewhere)"
check "(a) ... names --huge-dir and the mount that makes it usable" \
	said "--huge-dir $T/plain is no hugetlbfs for a page size with free hugepages (2M): mount one there (mount -t hugetlbfs -o pagesize=2M nodev $T/plain)"
echo "$nr0" >"$hpd/nr_hugepages"

# (b) Set up, and check what was promised.
out=$("$nic" hugepages --dry-run "${nopt[@]}" "$size" 2>&1) && rc=0 || rc=$?
check "(b) hugepages --dry-run ${nopt[*]} $size exits 0 and prints the reservation" \
	eval 'rc_is 0 && said "dpdk-hugepages.py -p 2M ${nopt[*]} --reserve $size"'
check "(b) ... changes nothing" eval '[ "$(nr)" = "$nr0" ] && [ "$(mounts)" = "$mounts0" ] && [ ! -e "$SL_HUGE_STATE" ]'
out=$("$nic" hugepages "${nopt[@]}" "$size" 2>&1) && rc=0 || rc=$?
check "(b) hugepages ${nopt[*]} $size (was $nr0 pages) exits 0" rc_is 0
[ "$rc" = 0 ] || while read -r l; do echo "# $l"; done <<<"$out"
check "(b) ... $want pages of 2048kB reserved" eq "$(nr)" "$want"
mnt=$(mount2m)
check "(b) ... a hugetlbfs with pagesize=2M is mounted (${mnt:-none})" [ -n "$mnt" ]
if [ -n "$mounts0" ] && grep -q 'pagesize=2M' <<<"$mounts0"; then
	check "(b) ... the one that was there, left as it was" eq "$(mounts)" "$mounts0"
fi
out=$("$nic" status 2>&1) && rc=0 || rc=$?
check "(b) status shows $want pages and the mount" \
	said_all "hugepages 2048kB$lbl: total $want" "${mnt:-?} (2048kB pages)"

# (c) Sluice without --no-huge: exact count, conservation, page files in the mount.
# hrun WHAT OPTS...: sluice on hugepages with --json $T/run.json.
hrun() {
	local what=$1 p used=0 seen=0 free
	shift
	n=$((n + 1))
	p=hgp$$x$n
	prefixes+=("$p")
	files+=("${mnt:-/nonexistent}/$p")
	rm -f "$T/run.json"
	timeout 60 "$sluice" --no-pci -l 0-1 --file-prefix "$p" "$@" --json "$T/run.json" \
		>"$T/out" 2>"$T/err" &
	bg=$!
	# While it runs: its page files in the mount, and pages taken from the
	# pool. EAL gives back, file and page, what it frees while running, but
	# keeps the file of each page still allocated at exit (DPDK's default
	# --huge-unlink=existing): --clear in (d) and (e) must deal with those.
	while kill -0 "$bg" 2>/dev/null; do
		compgen -G "$mnt/${p}map_*" >/dev/null && seen=1
		free=$(cat "$hpd/free_hugepages")
		[ $((want - free)) -le "$used" ] || used=$((want - free))
		sleep 0.05
	done
	wait "$bg" && rc=0 || rc=$?
	bg=""
	check "$what: exit 0" rc_is 0
	[ "$rc" = 0 ] || sed 's/^/# /' "$T/err" | tail -5
	check "$what: on huge pages: its page files ${p}map_* were in $mnt" [ "$seen" = 1 ]
	check "$what: ... and it held huge pages (up to $used of $want)" [ "$used" -gt 0 ]
	check "$what: JSON totals conserved, backlog 0, mempool_in_use 0" \
		jt '.totals | .conserved == true and .generated == .tx_packets + .dropped + .backlog and .backlog == 0 and .mempool_in_use == 0'
	check "$what: the summary line says (conserved), mbufs not returned: 0" \
		grep -qE '^total: generated [0-9]+ = tx [0-9]+ \+ dropped 0 \+ backlog 0 \(conserved\); mbufs not returned: 0' "$T/out"
	echo "# $what: after exit, its page files left in $mnt: $(compgen -G "$mnt/${p}map_*" | wc -l)"
}
if [ -n "$mnt" ] && [ "$(nr)" = "$want" ]; then
	# About a second each (--rate), so the pages are seen in use.
	hrun "(c) net_null --count 1000000" --vdev net_null0 -- --count 1000000 --rate 1Mpps
	check "(c) ... tx_packets 1000000, dropped 0" eq "$(j '[.totals.tx_packets, .totals.dropped]')" "[1000000,0]"
	hrun "(c) sim 10G --count 1000000" -- --sim 10G --count 1000000 --rate 1Mpps
	check "(c) ... tx_packets 1000000, dropped 0, port sl_sim" \
		eq "$(j '[.totals.tx_packets, .totals.dropped, .ports[0].driver]')" '[1000000,0,"sl_sim"]'
else
	ko "(c) Sluice on hugepages: not run, the set-up failed"
fi

# (d) Clear: everything as it was.
out=$("$nic" hugepages --clear 2>&1) && rc=0 || rc=$?
check "(d) hugepages --clear exits 0" rc_is 0
check "(d) ... the count is back to $nr0" eq "$(nr)" "$nr0"
check "(d) ... the hugetlbfs mounts are as before (${mounts0:-none})" eq "$(mounts)" "$mounts0"
check "(d) ... /dev/hugepages exists as before ($devhp0)" eq "$([ -e /dev/hugepages ] && echo yes || echo no)" "$devhp0"
check "(d) ... and the record is gone" [ ! -e "$SL_HUGE_STATE" ]

# (e) A hugetlbfs mounted beforehand (systemd mounts /dev/hugepages at boot)
# and the only one seen: sl-nic.sh uses it and leaves it mounted, so the page
# files the run leaves stay (an unmount does not drop them) and hold pages:
# --clear must remove them to put the count back.
awk '$3 == "hugetlbfs" {print $2}' /proc/mounts | while read -r d; do umount -l "$d"; done
mkdir -p "$T/pre"
mount -t hugetlbfs -o pagesize=2M nodev "$T/pre"
out=$("$nic" hugepages "${nopt[@]}" "$size" 2>&1) && rc=0 || rc=$?
check "(e) hugetlbfs 2M on $T/pre beforehand: hugepages ${nopt[*]} $size exits 0, uses it, leaves it alone" \
	eval 'rc_is 0 && said "already mounted on $T/pre: using it; --clear leaves it alone" && eq "$(nr)" "$want"'
mnt=$T/pre
hrun "(e) net_null --count 1000000" --vdev net_null0 -- --count 1000000 --rate 1Mpps
pre_files() { compgen -G "$T/pre/*map_*" || true; }
left=$(pre_files | tr '\n' ' ')
if [ -n "$left" ]; then
	out=$("$nic" hugepages --clear 2>&1) && rc=0 || rc=$?
	check "(e) hugepages --clear with the page files the run left (${left% }): exit 0" rc_is 0
	[ "$rc" = 0 ] || while read -r l; do echo "# $l"; done <<<"$out"
	check "(e) ... says it removed them" said "page files left by DPDK runs that have ended"
	check "(e) ... they are gone, the count is back to $nr0, the record is gone" \
		eval '[ -z "$(pre_files)" ] && eq "$(nr)" "$nr0" && [ ! -e "$SL_HUGE_STATE" ]'
	check "(e) ... and $T/pre is still mounted (not ours)" mountpoint -q "$T/pre"
else
	echo "SKIP - (e) --clear with leftover page files: this DPDK left none in $T/pre"
	skip=$((skip + 1))
	"$nic" hugepages --clear >/dev/null 2>&1 || true
fi
umount "$T/pre"
finish
