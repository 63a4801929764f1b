#!/usr/bin/env bash
# test_flows.sh - the flow table (docs/generator.md, "Flows"): many flows per
# port, each with its own addresses, size, rate and count, and exact
# per-flow metrics.
#  1. bad flows: one message, exit 2, nothing sent;
#  2. 100 flows on one port through the sim DUT with loss, counts that do
#     not divide the 2 lcores x 2 queues: each flow sends exactly its count,
#     the per-flow losses add up to the DUT's drops, tx = unique + lost;
#  3. a bidirectional router test: per-direction addresses, frames read
#     back from net_pcap by scapy (not our parser), every checksum valid,
#     each flow's frames exactly its count with its own addresses;
#  4. the prompt: flow add/set/del, a refused flow changes nothing,
#     show flows, show flow stats;
#  5. header stacks: VXLAN, QinQ + MPLS, GRE, GTP-U, ICMP, ICMPv6, IPv6,
#     decoded by scapy with every checksum (outer and inner) recomputed,
#     field patterns on any header's field, and every stack's frames
#     counted exactly by the receive side through the sim DUT; bad stacks.
#  W. GET /config from the model: read back, it runs the same frames; the
#     prompt's flows are in it; what OTG cannot say is left out, and said.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
PY=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
tag=slfl
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
eal() {
	new_prefix
	echo --no-huge -m 1024 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
		--file-prefix "$prefix"
}

# bad WHAT WANT ARGS...: exit 2, WANT in the one message, no summary.
bad() {
	local what=$1 want=$2 out
	shift 2
	# shellcheck disable=SC2046
	out=$(timeout 60 "$bin" $(eal) -- "$@" 2>&1 </dev/null) && rc=0 || rc=$?
	if [ "$rc" = 2 ] && grep -q -- "$want" <<<"$out" && ! grep -q "sluice summary" <<<"$out"; then
		ok "$what: exit 2, '$(grep -m1 -- "$want" <<<"$out")'"
	else
		ko "$what: exit $rc, want '$want': $out"
	fi
}

if want 1; then
	S=(--sim 10G,dut=1 --sim 10G)
	bad "unknown key" "flow: a: colour: unknown key" "${S[@]}" --flow 'a port 0 colour red'
	bad "a key without its value" "rate: a value must follow" "${S[@]}" --flow 'a port 0 rate'
	bad "a bad name" "name 'a/b'" "${S[@]}" --flow 'a/b port 0'
	bad "two flows of one name" "two flows are named a" "${S[@]}" --flow 'a port 0' --flow 'a port 1'
	bad "a port that does not exist" "flow a: port 5 does not exist" "${S[@]}" --flow 'a port 5' --count 10
	bad "to a port that does not exist" "to port 7 does not exist" "${S[@]}" --flow 'a port 0 to 7' --count 10
	bad "a size the port cannot send" "flow a (port 0): .*9000" "${S[@]}" --flow 'a port 0 size 9000' --count 10
	bad "one flow above the line" "flow b (port 0): 11 Gb/s L1 is above the line rate" "${S[@]}" \
		--flow 'a port 0 rate 1Gbps' --flow 'b port 0 rate 11Gbps' --count 10
	bad "flows above the line together" "flows a, b ask 12 Gb/s (L1) together, above the line rate of 10 Gb/s" \
		"${S[@]}" --flow 'a port 0 rate 6Gbps' --flow 'b port 0 rate 6Gbps' --count 10
	bad "src and dst of two IP versions" "src is IPv4 and dst IPv6: give both of one version" "${S[@]}" \
		--flow 'a port 0 src 10.0.0.1 dst 2001:db8::1'
	bad "one address of the other version" "src is IPv6 but the flow's dst is IPv4: give dst too" "${S[@]}" \
		--flow 'a port 0 src 2001:db8::1'
	bad "--count below the flows sharing it" "port 0's 3 flows without a count" "${S[@]}" \
		--flow 'a port 0' --flow 'b port 0' --flow 'c port 0' --count 2
fi

if want 2; then
	# 100 flows, counts 1001..1100 (none a multiple of the 4 lcore-queue pairs).
	args=()
	for i in $(seq 0 99); do
		args+=(--flow "f$i port 0 to 1 src 198.18.$((i / 250)).$((i % 250 + 1)) dst 198.19.0.$((i + 1)) sport $((1000 + i)) count $((1001 + i))")
	done
	# shellcheck disable=SC2046
	timeout 120 "$bin" $(eal) -- --sim 10G,dut=1,loss=0.02 --sim 10G --txq 2 "${args[@]}" \
		--json "$T/f100.json" >"$T/f100.out" 2>&1 && rc=0 || rc=$?
	j=$T/f100.json
	if [ -s "$j" ]; then
		check "100 flows: run ends (exit 3: loss)" rc_is 3
		check "100 flows: each sent exactly its count (1001 + i)" \
			jq -e '[.flows[] | (.generated == (.name[1:] | tonumber) + 1001) and .tx == .generated and .tx_exact] | length == 100 and all' "$j"
		check "100 flows: tx = unique + lost for each" jq -e '[.flows[] | .tx == .unique + .lost] | all' "$j"
		check "100 flows: every flow lost some (2 % loss over ~1000 frames each)" \
			jq -e '[.flows[] | .lost > 0] | all' "$j"
		drops=$(jq '[.ports[] | select(.dut) | .dut | .dropped_capacity + .dropped_loss + .dropped_full + .dropped_link] | add' "$j")
		lost=$(jq '[.flows[].lost] | add' "$j")
		check "100 flows: per-flow losses add up to the DUT's drops ($lost = $drops)" eq "$lost" "$drops"
		check "100 flows: the port's stream is their sum" \
			jq -e '([.flows[].tx] | add) == (.streams[] | select(.tx_port == 0) | .tx_signed) and ([.flows[].lost] | add) == (.streams[] | select(.tx_port == 0) | .lost)' "$j"
		check "100 flows: each flow arrived at port 1 only" \
			jq -e '[.flows[] | (.rx | length == 1) and .rx[0].rx_port == 1] | all' "$j"
		check "100 flows: flows[] carries streams[]'s names: rx_port 1, rx_packets = unique (no dup)" \
			jq -e '[.flows[] | .rx_port == 1 and .rx_packets == .unique and .tx_signed == .tx and
				.tx_packets == .generated and .duplicates == 0 and (.loss_ratio * .tx - .lost | fabs) < 1e-6] | all' "$j"
	else
		ko "100 flows: no JSON (exit $rc): $(tail -5 "$T/f100.out")"
	fi
fi

if want 3; then
	# A router test on one net_pcap port: the two directions as two flows with
	# their own addresses, counts 777 and 333, sizes 64 and 128 (TCP).
	pcap=$T/bidir.pcap
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$pcap" -- \
		--flow 'east port 0 src 198.18.0.1 dst 198.19.0.1 sport 1111 dport 2222 count 777' \
		--flow 'west port 0 src 198.19.0.1 dst 198.18.0.1 tcp sport 3333 dport 4444 size 128 count 333' \
		--flow 'v6 port 0 src 2001:2::10 dst 2001:2:0:1::10 vlan 42 size 100 count 55' \
		--json "$pcap.json" >"$pcap.out" 2>&1 && rc=0 || rc=$?
	check "pcap: the run ends (exit 0)" rc_is 0
	out=$("$PY" - "$pcap" <<'PYEOF' 2>&1
import sys
from collections import Counter
from scapy.all import rdpcap, Ether, IP, IPv6, UDP, TCP, Dot1Q, raw
pk = rdpcap(sys.argv[1])
seen, bad = Counter(), []
for i, p in enumerate(pk):
    l3 = p[IP] if IP in p else p[IPv6]
    l4 = p[UDP] if UDP in p else p[TCP]
    key = (l3.src, l3.dst, type(l4).__name__, l4.sport, l4.dport, len(raw(p)) + 4,
           p[Dot1Q].vlan if Dot1Q in p else 0)
    seen[key] += 1
    # Checksums: recomputed by scapy from scratch.
    q = p.copy()
    if IP in q:
        del q[IP].chksum
    del q[type(l4)].chksum
    q = q.__class__(raw(q))
    if IP in p and q[IP].chksum != p[IP].chksum:
        bad.append((i, "ip"))
    if q[type(l4)].chksum != l4.chksum:
        bad.append((i, "l4"))
for k, v in sorted(seen.items()):
    print(k, v)
print("bad", bad[:5], len(bad))
PYEOF
)
	check "pcap: scapy finds east's 777 frames (UDP 64 B)" grep -q "('198.18.0.1', '198.19.0.1', 'UDP', 1111, 2222, 64, 0) 777" <<<"$out"
	check "pcap: scapy finds west's 333 frames (TCP 128 B)" grep -q "('198.19.0.1', '198.18.0.1', 'TCP', 3333, 4444, 128, 0) 333" <<<"$out"
	check "pcap: scapy finds v6's 55 frames (IPv6 in VLAN 42, 100 B)" grep -q "('2001:2::10', '2001:2:0:1::10', 'UDP', 9, 9, 100, 42) 55" <<<"$out"
	check "pcap: nothing else, every checksum valid" eq "$(grep -c "^('" <<<"$out") $(grep '^bad' <<<"$out")" "3 bad [] 0"
	[ "$fail" = 0 ] || echo "$out"
	# A size increment (MIN-MAX/STEP): ascending, each once a cycle (one lcore: the
	# capture's order is the flow's).
	new_prefix
	timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --log-level '*:error' --file-prefix "$prefix" \
		--vdev "net_pcap0,tx_pcap=$T/inc.pcap" -- --flow 'a port 0 size 64-100/12 count 8' >/dev/null 2>&1
	check "sizes: 64-100/12 goes 64 76 88 100, twice" \
		eq "$(tshark -n -r "$T/inc.pcap" -T fields -e frame.len 2>/dev/null | tr '\n' ' ')" "60 72 84 96 60 72 84 96 "
fi

if want 4; then
	# Refusals at the prompt (piped: each line answers, nothing starts).
	# shellcheck disable=SC2046
	out=$(printf '%s\n' 'flow add a port 0 to 1 count 1000' 'flow add b port 0 to 1 size 200 count 500' \
		'flow add c port 0 rate 20Gbps' 'flow add c port 0 rate 6Gbps' 'flow add d port 0 rate 5Gbps' \
		'flow del c' 'flow add a port 1' 'flow set b count 501 colour red' 'flow set b count 502' \
		'flow set zz count 1' 'flow del zz' 'show flows' 'quit' |
		timeout 60 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G -i 2>&1) && rc=0 || rc=$?
	check "prompt: ends (exit 0)" rc_is 0
	check "prompt: a flow above the line is refused" grep -q "error: flow add: flow c (port 0): 20 Gb/s L1 is above the line rate" <<<"$out"
	check "prompt: flows above the line together are refused" grep -q "error: flow add: port 0 (sim0): flows c, d ask 11 Gb/s (L1) together" <<<"$out"
	check "prompt: a second flow a is refused" grep -q "error: flow add: flow a exists" <<<"$out"
	check "prompt: a bad key is refused" grep -q "error: flow set: colour: unknown key" <<<"$out"
	check "prompt: no flow zz to set or delete" eq "$(grep -c 'no flow zz' <<<"$out")" 2
	check "prompt: show flows: a and b as set (the refused set changed nothing)" \
		eq "$(grep -c '^flow [01]: ' <<<"$out") $(grep -c '^flow 1: b port 0 to 1 .* size 200 rate auto count 502$' <<<"$out")" "2 1"
	[ "$fail" = 0 ] || echo "$out"
	# A profile: its start runs to the end before the next line.
	printf '%s\n' 'flow add a port 0 to 1 count 1000' 'flow add b port 0 to 1 size 200 count 502' \
		'start' 'show flow stats' 'show flow stats b' 'clear flow stats' 'show flow stats a' \
		'flow del a' 'show flows' 'flow del all' 'show flows' >"$T/flows.txt"
	# shellcheck disable=SC2046
	out=$(timeout 60 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G --cmdline-file "$T/flows.txt" 2>&1) && rc=0 || rc=$?
	check "profile: ends (exit 0)" rc_is 0
	check "profile: show flow stats: a's 1000 frames arrived" grep -qE "^flow a \(id 0\): port 0  generated 1000 tx 1000 unique 1000 lost 0 " <<<"$out"
	check "profile: show flow stats b: b alone" eq "$(grep -c '^flow b (id 1): port 0  generated 502 tx 502 unique 502 lost 0 ' <<<"$out") $(grep -c '^flow a (id 0): port' <<<"$out")" "2 1"
	check "profile: clear flow stats: a counts from zero after the run" \
		grep -q "^flow a (id 0): since the clear: generated 0 tx 0 unique 0 lost 0 rx 0 dup 0 reordered 0 late 0$" <<<"$out"
	check "profile: flow del a leaves b as flow 0" grep -q "^flow 0: b port 0" <<<"$out"
	check "profile: flow del all: back to the default flows" grep -q "^no flow: each sending port sends its default flow" <<<"$out"
	[ "$fail" = 0 ] || echo "$out"
fi

if want 5; then
	V='eth/ipv4(dst=198.19.0.9)/udp/vxlan(vni=5000)/eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp(dport=7)'
	Q='eth/vlan(id=10)/vlan(id=20)/mpls(label=100)/mpls(label=200)/ipv6/tcp'
	G='eth/ipv4/gre/ipv6/icmp6'
	U='eth/ipv4/udp/gtpu(teid=77)/ipv4(src=10.1.1.1)/icmp'
	E='eth/ipv6/gre/eth/ipv4/udp'
	stacks=(--flow "vx port 0 to 1 stack $V count 301 size 128,256 field vxlan.vni=inc:5000,3 field ipv4.2.src=random:10.0.0.1,50"
		--flow "q port 0 to 1 stack $Q size 128 count 303 field mpls.2.label=list:7,8,9"
		--flow "g port 0 to 1 stack $G count 202"
		--flow "gt port 0 to 1 stack $U count 107 size 100-140"
		--flow "e6 port 0 to 1 stack $E count 77"
		--flow "plain port 0 to 1 count 99"
		--flow "r4 port 0 to 1 stack eth/ipv4 count 11"
		--flow "r6 port 0 to 1 stack eth/ipv6 size 100 count 13"
		--flow "rg port 0 to 1 stack eth/ipv4/gre count 17")
	pcap=$T/stack.pcap
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$pcap" -- --sign on "${stacks[@]//to 1/}" \
		>"$pcap.out" 2>&1 && rc=0 || rc=$?
	check "stacks: the pcap run ends (exit 0)" rc_is 0
	out=$("$PY" "$top/app/test/py/stack_check.py" "$pcap" 2>&1)
	check "stacks: scapy decodes VXLAN (outer and inner IPv4/UDP): 301 frames" grep -qx "Ether/IP/UDP/VXLAN/Ether/IP/UDP 301" <<<"$out"
	check "stacks: QinQ, two MPLS labels, IPv6, TCP: 303" grep -qx "Ether/Dot1AD/Dot1Q/MPLS/MPLS/IPv6/TCP 303" <<<"$out"
	check "stacks: GRE with IPv6 and ICMPv6 inside: 202" grep -qx "Ether/IP/GRE/IPv6/ICMPv6EchoRequest 202" <<<"$out"
	check "stacks: GTP-U with IPv4 and ICMP inside: 107" grep -qx "Ether/IP/UDP/GTP_U_Header/IP/ICMP 107" <<<"$out"
	check "stacks: Ethernet over GRE over IPv6: 77" grep -qx "Ether/IPv6/GRE/Ether/IP/UDP 77" <<<"$out"
	check "stacks: the classic flow beside them: 99" grep -qx "Ether/IP/UDP 99" <<<"$out"
	# Nothing after the IP header or GRE: a raw payload (IPv4 protocol 61,
	# IPv6 next header 59, GRE 0x6558: scapy reads the zeroes as 802.3/LLC).
	check "stacks: IPv4 with nothing after: 11" grep -qx "Ether/IP 11" <<<"$out"
	check "stacks: IPv6 with nothing after: 13" grep -qx "Ether/IPv6 13" <<<"$out"
	check "stacks: GRE with nothing after: 17" grep -qx "Ether/IP/GRE/Dot3/LLC 17" <<<"$out"
	pr=$(tshark -n -r "$pcap" -Y 'ip.proto == 61 or ipv6.nxt == 59 or (ip.proto == 47 and gre.proto == 0x6558)' \
		-T fields -e ip.proto -e ipv6.nxt -e gre.proto 2>/dev/null | sort | uniq -c | awk '{$1=$1; print}' | sort | tr '\n' ';')
	check "stacks: tshark reads their protocols: 61, 59, 0x6558 ($pr)" \
		eq "$pr" "11 61;13 59;17 47 0x6558;"
	[ "$fail" = 0 ] || grep -E '^Ether/IP(v6)?(/GRE.*)? [0-9]+$' <<<"$out"
	check "stacks: every checksum of every layer right, every frame signed" \
		eq "$(grep -E '^(bad|sig) ' <<<"$out" | tr '\n' ' ')" "bad 0 [] sig 1130 "
	# Several sizes, some too short to carry a signature, in one flow's own pool:
	# no frame's header is cleared as an old signature (found by review).
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/ms.pcap" -- \
		--flow 'a port 0 stack eth/vlan/ipv4/tcp size 64,128 count 5000' >/dev/null 2>&1
	hl=$(tshark -n -r "$T/ms.pcap" -T fields -e tcp.hdr_len -e tcp.flags -e tcp.window_size_value 2>/dev/null | sort | uniq -c | awk '{print $2"/"$3"/"$4":"$1}' | tr '\n' ' ')
	check "stacks: two sizes, one too short to sign: every TCP header whole ($hl)" eq "$hl" "20/0x0018/65535:5000 "
	# Steps: a classic field and a stack's field, each value count / values times.
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/step.pcap" -- --count 100 \
		--field dst-ip=inc:198.18.1.1,5,2 >/dev/null 2>&1
	st=$(tshark -n -r "$T/step.pcap" -T fields -e ip.dst 2>/dev/null | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
	check "steps: dst-ip=inc:198.18.1.1,5,2: .1 .3 .5 .7 .9, 20 each" eq "$st" "198.18.1.1:20 198.18.1.3:20 198.18.1.5:20 198.18.1.7:20 198.18.1.9:20 "
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/step2.pcap" -- \
		--flow 'v port 0 stack eth/ipv4/udp/vxlan/eth/ipv4/udp field vxlan.vni=dec:100,3,10 count 31' >/dev/null 2>&1
	st=$(tshark -n -r "$T/step2.pcap" -T fields -e vxlan.vni 2>/dev/null | sort -n | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
	check "steps: vxlan.vni=dec:100,3,10 over 31 frames, 2 lcores: 100 90 80 ($st)" eq "$st" "80:10 90:10 100:11 "
	# Past the field's width a pattern wraps modulo 2^bits, as OTG's do (issue 48).
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/step3.pcap" -- --flow \
		'v port 0 stack eth/ipv4/udp/vxlan/eth/ipv4/udp field vxlan.vni=inc:16777000,3,200 count 30' \
		>/dev/null 2>&1
	st=$(tshark -n -r "$T/step3.pcap" -T fields -e vxlan.vni 2>/dev/null | sort -n | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
	check "steps: vxlan.vni=inc:16777000,3,200 wraps past 2^24: 16777000 16777200 184 ($st)" \
		eq "$st" "184:10 16777000:10 16777200:10 "
	# The patterns, read by tshark: the VNIs 5000-5002 in turn, the MPLS labels 7, 8, 9.
	vni=$(tshark -n -r "$pcap" -Y vxlan -T fields -e vxlan.vni 2>/dev/null | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
	check "stacks: vxlan.vni=inc:5000,3: 101 100 100 ($vni)" eq "$vni" "5000:101 5001:100 5002:100 "
	lab=$(tshark -n -r "$pcap" -Y 'mpls.bottom == 1' -T fields -e mpls.label 2>/dev/null | awk -F, '{print $NF}' | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
	check "stacks: mpls.2.label=list:7,8,9: 101 each ($lab)" eq "$lab" "7:101 8:101 9:101 "
	src=$(tshark -n -r "$pcap" -Y vxlan -T fields -e ip.src 2>/dev/null | awk -F, '{print $2}' | sort -u | wc -l)
	check "stacks: ipv4.2.src=random:10.0.0.1,50: inner sources in range ($src distinct)" \
		bash -c "[ $src -gt 30 ] && [ $src -le 50 ] && ! tshark -n -r '$pcap' -Y vxlan -T fields -e ip.src 2>/dev/null | awk -F, '{print \$2}' | grep -vqE '^10\.0\.0\.([1-9]|[1-4][0-9]|50)\$'"
	[ "$fail" = 0 ] || echo "$out"
	# The receive side counts each stack exactly, through the sim DUT with loss.
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) -- --sim 10G,dut=1,loss=0.01 --sim 10G --txq 2 "${stacks[@]}" \
		--json "$T/stack.json" >"$T/stack.out" 2>&1 && rc=0 || rc=$?
	j=$T/stack.json
	check "stacks: the sim run ends (exit 3: loss)" rc_is 3
	check "stacks: each flow: tx its count, tx = unique + lost, nothing foreign" \
		jq -e '([.flows[] | .tx == .generated and .tx == .unique + .lost] | all) and
			([.flows[].generated] == [301, 303, 202, 107, 77, 99, 11, 13, 17]) and
			(.ports[1].rx_foreign == 0 and .ports[1].rx_bad_signature == 0)' "$j"
	drops=$(jq '[.ports[] | select(.dut) | .dut | .dropped_capacity + .dropped_loss + .dropped_full + .dropped_link] | add' "$j")
	lost=$(jq '[.flows[].lost] | add' "$j")
	check "stacks: the flows' losses are the DUT's drops ($lost = $drops)" eq "$lost" "$drops"
	[ "$fail" = 0 ] || cat "$T/stack.out"
	# Frames too short for the signature: said at the start, never silent.
	# shellcheck disable=SC2046
	out=$(timeout 60 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G --rx 1 \
		--flow 'a port 0 to 1 stack eth/ipv6 count 10 size 64' \
		--flow 'b port 0 to 1 stack eth/ipv4/tcp count 10 size 64,128' 2>&1)
	check "stacks: a flow none of whose frames can be signed is said to be unmeasured" \
		grep -q "^warning: flow a: all its frames below 74 bytes carry no signature .*: it is sent but not measured" <<<"$out"
	check "stacks: a flow some of whose frames cannot be signed: said" \
		grep -q "^warning: flow b: its frames below 74 bytes carry no signature" <<<"$out"
	S=(--sim 10G,dut=1 --sim 10G --count 10)
	bad "a header that is not one" "'ipx': not a header" "${S[@]}" --flow 'a stack eth/ipx/udp'
	bad "a field a header lacks" "udp: 'vni=3' is not FIELD=VALUE with a field of udp" "${S[@]}" --flow 'a stack eth/ipv4/udp(vni=3)'
	bad "a value above the field" "vxlan.vni=16777216: give a whole number from 0 to 16777215" "${S[@]}" --flow 'a stack eth/ipv4/udp/vxlan(vni=16777216)/eth/ipv4/udp'
	bad "a header in the wrong place" "tcp cannot be followed by udp" "${S[@]}" --flow 'a stack eth/ipv4/tcp/udp'
	bad "no IP header" "vlan cannot be followed by nothing" "${S[@]}" --flow 'a stack eth/vlan'
	bad "a pattern on a header the stack lacks" "field ipv4.3.src: the stack has 2 ipv4 header(s)" "${S[@]}" \
		--flow "a stack $V field ipv4.3.src=inc:1.2.3.4,2"
	bad "a start past the field's bits" "field vxlan.vni: give a count of 1 or more and a start within the field's 24 bits" "${S[@]}" \
		--flow "a stack $V field vxlan.vni=inc:16777216,10"
	bad "a classic field name in a stack" "field src-ip: with a header stack, name the header's field" "${S[@]}" \
		--flow "a stack $V field src-ip=inc:1.2.3.4,2"
	bad "five VLAN tags before IP" "5 VLAN tags and 0 MPLS labels before the IP header: the receive side reads past 4" "${S[@]}" \
		--flow 'a stack eth/vlan/vlan/vlan/vlan/vlan/ipv4/udp'
	bad "a TPID the receiver does not follow" "vlan: tpid 0x9100: the receive side follows 0x8100 and 0x88a8 tags only" "${S[@]}" \
		--flow 'a stack eth/vlan(tpid=0x9100)/ipv4/udp'
	bad "the bottom of stack on a middle label" "mpls: s=1 on a middle label" "${S[@]}" \
		--flow 'a stack eth/mpls(s=1)/mpls/ipv4/udp'
	bad "a pattern on a checksum" "field ipv4.csum: computed for every frame: it cannot vary" "${S[@]}" \
		--flow 'a stack eth/ipv4/udp field ipv4.csum=inc:1,5'
	bad "two patterns on the same bits" "field ipv4.dscp: its bits are another field's (ipv4.tos)" "${S[@]}" \
		--flow 'a stack eth/ipv4/udp field ipv4.tos=inc:1,5 field ipv4.dscp=inc:1,5'
	bad "an empty header" "an empty header or field" "${S[@]}" --flow 'a stack eth//ipv4/udp'
	bad "a size the stack does not fit" "frame size 64 is out of range: sizes count the FCS and go from 96" "${S[@]}" \
		--flow "a stack $V size 64"
fi

if want 6; then
	# A benchmark on flows keeps their own sizes (1518 and 512, no sizes=):
	# the trial's frames average (1514 + 508) / 2 bytes; a trial above
	# their line is refused with their mean frame.
	# shellcheck disable=SC2046
	timeout 120 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G --flow 'a port 0 to 1 size 1518' \
		--flow 'b port 0 to 1 size 512' --bench trial,load=100kpps,trial=0.2 \
		--json "$T/bench.json" >"$T/bench.out" 2>&1 && rc=0 || rc=$?
	check "bench on flows: the trial ends (exit 0)" rc_is 0
	check "bench on flows: each flow its own size (1011 B a frame on average)" \
		jq -e '.ports[0].tx_packets > 0 and (.ports[0].tx_bytes / .ports[0].tx_packets) == 1011' "$T/bench.json"
	check "bench on flows: the flows shared the load (each half the frames)" \
		jq -e '(.flows[0].generated - .flows[1].generated) | (. >= -1 and . <= 1)' "$T/bench.json"
	[ "$fail" = 0 ] || cat "$T/bench.out"
	bad "bench on flows: a load above their line" "bench: load: port 0 (sim0): flows a, b ask 10.764 Gb/s (L1) together, above the line rate of 10 Gb/s" \
		--sim 10G,dut=1 --sim 10G --flow 'a port 0 to 1 size 1518' --flow 'b port 0 to 1 size 512' \
		--bench trial,load=1.3Mpps,trial=0.2
fi

if want 7; then
	# Per-flow metrics while the program lives: Prometheus labels and
	# telemetry, after a run of a profile (stdin a FIFO: quit once read).
	printf '%s\n' 'flow add a port 0 to 1 count 1000' \
		'flow add b port 0 to 1 stack eth/ipv4/udp/vxlan/eth/ipv4/udp count 500' 'start' >"$T/m.txt"
	mkfifo "$T/in"
	exec 3<>"$T/in"
	new_prefix
	timeout 60 "$bin" --no-huge -m 1024 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
		--file-prefix "$prefix" -- --sim 10G,dut=1 --sim 10G --metrics 127.0.0.1:0 \
		--cmdline-file "$T/m.txt" -i <"$T/in" >"$T/m.out" 2>&1 &
	pid=$!
	for _ in $(seq 200); do grep -q '^verdict' "$T/m.out" && break; sleep 0.05; done
	url=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$T/m.out" | head -1)
	m=$(curl -s --max-time 5 "$url")
	tel=$("$PY" "$top/app/test/py/tel_query.py" "$prefix" /sluice/flows /sluice/flows,1 2>&1)
	echo quit >&3
	wait "$pid" && rc=0 || rc=$?
	exec 3>&-
	check "metrics: the program ends (exit 0)" rc_is 0
	check "metrics: sluice_flow_unique_packets_total of a and b" \
		eq "$(grep -E '^sluice_flow_unique_packets_total\{flow="(a|b)",tx_port="0"\}' <<<"$m" | awk '{print $2}' | tr '\n' ' ')" "1000 500 "
	check "metrics: sluice_flow_rx_packets_total{flow=\"b\",rx_port=\"1\"} 500" \
		grep -qE '^sluice_flow_rx_packets_total\{flow="b",rx_port="1"\} 500 ' <<<"$m"
	check "metrics: sluice_flow_lost_packets 0 for both" eq "$(grep -c '^sluice_flow_lost_packets{.*} 0$' <<<"$m")" 2
	check "telemetry: /sluice/flows lists a and b" grep -qF '{"/sluice/flows": {"0": "a", "1": "b"}}' <<<"$tel"
	check "telemetry: /sluice/flows,1: b's 500 frames at port 1" \
		"$PY" -c 'import json,sys; r=[json.loads(l) for l in sys.stdin][1]["/sluice/flows"]; sys.exit(not (r["name"] == "b" and r["unique"] == 500 and r["rx_port_1"]["rx_packets"] == 500))' <<<"$tel"
	[ "$fail" = 0 ] || { echo "$m" | grep flow; echo "$tel"; tail -5 "$T/m.out"; }
fi

if want 8; then
	# Durations and delays: a at 10 kpps for 0.2 s sends at most 2000 frames
	# and a burst (the pacer never runs ahead); b starts 0.3 s in and sends
	# 100 at 1 kpps from its 2 lcore-queue pairs (50 each at 500 pps, their
	# last 49 x 2 ms after the start), so the run lasts at least 0.398 s.
	# Bounds a busy machine cannot break; the counts stay exact per flow.
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G --flow 'a port 0 to 1 rate 10kpps duration 0.2' \
		--flow 'b port 0 to 1 delay 0.3 count 100 rate 1kpps' --json "$T/du.json" \
		>"$T/du.out" 2>&1 && rc=0 || rc=$?
	check "durations: the run ends (exit 0)" rc_is 0
	check "durations: a sent at most 10 kpps x 0.2 s + a burst, b its 100" \
		jq -e '.flows[0].generated >= 1 and .flows[0].generated <= 2032 and .flows[1].generated == 100 and
			([.flows[] | .tx == .unique + .lost and .lost == 0] | all)' "$T/du.json"
	check "durations: b's delay held the run past 0.398 s ($(jq .duration_s "$T/du.json") s)" \
		jq -e '.duration_s >= 0.3979' "$T/du.json"
	bad "a duration that is not one" "duration x: 'x' is not" --sim 10G --flow 'a port 0 duration x'
	# Bursts: 101 packets 5 times with 10 ms pauses (shared by 2 lcore-queue
	# pairs: 51 + 50 each burst), 10 three times at 1 Mpps with 20 ms pauses:
	# exact counts, and the pauses are at least their gaps (4 x 10 ms, 2 x 20 ms).
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G --flow 'a port 0 to 1 burst 101 gap 10ms bursts 5' \
		--flow 'b port 0 to 1 burst 10 gap 20ms bursts 3 rate 1Mpps' --json "$T/bu.json" >"$T/bu.out" 2>&1 && rc=0 || rc=$?
	check "bursts: the run ends (exit 0)" rc_is 0
	check "bursts: a sent 5 x 101, b 3 x 10, all arrived" \
		jq -e '[.flows[] | [.generated, .unique]] == [[505, 505], [30, 30]]' "$T/bu.json"
	check "bursts: the pauses held the run past 40 ms ($(jq .duration_s "$T/bu.json") s)" jq -e '.duration_s >= 0.04' "$T/bu.json"
	bad "a burst without its gap" "burst 10: give the pause after each (gap S" --sim 10G --flow 'a port 0 burst 10'
	printf '%s' '{"ports":[{"name":"p","location":"0"}],"flows":[{"name":"f","tx_rx":{"choice":"port","port":{"tx_name":"p"}},"duration":{"choice":"burst","burst":{"packets":7,"bursts":3,"inter_burst_gap":{"choice":"nanoseconds","nanoseconds":1000000}}}}]}' >"$T/bu.otg"
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) -- --sim 10G --otg-config "$T/bu.otg" --json "$T/bu2.json" >/dev/null 2>&1
	check "bursts: OTG duration.burst (7 packets, 3 bursts): 21 frames" jq -e '.flows[0].generated == 21' "$T/bu2.json"
fi

if want 9; then
	# An OTG Config (config/otg/two-port.json) read by --otg-config: its
	# frames in two pcaps, read by tshark: f1's destinations walk
	# 198.18.1.1-10 and its source ports 5000-5002; f2 is VLAN 100, IPv6,
	# TCP to 80, sizes 100, 150 and 200; every checksum right.
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/o0.pcap" --vdev "net_pcap1,tx_pcap=$T/o1.pcap" \
		-- --otg-config "$top/config/otg/two-port.json" --rx none --json "$T/otg.json" >"$T/otg.out" 2>&1 && rc=0 || rc=$?
	check "otg: the run ends (exit 0)" rc_is 0
	check "otg: f1 3000 frames, f2 2000" jq -e '[.flows[] | [.name, .generated]] == [["f1", 3000], ["f2", 2000]]' "$T/otg.json"
	dst=$(tshark -n -r "$T/o0.pcap" -T fields -e ip.dst 2>/dev/null | sort | uniq -c | awk '{print $1}' | sort -u | tr '\n' ' ')
	ndst=$(tshark -n -r "$T/o0.pcap" -T fields -e ip.dst 2>/dev/null | sort -u | tr '\n' ' ')
	check "otg: f1's 10 destinations, 300 frames each" eq "$dst|$(wc -w <<<"$ndst")" "300 |10"
	check "otg: f1's destinations 198.18.1.1 to .10" grep -q "198.18.1.1 198.18.1.10 198.18.1.2 " <<<"$ndst"
	sp=$(tshark -n -r "$T/o0.pcap" -T fields -e udp.srcport -e udp.dstport -e frame.len 2>/dev/null | sort | uniq -c | awk '{print $2"/"$3"/"$4":"$1}' | tr '\n' ' ')
	check "otg: f1's source ports 5000-5002, to 7, 124 B + FCS ($sp)" eq "$sp" "5000/7/124:1000 5001/7/124:1000 5002/7/124:1000 "
	f2=$(tshark -n -r "$T/o1.pcap" -T fields -e vlan.id -e ipv6.src -e tcp.dstport -e frame.len 2>/dev/null | sort | uniq -c | awk '{print $2"/"$3"/"$4"/"$5":"$1}' | tr '\n' ' ')
	check "otg: f2 is VLAN 100, IPv6 from 2001:2::2, TCP to 80, sizes 100/150/200 ($f2)" \
		eq "$f2" "100/2001:2::2/80/146:667 100/2001:2::2/80/196:666 100/2001:2::2/80/96:667 "
	# scapy checks the first 600 frames of each: f1's 30 (address, port)
	# pairs and f2's three sizes, 20 times over.
	out=$("$PY" "$top/app/test/py/stack_check.py" "$T/o0.pcap" --first 600
		"$PY" "$top/app/test/py/stack_check.py" "$T/o1.pcap" --first 600)
	check "otg: every checksum right (scapy, the first 600 frames of each)" eq "$(grep -c '^bad 0 \[\]' <<<"$out")" 2
	[ "$fail" = 0 ] || { cat "$T/otg.out"; echo "$out"; }
	o() { printf '%s' "$1" >"$T/bad.json"; }
	S=(--sim 10G,dut=1 --sim 10G --otg-config "$T/bad.json")
	P='"ports":[{"name":"p1","location":"0"},{"name":"p2","location":"sim1"}]'
	F='"name":"f","tx_rx":{"choice":"port","port":{"tx_name":"p1","rx_names":["p2"]}}'
	o '{"ports": ['; bad "otg: not JSON" "not JSON: " "${S[@]}"
	# layer1: the MTU a jumbo flow needs, checked against the port; a speed the port does not run at: a warning.
	J="\"flows\":[{$F,\"packet\":[{\"choice\":\"ethernet\"},{\"choice\":\"ipv4\"},{\"choice\":\"udp\"}],\"size\":{\"choice\":\"fixed\",\"fixed\":9000},\"duration\":{\"choice\":\"fixed_packets\",\"fixed_packets\":{\"packets\":\"100\"}}}]"
	o "{$P,$J}"; bad "otg: a 9000-byte flow without layer1's MTU" "9000" "${S[@]}"
	o "{$P,\"layer1\":[{\"name\":\"l\",\"port_names\":[\"p1\",\"p2\"],\"mtu\":9000,\"speed\":\"speed_100_gbps\"}],$J}"
	# shellcheck disable=SC2046
	out=$(timeout 60 "$bin" $(eal) -- "${S[@]}" --json "$T/l1.json" 2>&1) && rc=0 || rc=$?
	check "otg: layer1 mtu 9000: the jumbo flow runs, 100 frames arrive" \
		bash -c '[ "$1" = 0 ] && jq -e ".flows[0].unique == 100" "$2" >/dev/null' _ "$rc" "$T/l1.json"
	check "otg: layer1 speed_100_gbps on a 10G port: a warning, kept" \
		grep -q "layer1\[0\]: speed speed_100_gbps: port p1 (sim0) runs at 10 Gb/s, its NIC's or --sim's: kept" <<<"$out"
	o "{$P,\"layer1\":[{\"name\":\"l\",\"port_names\":[\"p1\"],\"mtu\":99999}],$J}"; bad "otg: layer1 mtu out of range" "layer1\[0\]: mtu: give 68 to 9000" "${S[@]}"
	o "{$P,$J,\"devices\":[{\"name\":\"d1\",\"isis\":{\"system_id\":\"640000000001\"}}]}"; bad "otg: a device's protocol (isis)" "devices\[0\].isis: not supported: Sluice's devices answer ARP, ND and ping" "${S[@]}"
	o "{$P,\"flows\":[{$F,\"packet\":[{\"choice\":\"ppp\"}]}]}"; bad "otg: a header it does not build" "flows\[0\].packet\[0\]: header 'ppp': not supported" "${S[@]}"
	o "{$P,\"flows\":[{$F,\"packet\":[{\"choice\":\"ethernet\"},{\"choice\":\"ipv4\",\"ipv4\":{\"src\":{\"choice\":\"increment\",\"increment\":{\"start\":\"1.1.1.1\",\"step\":\"0.0.0.0\",\"count\":5}}}}]}]}"
	bad "otg: an increment with a step of 0" "flows\[0\].packet\[1\].ipv4.src: increment.step: give a step of 1 or more" "${S[@]}"
	o '{"ports":[{"name":"p1","location":"eth9"}],"flows":[{"name":"f","tx_rx":{"choice":"port","port":{"tx_name":"p1"}}}]}'
	bad "otg: a location that is no port" "port p1: location 'eth9' is no port here" "${S[@]}"
	o "{$P,\"flows\":[{$F,\"duration\":{\"choice\":\"burst\",\"burst\":{\"packets\":5,\"inter_burst_gap\":{\"choice\":\"bytes\",\"bytes\":12}}}}]}"; bad "otg: a gap in bytes" "burst.inter_burst_gap: give it in nanoseconds" "${S[@]}"
	bad "otg: with --flow" "gives the flows: drop --flow" "${S[@]}" --flow 'a port 0'
	# Issue 48: OTG's fields as OTG defines them, frames decoded by scapy.
	# f1: DSCP 46, ECN 1, OTG's default DF 0, the predefined imix (64:7,
	# 570:4, 1518:1), a 0.4 s delay; f2: DF, TOS 0xb8, TCP SYN alone, null
	# members read as absent; f3: precedence 5 and low delay, MF, offset
	# 100, a custom header checksum 0x1234; f4: VXLAN's reserved1 5.
	EH='{"choice":"ethernet"}'
	IP4() { echo "{\"choice\":\"ipv4\",\"ipv4\":{\"dst\":{\"choice\":\"value\",\"value\":\"$1\"}${2:-}}}"; }
	FL() { echo "{\"name\":\"$1\",\"tx_rx\":{\"choice\":\"port\",\"port\":{\"tx_name\":\"p\"}},\"packet\":[$2],$3}"; }
	PK() { echo "\"duration\":{\"choice\":\"fixed_packets\",\"fixed_packets\":{\"packets\":$1${2:-}}}"; }
	V() { echo "{\"choice\":\"value\",\"value\":$1}"; }
	f1=$(FL f1 "$EH,$(IP4 198.18.1.1 ",\"priority\":{\"choice\":\"dscp\",\"dscp\":{\"phb\":$(V 46),\"ecn\":$(V 1)}}"),{\"choice\":\"udp\"}" \
		"\"size\":{\"choice\":\"weight_pairs\",\"weight_pairs\":{\"choice\":\"predefined\",\"predefined\":\"imix\"}},$(PK 1200 ",\"delay\":{\"choice\":\"microseconds\",\"microseconds\":400000}")")
	f2=$(FL f2 "$EH,$(IP4 198.18.2.2 ",\"dont_fragment\":$(V 1),\"priority\":{\"choice\":\"raw\",\"raw\":$(V 184)}"),{\"choice\":\"tcp\",\"tcp\":{\"ctl_syn\":$(V 1),\"window\":null}}" \
		"\"rate\":null,\"metrics\":null,\"size\":{\"choice\":\"fixed\",\"fixed\":128,\"increment\":null},$(PK 10)")
	f3=$(FL f3 "$EH,$(IP4 198.18.3.3 ",\"more_fragments\":$(V 1),\"fragment_offset\":$(V 100),\"header_checksum\":{\"choice\":\"custom\",\"custom\":4660},\"priority\":{\"choice\":\"tos\",\"tos\":{\"precedence\":$(V 5),\"delay\":$(V 1)}}"),{\"choice\":\"udp\"}" "$(PK 5)")
	f4=$(FL f4 "$EH,$(IP4 198.18.4.4 ""),{\"choice\":\"udp\"},{\"choice\":\"vxlan\",\"vxlan\":{\"vni\":$(V 100),\"reserved1\":$(V 5)}},$EH,$(IP4 10.0.0.1 ""),{\"choice\":\"udp\"}" "$(PK 5)")
	# f5 (review): sub-fields present but given nothing keep OTG's defaults
	# (no DF, no TCP flag); pfc_queue at its default, 0, is taken.
	f5=$(FL f5 "{\"choice\":\"ethernet\",\"ethernet\":{\"pfc_queue\":$(V 0)}},$(IP4 198.18.5.5 ",\"dont_fragment\":{}"),{\"choice\":\"tcp\",\"tcp\":{\"ctl_syn\":{\"choice\":null}}}" "$(PK 5)")
	printf '{"ports":[{"name":"p","location":"0"}],"flows":[%s,%s,%s,%s,%s]}' "$f1" "$f2" "$f3" "$f4" "$f5" >"$T/fid.json"
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/fid.pcap" -- --otg-config "$T/fid.json" \
		--rx none --json "$T/fid.out.json" >"$T/fid.out" 2>&1 && rc=0 || rc=$?
	check "otg fields: the run ends (exit 0), no warning" \
		bash -c '[ "$1" = 0 ] && ! grep -q "^warning" "$2"' _ "$rc" "$T/fid.out"
	out=$("$PY" "$top/app/test/py/otg_fidelity.py" "$T/fid.pcap" 2>&1)
	fid() { jq -c --arg d "$1" "select(.dst? == \$d) | $2" <<<"$(grep '^{' <<<"$out")"; }
	check "otg fields: f1 DSCP 46 ECN 1 (TOS 185), DF 0, imix 64:570:1518 = 700:400:100 ($(fid 198.18.1.1 '[.tos, .flags, .sizes]'))" \
		eq "$(fid 198.18.1.1 '[.tos, .flags, .sizes]')" '[[185],[0],{"1518":100,"570":400,"64":700}]'
	check "otg fields: f2 DF, TOS 184, TCP SYN alone, data offset 5, 128 B ($(fid 198.18.2.2 '[.flags, .tos, .tcp_flags, .dataofs, .sizes]'))" \
		eq "$(fid 198.18.2.2 '[.flags, .tos, .tcp_flags, .dataofs, .sizes]')" '[[2],[184],[2],[5],{"128":10}]'
	check "otg fields: f3 MF, offset 100, TOS 176, checksum 0x1234 ($(fid 198.18.3.3 '[.flags, .frag, .tos, .ip_csum]'))" \
		eq "$(fid 198.18.3.3 '[.flags, .frag, .tos, .ip_csum]')" '[[1],[100],[176],[4660]]'
	check "otg fields: f4 VXLAN reserved1 5 ($(fid 198.18.4.4 '.vxlan_rsv1'))" eq "$(fid 198.18.4.4 '.vxlan_rsv1')" '[5]'
	check "otg fields: f5 empty dont_fragment and ctl_syn: DF 0, TCP flags 0 ($(fid 198.18.5.5 '[.flags, .tcp_flags]'))" \
		eq "$(fid 198.18.5.5 '[.flags, .tcp_flags]')" '[[0],[0]]'
	check "otg fields: every other IPv4 checksum right (scapy)" grep -qx "bad 0" <<<"$out"
	check "otg fields: f1's delay of 0.4 s held the run ($(jq .duration_s "$T/fid.out.json") s)" \
		jq -e '.duration_s >= 0.4' "$T/fid.out.json"
	[ "$fail" = 0 ] || { cat "$T/fid.out"; echo "$out"; }
	G="{$P,\"flows\":[{$F,\"packet\":["
	o "$G{\"choice\":\"ethernet\",\"ethernet\":{\"pfc_queue\":$(V 3)}}]}]}"
	bad "otg: pfc_queue refused, never ignored" "flows\[0\].packet\[0\].ethernet.pfc_queue: not supported: a port's frames go out on its own TX queues" "${S[@]}"
	o "$G$EH,{\"choice\":\"ipv4\",\"ipv4\":{\"foo\":$(V 1)}}]}]}"
	bad "otg: an unknown field with a value refused" "flows\[0\].packet\[1\].ipv4.foo: not supported: leave it out" "${S[@]}"
	o "$G$EH,{\"choice\":\"ipv4\",\"ipv4\":{\"options\":[{\"choice\":\"router_alert\"}]}}]}]}"
	bad "otg: IPv4 options refused" "ipv4.options: IPv4 options are not supported" "${S[@]}"
	o "$G$EH,{\"choice\":\"ipv4\",\"ipv4\":{\"header_checksum\":{\"choice\":\"generated\",\"generated\":\"bad\"}}}]}]}"
	bad "otg: a bad checksum on purpose refused" "generated 'bad': Sluice computes good checksums only" "${S[@]}"
	o "{$P,\"flows\":[{$F,\"size\":{\"choice\":\"weight_pairs\",\"weight_pairs\":{\"choice\":\"predefined\",\"predefined\":\"standard_imix\"}}}]}"
	bad "otg: standard_imix's 58-byte frames refused" "its 58-byte frames are below Ethernet's 64" "${S[@]}"
	o "{$P,\"flows\":[]}"; bad "otg: a file with no flows" "no flows\[\]: a run of it sends nothing" "${S[@]}"
	o "{$P,\"flows\":[{$F,\"size\":{\"choice\":\"weight_pairs\",\"weight_pairs\":{\"choice\":\"predefined\",\"predefined\":7}}}]}"
	bad "otg: predefined of the wrong type refused (not read as imix)" "weight_pairs.predefined: give a name (a string)" "${S[@]}"
	bad "a pattern on GRE's version refused (its optional fields are not built)" \
		"field gre.ver: GRE's C, K and S bits and its version stay 0: it cannot vary" --sim 10G \
		--flow "a port 0 stack eth/ipv4/gre/eth/ipv4/udp field gre.ver=inc:0,2"
	INC() { echo "{\"choice\":\"increment\",\"increment\":{\"start\":\"$1\",\"step\":\"$2\",\"count\":$3}}"; }
	o "$G{\"choice\":\"ethernet\",\"ethernet\":{\"dst\":$(INC 00:00:ff:ff:ff:fe 00:00:00:00:00:01 5)}},{\"choice\":\"ipv4\"},{\"choice\":\"udp\"}]}]}"
	bad "otg: a MAC increment carrying past its low 32 bits refused" "field eth.1.dst: 5 values from 4294967294 cross the address's low 32 bits" "${S[@]}"
	o "$G{\"choice\":\"ethernet\",\"ethernet\":{\"dst\":$(INC 00:00:00:00:00:01 00:01:00:00:00:00 5)}},{\"choice\":\"ipv4\"},{\"choice\":\"udp\"}]}]}"
	bad "otg: a MAC step above 2^32: said so (not 'a step of 1 or more')" "increment.step: Sluice varies an address's low 32 bits" "${S[@]}"
	# An 8-bit TTL counting 300 values from 250 wraps (issue 48: was refused).
	o "$G$EH,{\"choice\":\"ipv4\",\"ipv4\":{\"time_to_live\":{\"choice\":\"increment\",\"increment\":{\"start\":250,\"step\":1,\"count\":300}}}},{\"choice\":\"udp\"}],\"duration\":{\"choice\":\"fixed_packets\",\"fixed_packets\":{\"packets\":10}}}]}"
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) -- "${S[@]}" --json "$T/ttl.json" >"$T/ttl.out" 2>&1 && rc=0 || rc=$?
	check "otg: a TTL increment past 255 is taken and runs (exit $rc)" \
		bash -c '[ "$1" = 0 ] && jq -e ".flows[0].generated == 10" "$2" >/dev/null' _ "$rc" "$T/ttl.json"
fi

if want A; then
	# The OTG REST API (--api): a client written from the spec (app/test/py/otg_client.py,
	# Python's standard library) sets config/otg/two-port.json, starts traffic, reads
	# flow and port metrics: they equal the receive side's exact counts. The server
	# listens on 127.0.0.1 only, ends on SIGINT.
	new_prefix
	timeout 60 "$bin" --no-huge -m 1024 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
		--file-prefix "$prefix" -- --sim 10G,dut=1,loss=0.01 --sim 10G,dut=0 --api http://127.0.0.1:0 \
		--json "$T/api.json" >"$T/api.out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do grep -q '^api: http' "$T/api.out" && break; sleep 0.1; done
	url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$T/api.out" | head -1)
	out=$(timeout 40 "$PY" "$top/app/test/py/otg_client.py" "$url" "$top/config/otg/two-port.json" 20 2>&1)
	bad_cfg=$(curl -s --max-time 5 -X POST -d '{"ports":[],"flows":[],"devices":[{"name":"d","bgp":{"router_id":"198.18.0.1"}}]}' "${url}config")
	bad_ep=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "${url}nothing")
	two=$top/config/otg/two-port.json
	bad_loc=$(jq -c '.ports[0].location = "localhost:5555;1"' "$two" |
		curl -s --max-time 5 -X POST --data-binary @- "${url}config")
	same_loc=$(jq -c '.ports[1].location = "0"' "$two" | curl -s --max-time 5 -X POST --data-binary @- "${url}config")
	long_name=$(jq -c '.ports[0].name = ("p" * 60)' "$two" | curl -s --max-time 5 -X POST --data-binary @- "${url}config")
	prom=$(curl -s --max-time 5 "${url}metrics")
	om=$(curl -s --max-time 5 -D - -H 'Accept: application/openmetrics-text;version=1.0.0' "${url}metrics")
	kill -INT "$pid"
	wait "$pid" && rc=0 || rc=$?
	check "api: set_config 200, start 200" eq "$(grep -cE '^(set_config|start) 200' <<<"$out")" 2
	fm=$(grep '^flow_metrics' <<<"$out" | cut -d' ' -f2-)
	check "api: flow metrics: f1 3000 frames, f2 2000, each received as the receive side counted" \
		"$PY" -c 'import json,sys; m={f["name"]: f for f in json.loads(sys.argv[1])}; j={f["name"]: f for f in json.load(open(sys.argv[2]))["flows"]}
sys.exit(not (m["f1"]["frames_tx"] == 3000 and m["f2"]["frames_tx"] == 2000 and
 all(m[n]["frames_rx"] == sum(x["rx"] for x in j[n]["rx"]) and m[n]["transmit"] == "stopped" for n in ("f1", "f2"))))' "$fm" "$T/api.json"
	check "api: port metrics name p1 and p2 by their locations sim0, sim1" \
		grep -q '"location": "sim0", "name": "p1"' <<<"$(grep '^port_metrics' <<<"$out")"
	check "api: GET /capabilities/version" grep -q '^version 200 .*"app_version"' <<<"$out"
	check "api: an unsupported config is the spec's error body, naming devices[0].bgp" \
		grep -q '"code":400,"kind":"validation","errors":\["devices\[0\].bgp: not supported' <<<"$bad_cfg"
	check "api: an unknown endpoint is 404" eq "$bad_ep" 404
	check "api: an Ixia-c location (HOST:PORT;ID) of a port a flow uses: 400 saying so" \
		grep -q '"code":400.*location .localhost:5555;1. names a host (HOST:PORT\[;ID\]' <<<"$bad_loc"
	check "api: two ports at one location: 400, each its own" \
		grep -q '"code":400.*ports\[1\]: location .0. is port 0, which p1 is already' <<<"$same_loc"
	check "api: a port name of 60 characters: 400, at most 47 (it was cut without a word)" \
		grep -q '"code":400.*ports\[0\]: name .*at most 47 characters' <<<"$long_name"
	check "api: GET /metrics: Prometheus on the same server, f1's 3000 frames" \
		grep -qE '^sluice_flow_generated_packets_total\{flow="f1",tx_port="0"\} 3000 ' <<<"$prom"
	check "api: GET /metrics: OpenMetrics when asked, ending in # EOF" \
		bash -c 'grep -qi "^Content-Type: application/openmetrics-text" <<<"$1" && [ "$(tail -1 <<<"$1")" = "# EOF" ]' _ "$om"
	check "api: SIGINT ends it (exit 0, or 3: the 1 % loss)" bash -c "[ $rc = 0 ] || [ $rc = 3 ]"
	[ "$fail" = 0 ] || { echo "$out"; echo "$bad_cfg"; tail -5 "$T/api.out"; }
fi

if want C; then
	# The API's control (https by default, a bearer token): start a subset,
	# pause and resume a flow, capture a port as pcap (tshark counts it),
	# link down and up on the sim, states empty, numbers as strings (what
	# snappi sends). Each flow then sent exactly its count.
	head -c 24 /dev/urandom | base64 >"$T/token"
	new_prefix
	timeout 90 "$bin" --no-huge -m 1024 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
		--file-prefix "$prefix" -- --sim 10G,dut=1 --sim 10G,dut=0 --api 0 \
		--api-token "$T/token" --json "$T/c.json" >"$T/c.out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do grep -q '^api: https' "$T/c.out" && break; sleep 0.1; done
	url=$(grep -o 'https://127.0.0.1:[0-9]*/' "$T/c.out" | head -1)
	export OTG_TOKEN; OTG_TOKEN=$(cat "$T/token")
	api() { timeout 20 "$PY" "$top/app/test/py/otg_client.py" "$url" call "$@"; }
	fm() { api POST /monitor/metrics '{"choice":"flow","flow":{}}' | cut -d' ' -f2- | jq -c "$1"; }
	E='"ethernet":{"src":{"choice":"value","value":"02:00:00:00:00:01"}}'
	F() { # F NAME TX RX COUNT PPS
		echo "{\"name\":\"$1\",\"tx_rx\":{\"choice\":\"port\",\"port\":{\"tx_name\":\"$2\",\"rx_names\":[\"$3\"]}},\"packet\":[{\"choice\":\"ethernet\",$E},{\"choice\":\"ipv4\",\"ipv4\":{}},{\"choice\":\"udp\",\"udp\":{}}],\"size\":{\"choice\":\"fixed\",\"fixed\":100},\"rate\":{\"choice\":\"pps\",\"pps\":\"$5\"},\"duration\":{\"choice\":\"fixed_packets\",\"fixed_packets\":{\"packets\":\"$4\",\"gap\":12}},\"metrics\":{\"enable\":true}}"
	}
	cfg="{\"ports\":[{\"name\":\"p1\",\"location\":\"sim0\"},{\"name\":\"p2\",\"location\":\"sim1\"}],\"captures\":[{\"name\":\"c\",\"port_names\":[\"p2\"],\"format\":\"pcap\",\"overwrite\":false}],\"flows\":[$(F f1 p1 p2 1500 300),$(F f2 p2 p1 400 2000),$(F f3 p1 p2 700 1000)]}"
	check "api (https): no token: 401, the spec's body" \
		bash -c 'OTG_TOKEN= "$@" | grep -q "^401 .*Authorization: Bearer"' _ \
		timeout 20 "$PY" "$top/app/test/py/otg_client.py" "$url" call GET /capabilities/version
	check "api: a wrong token: 401" bash -c 'OTG_TOKEN=0123456789abcdef0123 "$@" | grep -q "^401 "' _ \
		timeout 20 "$PY" "$top/app/test/py/otg_client.py" "$url" call GET /capabilities/version
	check "api: curl without -k refuses the self-signed certificate" \
		bash -c '! curl -s --max-time 5 "$1capabilities/version" >/dev/null' _ "$url"
	check "api: a flow too short to carry the signature: 200, its warning" \
		grep -q '^200 {"warnings": *\["flows\[0\] (u6): all its frames below 74 bytes carry no signature.*it is sent but not measured' \
		<<<"$(api POST /config '{"ports":[{"name":"p1","location":"sim0"},{"name":"p2","location":"sim1"}],"flows":[{"name":"u6","tx_rx":{"choice":"port","port":{"tx_name":"p1","rx_names":["p2"]}},"packet":[{"choice":"ethernet"},{"choice":"ipv6"}],"size":{"choice":"fixed","fixed":64}}]}')"
	check "api: set_config with numbers as strings and a capture: 200, no warning" \
		eq "$(api POST /config "$cfg")" '200 {"warnings":[]}'
	check "api: capture start 200" eq "$(api POST /control/state \
		'{"choice":"port","port":{"choice":"capture","capture":{"port_names":["p2"],"state":"start"}}}')" "200 {}"
	t0=$(date +%s%N)
	check "api: start f1 and f2 only: 200" eq "$(api POST /control/state \
		'{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":["f1","f2"],"state":"start"}}}')" "200 {}"
	for _ in $(seq 100); do [ "$(fm '.flow_metrics[0].frames_tx')" -gt 0 ] && break; sleep 0.05; done
	check "api: pause f1: 200" eq "$(api POST /control/state \
		'{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":["f1"],"state":"pause"}}}')" "200 {}"
	sleep 0.5
	a=$(fm '.flow_metrics[0] | [.transmit, .frames_tx]')
	sleep 0.5
	b=$(fm '.flow_metrics[0] | [.transmit, .frames_tx]')
	check "api: f1 paused sends nothing (0.5 s apart: $a, $b) and is short of 1500" \
		bash -c '[ "$1" = "$2" ] && jq -e ".[0] == \"paused\" and .[1] < 1500" <<<"$1" >/dev/null' _ "$a" "$b"
	check "api: f3, not started, is stopped with 0 frames" eq "$(fm '.flow_metrics[2] | [.transmit, .frames_tx]')" '["stopped",0]'
	check "api: resume of f3, stopped in this run, is refused (409)" \
		grep -q "^409 .*flow f3 stopped in this run" <<<"$(api POST /control/state \
		'{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":["f3"],"state":"resume"}}}')"
	check "api: link down and up on the sim port p2: 200 each" \
		eq "$(api POST /control/state '{"choice":"port","port":{"choice":"link","link":{"port_names":["p2"],"state":"down"}}}') $(api POST /control/state '{"choice":"port","port":{"choice":"link","link":{"port_names":["p2"],"state":"up"}}}')" "200 {} 200 {}"
	check "api: resume f1, named 5000 times: 200 (each flow once)" eq "$(api POST /control/state \
		"{\"choice\":\"traffic\",\"traffic\":{\"choice\":\"flow_transmit\",\"flow_transmit\":{\"flow_names\":[$(yes '"f1"' | head -5000 | paste -sd,)],\"state\":\"resume\"}}}")" "200 {}"
	# f1 (at 300 pps, 5 s in all, paused once) may have finished by now on a loaded
	# machine, and the run with it (f2 and f3 are done): then the 409 says
	# the run holds no flows; either way it is a 409 and nothing is paused.
	check "api: pause f1 and f3 (stopped in this run): 409, and f1 is not paused" \
		bash -c '[[ "$1" == "409 "*"flow f3 stopped in this run"* || "$1" == "409 "*"cannot hold single flows"* ]] && [ "$2" != "\"paused\"" ]' _ "$(api POST /control/state \
		'{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":["f1","f3"],"state":"pause"}}}')" \
		"$(fm '.flow_metrics[0].transmit')"
	for _ in $(seq 200); do [ "$(fm '[.flow_metrics[].transmit] | unique')" = '["stopped"]' ] && break; sleep 0.1; done
	check "api: after the resume each flow sent exactly its count: f1 1500, f2 400, f3 0" \
		eq "$(fm '[.flow_metrics[] | .frames_tx]')" "[1500,400,0]"
	check "api: each flow's frames_rx equals its frames_tx (the sim loses none), bytes 96 each" \
		eq "$(fm '[.flow_metrics[] | .frames_rx == .frames_tx and .bytes_tx == 96 * .frames_tx] | all')" true
	# metrics.timestamps (issue 48): the first and last arrivals on the wall
	# clock, within the start and now; a pacer never runs ahead of its
	# schedule, so f2's last frame (400 at 2000 pps) left at least 399/2000 s
	# after the start (less 0.1 ms for the clocks' conversion); f3 received
	# none.
	t1=$(date +%s%N)
	ts=$(fm '[.flow_metrics[] | .timestamps]')
	check "api: timestamps: f1, f2 arrived between the start and now, f2's last >= 199.4 ms after it, f3 none ($ts)" \
		jq -e --argjson t0 "$t0" --argjson t1 "$t1" '(.[0:2] | all(.first_timestamp_ns >= $t0 and
			.last_timestamp_ns <= $t1 and .first_timestamp_ns <= .last_timestamp_ns)) and
			(.[1].last_timestamp_ns - $t0 >= 199.4e6) and .[2] == {}' <<<"$ts"
	api POST /control/state '{"choice":"port","port":{"choice":"capture","capture":{"state":"stop"}}}' >/dev/null
	api POST /monitor/capture '{"port_name":"p2"}' >"$T/c.pcap"
	check "api: the capture of p2 is a pcap of f1's 1500 frames (tshark), each 100 bytes with its FCS" \
		eq "$(tshark -r "$T/c.pcap" -T fields -e frame.len 2>/dev/null | sort | uniq -c | awk '{print $1, $2}')" "1500 100"
	check "api: every captured frame ends in its right FCS (zlib's CRC-32 over the rest)" \
		eq "$("$PY" -c 'import struct, sys, zlib
from scapy.all import rdpcap
p = rdpcap(sys.argv[1])
print(sum(struct.unpack("<I", bytes(x)[-4:])[0] == zlib.crc32(bytes(x)[:-4]) for x in p), len(p))' "$T/c.pcap" 2>&1)" "1500 1500"
	check "api: a capture of a port without one: 400 naming captures[]" \
		grep -q "^400 .*no capture on 'p1': list it in the configuration's captures" <<<"$(api POST /monitor/capture '{"port_name":"p1"}')"
	check "api: monitor/states: ipv4_neighbors is empty" \
		eq "$(api POST /monitor/states '{"choice":"ipv4_neighbors"}')" '200 {"choice":"ipv4_neighbors","ipv4_neighbors":[]}'
	check "api: port metrics: capture stopped, transmit stopped" \
		eq "$(api POST /monitor/metrics '{"choice":"port","port":{"port_names":["p2"]}}' | cut -d' ' -f2- | jq -c '.port_metrics[0] | [.capture, .transmit, .frames_rx]')" '["stopped","stopped",1500]'
	check "api: the run ended by itself: its summary has f3 with tx 0" grep -q "^flow f3: port 0 -> .*  tx 0 (generated 0)" "$T/c.out"
	# Issue 49: an error inside a selection stops the call (it was answered 200 and
	# f1 started alone), a name list of the wrong type is refused (it applied to
	# every flow or port), and a refused port_names is named from memory still held.
	check "api: start of f1 and nosuch: 400 naming nosuch, and nothing starts" \
		bash -c '[[ "$1" == "400 "*"flow_names[1]: no flow named '"'"'nosuch'"'"'"* ]] && [ "$2" = "[\"stopped\"]" ]' _ \
		"$(api POST /control/state '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":["f1","nosuch"],"state":"start"}}}')" \
		"$(sleep 0.3; fm '[.flow_metrics[].transmit] | unique')"
	check "api: flow_names as a string: 400, an array asked" \
		grep -q '^400 .*flow_transmit.flow_names: give an array of flow names' <<<"$(api POST /control/state \
		'{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":"f1","state":"stop"}}}')"
	check "api: port.link port_names as a string: 400, an array asked" \
		grep -q '^400 .*port.link.port_names: give an array of port names' <<<"$(api POST /control/state \
		'{"choice":"port","port":{"choice":"link","link":{"port_names":"p2","state":"down"}}}')"
	check "api: flow metrics of f3, f1, f1: f1 and f3 once each, in the table's order" \
		eq "$(api POST /monitor/metrics '{"choice":"flow","flow":{"flow_names":["f3","f1","f1"]}}' |
			cut -d' ' -f2- | jq -c '[.flow_metrics[].name]')" '["f1","f3"]'
	check "api: flow metrics naming a flow that is none: 400 naming it (issue 48)" \
		grep -q '^400 .*flow.flow_names\[2\]: no flow is named nosuch' <<<"$(api POST /monitor/metrics \
		'{"choice":"flow","flow":{"flow_names":["f3","f1","nosuch"]}}')"
	check "api: port metrics by the DPDK name (sim1): p2's" \
		eq "$(api POST /monitor/metrics '{"choice":"port","port":{"port_names":["sim1"]}}' | cut -d' ' -f2- |
			jq -c '[.port_metrics[].name]')" '["p2"]'
	check "api: a name cut in the middle of a UTF-8 character: 400 with the error, valid JSON" \
		bash -c '[[ "$1" == "400 "* ]] && jq -e ".errors[0] | test(\"no flow is named\")" <<<"${1#400 }" >/dev/null' _ \
		"$(api POST /monitor/metrics "{\"choice\":\"flow\",\"flow\":{\"flow_names\":[\"$(printf 'a%.0s' $(seq 63))é\"]}}")"
	check "api: port metrics naming a port that is none: 400 naming it" \
		grep -q '^400 .*port.port_names\[0\]: no port is named p9' <<<"$(api POST /monitor/metrics \
		'{"choice":"port","port":{"port_names":["p9"]}}')"
	check "api: capabilities/version: the OTG models release, 1.3.0 (snappi 1.3.0 checks it)" \
		eq "$(api GET /capabilities/version | cut -d' ' -f2- | jq -r .api_spec_version)" 1.3.0
	bad_rate=$(jq -c '.flows[0].rate = {"choice": "pps", "pps": 0.99}' "$top/config/otg/two-port.json")
	check "api: a Config that could not start (0.99 pps): 400 with the reason, as a start says it" \
		grep -q '^400 .*flows: flow f1: its rate .* is below 1 per second' <<<"$(api POST /config "$bad_rate")"
	check "api: metrics port_names as a string: 400 naming port.port_names (no freed bytes)" \
		grep -q '^400 .*"port.port_names: give an array of names"' <<<"$(api POST /monitor/metrics \
		'{"choice":"port","port":{"port_names":"p1"}}')"
	check "api: the empty Config ({}) is taken: 200, and a start then has no flow (400)" \
		bash -c '[[ "$1" == "200 "* && "$2" == "400 "*"no flow"* ]]' _ "$(api POST /config '{}')" \
		"$(api POST /control/state '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"state":"start"}}}')"
	# A capture is stamped with the sim's wire time (the port's RX stamp),
	# not the receive poll's (issue 48 item 8): frames that left its 10 Gb/s
	# wire back to back are 118.4 ns apart (128 B + 20 B of preamble and
	# gap), and no two are closer (a poll's stamp gave a burst one time).
	api POST /config '{"ports":[{"name":"p1","location":"sim0"},{"name":"p2","location":"sim1"}],"captures":[{"name":"c","port_names":["p2"]}],"flows":[{"name":"b","tx_rx":{"choice":"port","port":{"tx_name":"p1","rx_names":["p2"]}},"packet":[{"choice":"ethernet"},{"choice":"ipv4"},{"choice":"udp"}],"size":{"choice":"fixed","fixed":128},"duration":{"choice":"burst","burst":{"packets":4,"bursts":6,"inter_burst_gap":{"choice":"nanoseconds","nanoseconds":1000000}}}}]}' >/dev/null
	api POST /control/state '{"choice":"port","port":{"choice":"capture","capture":{"port_names":["p2"],"state":"start"}}}' >/dev/null
	api POST /control/state '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"state":"start"}}}' >/dev/null
	for _ in $(seq 100); do [ "$(fm '.flow_metrics[0].frames_rx')" = 24 ] && break; sleep 0.05; done
	api POST /control/state '{"choice":"port","port":{"choice":"capture","capture":{"state":"stop"}}}' >/dev/null
	api POST /monitor/capture '{"port_name":"p2"}' >"$T/b.pcap"
	# (the times sorted: two TX lcores' frames reach the receive ring in the
	# order they were handed over, not always in wire order)
	d=$(tshark -r "$T/b.pcap" -T fields -e frame.time_epoch 2>/dev/null | "$PY" -c 'import sys
from decimal import Decimal
t = sorted(int(Decimal(x) * 10**9) for x in sys.stdin if x.strip())
d = [b - a for a, b in zip(t, t[1:])]
print(len(t), sum(x < 118 for x in d), int(any(x < 120 for x in d)))')
	check "api: a capture's stamps are the sim's wire time: 24 frames, none closer than 118 ns, some back to back ($d)" \
		eq "$d" "24 0 1"
	kill -INT "$pid"
	wait "$pid" && rc=0 || rc=$?
	check "api: SIGINT ends it, exit 0" eq "$rc" 0
	unset OTG_TOKEN
	bad "api: a certificate without its key" "give the certificate and its key together" --sim 10G --api 0 --api-cert "$T/token"
	bad "api: a token option without --api" "is for the API: add --api" --sim 10G --api-token "$T/token"
	echo short >"$T/short"
	bad "api: a token too short" "give a token of 16 to" --sim 10G --api 0 --api-token "$T/short"
	bad "api: a certificate file that is not PEM" "is not PEM" --sim 10G --api 0 --api-cert "$T/short" --api-key "$T/short"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=a \
		-keyout "$T/k1.pem" -out "$T/c1.pem" >/dev/null 2>&1
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=b \
		-keyout "$T/k2.pem" -out "$T/c2.pem" >/dev/null 2>&1
	bad "api: a certificate and another's key" "give a PEM certificate and its own key" --sim 10G \
		--api 0 --api-cert "$T/c1.pem" --api-key "$T/k2.pem"
	[ "$fail" = 0 ] || tail -20 "$T/c.out"
fi

if want D; then
	# snappi itself (not a Debian package: skipped unless SNAPPI_PATH or the
	# Python finds it): docs/api.md's session over https; each flow's
	# frames_rx equals the receive side's exact count in --json.
	if ! PYTHONPATH=${SNAPPI_PATH:-} "$PY" -c 'import snappi' 2>/dev/null; then
		skip "snappi session: snappi cannot be imported (set SNAPPI_PATH to a snappi checkout)"
	else
		new_prefix
		timeout 90 "$bin" --no-huge -m 1024 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
			--file-prefix "$prefix" -- --sim 10G,dut=1,loss=0.01 --sim 10G,dut=0 --api 0 \
			--json "$T/sn.json" >"$T/sn.out" 2>&1 &
		pid=$!
		for _ in $(seq 100); do grep -q '^api: https' "$T/sn.out" && break; sleep 0.1; done
		url=$(grep -o 'https://127.0.0.1:[0-9]*' "$T/sn.out" | head -1)
		out=$(PYTHONPATH=${SNAPPI_PATH:-} timeout 60 "$PY" "$top/app/test/py/snappi_session.py" "$url" 30 2>&1)
		kill -INT "$pid"
		wait "$pid"
		check "snappi: set_config, no warning" grep -q '^set_config warnings \[\]' <<<"$out"
		check "snappi: each flow sent its count, stopped, and frames_rx is the receive side's count" \
			"$PY" -c 'import json,sys
m={}
for l in sys.argv[1].splitlines():
    if l.startswith("flow "): f=json.loads(l[5:]); m[f["name"]]=f
j={f["name"]: f for f in json.load(open(sys.argv[2]))["flows"]}
want={"east": 3000, "west": 2000, "probe": 1000}
sys.exit(not (set(m) == set(want) and all(m[n]["frames_tx"] == want[n] and m[n]["transmit"] == "stopped"
 and m[n]["frames_rx"] == sum(x["rx"] for x in j[n]["rx"]) for n in want)))' "$out" "$T/sn.json"
		check "snappi: port metrics by name, with locations" \
			grep -q '^port {"name": "p2", "location": "sim1", "frames_tx": 2000' <<<"$out"
		[ "$fail" = 0 ] || echo "$out"
	fi
fi

if want W; then
	# GET /config is rendered from the model (issue 46): the shipped
	# two-port Config posted and read back runs the same frames, every
	# byte (scapy compares them, --sign off); a flow added at the prompt is
	# in it; a flow OTG has no form for is left out, and a header says so.
	pcaps() { # NAME CONFIG: its frames on two net_pcap ports
		new_prefix
		timeout 60 "$bin" --no-huge -m 1024 --no-pci -l 0-1 --log-level '*:error' \
			--file-prefix "$prefix" --vdev "net_pcap0,tx_pcap=$T/$1-0.pcap" \
			--vdev "net_pcap1,tx_pcap=$T/$1-1.pcap" -- --sign off --rx none \
			--otg-config "$2" >"$T/$1.out" 2>&1 && rc=0 || rc=$?
	}
	same_frames() { # A B: each port's frames the same, byte for byte (as multisets)
		"$PY" - "$T/$1" "$T/$2" <<'PY'
import sys
from scapy.all import rdpcap, raw
for p in ("-0.pcap", "-1.pcap"):
    a = sorted(raw(x) for x in rdpcap(sys.argv[1] + p))
    b = sorted(raw(x) for x in rdpcap(sys.argv[2] + p))
    if not a or a != b:
        print(f"port {p}: {len(a)} and {len(b)} frames differ")
        sys.exit(1)
PY
	}
	pcaps w1 "$top/config/otg/two-port.json"
	check "get-config: the shipped two-port Config runs (exit $rc)" rc_is 0
	mkfifo "$T/w.in"
	new_prefix
	timeout 90 "$bin" --no-huge -m 1024 --no-pci -l 0-1 --log-level '*:error' \
		--file-prefix "$prefix" --vdev "net_pcap0,tx_pcap=$T/wa-0.pcap" \
		--vdev "net_pcap1,tx_pcap=$T/wa-1.pcap" -- --sign off --rx none \
		--api http://127.0.0.1:0 -i <"$T/w.in" >"$T/w.out" 2>&1 &
	wpid=$!
	exec 4>"$T/w.in"
	for _ in $(seq 100); do grep -q '^api: http' "$T/w.out" && break; sleep 0.1; done
	wurl=$(grep -o 'http://127.0.0.1:[0-9]*/' "$T/w.out" | head -1)
	get() { curl -s -m 10 -D "$T/w.hdr" -o "$1" "${wurl}config"; }
	out=$(curl -s -m 10 -XPOST --data-binary @"$top/config/otg/two-port.json" "${wurl}config")
	get "$T/g1.json"
	check "get-config: the Config posted reads back: ports by their DPDK names, f1 and f2" \
		jq -e '([.ports[] | [.name, .location]] == [["p1", "net_pcap0"], ["p2", "net_pcap1"]]) and
			([.flows[].name] == ["f1", "f2"])' "$T/g1.json"
	pcaps w2 "$T/g1.json"
	check "get-config: what it reads back runs (exit $rc)" rc_is 0
	check "get-config: ... and sends the same frames, every byte (scapy)" same_frames w1 w2
	# The prompt's flows are the model's: GET /config has them.
	printf '%s\n' 'flow add x port 0 to 1 count 10 size 100' >&4
	for _ in $(seq 50); do get "$T/g2.json"; jq -e '.flows | length == 3' "$T/g2.json" >/dev/null 2>&1 && break; sleep 0.1; done
	check "get-config: a flow added at the prompt is in it (flows: $(jq -c '[.flows[].name]' "$T/g2.json" 2>/dev/null))" \
		jq -e '[.flows[].name] == ["f1", "f2", "x"] and (.flows[2].duration.fixed_packets.packets == 10) and
			(.flows[2].tx_rx.port.rx_names == ["p2"])' "$T/g2.json"
	printf '%s\n' 'flow add r port 0 field src-ip=random:198.18.0.1,10' >&4
	for _ in $(seq 50); do get "$T/g3.json"; grep -qi '^X-Sluice-Flows-Left-Out' "$T/w.hdr" && break; sleep 0.1; done
	check "get-config: a random field has no OTG form: left out, and the header says so ($(grep -i '^X-Sluice' "$T/w.hdr" | tr -d '\r'))" \
		bash -c 'grep -qi "^X-Sluice-Flows-Left-Out: 1: r" "$1" && jq -e "[.flows[].name] == [\"f1\", \"f2\", \"x\"]" "$2" >/dev/null' _ "$T/w.hdr" "$T/g3.json"
	printf '%s\n' quit >&4
	exec 4>&-
	wait "$wpid" && rc=0 || rc=$?
	check "get-config: the session ends (exit $rc)" rc_is 0
	[ "$fail" = 0 ] || cat "$T/w.out"
fi

if want B; then
	# --sign: off sends no signature (scapy: checksums right, no magic);
	# auto signs only where something reads it (net_null: off, said; the sim: on).
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) --vdev "net_pcap0,tx_pcap=$T/ns.pcap" -- --sign off --count 100 \
		--size 64,128 >/dev/null 2>&1
	out=$("$PY" "$top/app/test/py/stack_check.py" "$T/ns.pcap")
	check "sign off: 100 frames, every checksum right, none signed" \
		eq "$(grep -E '^(Ether|bad|sig)' <<<"$out" | tr '\n' ' ')" "Ether/IP/UDP 100 bad 0 [] sig 0 "
	# shellcheck disable=SC2046
	out=$(timeout 60 "$bin" $(eal) --vdev net_null0 -- --sign auto --count 1000 --json "$T/sa.json" 2>&1)
	check "sign auto on net_null: off, said" grep -q "^signatures: off (--sign auto, and nothing reads them)" <<<"$out"
	check "sign auto on net_null: the JSON says off" jq -e '.config.sign == "off"' "$T/sa.json"
	# shellcheck disable=SC2046
	timeout 60 "$bin" $(eal) -- --sim 10G,dut=1 --sim 10G --sign auto --count 1000 --json "$T/sb.json" >/dev/null 2>&1
	check "sign auto with a receiving port: on, every frame measured" \
		jq -e '.config.sign == "on" and .flows[0].unique == 1000' "$T/sb.json"
	bad "a --sign that is not one" "sign: 'maybe': give on, off or auto" --sim 10G --sign maybe
fi

echo "flows: $pass passed, $fail failed"
[ "$fail" = 0 ]
