#!/usr/bin/env bash
# testbed.sh - a veth/netns testbed for Sluice's net_af_packet / net_af_xdp
# vdevs. See docs/testbed.md. Only creates and deletes interfaces and
# namespaces named ${SL_TB_PREFIX}-*, addresses only from 198.18.0.0/15.
set -euo pipefail

P=${SL_TB_PREFIX:-sltb}
GEN=$P-gen P0=$P-p0 F0=$P-f0 F1=$P-f1 PEER=$P-peer FWD=$P-fwd
# --dut: Sluice's two ports in a namespace of their own (named like $GEN).
GNS=$P-gen G0=$P-g0 G1=$P-g1
# --dut: the router's addresses, and the two hosts Sluice plays behind them.
DUT_F0=198.18.0.254 DUT_F1=198.18.1.254 HOST0=198.18.0.1 HOST1=198.18.1.1
# --router: the router's IPv6 addresses (RFC 5180's benchmarking prefix).
RT6_F0=2001:2::fe RT6_F1=2001:2:0:1::fe
# --dut: the testbed's nftables table, in $FWD.
NFT_T=sltb

usage() {
	cat <<EOF
usage: testbed.sh COMMAND

  up [--fwd|--dut]
               (re)create the testbed; print the destination MAC Sluice must use
               plain: $GEN (root ns, 198.18.0.1/30) <-> $P0 (ns $PEER, 198.18.0.2/30)
               --fwd: $GEN <-> $F0 (ns $FWD, 198.18.0.2/30), which routes to
                      $F1 (198.18.1.1/30) <-> $P0 (ns $PEER, 198.18.1.2/30)
               --router [--vlan N]: as --dut, but a plain router: dynamic ARP
                      and ND only (no permanent neighbour: Sluice's devices
                      answer), routes to the two /24s (and /64s: $RT6_F0/64,
                      $RT6_F1/64) it is on; --vlan: on VLAN N of each link
               --dut: two Sluice ports with a router (the DUT) between them:
                      $G0 (ns $GNS, port 0) <-> $F0 (ns $FWD, $DUT_F0/24)
                      $G1 (ns $GNS, port 1) <-> $F1 (ns $FWD, $DUT_F1/24)
                      $FWD forwards by input interface, both ways; run
                      Sluice in ns $GNS: 'testbed.sh exec sluice ...'
  down         delete the testbed (no error if absent)
  status       namespaces, links, addresses and RX counters (exit 1 if down)
  rx-packets [PORT]
               print the RX packet counter of $P0 (--dut: of $G0 or $G1, default 1)
  dst-mac [PORT]
               print the destination MAC for Sluice's --eth-peer PORT,MAC
               (--dut: PORT 0, the default, -> $F0's MAC, PORT 1 -> $F1's)
  exec CMD...  --dut: run CMD in ns $GNS, where Sluice's two ports are
  impair drop-every N | drop-ratio P | rate N [BURST] | netem ARGS... | clear
               --dut: impair the router, each direction on its own (nftables,
               forward hook; a new impairment resets the counters):
               drop-every N  drop every Nth packet: the 1st, the N+1st, ...
               drop-ratio P  drop at random with probability P (0..1, 1e-6 steps)
               rate N [BURST]  forward at most N packets/s, drop the excess
                             (token bucket of BURST packets; default max(5, N/10))
               netem ARGS    tc netem ARGS on $F0 and $F1 (exit 3: not in this kernel)
               clear         no impairment
  dut-counters --dut: 'key value' lines: nftables' drops and forwarded packets
               per direction, the veth counters, the router's IP counters and
               the kernel's own drops

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
stat_of() { nsx "$1" cat "/sys/class/net/$2/statistics/$3"; }

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

# mode: plain, fwd, dut or down.
mode() {
	if has_ns "$FWD" && has_ns "$GNS"; then
		echo dut
	elif has_ns "$FWD"; then
		echo fwd
	elif has_ns "$PEER"; then
		echo plain
	else
		echo down
	fi
}
need_dut() { [ "$(mode)" = dut ] || die "$1: testbed $P is not up with --dut"; }

cmd_down() {
	local ns l i left
	# Delete the links first: deleting a namespace frees its veths only later.
	# A link can vanish between the look and the delete (its peer's namespace
	# going away takes it along), so a failed delete is judged by what is
	# left afterwards, not by its exit code.
	ip link del "$GEN" 2>/dev/null || true
	for ns in "$FWD" "$PEER" "$GNS"; do
		has_ns "$ns" || continue
		for l in "$F1" "$P0" "$G0" "$G1"; do
			ip -n "$ns" link del "$l" 2>/dev/null || true
		done
		ip netns del "$ns" 2>/dev/null || true
	done
	for i in $(seq 50); do
		left=$({ ip netns list | awk '{print $1}'
			ip -o link show | awk -F': ' '{sub(/@.*/, "", $2); print $2}'; } |
			grep -E "^$P-" || true)
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	echo "testbed: down: still there after 5 s: $(echo $left)" >&2
	return 1
}

# rif N: the router's L3 interface on link N (0, 1): $F0/$F1, or its VLAN one.
rif() {
	local base=$F0 l
	[ "$1" = 0 ] || base=$F1
	l=$(ip -n "$FWD" -o link show 2>/dev/null | awk -F': ' '{sub(/@.*/, "", $2); print $2}' |
		grep -E "^$base\.[0-9]+$" | head -1 || true)
	echo "${l:-$base}"
}

# router_up VLAN: Sluice's two ports in ns $GNS, a plain router in ns $FWD
# between them that learns its neighbours (ARP, ND) as any router does.
router_up() {
	local vlan=$1 f if0 if1
	gen_fwd_up
	if0=$F0 if1=$F1
	if [ -n "$vlan" ]; then
		ip -n "$FWD" link add link "$F0" name "$F0.$vlan" type vlan id "$vlan"
		ip -n "$FWD" link add link "$F1" name "$F1.$vlan" type vlan id "$vlan"
		ip -n "$FWD" link set "$F0" up
		ip -n "$FWD" link set "$F1" up
		if0=$F0.$vlan if1=$F1.$vlan
	fi
	for f in "$if0" "$if1"; do
		if [ -d /proc/sys/net/ipv6 ]; then
			# No DAD wait, no router advertisements taken: addresses at once.
			nsx "$FWD" sysctl -qw "net.ipv6.conf.$f.accept_dad=0" \
				"net.ipv6.conf.$f.accept_ra=0" "net.ipv6.conf.$f.forwarding=1"
		fi
	done
	[ -d /proc/sys/net/ipv6 ] && nsx "$FWD" sysctl -qw net.ipv6.conf.all.forwarding=1
	nsx "$FWD" ip addr add "$DUT_F0/24" dev "$if0"
	nsx "$FWD" ip addr add "$DUT_F1/24" dev "$if1"
	if [ -d /proc/sys/net/ipv6 ]; then
		nsx "$FWD" ip -6 addr add "$RT6_F0/64" dev "$if0" nodad
		nsx "$FWD" ip -6 addr add "$RT6_F1/64" dev "$if1" nodad
	fi
	ip -n "$FWD" link set "$if0" up
	ip -n "$FWD" link set "$if1" up
	nft_load ""
}

# gen_fwd_up: ns $GNS with Sluice's two ports up, ns $FWD (forwarding) with
# their peers, unconfigured: what --dut and --router share.
gen_fwd_up() {
	local i
	nsprep "$GNS"
	nsprep "$FWD"
	# $GNS has no IPv4 address and does not forward: what reaches its
	# kernel (af_packet hands Sluice a copy) is dropped there, unanswered.
	nsx "$GNS" sysctl -qw net.ipv4.ip_forward=0
	nsx "$FWD" sysctl -qw net.ipv4.ip_forward=1
	# The router sends no ICMP redirects and heeds none.
	for i in all default; do
		nsx "$FWD" sysctl -qw "net.ipv4.conf.$i.send_redirects=0" \
			"net.ipv4.conf.$i.accept_redirects=0"
	done
	ip -n "$GNS" link add "$G0" type veth peer name "$F0" netns "$FWD"
	ip -n "$GNS" link add "$G1" type veth peer name "$F1" netns "$FWD"
	# No IPv6 on Sluice's ports either: the kernel there stays silent.
	for i in "$G0" "$G1"; do
		if [ -d /proc/sys/net/ipv6 ]; then
			nsx "$GNS" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1"
		fi
		ip -n "$GNS" link set "$i" up
	done
}

# dut_up: Sluice's two ports in ns $GNS, a router in ns $FWD between them.
dut_up() {
	gen_fwd_up
	ifup "$FWD" "$F0" "$DUT_F0/24"
	ifup "$FWD" "$F1" "$DUT_F1/24"
	# Sluice answers no ARP: the hosts it plays are permanent neighbours.
	neigh "$FWD" "$F0" "$HOST0" "$(mac_of "$GNS" "$G0")"
	neigh "$FWD" "$F1" "$HOST1" "$(mac_of "$GNS" "$G1")"
	# Forward by input interface: what enters $F0 leaves by $F1 and the other
	# way round, whatever its 198.18.0.0/15 destination (Sluice's --tx-ip is
	# one pair for all its ports). Other destinations are dropped silently
	# (blackhole: no ICMP). The router's own addresses stay local.
	ip -n "$FWD" route add 198.18.0.0/15 via "$HOST1" dev "$F1" table 100
	ip -n "$FWD" route add blackhole default table 100
	ip -n "$FWD" route add 198.18.0.0/15 via "$HOST0" dev "$F0" table 101
	ip -n "$FWD" route add blackhole default table 101
	ip -n "$FWD" rule add iif "$F0" lookup 100 pref 100
	ip -n "$FWD" rule add iif "$F1" lookup 101 pref 101
	nft_load ""
}

cmd_up() {
	local fwd=0 vlan=
	if [ "${1:-}" = --router ] && [ "${2:-}" = --vlan ]; then
		[[ ${3:-} =~ ^[0-9]+$ ]] && [ "$3" -ge 1 ] && [ "$3" -le 4094 ] ||
			usage_err "up --router --vlan N: N is 1 to 4094"
		vlan=$3
		set -- --router
	fi
	[ $# -le 1 ] || usage_err "up: too many arguments"
	case ${1:-} in
	"") ;;
	--fwd) fwd=1 ;;
	--dut) fwd=2 ;;
	--router) fwd=3 ;;
	*) usage_err "up: unknown argument $1" ;;
	esac
	if [ "$fwd" -ge 2 ] && ! command -v nft >/dev/null; then
		die "up --dut needs nft (apt-get install nftables)"
	fi
	cmd_down
	trap 'echo "testbed: up failed, cleaning up" >&2; cmd_down' EXIT

	if [ "$fwd" = 3 ]; then
		router_up "$vlan"
		trap - EXIT
		echo "testbed $P up (router${vlan:+, vlan $vlan}): run Sluice in ns $GNS: testbed.sh exec sluice ..."
		echo "port 0 $G0 <-> $(rif 0) $DUT_F0/24 $RT6_F0/64 [ns $FWD] $(rif 1) $DUT_F1/24 $RT6_F1/64 <-> $G1 port 1"
		echo "vdevs --vdev net_af_packet0,iface=$G0 --vdev net_af_packet1,iface=$G1"
		echo "gateway0 $DUT_F0 $RT6_F0"
		echo "gateway1 $DUT_F1 $RT6_F1"
		return
	fi
	if [ "$fwd" = 2 ]; then
		dut_up
		trap - EXIT
		echo "testbed $P up (dut): run Sluice in ns $GNS: testbed.sh exec sluice ..."
		echo "port 0 $G0 <-> $F0 $DUT_F0 [ns $FWD] $F1 $DUT_F1 <-> $G1 port 1"
		echo "vdevs --vdev net_af_packet0,iface=$G0 --vdev net_af_packet1,iface=$G1"
		echo "dst-mac0 $(mac_of "$FWD" "$F0")"
		echo "dst-mac1 $(mac_of "$FWD" "$F1")"
		echo "tx-ip-0to1 $HOST0,$HOST1"
		echo "tx-ip-1to0 $HOST1,$HOST0"
		echo "tx-ip-both $HOST0,$HOST1"
		return
	fi

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

# port_arg CMD DEFAULT [PORT]: the port a command is about (0 or 1).
port_arg() {
	local p=${3:-$2}
	[ $# -le 3 ] || usage_err "$1: too many arguments"
	[[ $p =~ ^[01]$ ]] || usage_err "$1: port must be 0 or 1, not '$p'"
	echo "$p"
}

cmd_dst_mac() {
	local p
	p=$(port_arg dst-mac 0 "$@")
	case $(mode) in
	dut) if [ "$p" = 0 ]; then mac_of "$FWD" "$F0"; else mac_of "$FWD" "$F1"; fi ;;
	down) die "testbed $P is down" ;;
	*)
		[ "$p" = 0 ] || die "dst-mac: port 1 needs up --dut"
		if has_ns "$FWD"; then mac_of "$FWD" "$F0"; else mac_of "$PEER" "$P0"; fi
		;;
	esac
}

cmd_rx_packets() {
	local p
	p=$(port_arg rx-packets 1 "$@")
	case $(mode) in
	dut) if [ "$p" = 0 ]; then stat_of "$GNS" "$G0" rx_packets; else stat_of "$GNS" "$G1" rx_packets; fi ;;
	down) die "testbed $P is down" ;;
	*)
		[ $# -eq 0 ] || die "rx-packets: a port needs up --dut"
		stat_of "$PEER" "$P0" rx_packets
		;;
	esac
}

cmd_exec() {
	[ $# -gt 0 ] || usage_err "exec: no command"
	need_dut exec
	exec ip netns exec "$GNS" "$@"
}

# nft_load RULE: (re)load the testbed's table in $FWD with the impairment
# RULE (an nft match, or "" for none) in each direction's chain: each copy
# has its own numgen or limit state, so the directions are impaired
# independently, and the counters start from 0. Named counters:
# drop_0to1/drop_1to0 (dropped by the impairment) and fwd_0to1/fwd_1to0
# (accepted by the forward hook: the router sends them on).
nft_load() {
	local rule=$1 d drop
	{
		if nsx "$FWD" nft list table inet "$NFT_T" >/dev/null 2>&1; then
			echo "delete table inet $NFT_T"
		fi
		echo "table inet $NFT_T {"
		for d in 0to1 1to0; do
			echo "	counter drop_$d { }"
			echo "	counter fwd_$d { }"
		done
		echo "	chain forward {"
		echo "		type filter hook forward priority filter; policy accept;"
		echo "		iifname \"$(rif 0)\" oifname \"$(rif 1)\" jump dir_0to1"
		echo "		iifname \"$(rif 1)\" oifname \"$(rif 0)\" jump dir_1to0"
		echo "	}"
		for d in 0to1 1to0; do
			drop=
			[ -z "$rule" ] || drop="$rule counter name drop_$d drop"
			echo "	chain dir_$d {"
			[ -z "$drop" ] || echo "		$drop"
			echo "		counter name fwd_$d"
			echo "	}"
		done
		echo "}"
	} | nsx "$FWD" nft -f -
}

# netem ARGS...: tc netem on both router links (exit 3 where there is none).
netem() {
	local out i
	command -v tc >/dev/null || {
		echo "testbed: impair netem: skipped: no tc command (iproute2)" >&2
		exit 3
	}
	for i in "$F0" "$F1"; do
		if ! out=$(nsx "$FWD" tc qdisc replace dev "$i" root netem "$@" 2>&1); then
			if grep -qi unknown <<<"$out"; then
				echo "testbed: impair netem: skipped: this kernel has no netem qdisc (sch_netem)" >&2
				netem_clear
				exit 3
			fi
			die "impair netem: $out"
		fi
	done
}

netem_clear() {
	local i
	for i in "$F0" "$F1"; do
		nsx "$FWD" tc qdisc del dev "$i" root >/dev/null 2>&1 || true
	done
}

cmd_impair() {
	[ $# -ge 1 ] || usage_err "impair: drop-every N | drop-ratio P | rate N [BURST] | netem ARGS... | clear"
	local what=$1 n burst
	shift
	case $what in
	drop-every)
		[ $# -eq 1 ] && [[ $1 =~ ^[1-9][0-9]{0,8}$ ]] ||
			usage_err "impair drop-every: N must be an integer from 1 to 999999999"
		need_dut impair
		# numgen inc counts 0, 1, 2...: the packets numbered 0, N, 2N... drop.
		nft_load "numgen inc mod $1 == 0"
		;;
	drop-ratio)
		[ $# -eq 1 ] && [[ $1 =~ ^(0|1|0?\.[0-9]+|1\.0*)$ ]] ||
			usage_err "impair drop-ratio: P must be a number from 0 to 1"
		need_dut impair
		n=$(awk -v p="$1" 'BEGIN { printf "%d", p * 1000000 + 0.5 }')
		if [ "$n" = 0 ]; then
			nft_load ""
		elif [ "$n" -ge 1000000 ]; then
			nft_load "numgen random mod 1000000 <= 999999"
		else
			nft_load "numgen random mod 1000000 < $n"
		fi
		;;
	rate)
		[ $# -ge 1 ] && [ $# -le 2 ] && [[ $1 =~ ^[1-9][0-9]{0,8}$ ]] ||
			usage_err "impair rate: N must be an integer from 1 to 999999999 (packets/s), then optionally BURST"
		if [ $# -eq 2 ]; then
			[[ $2 =~ ^[1-9][0-9]{0,8}$ ]] ||
				usage_err "impair rate: BURST must be an integer from 1 to 999999999 (packets)"
			burst=$2
		else
			burst=$(($1 / 10))
			[ "$burst" -ge 5 ] || burst=5
		fi
		need_dut impair
		nft_load "limit rate over $1/second burst $burst packets"
		;;
	netem)
		[ $# -ge 1 ] || usage_err "impair netem: ARGS, as for tc qdisc ... netem ARGS"
		need_dut impair
		netem "$@"
		;;
	clear)
		[ $# -eq 0 ] || usage_err "impair clear takes no arguments"
		need_dut impair
		nft_load ""
		netem_clear
		;;
	*) usage_err "impair: unknown impairment '$what'" ;;
	esac
}

# nft_counter NAME: the packets of the testbed's named counter NAME.
nft_counter() {
	nsx "$FWD" nft list counter inet "$NFT_T" "$1" |
		awk '$1 == "packets" { print $2; exit }'
}

cmd_dut_counters() {
	need_dut dut-counters
	local d0 d1 f0 f1 i ns l k s v sum=0
	d0=$(nft_counter drop_0to1) d1=$(nft_counter drop_1to0)
	f0=$(nft_counter fwd_0to1) f1=$(nft_counter fwd_1to0)
	echo "nft_dropped_0to1 $d0"
	echo "nft_dropped_1to0 $d1"
	echo "nft_forwarded_0to1 $f0"
	echo "nft_forwarded_1to0 $f1"
	echo "nft_dropped $((d0 + d1))"
	echo "nft_forwarded $((f0 + f1))"
	# What the kernel did besides: the counters of the four veth ends (since
	# 'up'), the router's IP counters, and the sum of the veth drops.
	for i in "$GNS:$G0:g0" "$FWD:$F0:f0" "$FWD:$F1:f1" "$GNS:$G1:g1"; do
		IFS=: read -r ns l k <<<"$i"
		for s in rx_packets tx_packets rx_dropped tx_dropped; do
			v=$(stat_of "$ns" "$l" "$s")
			echo "${k}_$s $v"
			case $s in *_dropped) sum=$((sum + v)) ;; esac
		done
	done
	nsx "$FWD" nstat -asz 2>/dev/null | awk '
		$1 == "IpInReceives" { print "fwd_ip_in_receives", $2 }
		$1 == "IpForwDatagrams" { print "fwd_ip_forwarded", $2 }
		$1 == "IpInHdrErrors" { print "fwd_ip_in_hdr_errors", $2 }
		$1 == "IpInAddrErrors" { print "fwd_ip_in_addr_errors", $2 }
		$1 == "IpInDiscards" { print "fwd_ip_in_discards", $2 }
		$1 == "IpOutDiscards" { print "fwd_ip_out_discards", $2 }
		$1 == "IpOutNoRoutes" { print "fwd_ip_out_no_routes", $2 }'
	echo "kernel_dropped $sum"
}

cmd_status() {
	local m ns s l
	m=$(mode)
	if [ "$m" = down ]; then
		echo "testbed $P: down"
		return 1
	fi
	echo "testbed $P: up ($m)"
	echo "namespaces: $(ip netns list | awk '{print $1}' | grep -E "^$P-" | tr '\n' ' ')"
	if [ "$m" != dut ]; then
		echo "root ns:"
		ip -br addr show dev "$GEN" | sed 's/^/  /'
	fi
	for ns in "$GNS" "$FWD" "$PEER"; do
		has_ns "$ns" || continue
		[ "$ns" != "$GNS" ] || [ "$m" = dut ] || continue
		echo "ns $ns:"
		ip -n "$ns" -br addr show | grep -v '^lo ' | sed 's/^/  /'
	done
	if [ "$m" = dut ]; then
		for l in "$G0" "$G1"; do
			printf '%s:' "$l"
			for s in rx_packets tx_packets rx_dropped; do
				printf ' %s %s' "$s" "$(stat_of "$GNS" "$l" "$s")"
			done
			echo
		done
		echo "impairment: $(nsx "$FWD" nft list chain inet "$NFT_T" dir_0to1 |
			awk '/counter name "?drop_/ { sub(/^[ \t]+/, ""); sub(/ counter name.*/, ""); print; f = 1 }
			     END { if (!f) print "none" }')"
		echo "dst-mac0 $(cmd_dst_mac 0)"
		echo "dst-mac1 $(cmd_dst_mac 1)"
		return
	fi
	printf 'peer %s:' "$P0"
	for s in rx_packets rx_bytes rx_dropped; do
		printf ' %s %s' "$s" "$(stat_of "$PEER" "$P0" "$s")"
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
down | status | dut-counters)
	[ $# -eq 0 ] || usage_err "$cmd takes no arguments"
	"cmd_${cmd//-/_}"
	;;
rx-packets | dst-mac | exec | impair) "cmd_${cmd//-/_}" "$@" ;;
*) usage_err "unknown command '$cmd'" ;;
esac
