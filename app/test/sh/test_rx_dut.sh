#!/usr/bin/env bash
# test_rx_dut.sh - the analyzer against the sim DUT's own ground truth (a
# model that counts what it dropped, duplicated and reordered independently
# of the analyzer; docs/sim-dut.md): each impairment alone and all together,
# with 1, 2 and 4 producer lcores sharing one TX queue, must give exactly
#   lost       == dropped_capacity + dropped_loss + dropped_full + held
#   duplicates == duplicated
#   reordered  == reordered (RFC 4737 per (stream, producer))
# and exit 3 (frames lost) when the DUT dropped any, 0 when it did not.
# SL_RX_DUT_COUNT frames per run: 100000 by default (the fast suite), 10
# million in the stress suite (receive-dut-10m: each impairment alone with 2
# producers, all together with 1, 2 and 4: 9 runs; SL_RX_DUT_ALONE_NP).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
count=${SL_RX_DUT_COUNT:-100000}
n=0
pfx() { n=$((n + 1)); prefix=slrd$$x$n; prefixes+=("$prefix"); }

run() { # PRODUCERS IMPAIRMENT RATE
	local np=$1 imp=$2 rate=$3 lcores map rc want
	case $np in
	1) lcores='0,1,2@0'; map=1:0.0 ;;
	2) lcores='0,(1-2)@1,3@0'; map=1-2:0.0 ;;
	4) lcores='0,(1-4)@1,5@0'; map=1-4:0.0 ;;
	esac
	pfx
	rm -f "$T/d.json"
	timeout 300 "$bin" --no-huge -m 1024 --no-pci --lcores "$lcores" --log-level '*:error' \
		--file-prefix "$prefix" -- --sim "10G,dut=0$imp,seed=$n" --map "$map" --count "$count" \
		--rate "$rate" --drain 1 --json "$T/d.json" >"$T/d.out" 2>&1 && rc=0 || rc=$?
	if [ ! -s "$T/d.json" ]; then
		ko "$np producer(s), ${imp#,}: no JSON (exit $rc): $(tail -2 "$T/d.out")"
		return
	fi
	read -r lost dups reord tlost tdup treord tx rx < <(jq -r '[.streams[0].lost, .streams[0].duplicates,
		.streams[0].reordered, (.ports[0].dut | .dropped_capacity + .dropped_loss + .dropped_full + .held),
		.ports[0].dut.duplicated, .ports[0].dut.reordered, .streams[0].tx_packets,
		.streams[0].rx_packets] | @tsv' "$T/d.json")
	want=0
	[ "$tlost" != 0 ] && want=3
	if [ "$lost" = "$tlost" ] && [ "$dups" = "$tdup" ] && [ "$reord" = "$treord" ] &&
		[ "$tx" = "$count" ] && [ "$rc" = "$want" ]; then
		ok "$np producer(s), ${imp#,}: lost $lost dup $dups reordered $reord == the DUT's, exit $rc (tx $tx rx $rx)"
	else
		ko "$np producer(s), ${imp#,}: analyzer lost $lost dup $dups reordered $reord vs DUT $tlost $tdup $treord; tx $tx rx $rx; exit $rc (want $want)"
	fi
}

all=",capacity=1500kpps,loss=0.01,dup=0.01,reorder=0.02,delay=30:20"
# Each impairment alone with these producer counts (all of them by default;
# the 10M stress run takes 2 only, to stay within CI's time), all together
# with 1, 2 and 4.
alone_np=${SL_RX_DUT_ALONE_NP:-1 2 4}
for np in 1 2 4; do
	case " $alone_np " in
	*" $np "*)
		run $np "" 2Mpps
		run $np ",loss=0.02" 2Mpps
		run $np ",dup=0.02" 2Mpps
		run $np ",reorder=0.03" 2Mpps
		run $np ",capacity=1Mpps" 2Mpps
		run $np ",delay=50:40" 2Mpps
		;;
	esac
	run $np "$all" 2Mpps
done

# A DUT slower than the drain: 150 ms of delay against the default 0.1 s
# --drain. The frames still in the DUT at the stop are waited for (the drain
# goes on while the run's frames arrive), not reported lost (issue 49); with
# 1 % loss the drain still ends, and the loss is exactly the DUT's.
for imp in "" ",loss=0.01"; do
	pfx
	timeout 60 "$bin" --no-huge -m 1024 --no-pci --lcores '0,1,2@0' --log-level '*:error' \
		--file-prefix "$prefix" -- --sim "10G,dut=1,delay=150000$imp,seed=$n" --sim 10G \
		--map 1:0.0 --rx 1 --rate 20kpps --count 20000 --json "$T/dl.json" >"$T/dl.out" 2>&1 &&
		rc=0 || rc=$?
	read -r lost tlost rx < <(jq -r '[.streams[0].lost, (.ports[0].dut | .dropped_capacity +
		.dropped_loss + .dropped_full + .held), .streams[0].rx_packets] | @tsv' "$T/dl.json" 2>/dev/null)
	want=0
	[ "${tlost:-0}" != 0 ] && want=3
	if [ -n "$lost" ] && [ "$lost" = "$tlost" ] && [ "$rc" = "$want" ] &&
		{ [ -n "$imp" ] || [ "$lost" = 0 ]; }; then
		ok "150 ms DUT delay${imp:+, ${imp#,}}, default drain: lost $lost == the DUT's, rx $rx, exit $rc"
	else
		ko "150 ms DUT delay${imp:+, ${imp#,}}: lost '$lost' vs DUT '$tlost', rx $rx, exit $rc (want $want): $(grep -m1 verdict "$T/dl.out")"
	fi
done

# A slow flow behind the same DUT: 10 pps, its frames 100 ms apart, is no
# silence (the quiet window is three of its intervals): lost 0 (it was 1).
pfx
timeout 60 "$bin" --no-huge -m 1024 --no-pci --lcores '0,1,2@0' --log-level '*:error' \
	--file-prefix "$prefix" -- --sim "10G,dut=1,delay=150000" --sim 10G --map 1:0.0 --rx 1 \
	--rate 10pps --count 20 --json "$T/dl.json" >"$T/dl.out" 2>&1 && rc=0 || rc=$?
[ "$rc" = 0 ] && [ "$(jq .streams[0].lost "$T/dl.json" 2>/dev/null)" = 0 ] &&
	ok "150 ms DUT delay, 10 pps, default drain: lost 0, exit 0" ||
	ko "150 ms DUT delay, 10 pps: exit $rc, $(grep -m1 verdict "$T/dl.out")"

# Foreign frames that never stop (a pcap read in a loop on the receiving
# port): the drain ends on the run's own frames, with --drain 0 too (it ran
# until killed: found by review). The run's frames go to a file, so all are
# lost: exit 3, not a hang (timeout's 124).
python3 - "$T/foreign.pcap" <<'PY'
import struct, sys
frame = bytes.fromhex("0200000000bb0200000000aa0800") + bytes(20) + bytes(26)
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i in range(100):
        f.write(struct.pack("<IIII", 1, i, len(frame), len(frame)) + frame)
PY
for d in 0 0.1; do
	pfx
	timeout 30 "$bin" --no-huge -m 1024 --no-pci -l 0-1 --log-level '*:error' --file-prefix "$prefix" \
		--vdev "net_pcap0,rx_pcap=$T/foreign.pcap,infinite_rx=1,tx_pcap=$T/out.pcap" -- --rx 0 \
		--flow 'a port 0 to 0 count 1000 rate 100kpps' --drain "$d" >"$T/fg.out" 2>&1 && rc=0 || rc=$?
	if [ "$rc" = 3 ] && grep -q "foreign [1-9]" "$T/fg.out"; then
		ok "endless foreign frames, --drain $d: the drain ends (exit 3: the run's frames went to a file)"
	else
		ko "endless foreign frames, --drain $d: exit $rc (124: it never ended): $(grep -m1 '^rx port' "$T/fg.out")"
	fi
done

echo "test_rx_dut: $pass passed, $fail failed"
[ "$fail" = 0 ]
