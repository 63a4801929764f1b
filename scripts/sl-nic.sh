#!/usr/bin/env bash
# sl-nic.sh - prepare real NICs for Sluice: status, hugepages, bind, restore.
# Run with --help for usage. Everything that changes the system goes through
# SL_DEVBIND, SL_MODPROBE, SL_HUGEPAGES, SL_MOUNT, SL_UMOUNT, sysfs_write()
# (under SL_SYSFS, through SL_SYSFS_WRITE if set), mkdir/rmdir of the mount
# point (SL_HUGE_DIR) and rm of DPDK page files no process uses (in the
# hugetlbfs mounts listed in SL_MOUNTS), and the mount table is read from
# SL_MOUNTS, so tests can replace all of it.
set -euo pipefail
shopt -s nullglob

SYS=${SL_SYSFS:-/sys}
DEVBIND=${SL_DEVBIND:-dpdk-devbind.py}
MODPROBE=${SL_MODPROBE:-modprobe}
HUGEPAGES=${SL_HUGEPAGES:-dpdk-hugepages.py}
MOUNT=${SL_MOUNT:-mount}
UMOUNT=${SL_UMOUNT:-umount}
MOUNTS=${SL_MOUNTS:-/proc/mounts}
HUGE_DIR=${SL_HUGE_DIR:-/dev/hugepages}
HSTATE=${SL_HUGE_STATE:-/run/sluice/hugepages}
STATE=${SL_NIC_STATE:-/var/lib/sluice/nic-bindings}
NOIOMMU_PARAM=module/vfio/parameters/enable_unsafe_noiommu_mode
DRY=0

usage() {
	cat <<EOF
usage: sl-nic.sh COMMAND [ARGS]

  status                      hugepages, IOMMU, vfio-pci and every network
                              device (PCI driver, NUMA node, interface, link,
                              address/route, default route)
  hugepages [--dry-run] [-p PAGESIZE] [-n NODE] TOTAL
                              reserve TOTAL bytes of huge pages (suffix K, M or
                              G) in pages of PAGESIZE (default 2M), on node
                              NODE or else on each NUMA node, and mount
                              hugetlbfs for that page size (on /dev/hugepages,
                              created if missing) unless one is mounted:
                              'hugepages 1G' = 512 pages of 2M,
                              'hugepages -p 1G 4G' = 4 pages of 1G; then
                              checks both, and on failure undoes what it did
                              and exits 1 (runs dpdk-hugepages.py -p PAGESIZE
                              [-n NODE] --reserve TOTAL, mkdir, mount)
  hugepages --clear [--dry-run]
                              undo what 'hugepages' recorded: unmount what it
                              mounted, remove the directory it created, put the
                              page counts back as they were; nothing else, but
                              for the page files (*map_*) of ended DPDK runs
                              that hold pages back: those no process uses are
                              removed, the others named with their processes
  bind [--dry-run] [--force] [--noiommu] [--driver DRV] DEV...
                              bind DEVs (PCI address 0000:01:00.0 or 01:00.0,
                              or interface name) to DRV (default vfio-pci);
                              the original drivers are recorded for 'restore'
  restore [--dry-run]         rebind every recorded device to its original
                              driver and clear the record

  --dry-run   print the commands that would run; change nothing
  --force     also bind devices in use (up with an address or a route, or
              carrying the default route): you may cut your own connection
  --noiommu   without an IOMMU, enable vfio's unsafe no-IOMMU mode

bind checks every DEV before it changes anything: one refused DEV (exit 1)
means no device is touched.

environment: SL_DEVBIND (dpdk-devbind.py), SL_MODPROBE (modprobe),
SL_HUGEPAGES (dpdk-hugepages.py), SL_MOUNT (mount), SL_UMOUNT (umount),
SL_SYSFS (/sys), SL_SYSFS_WRITE (none: a command run as CMD FILE VALUE
instead of each sysfs write), SL_MOUNTS (/proc/mounts),
SL_HUGE_DIR (/dev/hugepages),
SL_NIC_STATE (/var/lib/sluice/nic-bindings),
SL_HUGE_STATE (/run/sluice/hugepages)
exit: 0 ok, 1 refused or failed, 2 usage error
EOF
}

die() { echo "sl-nic: $*" >&2; exit 1; }
usage_err() { echo "sl-nic: $*" >&2; echo "sl-nic: try 'sl-nic.sh --help'" >&2; exit 2; }

# run CMD...: run a command that changes the system (under --dry-run: print it).
run() {
	if [ "$DRY" = 1 ]; then
		local s
		s=$(printf '%q ' "$@")
		echo "${s% }"
	else
		"$@"
	fi
}

# sysfs_write REL VALUE: the one place that writes under sysfs ($SYS/REL)
# (through $SL_SYSFS_WRITE FILE VALUE when set: the tests' stand-in kernel).
sysfs_write() {
	if [ "$DRY" = 1 ]; then
		echo "echo $2 > $SYS/$1"
	elif [ -n "${SL_SYSFS_WRITE:-}" ]; then
		"$SL_SYSFS_WRITE" "$SYS/$1" "$2"
	else
		echo "$2" >"$SYS/$1"
	fi
}

sysfs_read() { cat "$SYS/$1" 2>/dev/null || true; }

# --- PCI devices and their interfaces (sysfs) ---

# norm_pci ADDR: print ADDR as 0000:01:00.0, or fail if it is no PCI address.
norm_pci() {
	local a=${1,,}
	[[ $a =~ ^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$ ]] && a=0000:$a
	[[ $a =~ ^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$ ]] || return 1
	echo "$a"
}

# pci_of_if IF: the PCI address behind interface IF (virtio: its parent).
pci_of_if() {
	local d
	d=$(readlink -f "$SYS/class/net/$1/device" 2>/dev/null) || return 1
	while [ -n "$d" ] && [ "$d" != / ]; do
		norm_pci "${d##*/}" 2>/dev/null && return 0
		d=${d%/*}
	done
	return 1
}

pci_ifaces() {
	local n
	for n in "$SYS/bus/pci/devices/$1"/net/* "$SYS/bus/pci/devices/$1"/*/net/*; do
		echo "${n##*/}"
	done
}

pci_driver() {
	local l
	l=$(readlink "$SYS/bus/pci/devices/$1/driver" 2>/dev/null) || return 0
	echo "${l##*/}"
}

# --- interface state (ip, current network namespace) ---

if_up() { ip -o link show dev "$1" 2>/dev/null | grep -Eq '<([^>]*,)?UP[,>]'; }
if_oper() { ip -o link show dev "$1" 2>/dev/null | awk '{for (i = 1; i < NF; i++) if ($i == "state") print tolower($(i + 1))}'; }

# if_addrs IF: IPv4 addresses and IPv6 addresses other than link-local.
if_addrs() {
	ip -o addr show dev "$1" 2>/dev/null |
		awk '$3 == "inet" || ($3 == "inet6" && $0 !~ / scope link /) {print $4}'
}

# if_routes IF: routes via IF in any table, less the kernel's own local and
# link-local ones.
if_routes() {
	{
		ip -o -4 route show table all dev "$1" 2>/dev/null || true
		ip -o -6 route show table all dev "$1" 2>/dev/null || true
	} | grep -Ev 'table local|^fe80::/64|^multicast ' || true
}

default_ifs() {
	{
		ip -o -4 route show table all default 2>/dev/null || true
		ip -o -6 route show table all default 2>/dev/null || true
	} | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1)}' | sort -u
}

yn() { if [ -n "$1" ]; then echo yes; else echo no; fi; }

# if_desc IF: one line of "key=value" about IF.
if_desc() {
	local dflt=no admin=down
	grep -qxF "$1" <<<"$DEFAULT_IFS" && dflt=YES
	if_up "$1" && admin=up
	echo "if=$1 admin=$admin link=$(if_oper "$1") addr=$(yn "$(if_addrs "$1")") route=$(yn "$(if_routes "$1")") default-route=$dflt"
}

# --- status ---

cmd_status() {
	[ $# -eq 0 ] || usage_err "status takes no arguments"
	DEFAULT_IFS=$(default_ifs)
	local d n sz found=0 groups

	for d in "$SYS"/kernel/mm/hugepages/hugepages-*; do
		sz=${d##*hugepages-}
		echo "hugepages $sz: total $(sysfs_read "${d#"$SYS"/}/nr_hugepages") free $(sysfs_read "${d#"$SYS"/}/free_hugepages")"
		found=1
	done
	[ "$found" = 1 ] || echo "hugepages: none (kernel without hugetlbfs?)"
	for n in "$SYS"/devices/system/node/node*; do
		for d in "$n"/hugepages/hugepages-*; do
			echo "hugepages ${d##*hugepages-} ${n##*/}: total $(cat "$d/nr_hugepages") free $(cat "$d/free_hugepages")"
		done
	done
	echo "hugetlbfs mounts: $(huge_mounts | awk '{m = m (m == "" ? "" : ", ") $1 " (" $2 "kB pages)"} END {print (m == "" ? "none" : m)}')"
	if [ -s "$HSTATE" ]; then
		echo "hugepages made by sl-nic.sh (undo: hugepages --clear): $(awk '$1 == "pages" {n = split($2, p, "/"); $0 = $1 " " (p[1] == "kernel" ? "" : p[n - 2] " ") p[n] " (were " $3 ")"} {m = m ", " $0} END {print substr(m, 3)}' "$HSTATE")"
	else
		echo "hugepages made by sl-nic.sh: none recorded"
	fi

	groups=("$SYS"/kernel/iommu_groups/*)
	if [ ${#groups[@]} -gt 0 ]; then
		echo "iommu: on (${#groups[@]} groups)"
	else
		echo "iommu: off (no IOMMU groups; vfio-pci needs no-IOMMU mode, see bind --noiommu)"
	fi
	echo "iommu: vfio enable_unsafe_noiommu_mode=$(sysfs_read "$NOIOMMU_PARAM" | grep . || echo '(vfio not loaded)')"
	if [ -d "$SYS/module/vfio_pci" ]; then echo "vfio-pci: loaded"; else echo "vfio-pci: not loaded"; fi

	local pci class ids ifs i head pci_ifs=""
	echo "network devices (PCI class 0x02):"
	for d in "$SYS"/bus/pci/devices/*; do
		class=$(cat "$d/class" 2>/dev/null) || continue
		[[ $class == 0x02* ]] || continue
		pci=${d##*/}
		ids="$(sysfs_read "bus/pci/devices/$pci/vendor"):$(sysfs_read "bus/pci/devices/$pci/device")"
		ids=${ids//0x/}
		head="$pci [$ids] driver=$(pci_driver "$pci" | grep . || echo none) numa=$(sysfs_read "bus/pci/devices/$pci/numa_node")"
		ifs=$(pci_ifaces "$pci")
		[ -n "$ifs" ] || echo "  $head if=-"
		for i in $ifs; do
			echo "  $head $(if_desc "$i")"
			pci_ifs+=" $i "
		done
	done
	echo "other interfaces (not PCI):"
	for i in $(ip -o link show | awk -F': ' '{sub(/@.*/, "", $2); print $2}'); do
		[[ $pci_ifs == *" $i "* ]] || echo "  $(if_desc "$i")"
	done
	echo "note: 'dpdk-devbind.py --status' also shows the drivers each device could use (drv=, unused=), which devices it sees as active, and crypto, dma, event and other DPDK devices"
}

# --- hugepages ---

# to_kb SIZE: 2M -> 2048 (K, M or G suffix).
to_kb() {
	local n=${1%[KMG]}
	case ${1: -1} in
	K) echo "$n" ;;
	M) echo $((n * 1024)) ;;
	G) echo $((n * 1024 * 1024)) ;;
	esac
}

# huge_mounts: "DIR PAGESIZE_KB" for every hugetlbfs mount in $MOUNTS (a
# mount without pagesize= has the default size, Hugepagesize in meminfo).
huge_mounts() {
	local dflt
	dflt=$(awk '/^Hugepagesize:/ {print $2}' /proc/meminfo 2>/dev/null || true)
	awk -v d="${dflt:-2048}" '$3 == "hugetlbfs" {
		kb = d
		if (match($4, /pagesize=[0-9]+[KMG]/)) {
			s = substr($4, RSTART + 9, RLENGTH - 9); u = substr(s, length(s)); kb = substr(s, 1, length(s) - 1) + 0
			if (u == "M") kb *= 1024; else if (u == "G") kb *= 1048576
		}
		print $2, kb
	}' "$MOUNTS" 2>/dev/null || true
}
# huge_mount_of KB: the first hugetlbfs mount for pages of KB kB, if any.
huge_mount_of() { huge_mounts | awk -v k="$1" '$2 == k {print $1; exit}'; }
is_huge_mount() { huge_mounts | awk -v m="$1" -v k="$2" '$1 == m && $2 == k {f = 1} END {exit !f}'; }
is_mountpoint() { awk -v m="$1" '$2 == m {f = 1} END {exit !f}' "$MOUNTS" 2>/dev/null; }

# page_files KB: the DPDK page files (PREFIXmap_N; rtemap_N by default) in
# every hugetlbfs mount for pages of KB kB, less the mounts in PF_SKIP (those
# --clear unmounts, which drops their files). EAL keeps the file of each page
# still allocated when it exits, even cleanly (DPDK's default
# --huge-unlink=existing), and removes the unlocked ones only when the next
# DPDK process starts on that mount; until then each holds a huge page.
page_files() {
	local m k f
	while read -r m k; do
		[[ $k == "$1" && " ${PF_SKIP[*]} " != *" $m "* ]] || continue
		for f in "$m"/*map_*; do
			[ -f "$f" ] && echo "$f"
		done
	done < <(huge_mounts)
}

# file_users FILE...: "FILE PID (COMM)" for each process that maps FILE or
# holds it open (/proc/PID/maps and /proc/PID/fd).
file_users() {
	[ $# -gt 0 ] || return 0
	local pid f
	{
		grep -HsFf <(printf '%s\n' "$@") /proc/[0-9]*/maps | awk '{split($1, p, "/"); print p[3], $6}' || true
		find /proc/[0-9]*/fd -maxdepth 1 -type l -printf '%h %l\n' 2>/dev/null | awk '{split($1, p, "/"); print p[3], $2}' || true
	} | awk 'NR == FNR {w[$0] = 1; next} ($2 in w)' <(printf '%s\n' "$@") - | sort -u |
		while read -r pid f; do
			echo "$f $pid ($(cat "/proc/$pid/comm" 2>/dev/null || echo gone))"
		done
}

# free_page_files KB...: remove the page files for pages of these sizes that
# no process uses: none maps one or holds it open, and none holds its lock
# (DPDK locks each page file it uses; the removal runs under an exclusive
# lock, as EAL's own clean-up at start-up does). Sets PF_GONE (removed, or
# printed under --dry-run) and PF_BUSY ("FILE (used by PID (COMM) ...)").
PF_GONE=() PF_BUSY=() PF_SKIP=()
free_page_files() {
	local k f u users files=()
	for k in $(printf '%s\n' "$@" | sort -u); do
		mapfile -t -O "${#files[@]}" files < <(page_files "$k")
	done
	[ ${#files[@]} -gt 0 ] || return 0
	users=$(file_users "${files[@]}")
	for f in "${files[@]}"; do
		u=$(awk -v f="$f" '$1 == f {$1 = ""; printf "%s,", $0}' <<<"$users")
		if [ -n "$u" ]; then
			PF_BUSY+=("$f (used by${u%,})")
		elif run flock -n -x "$f" rm -f "$f"; then
			PF_GONE+=("$f")
		else
			PF_BUSY+=("$f (locked by a DPDK process this shell cannot see)")
		fi
	done
}

# state_add LINE: append LINE to the hugepages record (not under --dry-run).
state_add() {
	[ "$DRY" = 1 ] && return 0
	mkdir -p "$(dirname "$HSTATE")"
	echo "$1" >>"$HSTATE"
}

# Undo what this run of 'hugepages' did (newest first), put the record back
# as it was, and exit 1 with MSG... (one line each) and what to do.
HP_DONE=()
hp_fail() {
	local l i w a b
	for l in "$@"; do echo "sl-nic: $l" >&2; done
	for ((i = ${#HP_DONE[@]} - 1; i >= 0; i--)); do
		read -r w a b <<<"${HP_DONE[i]}"
		case $w in
		mount) "$UMOUNT" "$a" >&2 && echo "sl-nic: undone: unmounted $a" >&2 ;;
		mkdir) rmdir "$a" && echo "sl-nic: undone: removed $a" >&2 ;;
		pages)
			[ "$(sysfs_read "$a/nr_hugepages")" = "$b" ] ||
				{ sysfs_write "$a/nr_hugepages" "$b" && echo "sl-nic: undone: $a/nr_hugepages back to $b" >&2; }
			;;
		esac
	done
	if [ -n "${HP_SNAP:-}" ]; then
		cp "$HP_SNAP" "$HSTATE"
		rm -f "$HP_SNAP"
	else
		rm -f "$HSTATE"
		rmdir "$(dirname "$HSTATE")" 2>/dev/null || true
	fi
	echo "sl-nic: nothing is left changed by this run; check with: sl-nic.sh status" >&2
	exit 1
}

cmd_hugepages() {
	local pagesz=2M node="" total="" clear=0
	while [ $# -gt 0 ]; do
		case $1 in
		--dry-run) DRY=1 ;;
		--clear) clear=1 ;;
		-p | --pagesize) [ $# -ge 2 ] || usage_err "$1 needs a value"; pagesz=$2; shift ;;
		-n | --node) [ $# -ge 2 ] || usage_err "$1 needs a value"; node=$2; shift ;;
		-*) usage_err "hugepages: unknown option $1" ;;
		*) [ -z "$total" ] || usage_err "hugepages: one TOTAL only"; total=$1 ;;
		esac
		shift
	done
	if [ "$clear" = 1 ]; then
		if [ -n "$total$node" ] || [ "$pagesz" != 2M ]; then
			usage_err "hugepages --clear takes only --dry-run"
		fi
		hugepages_clear
		return
	fi
	[ -n "$total" ] || usage_err "hugepages: TOTAL missing (e.g. 1G)"
	[[ $total =~ ^[0-9]+[KMG]$ ]] || usage_err "hugepages: bad TOTAL '$total' (e.g. 512M, 1G)"
	[[ $pagesz =~ ^[0-9]+[KMG]$ ]] || usage_err "hugepages: bad page size '$pagesz' (2M or 1G)"
	[[ -z $node || $node =~ ^[0-9]+$ ]] || usage_err "hugepages: bad node '$node'"
	local pkb tkb pages
	pkb=$(to_kb "$pagesz")
	tkb=$(to_kb "$total")
	if [ "$pkb" = 0 ] || [ "$tkb" -lt "$pkb" ] || [ $((tkb % pkb)) != 0 ]; then
		usage_err "hugepages: TOTAL $total is not a whole number of $pagesz pages"
	fi
	pages=$((tkb / pkb))

	# What the kernel offers, and which sysfs directories hold the count.
	[ -d "$SYS/kernel/mm/hugepages" ] ||
		die "this kernel has no hugetlbfs ($SYS/kernel/mm/hugepages is missing): run sluice with --no-huge -m 512"
	local sz="hugepages-${pkb}kB" d dirs=() have
	if [ ! -d "$SYS/kernel/mm/hugepages/$sz" ]; then
		have=$(cd "$SYS/kernel/mm/hugepages" && echo hugepages-* | sed 's/hugepages-//g')
		die "page size $pagesz ($sz) is not offered by this kernel (it has: $have)"
	fi
	if [ -n "$node" ]; then
		[ -d "$SYS/devices/system/node/node$node/hugepages/$sz" ] || die "no NUMA node $node with $pagesz pages"
		dirs=("devices/system/node/node$node/hugepages/$sz")
	else
		for d in "$SYS"/devices/system/node/node*/hugepages/"$sz"; do dirs+=("${d#"$SYS"/}"); done
		[ ${#dirs[@]} -gt 0 ] || dirs=("kernel/mm/hugepages/$sz")
	fi

	# Where to mount: a hugetlbfs for this page size that exists already is
	# used and left alone; else $HUGE_DIR, or $HUGE_DIR-$pagesz when
	# $HUGE_DIR is already a mount point (of another page size or fs).
	local mnt need_mount=1 need_mkdir=0
	mnt=$(huge_mount_of "$pkb")
	if [ -n "$mnt" ]; then
		need_mount=0
		if grep -qxF "mount $mnt" "$HSTATE" 2>/dev/null; then
			echo "sl-nic: hugetlbfs for $pagesz pages is already mounted on $mnt (by an earlier 'hugepages': --clear unmounts it)" >&2
		else
			echo "sl-nic: hugetlbfs for $pagesz pages is already mounted on $mnt: using it; --clear leaves it alone" >&2
		fi
	else
		mnt=$HUGE_DIR
		is_mountpoint "$mnt" && mnt=$HUGE_DIR-$pagesz
		[ -d "$mnt" ] || need_mkdir=1
	fi

	HP_SNAP=""
	if [ "$DRY" = 0 ] && [ -e "$HSTATE" ]; then
		HP_SNAP=$(mktemp)
		cp "$HSTATE" "$HP_SNAP"
	fi

	# 1. Pages: record each count as it was (the first record of a directory
	# wins, as for bind), reserve, then check every asked node.
	local prev got short=()
	for d in "${dirs[@]}"; do
		prev=$(sysfs_read "$d/nr_hugepages")
		HP_DONE+=("pages $d ${prev:-0}")
		grep -q "^pages $d " "$HSTATE" 2>/dev/null || state_add "pages $d ${prev:-0}"
	done
	local args=(-p "$pagesz")
	[ -z "$node" ] || args+=(-n "$node")
	run "$HUGEPAGES" "${args[@]}" --reserve "$total" || true
	if [ "$DRY" = 0 ]; then
		for d in "${dirs[@]}"; do
			got=$(sysfs_read "$d/nr_hugepages")
			[ "${got:-0}" = "$pages" ] || short+=("$d: ${got:-0} of $pages pages")
		done
		[ ${#short[@]} = 0 ] ||
			hp_fail "could not reserve $total in $pagesz pages:" "${short[@]}" \
				"not enough free memory ($(awk '/^MemAvailable:/ {print $2 " kB available"}' /proc/meminfo)), or too fragmented:" \
				"ask for less, free memory (drop caches: echo 3 > /proc/sys/vm/drop_caches), or reserve at boot" \
				"(kernel command line: hugepagesz=$pagesz hugepages=$pages)"
	fi

	# 2. The mount point, 3. the mount, checked in the mount table.
	if [ "$need_mkdir" = 1 ]; then
		run mkdir -p "$mnt" || hp_fail "cannot create the mount point $mnt:" \
			"create it by hand (mkdir -p $mnt) or choose another with SL_HUGE_DIR=DIR"
		HP_DONE+=("mkdir $mnt")
		state_add "mkdir $mnt"
	fi
	if [ "$need_mount" = 1 ]; then
		run "$MOUNT" -t hugetlbfs -o "pagesize=$pagesz" nodev "$mnt" || true
		if [ "$DRY" = 0 ]; then
			is_huge_mount "$mnt" "$pkb" ||
				hp_fail "hugetlbfs (pagesize=$pagesz) is not mounted on $mnt after: mount -t hugetlbfs -o pagesize=$pagesz nodev $mnt" \
					"see mount's message above; mount it by hand, or choose another mount point with SL_HUGE_DIR=DIR"
			HP_DONE+=("mount $mnt")
			state_add "mount $mnt"
		fi
	fi
	[ -z "$HP_SNAP" ] || rm -f "$HP_SNAP"
	[ "$DRY" = 1 ] ||
		echo "sl-nic: $pages pages of $pagesz on ${node:+node }${node:-each node}, hugetlbfs on $mnt; check: sl-nic.sh status; undo: sl-nic.sh hugepages --clear" >&2
}

# hugepages --clear: undo what 'hugepages' recorded in $HSTATE, newest first:
# unmount its mounts, remove the directories it created, put the page counts
# back as they were. Anything not recorded is left alone, but for page files
# that DPDK runs left in a mount it did not make (see page_files): when they
# keep a count from going back, those no process uses are removed.
hugepages_clear() {
	if [ ! -s "$HSTATE" ]; then
		echo "sl-nic: nothing to clear ($HSTATE is empty): hugepages and mounts not made by sl-nic.sh are left alone" >&2
		return 0
	fi
	local lines=() i w a b
	mapfile -t lines <"$HSTATE"
	for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
		read -r w a b <<<"${lines[i]}"
		case $w in
		mount)
			is_mountpoint "$a" || continue
			PF_SKIP+=("$a")
			run "$UMOUNT" "$a" ||
				die "cannot unmount $a: it is in use$(file_users "$a"/* | awk '{$1 = ""; printf "%s%s", (NR == 1 ? " by" : ","), $0}'): stop the processes that use it, then run 'sl-nic.sh hugepages --clear' again; nothing else was changed"
			;;
		mkdir)
			[ -d "$a" ] || continue
			if [ "$DRY" = 1 ]; then run rmdir "$a"; else rmdir "$a" 2>/dev/null || echo "sl-nic: $a is not empty: left in place" >&2; fi
			;;
		pages)
			[[ $a =~ ^(kernel/mm|devices/system/node/node[0-9]+)/hugepages/hugepages-[0-9]+kB$ && $b =~ ^[0-9]+$ ]] ||
				die "bad line in $HSTATE: ${lines[i]}"
			[ "$(sysfs_read "$a/nr_hugepages")" = "$b" ] || sysfs_write "$a/nr_hugepages" "$b"
			;;
		*) die "bad line in $HSTATE: ${lines[i]}" ;;
		esac
	done
	# A count that did not go back (under --dry-run: that will not, as more
	# pages are in use than it goes back to) is held by page files: remove
	# those no process uses, then write the count again.
	local short=() kbs=() now
	for ((i = 0; i < ${#lines[@]}; i++)); do
		read -r w a b <<<"${lines[i]}"
		[ "$w" = pages ] || continue
		now=$(sysfs_read "$a/nr_hugepages")
		if [ "$DRY" = 1 ]; then
			[ "$b" -lt $((now - $(sysfs_read "$a/free_hugepages"))) ] || continue
		elif [ "$now" = "$b" ]; then
			continue
		fi
		short+=("$a $b")
		kbs+=("${a##*hugepages-}")
	done
	[ ${#short[@]} = 0 ] || free_page_files "${kbs[@]%kB}"
	[ "$DRY" = 0 ] || return 0
	[ ${#PF_GONE[@]} = 0 ] ||
		echo "sl-nic: removed ${#PF_GONE[@]} page files left by DPDK runs that have ended (no process used them; each held a huge page): ${PF_GONE[*]}" >&2
	local again="then run 'sl-nic.sh hugepages --clear' again"
	for i in "${short[@]}"; do
		read -r a b <<<"$i"
		sysfs_write "$a/nr_hugepages" "$b"
		now=$(sysfs_read "$a/nr_hugepages")
		[ "$now" != "$b" ] || continue
		[ ${#PF_BUSY[@]} = 0 ] ||
			die "$a/nr_hugepages is $now, not $b: page files still in use hold huge pages: $(printf '%s; ' "${PF_BUSY[@]}")stop those processes, $again"
		die "$a/nr_hugepages is $now, not $b: $((now - b)) huge pages are in use, and no page file in a hugetlbfs mount seen here holds them: a process maps them without a file, or through a mount in another mount namespace ('grep -l huge /proc/*/numa_maps' names it); stop it, $again"
	done
	rm -f "$HSTATE"
	rmdir "$(dirname "$HSTATE")" 2>/dev/null || true
	echo "sl-nic: hugepages cleared: recorded mounts unmounted, page counts as before" >&2
}

# --- bind / restore ---

# check_dev PCI: print why PCI must not be bound (nothing if it may be).
check_dev() {
	local pci=$1 i why=""
	for i in $(pci_ifaces "$pci"); do
		if grep -qxF "$i" <<<"$DEFAULT_IFS"; then
			echo "refused: $pci ($i) carries the default route: binding it cuts this machine's network"
			return
		fi
		if if_up "$i" && [ -n "$(if_addrs "$i")$(if_routes "$i")" ]; then
			why="refused: $pci ($i) is up with an address or a route: it is in use"
		fi
	done
	[ -z "$why" ] || echo "$why"
}

cmd_bind() {
	local force=0 noiommu=0 drv=vfio-pci devs=()
	while [ $# -gt 0 ]; do
		case $1 in
		--dry-run) DRY=1 ;;
		--force) force=1 ;;
		--noiommu) noiommu=1 ;;
		--driver) [ $# -ge 2 ] || usage_err "--driver needs a value"; drv=$2; shift ;;
		-*) usage_err "bind: unknown option $1" ;;
		*) devs+=("$1") ;;
		esac
		shift
	done
	[ ${#devs[@]} -gt 0 ] || usage_err "bind: no DEV given"
	[[ $drv =~ ^[A-Za-z0-9_-]+$ ]] || usage_err "bind: bad driver name '$drv'"
	DEFAULT_IFS=$(default_ifs)

	# 1. Validate every device; change nothing.
	local dev pci cur why errs=0 todo=() seen=" "
	for dev in "${devs[@]}"; do
		pci=$(norm_pci "$dev" || pci_of_if "$dev") ||
			{ echo "sl-nic: refused: $dev: no such PCI address or PCI-backed interface" >&2; errs=1; continue; }
		[ -d "$SYS/bus/pci/devices/$pci" ] ||
			{ echo "sl-nic: refused: $dev: no PCI device $pci" >&2; errs=1; continue; }
		[[ $seen == *" $pci "* ]] && continue
		seen+="$pci "
		if [[ $(sysfs_read "bus/pci/devices/$pci/class") != 0x02* ]] && [ "$force" = 0 ]; then
			echo "sl-nic: refused: $pci is not a network device (use --force)" >&2
			errs=1
			continue
		fi
		why=$(check_dev "$pci")
		if [ -n "$why" ]; then
			if [ "$force" = 1 ]; then
				echo "sl-nic: warning: --force: ${why#refused: }" >&2
			else
				echo "sl-nic: $why (use --force to bind anyway)" >&2
				errs=1
				continue
			fi
		fi
		cur=$(pci_driver "$pci")
		if [ "$cur" = "$drv" ]; then
			echo "sl-nic: $pci is already bound to $drv" >&2
			continue
		fi
		todo+=("$pci ${cur:-none}")
	done
	[ "$errs" = 0 ] || die "nothing changed"
	[ ${#todo[@]} -gt 0 ] || return 0

	# 2. Act.
	run "$MODPROBE" "$drv"
	if [ "$drv" = vfio-pci ]; then
		local groups=("$SYS"/kernel/iommu_groups/*)
		if [ ${#groups[@]} -eq 0 ] && [[ $(sysfs_read "$NOIOMMU_PARAM") != [Y1]* ]]; then
			if [ "$noiommu" = 1 ]; then
				sysfs_write "$NOIOMMU_PARAM" 1
			else
				echo "sl-nic: no IOMMU: vfio-pci needs no-IOMMU mode; enable it with" >&2
				echo "sl-nic:   echo 1 > /sys/$NOIOMMU_PARAM   (or rerun with --noiommu)" >&2
			fi
		fi
	fi
	local t pcis=() fopt=()
	[ "$force" = 0 ] || fopt=(--force)
	for t in "${todo[@]}"; do
		pci=${t% *}
		pcis+=("$pci")
		[ "$DRY" = 1 ] && continue
		mkdir -p "$(dirname "$STATE")"
		# Keep the first original driver if the device is bound twice.
		grep -q "^$pci " "$STATE" 2>/dev/null || echo "$t" >>"$STATE"
	done
	run "$DEVBIND" -b "$drv" "${fopt[@]}" "${pcis[@]}"
	[ "$DRY" = 1 ] || echo "sl-nic: bound ${pcis[*]} to $drv; undo with: sl-nic.sh restore" >&2
}

cmd_restore() {
	while [ $# -gt 0 ]; do
		case $1 in
		--dry-run) DRY=1 ;;
		*) usage_err "restore: unknown argument $1" ;;
		esac
		shift
	done
	if [ ! -s "$STATE" ]; then
		echo "sl-nic: nothing to restore ($STATE is empty)" >&2
		return 0
	fi
	local pci drv
	while read -r pci drv; do
		norm_pci "$pci" >/dev/null || die "bad line in $STATE: $pci $drv"
		if [ "$drv" = none ]; then
			run "$DEVBIND" -u "$pci"
		else
			run "$DEVBIND" -b "$drv" "$pci"
		fi
	done <"$STATE"
	[ "$DRY" = 1 ] || rm -f "$STATE"
}

[ $# -gt 0 ] || { usage >&2; exit 2; }
cmd=$1
shift
case $cmd in
-h | --help | help) usage ;;
status) cmd_status "$@" ;;
hugepages) cmd_hugepages "$@" ;;
bind) cmd_bind "$@" ;;
restore) cmd_restore "$@" ;;
*) usage_err "unknown command '$cmd'" ;;
esac
