#!/usr/bin/env bash
# test_gen_fix.sh - issue 14's generator fixes, read back from DPDK's net_pcap
# vdev (tx_pcap= a file) and decoded by tshark and scapy (not by sluice):
# TCP checksums (0x0000 is valid for TCP, only UDP sends 0 as 0xffff), the
# distribution of random fields (chi-square), VLAN ids 1..4094 in every
# field mode, DF in every IPv4 frame.
# Needs tshark, python3 with scapy.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
sluice=${SLUICE_BIN:-$top/build/app/sluice/sluice}
PY=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
# SL_ITEMS=13 runs only items 1 and 3 (all by default).
tag=gf

# gen PCAP ARGS...: sluice on one net_pcap port writing PCAP; output in
# PCAP.out. Sets $rc.
gen() {
	local pcap=$1
	shift
	new_prefix
	rm -f "$pcap"
	timeout 120 "$sluice" --no-huge -m 512 --no-pci --file-prefix "$prefix" -l 0-1 \
		--vdev "net_pcap0,tx_pcap=$pcap" -- "$@" >"$pcap.out" 2>&1 && rc=0 || rc=$?
}
TS=(-o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE
    --disable-protocol mndp)
# tshark_count FILTER PCAP: frames matching the display filter.
tshark_count() {
	tshark -n -r "$2" "${TS[@]}" -Y "$1" 2>/dev/null | wc -l
}

# --- 1. TCP checksum 0x0000 is sent as is (RFC 793), not as 0xffff ---------
# dst-port over all 65536 values: one frame's checksum is 0 (dst port 9110
# for IPv4/TCP 64 B). tshark validates every TCP checksum; scapy recomputes.
# scapy recomputes the checksum of every frame whose TCP checksum is 0 and of
# every 64th other frame (tshark validates all of them); it prints the
# frames read, the frames it found wrong, the frames with checksum 0, and
# how many it recomputed.
cat >"$T/tcp_csum.py" <<'PYEOF'
import sys
from scapy.all import PcapReader, RawPcapReader, TCP, IP, Ether
frames = bad = zero = checked = 0
for i, (raw, _) in enumerate(RawPcapReader(sys.argv[1])):
    frames += 1
    p = Ether(raw) if i % 64 == 0 else None
    if p is None:
        # TCP checksum field offset: Ethernet (+4 with a VLAN tag), IPv4 20 / IPv6 40, +16
        l3 = 18 if raw[12:14] == b"\x81\x00" else 14
        v6 = raw[l3 - 2:l3] == b"\x86\xdd"
        off = l3 + (40 if v6 else 20) + 16
        if raw[off:off + 2] != b"\x00\x00":
            continue
        p = Ether(raw)
    checked += 1
    t = p[TCP]
    sent = t.chksum
    del t.chksum
    if IP in p:
        del p[IP].chksum
    want = p.__class__(bytes(p))[TCP].chksum
    if want != sent:
        bad += 1
    if sent == 0:
        zero += 1
print(frames, bad, zero, checked)
PYEOF
if want 1; then
# Sizes without a signature (the smallest for these headers): the payload is
# zero, so which frames have checksum 0 does not depend on the run.
for v in "ipv4:64:" "ipv6:78:--ipv6" "vlan:64:--vlan 100"; do
	name=${v%%:*} size=${v#*:} opt=${v#*:*:}
	size=${size%%:*}
	# shellcheck disable=SC2086
	gen "$T/tcp-$name.pcap" --tcp --size "$size" $opt --field dst-port=inc:0,65536 \
		--count 65536
	check "1 $name/TCP: 65536 frames sent" rc_is 0
	good=$(tshark_count 'tcp.checksum.status == "Good"' "$T/tcp-$name.pcap")
	check "1 $name/TCP: tshark finds every TCP checksum Good (got $good of 65536)" eq "$good" 65536
	z=$(tshark_count 'tcp.checksum == 0' "$T/tcp-$name.pcap")
	check "1 $name/TCP: a frame carries TCP checksum 0x0000 (got $z)" test "$z" -ge 1
	sc=$("$PY" "$T/tcp_csum.py" "$T/tcp-$name.pcap" 2>&1 || echo error)
	check "1 $name/TCP: scapy recomputes the zero checksums and every 64th (frames bad zero checked: $sc)" \
		eq "$sc" "65536 0 $z $((1024 + z))"
done
# UDP keeps RFC 768's rule: a computed 0 goes out as 0xffff.
gen "$T/udp0.pcap" --size 64 --field dst-port=inc:0,65536 --count 65536
check "1 UDP: 65536 frames sent" rc_is 0
z=$(tshark_count 'udp.checksum == 0' "$T/udp0.pcap")
good=$(tshark_count 'udp.checksum.status == "Good"' "$T/udp0.pcap")
check "1 UDP: no UDP checksum 0, all Good (zero $z, good $good)" eq "$z/$good" "0/65536"
fi

# --- 2. random fields are uniform (chi-square), also for a large range -----
# tshark reads the addresses; the chi-square is computed here over 10 equal
# buckets (9 degrees of freedom: 27.88 is the p = 0.001 bound). The seed is
# fixed, so the result does not change from run to run.
cat >"$T/chi2.py" <<'PYEOF'
import ipaddress, sys
lo, count, k = int(sys.argv[1]), int(sys.argv[2]), 10
vals = [int(ipaddress.IPv4Address(l.strip())) - lo for l in sys.stdin if l.strip()]
if not vals or min(vals) < 0 or max(vals) >= count:
    print("out-of-range"); sys.exit()
obs = [0] * k
for v in vals:
    obs[v * k // count] += 1
chi2 = 0.0
for i in range(k):
    exp = len(vals) * ((i + 1) * count // k - i * count // k) / count
    chi2 += (obs[i] - exp) ** 2 / exp
low = sum(1 for v in vals if v < 2**32 % count) / len(vals) if count > 2**31 else 0
print("%d %.1f %.1f" % (len(vals), chi2, 100 * low))
PYEOF
want 2 && for r in "10:198.18.0.0:3323068416" "3000000000:0.0.0.0:0"; do
	cnt=${r%%:*} start=${r#*:} lo=${r##*:}
	start=${start%%:*}
	gen "$T/rnd-$cnt.pcap" --size 64 --field "dst-ip=random:$start,$cnt" --count 20000
	check "2 random over $cnt values: 20000 frames sent" rc_is 0
	read -r nv chi low < <(tshark -n -r "$T/rnd-$cnt.pcap" -T fields -e ip.dst 2>/dev/null |
		"$PY" "$T/chi2.py" "$lo" "$cnt")
	check "2 random over $cnt values: chi-square $chi < 27.88 over 10 buckets ($nv frames; \
${low}% below 2^32 mod count)" \
		awk -v c="$chi" -v n="$nv" 'BEGIN { exit !(n == 20000 && c < 27.88) }'
done

# --- 3. VLAN ids 1..4094 in every field mode ------------------------------
if want 3; then
for f in dec:3,4 list:0,4094,10 inc:0,3 random:0,5 inc:4090,6 dec:4095,2 list:4095; do
	gen "$T/vlan.pcap" --vlan 100 --size 64 --field "vlan=$f" --count 100
	frames=$(tshark -n -r "$T/vlan.pcap" 2>/dev/null | wc -l || true)
	check "3 vlan=$f: refused, the message says ids go from 1 to 4094 (rc $rc, $frames frames)" \
		grep -q "VLAN ids go from 1 to 4094" "$T/vlan.pcap.out"
done
gen "$T/vlan.pcap" --vlan 100 --size 64 --field vlan=dec:4,4 --count 100
ids=$(tshark -n -r "$T/vlan.pcap" -T fields -e vlan.id 2>/dev/null | sort -n | uniq | tr '\n' ' ')
check "3 vlan=dec:4,4: sent, tshark reads ids 1 to 4 (rc $rc, ids $ids)" eq "$rc/$ids" "0/1 2 3 4 "
gen "$T/vlan.pcap" --vlan 100 --size 64 --field vlan=list:1,4094 --count 100
ids=$(tshark -n -r "$T/vlan.pcap" -T fields -e vlan.id 2>/dev/null | sort -n | uniq | tr '\n' ' ')
check "3 vlan=list:1,4094: sent, tshark reads ids 1 and 4094 (rc $rc, ids $ids)" \
	eq "$rc/$ids" "0/1 4094 "
fi

# --- 6. every IPv4 frame has DF set (its ID is 0: RFC 6864 atomic) ---------
if want 6; then
for v in "udp:--size 64,65,1518" "tcp:--tcp --size 64,74,1000 --flows 300" \
	"fields:--size 64-200 --field dst-ip=random:198.18.0.0,1000 --field src-port=inc:1,9" \
	"vlan:--tcp --vlan 7 --size 64"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	gen "$T/df-$name.pcap" ${v#*:} --count 3000
	df=$(tshark_count 'ip.flags.df == 1 && ip.flags.mf == 0 && ip.frag_offset == 0 && ip.checksum.status == "Good"' "$T/df-$name.pcap")
	all=$(tshark_count 'ip' "$T/df-$name.pcap")
	check "6 $name: tshark reads DF set and a Good IPv4 checksum in every frame (rc $rc, $df of $all)" \
		eq "$rc/$df/$all" "0/3000/3000"
done
fi

echo "test_gen_fix: $pass passed, $fail failed"
[ "$fail" = 0 ]
