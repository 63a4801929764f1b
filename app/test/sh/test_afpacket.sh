#!/usr/bin/env bash
# test_afpacket.sh - a real single-queue device shared by two lcores:
# net_af_packet (one queue pair) on a veth pair from scripts/testbed.sh, the
# peer in its own network namespace. The peer's kernel RX counter must equal
# Sluice's tx_packets, in the shared (locked) mode, with collisions seen.
# Frames go to 198.18.100.1, which the peer neither owns nor forwards: its
# kernel counts them at the device and drops them silently, sending nothing
# back that could disturb the count.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
tb=$top/scripts/testbed.sh
export SL_TB_PREFIX=slap$$
SL_TB_PREFIX=${SL_TB_PREFIX:0:9}
T=$(mktemp -d)
pass=0 fail=0
cleanup() { "$tb" down >/dev/null 2>&1 || true; rm -rf "$T"; }
trap cleanup EXIT

ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }

"$tb" up >/dev/null
mac=$("$tb" dst-mac)

# run NAME COUNT EAL_LCORES SLUICE_OPTS...   (PMD: af_packet, or $VDEV)
run() {
	local name=$1 count=$2 lcores=$3
	local vdev=${VDEV:-net_af_packet0,iface=$SL_TB_PREFIX-gen}
	shift 3
	local before after rx tx mode coll
	before=$("$tb" rx-packets)
	if ! timeout 60 "$bin" --no-huge -m 512 --no-pci --lcores "$lcores" \
		--vdev "$vdev" --file-prefix "$SL_TB_PREFIX" \
		--log-level '*:error' -- --count "$count" --eth-peer "0,$mac" \
		--tx-ip 198.18.0.1,198.18.100.1 --json "$T/$name.json" "$@" >"$T/$name.log" 2>&1; then
		ko "$name: sluice failed: $(tail -3 "$T/$name.log")"
		return
	fi
	sleep 0.2
	after=$("$tb" rx-packets)
	rx=$((after - before))
	tx=$(jq .totals.tx_packets "$T/$name.json")
	mode=$(jq -r .txqs[0].mode "$T/$name.json")
	coll=$(jq .txqs[0].collisions "$T/$name.json")
	echo "     $name: mode $mode, tx_packets $tx, peer rx $rx, collisions $coll"
	[ "$tx" = "$count" ] && ok "$name: tx_packets == --count ($count)" ||
		ko "$name: tx_packets $tx != $count"
	[ "$rx" = "$tx" ] && ok "$name: peer kernel RX ($rx) == tx_packets" ||
		ko "$name: peer kernel RX $rx != tx_packets $tx"
	echo "$mode $coll" >"$T/$name.mode"
}

run exclusive 20000 "0,1@(0-1)" --map 1:0.0
read -r m _ <"$T/exclusive.mode" && [ "$m" = exclusive ] && ok "one lcore: exclusive" ||
	ko "one lcore: mode $m"

run shared 50000 "0,(1-2)@(0-1)" --map 1-2:0.0
read -r m c <"$T/shared.mode"
[ "$m" = locked ] && ok "two lcores on af_packet's one queue: locked" || ko "shared mode $m"
[ "$c" -gt 0 ] && ok "collisions happened ($c)" || ko "no collision: the test proved nothing"

run shared4 50000 "0,(1-4)@(0-1)" --map 1-4:0.0
read -r m c <"$T/shared4.mode"
[ "$m" = locked ] && ok "four lcores (more than CPUs): locked" || ko "shared4 mode $m"

# What the driver says about the port (sl_port_info), not a list in the app:
# af_packet's link speed is made up (100 % of it is paced), and its peer, a
# kernel, drops frames not addressed to it (the default MAC is warned about).
timeout 60 "$bin" --no-huge -m 512 --no-pci --lcores "0,1@(0-1)" \
	--vdev "net_af_packet0,iface=$SL_TB_PREFIX-gen" --file-prefix "$SL_TB_PREFIX" \
	--log-level '*:error' -- --count 1000 --rate 100% --tx-ip 198.18.0.1,198.18.100.1 \
	--json "$T/facts.json" >"$T/facts.log" 2>&1 || true
grep -q "^warning: port 0 (net_af_packet) sends to the default MAC" "$T/facts.log" &&
	ok "af_packet: the default MAC is warned about (its peer filters)" ||
	ko "af_packet: no default-MAC warning: $(head -3 "$T/facts.log")"
jq -e '.ports[0].pace_unit == "bps_l1"' "$T/facts.json" >/dev/null 2>&1 &&
	ok "af_packet: --rate 100% is paced (its link speed is made up)" ||
	ko "af_packet: --rate 100% paced as $(jq -c '.ports[0].pace_unit' "$T/facts.json" 2>&1)"

# The same through net_af_xdp (one queue pair as well).
VDEV="net_af_xdp0,iface=$SL_TB_PREFIX-gen" run xdp-exclusive 20000 "0,1@(0-1)" --map 1:0.0
VDEV="net_af_xdp0,iface=$SL_TB_PREFIX-gen" run xdp-shared 50000 "0,(1-2)@(0-1)" --map 1-2:0.0
read -r m _ <"$T/xdp-shared.mode"
[ "$m" = locked ] && ok "two lcores on af_xdp's one queue: locked" || ko "xdp shared mode $m"

# Through a forwarding namespace: Sluice -> veth -> forwarding kernel -> veth -> peer.
"$tb" down >/dev/null
"$tb" up --fwd >/dev/null
mac=$("$tb" dst-mac)
run forwarded 20000 "0,(1-2)@(0-1)" --map 1-2:0.0

echo "test_afpacket: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
