#!/usr/bin/env bash
# testbed.sh - a veth/netns testbed for Sluice's net_af_packet / net_af_xdp
# vdevs. See docs/testbed.md. Only creates and deletes interfaces and
# namespaces named ${SL_TB_PREFIX}-*, addresses only from 198.18.0.0/15.
set -euo pipefail

P=${SL_TB_PREFIX:-sltb}
GEN=$P-gen P0=$P-p0 F0=$P-f0 F1=$P-f1 PEER=$P-peer FWD=$P-fwd

usage() {
	cat <<EOF
usage: testbed.sh COMMAND

  up [--fwd]   (re)create the testbed; print the destination MAC Sluice must use
               plain: $GEN (root ns, 198.18.0.1/30) <-> $P0 (ns $PEER, 198.18.0.2/30)
               --fwd: $GEN <-> $F0 (ns $FWD, 198.18.0.2/30), which routes to
                      $F1 (198.18.1.1/30) <-> $P0 (ns $PEER, 198.18.1.2/30)
  down         delete the testbed (no error if absent)
  status       namespaces, links, addresses and RX counters of $P0 (exit 1 if down)
  rx-packets   print the RX packet counter of $P0
  dst-mac      print the destination MAC for Sluice (--eth-peer 0,MAC)

environment: SL_TB_PREFIX (default sltb; 'sl' + up to 9 letters/digits)
EOF
}

die() { echo "testbed: $*" >&2; exit 1; }
usage_err() { echo "testbed: $*" >&2; echo "testbed: try 'testbed.sh --help'" >&2; exit 2; }

[[ $P =~ ^sl[A-Za-z0-9]{0,9}$ ]] ||
	usage_err "SL_TB_PREFIX '$P' must be 'sl' and up to 9 letters or digits (names <= 15 chars)"

has_ns() { ip netns list | awk '{print $1}' | grep -qxF "$1"; }
# nsx NS CMD...: run CMD in namespace NS ('-' for the root namespace).
nsx() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}
mac_of() { nsx "$1" cat "/sys/class/net/$2/address"; }

# ifup NS IF CIDR: no IPv6 (so the kernel sends nothing unasked), address, up.
ifup() {
	if [ -d /proc/sys/net/ipv6 ]; then
		nsx "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	fi
	nsx "$1" ip addr add "$3" dev "$2"
	nsx "$1" ip link set "$2" up
}

# neigh NS IF IP MAC: a permanent neighbor entry: no ARP on the data path.
neigh() { nsx "$1" ip neigh replace "$3" lladdr "$4" dev "$2" nud permanent; }

# nsprep NS: a new namespace that takes any source address.
nsprep() {
	ip netns add "$1"
	nsx "$1" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
}

cmd_down() {
	local ns l
	# Delete the links first: deleting a namespace frees its veths only later.
	if ip link show dev "$GEN" >/dev/null 2>&1; then ip link del "$GEN"; fi
	for ns in "$FWD" "$PEER"; do
		has_ns "$ns" || continue
		for l in "$F1" "$P0"; do
			if ip -n "$ns" link show dev "$l" >/dev/null 2>&1; then ip -n "$ns" link del "$l"; fi
		done
		ip netns del "$ns"
	done
}

cmd_up() {
	local fwd=0
	[ $# -le 1 ] || usage_err "up: too many arguments"
	case ${1:-} in
	"") ;;
	--fwd) fwd=1 ;;
	*) usage_err "up: unknown argument $1" ;;
	esac
	cmd_down
	trap 'echo "testbed: up failed, cleaning up" >&2; cmd_down' EXIT

	nsprep "$PEER"
	if [ "$fwd" = 1 ]; then
		nsprep "$FWD"
		nsx "$FWD" sysctl -qw net.ipv4.ip_forward=1
		ip link add "$GEN" type veth peer name "$F0" netns "$FWD"
		ip -n "$FWD" link add "$F1" type veth peer name "$P0" netns "$PEER"
		ifup - "$GEN" 198.18.0.1/30
		ifup "$FWD" "$F0" 198.18.0.2/30
		ifup "$FWD" "$F1" 198.18.1.1/30
		ifup "$PEER" "$P0" 198.18.1.2/30
		# Whatever Sluice sends into 198.18.0.0/15 goes on to the peer.
		ip -n "$FWD" route add 198.18.0.0/15 via 198.18.1.2 dev "$F1"
		# The peer answers the gen subnet only, through the forwarder.
		ip -n "$PEER" route add 198.18.0.0/30 via 198.18.1.1 dev "$P0"
		neigh - "$GEN" 198.18.0.2 "$(mac_of "$FWD" "$F0")"
		neigh "$FWD" "$F0" 198.18.0.1 "$(mac_of - "$GEN")"
		neigh "$FWD" "$F1" 198.18.1.2 "$(mac_of "$PEER" "$P0")"
		neigh "$PEER" "$P0" 198.18.1.1 "$(mac_of "$FWD" "$F1")"
	else
		ip link add "$GEN" type veth peer name "$P0" netns "$PEER"
		ifup - "$GEN" 198.18.0.1/30
		ifup "$PEER" "$P0" 198.18.0.2/30
		neigh - "$GEN" 198.18.0.2 "$(mac_of "$PEER" "$P0")"
		neigh "$PEER" "$P0" 198.18.0.1 "$(mac_of - "$GEN")"
	fi
	trap - EXIT

	local mode=plain dst=198.18.0.2
	[ "$fwd" = 0 ] || { mode=fwd; dst=198.18.1.2; }
	echo "testbed $P up ($mode): attach Sluice to $GEN; count at $P0 in ns $PEER"
	echo "dst-ip $dst"
	echo "dst-mac $(cmd_dst_mac)"
}

cmd_dst_mac() {
	if has_ns "$FWD"; then
		mac_of "$FWD" "$F0"
	elif has_ns "$PEER"; then
		mac_of "$PEER" "$P0"
	else
		die "testbed $P is down"
	fi
}

cmd_rx_packets() {
	has_ns "$PEER" || die "testbed $P is down"
	ip netns exec "$PEER" cat "/sys/class/net/$P0/statistics/rx_packets"
}

cmd_status() {
	if ! has_ns "$PEER"; then
		echo "testbed $P: down"
		return 1
	fi
	local ns s mode=plain
	has_ns "$FWD" && mode=fwd
	echo "testbed $P: up ($mode)"
	echo "namespaces: $(ip netns list | awk '{print $1}' | grep -E "^$P-" | tr '\n' ' ')"
	echo "root ns:"
	ip -br addr show dev "$GEN" | sed 's/^/  /'
	for ns in "$FWD" "$PEER"; do
		has_ns "$ns" || continue
		echo "ns $ns:"
		ip -n "$ns" -br addr show | grep -v '^lo ' | sed 's/^/  /'
	done
	printf 'peer %s:' "$P0"
	for s in rx_packets rx_bytes rx_dropped; do
		printf ' %s %s' "$s" "$(ip netns exec "$PEER" cat "/sys/class/net/$P0/statistics/$s")"
	done
	echo
	echo "dst-mac $(cmd_dst_mac)"
}

[ $# -gt 0 ] || { usage >&2; exit 2; }
cmd=$1
shift
case $cmd in
-h | --help | help) usage ;;
up) cmd_up "$@" ;;
down | status | rx-packets | dst-mac)
	[ $# -eq 0 ] || usage_err "$cmd takes no arguments"
	"cmd_${cmd//-/_}"
	;;
*) usage_err "unknown command '$cmd'" ;;
esac
