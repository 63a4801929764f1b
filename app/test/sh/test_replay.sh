#!/usr/bin/env bash
# test_replay.sh - pcap replay (docs/generator.md, "Replaying a capture"):
# captures written by scapy, replayed to net_pcap files (no interface is
# touched) and read back by scapy (app/test/py/replay_check.py), never by
# Sluice's own parser. Judged: counts, bytes, each 5-tuple's order, loops,
# the schedule's lower bound (a run cannot end before its last frame is
# due), signatures through the sim DUT against its ground truth, and bad
# captures refused with one message. No figure of time or rate (those are
# in scripts/bench-replay.sh).
#  1. 1000 frames with jittered gaps, 2 lcores on one shared queue: every
#     frame once, as captured, each 5-tuple in order; the run lasts at
#     least the capture's span; pcapng gives the same frames; a pcapng of
#     two interfaces goes out on two ports, each its interface's frames;
#  2. --pcap-speed 2 --pcap-loop 3; a flow at a fixed rate (loop 2); top
#     speed (loop 10); more lcores than CPUs (4 on 2, loop 2);
#  3. --pcap-sign through the sim DUT with 1 % loss: the signed frames
#     counted exactly (tx = unique + lost), the DUT's drops are the frames
#     missing at the receiver, every checksum valid (tshark);
#  4. a profile (the prompt's commands): flow add ... pcap, show flows, start;
#  5. bad captures: cut short, not Ethernet, a frame above the MTU, frames
#     cut at capture, empty, not a capture, missing; options without
#     --pcap, a replay with count.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
PY=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
tag=slrp
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"

# run OUT.pcap LCORES ARGS...: Sluice on one net_pcap port writing OUT; JSON in OUT.json.
run() {
	local out=$1 lc=$2
	shift 2
	new_prefix
	rm -f "$out"
	timeout 60 "$bin" --no-huge -m 512 --no-pci --lcores "$lc" --log-level '*:error' \
		--file-prefix "$prefix" --vdev "net_pcap0,tx_pcap=$out" -- "$@" --json "$out.json" \
		>"$out.log" 2>&1 && rc=0 || rc=$?
}
jqe() { jq -e "$@" >/dev/null; }
chk() { "$PY" "$top/app/test/py/replay_check.py" "$@" 2>/dev/null; }
# at_least A B: A >= B (floats)
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# The captures: 1000 frames, UDP and TCP of several 5-tuples, 1 ms apart with
# +-0.2 ms of jitter (span about 0.99 s); and the bad ones.
"$PY" - "$T" <<'EOF'
import random, struct, sys
from scapy.all import Ether, IP, UDP, TCP, Raw, wrpcap
t = sys.argv[1]
random.seed(7)
pk, ts = [], 1000.0
for i in range(1000):
    l4 = TCP(sport=1000 + i % 7, dport=80) if i % 5 == 0 else UDP(sport=1000 + i % 7, dport=4791)
    p = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / \
        IP(src="198.18.0.1", dst="198.19.0.%d" % (i % 3 + 1)) / l4 / Raw(bytes([i % 256]) * (i % 200))
    p.time = ts
    ts += 0.001 + random.uniform(-0.0002, 0.0002)
    pk.append(p)
wrpcap(t + "/in.pcap", pk)
# Frames with room for a 16-byte signature after their UDP or TCP header.
open(t + "/signable", "w").write("%d\n" % sum(1 for i in range(1000) if i % 200 >= 16))
d = open(t + "/in.pcap", "rb").read()
open(t + "/cut.pcap", "wb").write(d[:-30])
wrpcap(t + "/raw.pcap", [IP(dst="198.19.0.1") / UDP() / Raw(b"x" * 40)], linktype=101)
wrpcap(t + "/big.pcap", [Ether() / IP(dst="198.19.0.1") / UDP() / Raw(b"x" * 60),
                         Ether() / IP(dst="198.19.0.1") / UDP() / Raw(b"x" * 3000)])
hdr = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)
f = bytes(Ether() / IP(dst="198.19.0.1") / UDP() / Raw(b"x" * 100))
open(t + "/snap.pcap", "wb").write(hdr + struct.pack("<IIII", 1, 0, 60, len(f)) + f[:60])
open(t + "/empty.pcap", "wb").write(hdr)
open(t + "/junk.pcap", "wb").write(b"this is not a capture\n" * 10)
EOF
span=$(chk "$T/in.pcap" "$T/in.pcap" 1 1 | awk '/^span/ { print $2 }')

if want 1; then
	run "$T/o1.pcap" '0,(1-2)@(0-1)' --pcap "$T/in.pcap"
	out=$(chk "$T/in.pcap" "$T/o1.pcap" 1 1)
	check "replay: exit 0, 1000 frames out" bash -c '[ '"$rc"' = 0 ] && grep -q "^frames 1000 1000$" <<<"$1"' _ "$out"
	check "replay: every frame as captured (scapy)" grep -q "^same_bytes yes" <<<"$out"
	check "replay: each 5-tuple's frames in the capture's order, 2 lcores" grep -q "^order yes" <<<"$out"
	check "replay: conserved, every mbuf back" jqe '.totals.conserved and .totals.mempool_in_use == 0 and .totals.generated == 1000' "$T/o1.pcap.json"
	d=$(jq .duration_s "$T/o1.pcap.json")
	check "replay: the run lasts at least the capture's span ($d s >= $span s): never early" at_least "$d" "$(awk -v s="$span" 'BEGIN { print s - 0.001 }')"
	editcap -F pcapng "$T/in.pcap" "$T/in.pcapng" >/dev/null 2>&1
	run "$T/o1n.pcap" '0,1@1' --pcap "$T/in.pcapng" --pcap-speed max
	check "replay: a pcapng gives the same frames" grep -q "^same_bytes yes" <<<"$(chk "$T/in.pcap" "$T/o1n.pcap" 0 1)"
	# A pcapng of two interfaces (mergecap): interface i on port i.
	"$PY" - "$T" <<'EOF'
import sys
from scapy.all import Ether, IP, UDP, Raw, wrpcap
t = sys.argv[1]
for k, name in ((1, "a"), (2, "b")):
    pk = []
    for i in range(300):
        p = Ether(src="02:00:00:00:00:0%d" % k) / IP(src="198.18.0.%d" % k, dst="198.19.0.1") / \
            UDP(sport=k * 1000 + i % 5, dport=9) / Raw(bytes([i % 256]) * 30)
        p.time = 1000.0 + i * 0.002 + k * 0.001
        pk.append(p)
    wrpcap("%s/%s.pcap" % (t, name), pk)
EOF
	mergecap -I none -F pcapng -w "$T/ab.pcapng" "$T/a.pcap" "$T/b.pcap" 2>/dev/null
	new_prefix
	rm -f "$T/p0.pcap" "$T/p1.pcap"
	timeout 60 "$bin" --no-huge -m 512 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
		--file-prefix "$prefix" --vdev "net_pcap0,tx_pcap=$T/p0.pcap" --vdev "net_pcap1,tx_pcap=$T/p1.pcap" \
		-- --pcap "$T/ab.pcapng" --json "$T/ab.json" >"$T/ab.out" 2>&1
	check "a pcapng of 2 interfaces: interface 0's frames on port 0, 1's on port 1, in order" \
		bash -c '[ "$(grep -E "^(same_bytes|order)" <<<"$1" | tr "\n" " ")" = "same_bytes yes order yes " ] &&
			[ "$(grep -E "^(same_bytes|order)" <<<"$2" | tr "\n" " ")" = "same_bytes yes order yes " ]' _ \
		"$(chk "$T/a.pcap" "$T/p0.pcap" 0 1)" "$(chk "$T/b.pcap" "$T/p1.pcap" 0 1)"
	check "a pcapng of 2 interfaces: flows pcap0 and pcap1, 300 frames each" \
		jqe '[.flows[] | [.name, .generated]] == [["pcap0", 300], ["pcap1", 300]]' "$T/ab.json"
fi

if want 2; then
	run "$T/o2.pcap" '0,(1-2)@(0-1)' --pcap "$T/in.pcap" --pcap-speed 2 --pcap-loop 3
	out=$(chk "$T/in.pcap" "$T/o2.pcap" 2 3)
	check "speed 2, loop 3: 3000 frames, as captured, in order" \
		eq "$(grep -E '^(frames|same_bytes|order)' <<<"$out" | tr '\n' ' ')" "frames 1000 3000 same_bytes yes order yes "
	d=$(jq .duration_s "$T/o2.pcap.json")
	# Two whole loops and the third's span, at twice the speed: 3 * span / 2 and more.
	check "speed 2, loop 3: the run lasts at least 1.5 spans ($d s)" at_least "$d" "$(awk -v s="$span" 'BEGIN { print 1.5 * s - 0.001 }')"
	run "$T/o3.pcap" '0,(1-2)@(0-1)' --flow "r port 0 pcap $T/in.pcap rate 5kpps loop 2"
	out=$(chk "$T/in.pcap" "$T/o3.pcap" 0 2)
	d=$(jq .duration_s "$T/o3.pcap.json")
	check "a replay at 5 kpps, loop 2: 2000 frames in order, at least 0.3998 s ($d s)" \
		bash -c 'grep -q "^frames 1000 2000$" <<<"$1" && grep -q "^order yes" <<<"$1" && awk -v d="$2" "BEGIN { exit !(d >= 0.3998) }"' _ "$out" "$d"
	run "$T/o4.pcap" '0,(1-2)@(0-1)' --pcap "$T/in.pcap" --pcap-speed max --pcap-loop 10
	out=$(chk "$T/in.pcap" "$T/o4.pcap" 0 10)
	check "top speed, loop 10: 10000 frames, as captured, in order" \
		eq "$(grep -E '^(frames|same_bytes|order)' <<<"$out" | tr '\n' ' ')" "frames 1000 10000 same_bytes yes order yes "
	run "$T/o5.pcap" '0,(1-4)@(0-1)' --pcap "$T/in.pcap" --pcap-speed 20 --pcap-loop 2
	out=$(chk "$T/in.pcap" "$T/o5.pcap" 0 2)
	check "4 lcores on 2 CPUs, loop 2: 2000 frames, in order, conserved" \
		bash -c 'grep -q "^frames 1000 2000$" <<<"$1" && grep -q "^order yes" <<<"$1" && jq -e ".totals.conserved and .totals.mempool_in_use == 0" "$2" >/dev/null' _ "$out" "$T/o5.pcap.json"
fi

if want 3; then
	new_prefix
	timeout 60 "$bin" --no-huge -m 1024 --no-pci --lcores '0,(1-2)@(0-1)' --log-level '*:error' \
		--file-prefix "$prefix" -- --sim 10G,dut=1,loss=0.01 --sim 10G --pcap "$T/in.pcap" \
		--pcap-sign --pcap-loop 5 --pcap-speed 10 --json "$T/s.json" >"$T/s.out" 2>&1
	# The frames with 16 bytes of payload or more have room (scapy counted them).
	sg=$(cat "$T/signable")
	check "signed through the sim DUT: 5000 frames, 5 x $sg of them signed, tx = unique + lost" \
		jqe --argjson n $((5 * sg)) '.flows[0].tx_packets == 5000 and .flows[0].tx == $n and .flows[0].tx == .flows[0].unique + .flows[0].lost' "$T/s.json"
	check "signed: the DUT's drops are exactly the frames missing at port 1" \
		jqe '.ports[0].dut.dropped_loss == 5000 - .ports[1].rx_packets and .ports[0].dut.in == 5000' "$T/s.json"
	run "$T/o6.pcap" '0,1@1' --pcap "$T/in.pcap" --pcap-sign --pcap-speed max
	bad=$(tshark -n -r "$T/o6.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-o tcp.check_checksum:TRUE -Y 'ip.checksum.status == "Bad" || udp.checksum.status == "Bad" || tcp.checksum.status == "Bad"' 2>/dev/null | wc -l)
	good=$(tshark -n -r "$T/o6.pcap" -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
		-Y 'udp.checksum.status == "Good" || tcp.checksum.status == "Good"' 2>/dev/null | wc -l)
	check "signed: every IP, UDP and TCP checksum right after the signature (tshark: $good good, $bad bad)" \
		bash -c '[ "$1" = 0 ] && [ "$2" = 1000 ]' _ "$bad" "$good"
	# A replay beside a generated flow on one port: the generated frames are whole
	# (a replay's frames go back to a pool of their own, not the generated flow's).
	run "$T/o7.pcap" '0,1@1' --flow "r port 0 pcap $T/in.pcap speed max loop 5" \
		--flow "g port 0 src 198.18.9.9 dst 198.19.9.9 rate 10kpps count 300 size 256"
	good=$(tshark -n -r "$T/o7.pcap" -o udp.check_checksum:TRUE \
		-Y 'ip.src == 198.18.9.9 && udp.checksum.status == "Good"' 2>/dev/null | wc -l)
	check "a replay beside a generated flow: its 300 frames all have a right UDP checksum ($good)" eq "$good" 300
fi

if want 4; then
	new_prefix
	printf 'flow add r port 0 pcap %s loop 2 speed max\nshow flows\nstart\n' "$T/in.pcap" >"$T/p.cmd"
	out=$(timeout 60 "$bin" --no-huge -m 512 --no-pci --lcores '0,1@1' --log-level '*:error' \
		--file-prefix "$prefix" --vdev net_null0 -- --cmdline-file "$T/p.cmd" 2>&1)
	check "a profile: show flows says the replay" grep -q "r port 0 pcap $T/in.pcap speed max loop 2" <<<"$out"
	check "a profile: start sends it twice (2000)" grep -q "generated 2000 = tx 2000 " <<<"$out"
	# show flows prints words flow add takes back, the same line again.
	printf 'flow add q port 0 pcap %s rate 2.5kpps duration 1\nflow add g port 0 rate 1.23456789Mpps size 128\nshow flows\n' "$T/in.pcap" >"$T/q.cmd"
	new_prefix
	l1=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --log-level '*:error' --file-prefix "$prefix" \
		--vdev net_null0 -- -i <"$T/q.cmd" 2>&1 | grep -a '^flow [01]: ' | sed 's/^flow [01]: //')
	sed 's/^/flow add /' <<<"$l1" >"$T/q2.cmd"
	echo "show flows" >>"$T/q2.cmd"
	new_prefix
	l2=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --log-level '*:error' --file-prefix "$prefix" \
		--vdev net_null0 -- -i <"$T/q2.cmd" 2>&1 | grep -a '^flow [01]: ' | sed 's/^flow [01]: //')
	check "show flows gives flow add words: a replay and a rate read back the same ($(head -1 <<<"$l1"))" \
		bash -c '[ -n "$1" ] && [ "$(wc -l <<<"$1")" = 2 ] && [ "$1" = "$2" ]' _ "$l1" "$l2"
fi

if want 5; then
	bad() { # WHAT WANT FILE [ARGS]
		local what=$1 wantm=$2 f=$3 out
		shift 3
		new_prefix
		out=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --log-level '*:error' \
			--file-prefix "$prefix" --vdev net_null0 -- --pcap "$f" "$@" 2>&1) && rc=0 || rc=$?
		if [ "$rc" = 2 ] && grep -q -- "$wantm" <<<"$out" && ! grep -q "sluice summary" <<<"$out"; then
			ok "$what: exit 2, '$(grep -m1 -- "$wantm" <<<"$out")'"
		else
			ko "$what: exit $rc, want '$wantm': $out"
		fi
	}
	bad "a capture cut short" "after frame 999: .*cut it at the last whole frame" "$T/cut.pcap"
	bad "not Ethernet" "link type RAW: Sluice replays Ethernet captures" "$T/raw.pcap"
	bad "a frame above the MTU" "frame 2: 3046 bytes (with the FCS) is above port 0's largest frame, 1518 at MTU 1500: give --mtu 3028" "$T/big.pcap"
	bad "a frame cut at capture" "frame 1: 60 of its 142 bytes were captured" "$T/snap.pcap"
	bad "an empty capture" "no frame in it" "$T/empty.pcap"
	bad "not a capture" "unknown file format (give a pcap or pcapng file)" "$T/junk.pcap"
	bad "a missing file" "--pcap: cannot read" "$T/nope.pcap"
	bad "a speed of 0" "pcap-speed: '0': give a multiplier" "$T/in.pcap" --pcap-speed 0
	bad "a speed of 1e-300" "pcap-speed: '1e-300': give a multiplier of the capture's timing, 0.001 to 1000" "$T/in.pcap" --pcap-speed 1e-300
	"$PY" -c 'import sys; from scapy.all import Ether, IP, UDP, wrpcap; wrpcap(sys.argv[1], [Ether()/IP(dst="198.19.0.1")/UDP()])' "$T/one.pcap" 2>/dev/null
	bad "one frame, looped at its own timing" "spans no time (one frame): its loops have no timing of their own" "$T/one.pcap" --pcap-loop 0
	bad "a replay with --count" "count: a replay sends its capture: give --pcap-loop N" "$T/in.pcap" --count 10
	new_prefix
	out=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --file-prefix "$prefix" --vdev net_null0 -- --pcap-loop 2 2>&1) && rc=0 || rc=$?
	check "--pcap-loop without --pcap: exit 2, says so" bash -c '[ "$1" = 2 ] && grep -q "pcap-loop: is for a replay: add --pcap FILE" <<<"$2"' _ "$rc" "$out"
	new_prefix
	out=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --file-prefix "$prefix" --vdev net_null0 -- --flow "r port 0 pcap $T/in.pcap count 5" 2>&1) && rc=0 || rc=$?
	check "a replay with count: exit 2, says so" bash -c '[ "$1" = 2 ] && grep -q "count: a replay sends its capture.s frames as they are: drop count" <<<"$2"' _ "$rc" "$out"

	new_prefix
	out=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --file-prefix "$prefix" --vdev net_null0 -- --flow "r port 0 pcap $T/in.pcap size 200" --flow "s port 0 speed 2" 2>&1) && rc=0 || rc=$?
	check "a replay with size: exit 2, says the frames go as captured" bash -c '[ "$1" = 2 ] && grep -q "size: a replay sends its capture.s frames as they are: drop size" <<<"$2"' _ "$rc" "$out"
	new_prefix
	out=$(timeout 60 "$bin" --no-huge -m 512 --no-pci -l 0-1 --file-prefix "$prefix" --vdev net_null0 -- --flow "s port 0 speed 2" 2>&1) && rc=0 || rc=$?
	check "speed on a generated flow: exit 2, says it is a replay's" bash -c '[ "$1" = 2 ] && grep -q "speed: is a replay.s: give pcap FILE too" <<<"$2"' _ "$rc" "$out"
fi

echo "replay: $pass passed, $fail failed"
[ "$fail" = 0 ]
