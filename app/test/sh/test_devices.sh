#!/usr/bin/env bash
# test_devices.sh - emulated hosts (docs/devices.md).
#   1. two sim ports wired to each other, a device on each: they resolve
#      each other (ARP and ND), flows between them are counted exactly, the
#      queue the main lcore answers on is shared with the worker;
#   2. bad input: one clear message each, the configuration unchanged;
#   3. a Linux router in a namespace with dynamic ARP and ND only (root):
#      the devices resolve it, it learns them, pings them (IPv4, IPv6,
#      link-local) before and during a run, forwards every frame of flows
#      between them (nftables counts them), with and without a VLAN; the
#      answers decoded with tshark.
# Every run is bounded in count and time; the namespaces are the test's own.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
tag=dv
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"

EAL=(--no-huge -m 1024 --no-pci -l 0-1)
SIMS=(--sim 10G,dut=1 --sim 10G,dut=0)
DA='a port 0 mac 02:00:00:00:00:0a ip 198.18.0.1/24 gw 198.18.0.2 ip6 2001:2::1/64 gw6 2001:2::2'
DB='b port 1 mac 02:00:00:00:00:0b ip 198.18.0.2/24 gw 198.18.0.1 ip6 2001:2::2/64 gw6 2001:2::1'

# jq_eq FILE EXPR VALUE
jq_eq() { [ "$(jq -r "$2" "$1" 2>/dev/null)" = "$3" ]; }

# 1. Two sim ports, a device on each, flows both ways (IPv4 one way, IPv6 back).
if want 1; then
	new_prefix
	timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- "${SIMS[@]}" \
		--device "$DA" --device "$DB" \
		--flow 'ab from a to b count 30000 rate 200kpps' \
		--flow 'ba from b to a ipv6 size 100 count 20000 rate 200kpps' \
		--json "$T/1.json" >"$T/1.out" 2>&1
	rc=$?
	check "1 sim: a run of flows between devices exits 0 (rc $rc)" rc_is 0
	check "1 sim: flow ab: 30000 sent, 30000 received, none lost" \
		jq_eq "$T/1.json" '.flows[0] | "\(.tx) \(.unique) \(.lost) \(.duplicates)"' "30000 30000 0 0"
	check "1 sim: flow ba (IPv6): 20000 sent, 20000 received, none lost" \
		jq_eq "$T/1.json" '.flows[1] | "\(.tx) \(.unique) \(.lost) \(.duplicates)"' "20000 20000 0 0"
	check "1 sim: generated = tx + dropped + backlog with the devices' frames" \
		jq_eq "$T/1.json" '.totals.conserved' true
	check "1 sim: the JSON summary has a's IPv4 neighbour, b's MAC, REACHABLE or PROBE" \
		bash -c 'jq -e ".devices[0] | .name == \"a\" and (.neighbors[] | select(.ip == \"ipv4\") |
			.mac == \"02:00:00:00:00:0B\" and (.state == \"REACHABLE\" or .state == \"PROBE\"))" "$1" >/dev/null' _ "$T/1.json"
	check "1 sim: the JSON summary counts b's answers to a's ARP requests" \
		jq_eq "$T/1.json" '.devices[1].arp_requests_in >= 1 and .devices[1].arp_replies_out == .devices[1].arp_requests_in' true
	check "1 sim: the JSON summary's ports have the devices' counters (arp_rx, arp_tx, resolved; unresolved 0)" \
		jq_eq "$T/1.json" '[.ports[] | .arp_rx >= 1 and .arp_tx >= 2 and .nd_rx >= 1 and .nd_tx >= 2 and .resolved == 2 and .unresolved == 0] | all' true
	check "1 sim: queue 0 of each port is shared with the main lcore (locked)" \
		test "$(grep -c 'txq 0: mode locked    lcores 1,main' "$T/1.out")" = 2

	# ICMP echo frames between devices, unsigned: every one is a control frame
	# for the peer device (handed to the main lcore, answered): the rings are
	# empty at the stop, every mbuf back (the review found 959 left in a ring).
	new_prefix
	timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- "${SIMS[@]}" --sign off \
		--device "$DA" --device "$DB" \
		--flow 'ab from a to b count 300000 rate 1Mpps stack eth/ipv4/icmp' >"$T/1i.out" 2>&1
	rc=$?
	check "1 sim: an echo flow between devices exits 0 (rc $rc)" rc_is 0
	check "1 sim: ... with every mbuf back at the stop" grep -q 'mbufs not returned: 0$' "$T/1i.out"

	# The prompt: neighbours resolved, the flows' words, the counters.
	new_prefix
	{
		echo "device add $DA"
		echo "device add $DB"
		sleep 1.5
		echo "show neighbors"
		echo "show neighbors 1"
		echo "flow add ab from a to b count 1000 rate 100kpps"
		echo "show flows"
		echo "show devices"
		echo "clear neighbors"
		echo "show neighbors"
		echo quit
	} | timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- "${SIMS[@]}" -i >"$T/1p.out" 2>&1
	check "1 prompt: a's IPv4 gateway resolved to b's MAC" \
		grep -qE '^a +0 +ipv4 198.18.0.2 +02:00:00:00:00:0B +(REACHABLE|PROBE)' "$T/1p.out"
	check "1 prompt: b's IPv6 gateway resolved to a's MAC" \
		grep -qE '^b +1 +ipv6 2001:2::1 +02:00:00:00:00:0A +(REACHABLE|PROBE)' "$T/1p.out"
	check "1 prompt: show neighbors 1 shows b's only" \
		bash -c 'sed -n "/show neighbors 1/,/sluice> flow add/p" "$1" | grep -q "^b " &&
			! sed -n "/show neighbors 1/,/sluice> flow add/p" "$1" | grep -q "^a "' _ "$T/1p.out"
	check "1 prompt: show devices gives the words back (ip, gw)" \
		grep -q '^device 0: a port 0 mac 02:00:00:00:00:0A ip 198.18.0.1/24 gw 198.18.0.2 ip6 2001:2::1/64 gw6 2001:2::2' "$T/1p.out"
	check "1 prompt: show flows gives the flow's words back" \
		grep -q 'flow 0: ab port 0 from a to b ipv4 udp' "$T/1p.out"
	check "1 prompt: show devices counts the answers" \
		grep -qE 'arp: requests in [1-9][0-9]*, replies out [1-9]' "$T/1p.out"
	check "1 prompt: clear neighbors forgets them" \
		grep -qE '^a +0 +ipv4 198.18.0.2 +- +INCOMPLETE' "$T/1p.out"
fi

# 2. Bad input: one message, nothing changed.
if want 2; then
	new_prefix
	{
		echo "device add x port 0 mac 02:00:00:00:00:01 ip 198.18.0.1/24 gw 198.18.1.1"
		echo "device add x port 5 mac 02:00:00:00:00:01 ip 198.18.0.1/24"
		echo "device add x port 0 ip 198.18.0.1/24"
		echo "device add x port 0 mac 02:00:00:00:00:01 ip 198.18.0.1"
		echo "device add x port 0 mac 01:00:00:00:00:01 ip 198.18.0.1/24"
		echo "device add a port 0 mac 02:00:00:00:00:0a ip 198.18.0.1/24"
		echo "device add b port 0 mac 02:00:00:00:00:0b ip 198.18.0.1/24"
		echo "device add a port 1 mac 02:00:00:00:00:0c ip 198.18.0.3/24"
		echo "device add c port 1 mac 02:00:00:00:00:0c ip 198.18.0.3/24"
		echo "flow add f port 1 from a to c"
		echo "flow add g from a to nosuch"
		echo "flow add h from a to a"
		echo "device add y port 0 mac 02:00:00:00:00:09 ip 198.18.0.9/24 ip 198.18.0.8/24"
		echo "device add y port 0 mac 02:00:00:00:00:09 gw6-mac 02:00:00:00:00:01 ip6 2001:2::9/64"
		echo "device add y port 0 mac 02:00:00:00:00:09 ip 198.18.0.255/24"
		echo "device add 2b port 1 mac 02:00:00:00:00:2b ip 198.18.0.4/24"
		echo "flow add k from a to 2b"
		echo "device add 7 port 1 mac 02:00:00:00:00:07 ip 198.18.0.7/24"
		echo "device add z port 1 mac 02:00:00:00:00:07 ip 198.18.0.7/24 gw 198.18.0.0"
		echo "show devices"
		echo "show flows"
		echo quit
	} | timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- "${SIMS[@]}" -i >"$T/2.out" 2>&1
	check "2 a gateway outside the prefix is refused" \
		grep -q 'error: device add: device x: gateway 198.18.1.1 is outside its prefix 198.18.0.1/24' "$T/2.out"
	check "2 a device on a port that does not exist is refused" \
		grep -q 'error: device add: device x: port 5 does not exist' "$T/2.out"
	check "2 a device without a MAC is refused" grep -q 'error: device add: give its MAC' "$T/2.out"
	check "2 an address without a prefix is refused" \
		grep -q "error: device add: ip 198.18.0.1: '198.18.0.1': give an IPv4 address and its prefix" "$T/2.out"
	check "2 a multicast MAC is refused" grep -q 'error: device add: device x: give a unicast MAC' "$T/2.out"
	check "2 two devices with one address on a port are refused" \
		grep -q 'error: device add: devices a and b both have 198.18.0.1 on port 0' "$T/2.out"
	check "2 a name taken is refused" grep -q 'error: device add: device a exists' "$T/2.out"
	check "2 a flow from a device on another port is refused" \
		grep -q 'error: flow add: flow f is on port 1, its sender a on port 0: send it on port 0' "$T/2.out"
	check "2 a flow to an unknown device is refused" \
		grep -q 'error: flow add: flow g: there is no device nosuch' "$T/2.out"
	check "2 a flow from a device to itself is refused" \
		grep -q 'error: flow add: flow h: from a to itself' "$T/2.out"
	check "2 a key given twice is refused" grep -q 'error: device add: ip is given twice' "$T/2.out"
	check "2 gw6-mac without gw6 is refused" \
		grep -q 'error: device add: gw6-mac: give the gateway it belongs to' "$T/2.out"
	check "2 a subnet's broadcast address is refused" \
		grep -q "error: device add: device y: 198.18.0.255 is its subnet's broadcast address" "$T/2.out"
	check "2 the devices are those accepted, and nothing else" \
		test "$(grep -c '^device [0-9]:' "$T/2.out")" = 3
	check "2 a device named by digits alone is refused (to 7 is port 7)" \
		grep -q "error: device add: name '7': give 1 to 31 letters, digits, '-', '_' or '.', not digits alone" "$T/2.out"
	check "2 a gateway at the subnet's network address is refused" \
		grep -q "error: device add: device z: gateway 198.18.0.0 is its subnet's network address" "$T/2.out"
	check "2 a device named 2b is a device to send to (to 2b), not port 2" \
		grep -q '^flow 0: k port 0 from a to 2b ipv4' "$T/2.out"
	new_prefix
	timeout 30 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- "${SIMS[@]}" \
		--device 'a port 0 mac 02:00:00:00:00:0a ip 198.18.0.1/24 gw 10.0.0.1' --duration 1 \
		>"$T/2o.out" 2>&1
	rc=$?
	check "2 --device: a bad device stops the program with exit 2 (rc $rc)" rc_is 2
	check "2 --device: its message names the option" grep -q 'sluice: --device: device a: gateway 10.0.0.1 is outside' "$T/2o.out"
	# A flow whose gateway never answers: the start waits, then refuses it.
	new_prefix
	timeout 30 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- --sim 10G --sim 10G \
		--device 'a port 0 mac 02:00:00:00:00:0a ip 198.18.0.1/24 gw 198.18.0.254' \
		--device 'b port 1 mac 02:00:00:00:00:0b ip 198.18.1.1/24 gw 198.18.1.254' \
		--flow 'ab from a to b count 10' >"$T/2u.out" 2>&1
	rc=$?
	check "2 an unresolved gateway refuses the start (rc $rc)" rc_is 2
	check "2 its message names the device and the gateway" \
		grep -q 'flow ab: device a has not resolved its next hop (gateway 198.18.0.254)' "$T/2u.out"
fi

# 4. A tagged device on a port that writes what it sends (net_pcap), its
#    gateways' MACs given: every frame it sends, decoded by tshark, is on
#    its VLAN with its MAC and addresses, to the gateway's MAC.
if want 4; then
	new_prefix
	python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))' >"$T/empty.pcap"
	timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" \
		--vdev "net_pcap0,rx_pcap=$T/empty.pcap,tx_pcap=$T/4.pcap" -- --sim 10G --sign off \
		--device 'a port 0 mac 02:00:00:00:00:0a vlan 100 ip 198.18.0.1/24 gw 198.18.0.254 gw-mac 02:00:00:00:0f:fe ip6 2001:2::1/64 gw6 2001:2::fe gw6-mac 02:00:00:00:0f:fe' \
		--device 'b port 1 mac 02:00:00:00:00:0b ip 198.18.1.1/24 ip6 2001:2:0:1::1/64' \
		--flow 'ab from a to b count 100 rate 10kpps' \
		--flow 'ab6 from a to b ipv6 size 100 count 50 rate 10kpps' \
		--flow 'st from a to b stack eth/vlan/ipv4/udp(dport=4000) count 30 rate 10kpps' >"$T/4.out" 2>&1
	rc=$?
	check "4 a tagged device's run exits 0 (rc $rc)" rc_is 0
	ts() { tshark -r "$T/4.pcap" -Y "$1" -T fields -e frame.number 2>/dev/null | wc -l; }
	check "4 tshark: 100 UDP/IPv4 frames on VLAN 100, a's MAC and address to the gateway's MAC" \
		test "$(ts 'vlan.id == 100 && eth.src == 02:00:00:00:00:0a && eth.dst == 02:00:00:00:0f:fe && ip.src == 198.18.0.1 && ip.dst == 198.18.1.1 && udp && udp.dstport != 4000')" = 100
	check "4 tshark: 50 UDP/IPv6 frames on VLAN 100 from 2001:2::1 to 2001:2:0:1::1" \
		test "$(ts 'vlan.id == 100 && eth.dst == 02:00:00:00:0f:fe && ipv6.src == 2001:2::1 && ipv6.dst == 2001:2:0:1::1 && udp')" = 50
	check "4 tshark: a stack's vlan header without an id carries the device's VLAN (30 frames)" \
		test "$(ts 'vlan.id == 100 && eth.dst == 02:00:00:00:0f:fe && ip.src == 198.18.0.1 && udp.dstport == 4000')" = 30
	# vlan_refused WHAT STACK: a flow of that stack from a VLAN 100 device is refused.
	vlan_refused() {
		new_prefix
		timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" -- --sim 10G --sim 10G \
			--device 'a port 0 mac 02:00:00:00:00:0a vlan 100 ip 198.18.0.1/24 gw 198.18.0.254 gw-mac 02:00:00:00:0f:fe' \
			--device 'b port 1 mac 02:00:00:00:00:0b ip 198.18.1.1/24' \
			--flow "st from a to b stack $2 count 30" >"$T/4v.out" 2>&1
		rc=$?
		check "4 a flow from a VLAN 100 device $1 is refused (rc $rc)" \
			bash -c '[ "$1" = 2 ] && grep -q "flow st: device a is on VLAN 100: give its stack a vlan header right after eth" "$2"' _ "$rc" "$T/4v.out"
	}
	vlan_refused "with a tag of id 9" "eth/vlan(id=9)/ipv4/udp"
	vlan_refused "whose only tag is a tunnel's" "eth/ipv4/gre/eth/vlan/ipv4/udp"
	check "4 tshark: a gratuitous ARP on VLAN 100 for 198.18.0.1" \
		test "$(ts 'vlan.id == 100 && arp.isgratuitous == 1 && arp.src.proto_ipv4 == 198.18.0.1 && arp.src.hw_mac == 02:00:00:00:00:0a')" -ge 1
	check "4 tshark: unsolicited NAs on VLAN 100 for 2001:2::1 and fe80::ff:fe00:a, checksums good" \
		test "$(ts 'vlan.id == 100 && icmpv6.type == 136 && icmpv6.checksum.status == 1 && ipv6.hlim == 255 && (icmpv6.nd.na.target_address == 2001:2::1 || icmpv6.nd.na.target_address == fe80::ff:fe00:a)')" -ge 2
	check "4 tshark: a's gateways given: no ARP request or NS from it" \
		test "$(ts 'arp.opcode == 1 && !arp.isgratuitous || icmpv6.type == 135')" = 0
	check "4 tshark: nothing untagged from a" test "$(ts '!vlan && eth.src == 02:00:00:00:00:0a')" = 0
fi

# 5. The OTG API: devices[] and tx_rx.device, neighbours in /monitor/states,
#    GET /config read back, flows counted; a gateway that never answers: 409.
if want 5; then
	new_prefix
	timeout 60 "$bin" "${EAL[@]}" --file-prefix "$prefix" --log-level '*:error' -- "${SIMS[@]}" \
		--api http://127.0.0.1:0 >"$T/5.out" 2>&1 &
	apid=$!
	for _ in $(seq 100); do grep -q '^api: http' "$T/5.out" && break; sleep 0.1; done
	url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$T/5.out" | head -1)
	api() { curl -s --max-time 10 -w '\n%{http_code}' -X "$1" ${3:+--data-binary "$3"} "$url${2#/}"; }
	body() { sed '$d' <<<"$1"; }
	code() { tail -1 <<<"$1"; }
	r=$(api POST config @"$top/config/otg/devices.json")
	check "5 api: POST /config with devices and device flows: 200 ($(code "$r"))" test "$(code "$r")" = 200
	# Neighbours: polled, as OTG suites wait for them (bounded: 50 x 0.1 s).
	st=
	for _ in $(seq 50); do
		st=$(body "$(api POST monitor/states '{"choice":"ipv4_neighbors"}')")
		[ "$(jq '[.ipv4_neighbors[] | select(.link_layer_address)] | length' <<<"$st" 2>/dev/null)" = 2 ] && break
		sleep 0.1
	done
	check "5 api: ipv4_neighbors: d1.eth's gateway 198.18.0.2 is d2's MAC, d2.eth's is d1's" \
		eq "$(jq -c '[.ipv4_neighbors[] | [.ethernet_name, .ipv4_address, .link_layer_address]] | sort' <<<"$st")" \
		'[["d1.eth","198.18.0.2","02:00:00:00:00:0b"],["d2.eth","198.18.0.1","02:00:00:00:00:0a"]]'
	st=$(body "$(api POST monitor/states '{"choice":"ipv6_neighbors","ipv6_neighbors":{"ethernet_names":["d2.eth"]}}')")
	check "5 api: ipv6_neighbors of d2.eth only: 2001:2::1, d1's MAC" \
		eq "$(jq -c '[.ipv6_neighbors[] | [.ethernet_name, .ipv6_address, .link_layer_address]]' <<<"$st")" \
		'[["d2.eth","2001:2::1","02:00:00:00:00:0a"]]'
	r=$(api POST monitor/states '{"choice":"ipv4_neighbors","ipv4_neighbors":{"ethernet_names":"d1.eth"}}')
	check "5 api: ethernet_names as a string: 400" test "$(code "$r")" = 400
	# GET /config gives devices and flows back; posting it again is the same configuration.
	body "$(api GET config)" >"$T/5get.json"
	check "5 api: GET /config has both devices, their ethernets by name" \
		eq "$(jq -c '[.devices[].ethernets[].name]' "$T/5get.json")" '["d1.eth","d2.eth"]'
	check "5 api: GET /config has f1 from d1.eth.ipv4 to d2.eth.ipv4" \
		eq "$(jq -c '.flows[0].tx_rx.device | [.tx_names, .rx_names]' "$T/5get.json")" '[["d1.eth.ipv4"],["d2.eth.ipv4"]]'
	r=$(api POST config @"$T/5get.json")
	body "$(api GET config)" >"$T/5get2.json"
	check "5 api: GET /config posted again is taken, and reads back the same" \
		bash -c '[ "$1" = 200 ] && cmp -s "$2" "$3"' _ "$(code "$r")" "$T/5get.json" "$T/5get2.json"
	r=$(api POST control/state '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"state":"start"}}}')
	check "5 api: start: 200 ($(code "$r"))" test "$(code "$r")" = 200
	m=
	for _ in $(seq 50); do
		m=$(body "$(api POST monitor/metrics '{"choice":"flow"}')")
		[ "$(jq -c '[.flow_metrics[].transmit] | unique' <<<"$m" 2>/dev/null)" = '["stopped"]' ] && break
		sleep 0.1
	done
	check "5 api: f1 500 frames sent and received, f2 (IPv6) 300" \
		eq "$(jq -c '[.flow_metrics[] | [.name, .frames_tx, .frames_rx]]' <<<"$m")" '[["f1",500,500],["f2",300,300]]'
	# d2 off d1's link, d1's gateway silent: the Config is taken, its start is 409.
	r=$(jq -c '.devices[0].ethernets[0].ipv4_addresses[0].gateway = "198.18.0.99" |
		.devices[1].ethernets[0].ipv4_addresses[0] += {"address": "198.18.1.2", "gateway": "198.18.1.1"}' \
		"$top/config/otg/devices.json" |
		curl -s --max-time 10 -w '\n%{http_code}' -X POST --data-binary @- "${url}config")
	check "5 api: a Config with a gateway nobody answers is taken (200)" test "$(code "$r")" = 200
	r=$(api POST control/state '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"state":"start"}}}')
	check "5 api: its start is 409, naming the device and the gateway" \
		bash -c '[ "$1" = 409 ] && grep -q "device d1.eth has not resolved its next hop (gateway 198.18.0.99)" <<<"$2"' _ \
		"$(code "$r")" "$(body "$r")"
	st=$(body "$(api POST monitor/states '{"choice":"ipv4_neighbors","ipv4_neighbors":{"ethernet_names":["d1.eth"]}}')")
	check "5 api: its neighbour has no link_layer_address (unresolved)" \
		eq "$(jq -c '.ipv4_neighbors' <<<"$st")" '[{"ethernet_name":"d1.eth","ipv4_address":"198.18.0.99"}]'
	# d1's gateway 198.18.0.99 is silent: one unresolved gateway on port 0.
	prom=$(curl -s --max-time 10 "${url}metrics")
	check "5 api: Prometheus has the devices' counters per port (sluice_arp_tx_total; sluice_unresolved 1)" \
		bash -c 'grep -qE "^sluice_arp_tx_total\{port=\"0\"\} [1-9]" <<<"$1" && grep -qE "^sluice_unresolved\{port=\"0\"\} 1$" <<<"$1"' _ "$prom"
	tel=$(/usr/bin/python3 "$top/app/test/py/tel_query.py" "$prefix" /sluice/ports,0 2>&1)
	check "5 telemetry: /sluice/ports,0 has the devices' counters (unresolved 1)" \
		bash -c 'jq -e ".\"/sluice/ports\" | .arp_tx >= 1 and .nd_tx >= 1 and .unresolved == 1" <<<"$1" >/dev/null' _ "$tel"
	# Names GET /config makes for a device's objects never take another's.
	r=$(jq -c '.devices[1].ethernets[0].name = "d1.eth.ipv4" | .flows[0].tx_rx.device.rx_names = ["d1.eth.ipv4"] |
		del(.flows[1])' "$top/config/otg/devices.json" |
		curl -s --max-time 10 -w '\n%{http_code}' -X POST --data-binary @- "${url}config")
	body "$(api GET config)" >"$T/5n.json"
	r2=$(api POST config @"$T/5n.json")
	check "5 api: an ethernet named d1.eth.ipv4 beside d1.eth: GET /config names stay unique, posted again: 200" \
		bash -c '[ "$1" = 200 ] && [ "$2" = 200 ] && [ "$(jq "[.. | .name? // empty] | length" "$3")" = "$(jq "[.. | .name? // empty] | unique | length" "$3")" ] &&
			[ "$(jq -c ".flows | length" "$3")" = 1 ]' _ "$(code "$r")" "$(code "$r2")" "$T/5n.json"
	r=$(jq -c '.devices[0].ethernets[0].name = "p2" | .flows[0].tx_rx.device.tx_names = ["d1.ipv4"]' \
		"$top/config/otg/devices.json" | curl -s --max-time 10 -w '\n%{http_code}' -X POST --data-binary @- "${url}config")
	check "5 api: an ethernet named as a port (p2): 400, names are unique over the Config" \
		bash -c '[ "$1" = 400 ] && grep -q "name '"'"'p2'"'"' is ports\[1\]'"'"'s too" <<<"$2"' _ "$(code "$r")" "$(body "$r")"
	# What Sluice cannot emulate is refused with its path.
	r=$(jq -c '.devices[0].ethernets[0].ipv4_addresses += [{"name":"x","address":"198.18.0.7","gateway":"198.18.0.2"}]' \
		"$top/config/otg/devices.json" | curl -s --max-time 10 -w '\n%{http_code}' -X POST --data-binary @- "${url}config")
	check "5 api: two IPv4 addresses on an ethernet: 400 with its path" \
		bash -c '[ "$1" = 400 ] && grep -q "devices\[0\].ethernets\[0\].ipv4_addresses: 2 addresses" <<<"$2"' _ "$(code "$r")" "$(body "$r")"
	r=$(jq -c '.flows[0].tx_rx.device.tx_names = ["nosuch"]' "$top/config/otg/devices.json" |
		curl -s --max-time 10 -w '\n%{http_code}' -X POST --data-binary @- "${url}config")
	check "5 api: a flow from a name devices[] has not: 400 with its path" \
		bash -c '[ "$1" = 400 ] && grep -q "flows\[0\].tx_rx.device.tx_names: '"'"'nosuch'"'"' is no ethernet or address" <<<"$2"' _ "$(code "$r")" "$(body "$r")"
	kill -INT "$apid" 2>/dev/null
	wait "$apid"
	rc=$?
	check "5 api: the server ends on SIGINT (rc $rc)" test "$rc" = 0 -o "$rc" = 130
fi

# 3. A Linux router (root, nft, tshark).
router_case() {
	local vlan=$1 v=${1:+ vlan $1} name=${1:+vlan} tb=$top/scripts/testbed.sh fifo out cap
	name=${name:-untagged}
	export SL_TB_PREFIX=sldv$$
	SL_TB_PREFIX=$(printf '%s' "$SL_TB_PREFIX" | cut -c1-11)
	if ! "$tb" up --router ${vlan:+--vlan "$vlan"} >"$T/3tb.out" 2>&1; then
		ko "3 $name: testbed up --router: $(tail -1 "$T/3tb.out")"
		return
	fi
	local ns=$SL_TB_PREFIX-fwd f0 f1
	f0=$SL_TB_PREFIX-f0${vlan:+.$vlan}
	f1=$SL_TB_PREFIX-f1${vlan:+.$vlan}
	new_prefix
	fifo=$T/3.fifo out=$T/3-$name.out cap=$T/3-$name.pcap
	rm -f "$fifo"
	mkfifo "$fifo"
	# What the router sees on its port-0 link: ARP, ND, echo (decoded by tshark below).
	timeout 30 ip netns exec "$ns" tcpdump -i "$SL_TB_PREFIX-f0" -U -w "$cap" \
		'arp or icmp or icmp6 or (vlan and (arp or icmp or icmp6))' >/dev/null 2>&1 &
	local tcpd=$!
	timeout 60 "$tb" exec "$bin" "${EAL[@]}" --file-prefix "$prefix" \
		--vdev "net_af_packet0,iface=$SL_TB_PREFIX-g0" \
		--vdev "net_af_packet1,iface=$SL_TB_PREFIX-g1" -- -i <"$fifo" >"$out" 2>&1 &
	local sl=$!
	exec 7>"$fifo"
	echo "device add h0 port 0 mac 02:00:00:00:01:01$v ip 198.18.0.1/24 gw 198.18.0.254 ip6 2001:2::1/64 gw6 2001:2::fe" >&7
	echo "device add h1 port 1 mac 02:00:00:00:01:02$v ip 198.18.1.1/24 gw 198.18.1.254 ip6 2001:2:0:1::1/64 gw6 2001:2:0:1::fe" >&7
	echo "flow add a from h0 to h1 count 40000 rate 20kpps" >&7
	echo "flow add b from h1 to h0 ipv6 size 128 count 40000 rate 20kpps" >&7
	sleep 1.5
	echo "show neighbors" >&7
	# Between runs: the router pings each device (IPv4, IPv6, link-local).
	local p4 p6 pll
	p4=$(ip netns exec "$ns" ping -c 3 -i 0.2 -W 2 198.18.0.1 2>&1 | grep -c 'bytes from')
	p6=$(ip netns exec "$ns" ping -6 -c 3 -i 0.2 -W 2 2001:2:0:1::1 2>&1 | grep -c 'bytes from')
	pll=$(ip netns exec "$ns" ping -6 -c 3 -i 0.2 -W 2 "fe80::ff:fe00:102%$f1" 2>&1 | grep -c 'bytes from')
	check "3 $name: between runs the router pings h0 (IPv4): 3 of 3 ($p4)" test "$p4" = 3
	check "3 $name: between runs the router pings h1 (IPv6): 3 of 3 ($p6)" test "$p6" = 3
	check "3 $name: the router pings h1's link-local address: 3 of 3 ($pll)" test "$pll" = 3
	echo "start" >&7
	sleep 0.5
	# During the run (2 s at 20 kpps each way): pings go through the RX lcore's ring.
	p4=$(ip netns exec "$ns" ping -c 3 -i 0.2 -W 2 198.18.1.1 2>&1 | grep -c 'bytes from')
	p6=$(ip netns exec "$ns" ping -6 -c 3 -i 0.2 -W 2 2001:2::1 2>&1 | grep -c 'bytes from')
	check "3 $name: during a run the router pings h1 (IPv4): 3 of 3 ($p4)" test "$p4" = 3
	check "3 $name: during a run the router pings h0 (IPv6): 3 of 3 ($p6)" test "$p6" = 3
	ip -n "$ns" neigh show >"$T/3-$name.neigh"
	sleep 2.5
	echo "show devices" >&7
	echo "quit" >&7
	exec 7>&-
	wait "$sl"
	rc=$?
	sleep 0.3
	kill "$tcpd" 2>/dev/null
	wait "$tcpd" 2>/dev/null
	check "3 $name: sluice exits 0 (rc $rc)" rc_is 0
	check "3 $name: h0 resolved the router's IPv4 address" \
		grep -qE '^h0 +0 +ipv4 198.18.0.254 +[0-9A-F:]{17} +(REACHABLE|PROBE)' "$out"
	check "3 $name: h1 resolved the router's IPv6 address" \
		grep -qE '^h1 +1 +ipv6 2001:2:0:1::fe +[0-9A-F:]{17} +(REACHABLE|PROBE)' "$out"
	check "3 $name: the router learned h0's MAC by ARP (not permanent)" \
		grep -qE "^198.18.0.1 dev $f0 lladdr 02:00:00:00:01:01 (REACHABLE|STALE|DELAY|PROBE)" "$T/3-$name.neigh"
	check "3 $name: the router learned h1's MAC by ND (not permanent)" \
		grep -qE "^2001:2:0:1::1 dev $f1 lladdr 02:00:00:00:01:02 (REACHABLE|STALE|DELAY|PROBE)" "$T/3-$name.neigh"
	check "3 $name: flow a (IPv4): 40000 sent, 40000 received through the router" \
		grep -q 'flow a: port 0 -> 1  tx 40000 rx 40000 lost 0 (0%) dup 0 reordered 0' "$out"
	check "3 $name: flow b (IPv6): 40000 sent, 40000 received through the router" \
		grep -q 'flow b: port 1 -> 0  tx 40000 rx 40000 lost 0 (0%) dup 0 reordered 0' "$out"
	local fwd01 fwd10
	fwd01=$("$tb" dut-counters | awk '$1 == "nft_forwarded_0to1" {print $2}')
	fwd10=$("$tb" dut-counters | awk '$1 == "nft_forwarded_1to0" {print $2}')
	# The router forwarded the flows' frames, every one (its own pings are not forwarded).
	check "3 $name: nftables: the router forwarded 40000 frames 0->1 ($fwd01)" \
		test "$fwd01" = 40000
	check "3 $name: nftables: the router forwarded 40000 frames 1->0 ($fwd10)" \
		test "$fwd10" = 40000
	# tshark, not our parser: h0's ARP replies and NAs as the router saw them.
	local arp na echo
	arp=$(tshark -r "$cap" -Y 'arp && eth.src == 02:00:00:00:01:01 && arp.src.hw_mac == 02:00:00:00:01:01 && arp.src.proto_ipv4 == 198.18.0.1' -T fields -e frame.number 2>/dev/null | wc -l)
	na=$(tshark -r "$cap" -Y 'icmpv6.type == 136 && eth.src == 02:00:00:00:01:01 && icmpv6.nd.na.target_address == 2001:2::1 && icmpv6.checksum.status == 1' -T fields -e frame.number 2>/dev/null | wc -l)
	echo=$(tshark -r "$cap" -Y 'icmp.type == 0 && ip.src == 198.18.0.1 && icmp.checksum.status == 1 && ip.checksum.status != 0' -o ip.check_checksum:TRUE -T fields -e frame.number 2>/dev/null | wc -l)
	check "3 $name: tshark reads h0's ARP frames with its MAC and address ($arp)" test "$arp" -ge 2
	check "3 $name: tshark reads NAs for 2001:2::1 from h0, checksum good ($na)" test "$na" -ge 1
	check "3 $name: tshark reads h0's 3 echo replies, checksums good ($echo)" test "$echo" = 3
	if [ -n "$vlan" ]; then
		local tagged
		tagged=$(tshark -r "$cap" -Y "vlan.id == $vlan && eth.src == 02:00:00:00:01:01" -T fields -e frame.number 2>/dev/null | wc -l)
		local untagged
		untagged=$(tshark -r "$cap" -Y "!vlan && eth.src == 02:00:00:00:01:01" -T fields -e frame.number 2>/dev/null | wc -l)
		check "3 $name: every frame h0 sent is tagged with VLAN $vlan ($tagged tagged, $untagged not)" \
			test "$tagged" -ge 1 -a "$untagged" = 0
	fi
	"$tb" down >/dev/null 2>&1
}

if want 3; then
	if [ "$(id -u)" != 0 ]; then
		skip "3 a router: needs root (network namespaces)"
	elif ! command -v nft >/dev/null || ! command -v tshark >/dev/null ||
		! command -v ping >/dev/null || ! command -v tcpdump >/dev/null; then
		skip "3 a router: needs nft, tshark, tcpdump and ping (scripts/setup.sh installs them)"
	else
		router_case ""
		# Can this kernel make 802.1Q interfaces? Asked in a namespace of our own.
		ip netns add "sldvchk$$" 2>/dev/null
		if ip -n "sldvchk$$" link add d0 type dummy 2>/dev/null &&
			ip -n "sldvchk$$" link add link d0 name d0.9 type vlan id 9 2>/dev/null; then
			ip netns del "sldvchk$$"
			router_case 100
		else
			ip netns del "sldvchk$$" 2>/dev/null
			skip "3 a router on a VLAN: this kernel has no 802.1Q interfaces (ip link type vlan); item 4 checks tagged devices on the sim"
		fi
	fi
fi

echo "test_devices: $pass passed, $fail failed"
[ "$fail" = 0 ]
