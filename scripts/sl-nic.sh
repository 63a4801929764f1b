#!/usr/bin/env bash
# sl-nic.sh - prepare real NICs for Sluice: status, hugepages, bind, restore.
# Run with --help for usage. Everything that changes the system goes through
# SL_DEVBIND, SL_MODPROBE, SL_HUGEPAGES and sysfs_write() (under SL_SYSFS),
# so tests can replace all of it with stand-ins.
set -euo pipefail
shopt -s nullglob

SYS=${SL_SYSFS:-/sys}
DEVBIND=${SL_DEVBIND:-dpdk-devbind.py}
MODPROBE=${SL_MODPROBE:-modprobe}
HUGEPAGES=${SL_HUGEPAGES:-dpdk-hugepages.py}
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
                              G) in pages of PAGESIZE (default 2M) and mount
                              them: 'hugepages 1G' = 512 pages of 2M,
                              'hugepages -p 1G 4G' = 4 pages of 1G
                              (runs dpdk-hugepages.py -p PAGESIZE --setup TOTAL)
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
SL_HUGEPAGES (dpdk-hugepages.py), SL_SYSFS (/sys),
SL_NIC_STATE (/var/lib/sluice/nic-bindings)
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

# sysfs_write REL VALUE: the one place that writes under sysfs ($SYS/REL).
sysfs_write() {
	if [ "$DRY" = 1 ]; then
		echo "echo $2 > $SYS/$1"
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
	echo "hugetlbfs mounts: $(awk '$3 == "hugetlbfs" {m = m $2 " "} END {print (m == "" ? "none" : m)}' /proc/mounts)"

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

cmd_hugepages() {
	local pagesz=2M node="" total=""
	while [ $# -gt 0 ]; do
		case $1 in
		--dry-run) DRY=1 ;;
		-p | --pagesize) [ $# -ge 2 ] || usage_err "$1 needs a value"; pagesz=$2; shift ;;
		-n | --node) [ $# -ge 2 ] || usage_err "$1 needs a value"; node=$2; shift ;;
		-*) usage_err "hugepages: unknown option $1" ;;
		*) [ -z "$total" ] || usage_err "hugepages: one TOTAL only"; total=$1 ;;
		esac
		shift
	done
	[ -n "$total" ] || usage_err "hugepages: TOTAL missing (e.g. 1G)"
	[[ $total =~ ^[0-9]+[KMG]$ ]] || usage_err "hugepages: bad TOTAL '$total' (e.g. 512M, 1G)"
	[[ $pagesz =~ ^[0-9]+[KMG]$ ]] || usage_err "hugepages: bad page size '$pagesz' (2M or 1G)"
	[[ -z $node || $node =~ ^[0-9]+$ ]] || usage_err "hugepages: bad node '$node'"
	local args=(-p "$pagesz")
	[ -z "$node" ] || args+=(-n "$node")
	run "$HUGEPAGES" "${args[@]}" --setup "$total"
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
