#!/usr/bin/env bash
# test_pcap.sh - what sluice puts on the wire, read back from DPDK's net_pcap
# vdev (tx_pcap= a file: no interface is touched). Frames are checked twice:
# by tshark (dissection, IPv4 and UDP checksum validation) and by an
# independent parser below (struct module): lengths, addresses, ports,
# checksums recomputed from scratch, the payload signature (magic, producer,
# sequence numbers contiguous from 0) and the zero payload before it.
# A corrupted copy of a capture proves that both checkers can fail.
# Needs root (tshark), jq, tshark, python3.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
sluice=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# The system python: python3-scapy lives there (a pyenv python3 may not have it).
PY=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
export SL_TEST_PY=$top/app/test/py
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
eq() { [ "$1" = "$2" ]; }

new_prefix() {
	n=$((n + 1))
	prefix=slp$$x$n
	prefixes+=("$prefix")
}
# gen PCAP ARGS...: sluice on one net_pcap port writing PCAP, lcores 0-1,
# options ARGS; JSON in PCAP.json, output in PCAP.out. Sets $rc.
gen() {
	local pcap=$1
	shift
	new_prefix
	rm -f "$pcap" "$pcap.json"
	timeout 60 "$sluice" --no-huge -m 512 --no-pci --file-prefix "$prefix" -l 0-1 \
		--vdev "net_pcap0,tx_pcap=$pcap" -- --sign on "$@" --json "$pcap.json" \
		>"$pcap.out" 2>&1 && rc=0 || rc=$?
}

TS=(-o ip.check_checksum:TRUE -o udp.check_checksum:TRUE --disable-protocol mndp)
# tshark_fields PCAP FIELD...: one line per frame, fields separated by tabs.
tshark_fields() {
	local pcap=$1 args=() f
	shift
	for f in "$@"; do args+=(-e "$f"); done
	tshark -n -r "$pcap" "${TS[@]}" -T fields "${args[@]}" 2>/dev/null
}
# tshark_count PCAP FILTER: frames matching the display filter.
tshark_count() {
	tshark -n -r "$2" "${TS[@]}" -Y "$1" 2>/dev/null | wc -l
}
# Frames whose IPv4 and UDP checksums tshark validated as Good.
good_csums() { tshark_count 'ip.checksum.status == "Good" && udp.checksum.status == "Good"' "$1"; }
frames() { tshark_fields "$1" frame.number | wc -l; }

# The independent parser: a JSON summary of a pcap file.
cat >"$T/pcapsum.py" <<'EOF'
import json, struct, sys

import os
sys.path.insert(0, os.environ["SL_TEST_PY"])  # app/test/py: the signature decoder
from slsig import sig_check, sig_v2

def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s

raw = open(sys.argv[1], "rb").read()
magic = struct.unpack("<I", raw[:4])[0]
if magic in (0xA1B2C3D4, 0xA1B23C4D):
    e = "<"
elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
    e = ">"
else:
    sys.exit("not a pcap file")
linktype = struct.unpack(e + "I", raw[20:24])[0]
off = 24
out = {"linktype": linktype, "frames": 0, "lens": [], "bytes": 0, "truncated": 0,
       "not_ipv4_udp": 0, "ip_bad": 0, "udp_bad": 0, "udp_zero": 0, "len_fields_bad": 0,
       "src": [], "dst": [], "sport": [], "dport": [], "eth_dst": [], "eth_src": [],
       "no_sig": 0, "payload_dirty": 0, "streams": [], "producers": {},
       "seq_contiguous": {}, "tsc_backwards": 0}
seqs, last_tsc = {}, {}
sets = {k: set() for k in ("src", "dst", "sport", "dport", "eth_dst", "eth_src", "streams")}
while off + 16 <= len(raw):
    _, _, incl, orig = struct.unpack(e + "IIII", raw[off:off + 16])
    f = raw[off + 16:off + 16 + incl]
    off += 16 + incl
    out["frames"] += 1
    out["lens"].append(orig)
    out["bytes"] += orig
    if incl != orig or len(f) != incl:
        out["truncated"] += 1
        continue
    sets["eth_dst"].add(f[0:6].hex(":"))
    sets["eth_src"].add(f[6:12].hex(":"))
    if len(f) < 42 or f[12:14] != b"\x08\x00" or f[14] != 0x45 or f[23] != 17:
        out["not_ipv4_udp"] += 1
        continue
    ip, udp = f[14:34], f[34:]
    tot_len = struct.unpack("!H", ip[2:4])[0]
    sport, dport, ulen, ucs = struct.unpack("!HHHH", udp[:8])
    if tot_len != len(f) - 14 or ulen != len(f) - 34:
        out["len_fields_bad"] += 1
    if csum(ip) != 0xFFFF:
        out["ip_bad"] += 1
    # UDP checksum from scratch: pseudo-header + segment with the field zero.
    ph = ip[12:20] + struct.pack("!BBH", 0, 17, ulen)
    want = ~csum(ph + udp[:6] + b"\0\0" + udp[8:ulen]) & 0xFFFF
    if ucs == 0:
        out["udp_zero"] += 1
    if (want or 0xFFFF) != ucs:
        out["udp_bad"] += 1
    sets["src"].add(".".join(map(str, ip[12:16])))
    sets["dst"].add(".".join(map(str, ip[16:20])))
    sets["sport"].add(sport)
    sets["dport"].add(dport)
    payload = udp[8:ulen]
    if len(payload) < 16:
        out["no_sig"] += 1
        continue
    sig = sig_v2(payload[-16:])
    if sig is None:
        out["no_sig"] += 1
        continue
    stream, prod, seq, tsc, _run = sig
    if any(payload[:-16]):
        out["payload_dirty"] += 1
    sets["streams"].add(stream)
    seqs.setdefault(prod, []).append(seq)
    if tsc < last_tsc.get(prod, 0):
        out["tsc_backwards"] += 1
    last_tsc[prod] = tsc
for k, v in sets.items():
    out[k] = sorted(v)
for p, s in seqs.items():
    out["producers"][str(p)] = len(s)
    out["seq_contiguous"][str(p)] = s == list(range(len(s)))
if off != len(raw):
    out["truncated"] += 1
print(json.dumps(out))
EOF
pcapsum() { "$PY" "$T/pcapsum.py" "$1"; }
# js FILE FILTER: jq -c on a JSON file ("" if it is missing or broken).
js() { jq -c "$2" "$1" 2>/dev/null || true; }

# (a) Defaults, --count 1000.
A=$T/a.pcap
gen "$A" --count 1000
check "(a) defaults --count 1000: exit 0" rc_is 0
check "(a) the file holds exactly 1000 frames (tshark)" eq "$(frames "$A")" 1000
# What tshark makes of the payload past UDP is its heuristics' guess (the
# signature's bytes vary from run to run, and once one frame of 1,000 was
# taken for another protocol): the layers up to UDP are judged, and any
# other guess is printed.
protos=$(tshark_fields "$A" frame.protocols | sort | uniq -c | grep -v ' eth:ethertype:ip:udp:data$' || true)
[ -z "$protos" ] || echo "note: (a) tshark's guesses past UDP: $protos"
check "(a) every frame is eth:ethertype:ip:udp" \
	eq "$(tshark_fields "$A" frame.protocols | sed 's/^\(eth:ethertype:ip:udp\)\(:.*\)\?$/\1/' | sort -u)" \
	"eth:ethertype:ip:udp"
check "(a) ip.src 198.18.0.1, ip.dst 198.18.0.2, UDP 9 -> 9 on every frame" \
	eq "$(tshark_fields "$A" ip.src ip.dst udp.srcport udp.dstport | sort -u)" \
	"$(printf '198.18.0.1\t198.18.0.2\t9\t9')"
check "(a) frame.len is 60 on every frame" eq "$(tshark_fields "$A" frame.len | sort -u)" 60
check "(a) tshark: IPv4 and UDP checksums Good on all 1000 frames" eq "$(good_csums "$A")" 1000
check "(a) tshark: no Bad checksum at all" \
	eq "$(tshark_count 'ip.checksum.status == "Bad" || udp.checksum.status == "Bad"' "$A")" 0
S=$(pcapsum "$A")
check "(a) parser: 1000 untruncated Ethernet frames, 60000 bytes" \
	eq "$(jq -c '[.linktype, .frames, .truncated, .bytes]' <<<"$S")" "[1,1000,0,60000]"
check "(a) parser: all IPv4/UDP with consistent length fields" \
	eq "$(jq -c '[.not_ipv4_udp, .len_fields_bad]' <<<"$S")" "[0,0]"
check "(a) parser: IPv4 header checksums recomputed: none bad" eq "$(jq .ip_bad <<<"$S")" 0
check "(a) parser: UDP checksums recomputed: none bad, none left at 0" \
	eq "$(jq -c '[.udp_bad, .udp_zero]' <<<"$S")" "[0,0]"
# scapy: delete both checksums, rebuild, compare with what was sent.
# Prints "FRAMES BAD"; "none" without scapy.
cat >"$T/scapy_csum.py" <<'EOF'
import sys
try:
    from scapy.all import rdpcap, Ether, IP, UDP
except ImportError:
    print("none")
    sys.exit(0)
bad = 0
pk = rdpcap(sys.argv[1])
for p in pk:
    q = Ether(bytes(p))
    ip_c, udp_c = q[IP].chksum, q[UDP].chksum
    del q[IP].chksum
    del q[UDP].chksum
    r = Ether(bytes(q))
    bad += r[IP].chksum != ip_c or r[UDP].chksum != udp_c
print(len(pk), bad)
EOF
scapy_csum() { "$PY" "$T/scapy_csum.py" "$1" 2>/dev/null || echo error; }
sc=$(scapy_csum "$A")
if [ "$sc" != none ]; then
	check "(a) scapy: checksums rebuilt from scratch match on all 1000 frames" eq "$sc" "1000 0"
else
	echo "SKIP - (a) scapy: python3-scapy is not importable by $PY"
fi
check "(a) JSON totals.tx_packets (1000) equals the frames in the file" \
	eq "$(js "$A.json" .totals.tx_packets)" "$(jq .frames <<<"$S")"
check "(a) JSON totals.tx_bytes equals the bytes in the file" \
	eq "$(js "$A.json" .totals.tx_bytes)" "$(jq .bytes <<<"$S")"

# (c) Sequence numbers: one producer (lcore 1), from 0, no gap, in order.
check "(c) every frame carries a signature (magic 0xce, check recomputed)" eq "$(jq .no_sig <<<"$S")" 0
check "(c) one producer (the port's only lcore-queue pair: id 0) with all 1000 frames" eq "$(jq -c .producers <<<"$S")" '{"0":1000}'
check "(c) its sequence numbers are 0..999 in order" eq "$(jq -c .seq_contiguous <<<"$S")" '{"0":true}'
check "(c) one stream id (0)" eq "$(jq -c .streams <<<"$S")" "[0]"
check "(c) the TSC in the signature never goes backwards" eq "$(jq .tsc_backwards <<<"$S")" 0
check "(c) payload before the signature is all zero" eq "$(jq .payload_dirty <<<"$S")" 0

# The checkers can fail: frame 1 gets a bad IPv4 checksum, frame 2 a bad
# UDP checksum, frame 3 a gap in its sequence number (seq += 1, which also
# breaks its UDP checksum).
"$PY" - "$A" "$T/bad.pcap" <<'EOF'
import struct, sys

import os
sys.path.insert(0, os.environ["SL_TEST_PY"])  # app/test/py: the signature decoder
from slsig import sig_check, sig_v2
raw = bytearray(open(sys.argv[1], "rb").read())
offs, off = [], 24
while off + 16 <= len(raw):
    incl = struct.unpack("<I", raw[off + 8:off + 12])[0]
    offs.append(off + 16)
    off += 16 + incl
f1, f2, f3 = offs[0], offs[1], offs[2]
raw[f1 + 24] ^= 0x01                         # IPv4 checksum
raw[f2 + 40] ^= 0x01                         # UDP checksum
# seq + 1 in the signature (the last 16 bytes of the 60-byte frame), with
# its check recomputed so that the parser sees a valid signature with a gap.
s = f3 + 60 - 16
w0, w1 = struct.unpack("<QQ", raw[s:s + 16])
w1 = (w1 & ~0xFFFFFFFF) | ((w1 + 1) & 0xFFFFFFFF)
w0 = (w0 & ~0xFFFF00) | (sig_check(w0, w1) << 8)
raw[s:s + 16] = struct.pack("<QQ", w0, w1)
open(sys.argv[2], "wb").write(raw)
EOF
B=$(pcapsum "$T/bad.pcap")
check "self-test: tshark sees the corrupted copy: 997 Good, 3 Bad" \
	eq "$(good_csums "$T/bad.pcap") $(tshark_count 'ip.checksum.status == "Bad" || udp.checksum.status == "Bad"' "$T/bad.pcap")" "997 3"
check "self-test: the parser finds 1 bad IPv4 and 2 bad UDP checksums (frames 2 and 3)" \
	eq "$(jq -c '[.ip_bad, .udp_bad]' <<<"$B")" "[1,2]"
check "self-test: the parser finds the sequence gap" eq "$(jq -c .seq_contiguous <<<"$B")" '{"0":false}'
[ "$sc" = none ] ||
	check "self-test: scapy finds the 3 corrupted frames" eq "$(scapy_csum "$T/bad.pcap")" "1000 3"

# (b) Three sizes in turn, configured addresses, ports and MAC.
Bp=$T/b.pcap
gen "$Bp" --size 64,128,1518 --tx-ip 198.18.5.1,198.18.6.2 --tx-udp 1234,5678 \
	--eth-peer 0,02:aa:bb:cc:dd:ee --count 999
check "(b) --size 64,128,1518 ... --count 999: exit 0" rc_is 0
check "(b) 999 frames in the file" eq "$(frames "$Bp")" 999
S=$(pcapsum "$Bp")
check "(b) frame lengths are 60,124,1514 in turn, 333 of each" \
	eq "$(jq -c '[.lens | _nwise(3) | tostring] | group_by(.) | map([.[0], length])' <<<"$S")" \
	'[["[60,124,1514]",333]]'
check "(b) tshark: lengths 60,124,1514 in turn" \
	eq "$(tshark_fields "$Bp" frame.len | paste -sd' ' | sed 's/60 124 1514//g' | tr -d ' ')" ""
check "(b) every frame is eth:ethertype:ip:udp (tshark's guesses past UDP not judged: see (a))" \
	eq "$(tshark_fields "$Bp" frame.protocols | sort -u | grep -cvE '^eth:ethertype:ip:udp(:.*)?$')" 0
check "(b) ip 198.18.5.1 -> 198.18.6.2, UDP 1234 -> 5678, eth.dst 02:aa:bb:cc:dd:ee (tshark)" \
	eq "$(tshark_fields "$Bp" ip.src ip.dst udp.srcport udp.dstport eth.dst | sort -u)" \
	"$(printf '198.18.5.1\t198.18.6.2\t1234\t5678\t02:aa:bb:cc:dd:ee')"
check "(b) parser agrees on addresses, ports and MAC" \
	eq "$(jq -c '[.src, .dst, .sport, .dport, .eth_dst]' <<<"$S")" \
	'[["198.18.5.1"],["198.18.6.2"],[1234],[5678],["02:aa:bb:cc:dd:ee"]]'
check "(b) tshark: checksums Good on all 999 frames" eq "$(good_csums "$Bp")" 999
check "(b) parser: no bad IPv4/UDP checksum, length fields right" \
	eq "$(jq -c '[.not_ipv4_udp, .len_fields_bad, .ip_bad, .udp_bad, .udp_zero]' <<<"$S")" "[0,0,0,0,0]"
check "(b) payload before the signature is all zero (no stale bytes from larger frames)" \
	eq "$(jq .payload_dirty <<<"$S")" 0
check "(c) sizes in turn: sequence numbers still 0..998 in order" \
	eq "$(jq -c '[.no_sig, .producers, .seq_contiguous]' <<<"$S")" '[0,{"0":999},{"0":true}]'
check "(d) JSON totals.tx_packets equals the frames in the file (999)" \
	eq "$(js "$Bp.json" .totals.tx_packets)" "$(jq .frames <<<"$S")"
check "(d) JSON totals.tx_bytes equals the bytes in the file" \
	eq "$(js "$Bp.json" .totals.tx_bytes)" "$(jq .bytes <<<"$S")"

# (b) Odd sizes: the signature starts at an odd offset of the UDP segment.
O=$T/odd.pcap
gen "$O" --size 65,101 --count 1000
check "(b) --size 65,101 --count 1000: exit 0" rc_is 0
S=$(pcapsum "$O")
check "(b) odd sizes: 1000 frames of 61 and 97 bytes in turn" \
	eq "$(jq -c '[.frames, ([.lens | _nwise(2) | tostring] | unique)]' <<<"$S")" '[1000,["[61,97]"]]'
check "(b) odd sizes: tshark: checksums Good on all 1000 frames" eq "$(good_csums "$O")" 1000
check "(b) odd sizes: parser: no bad checksum" \
	eq "$(jq -c '[.not_ipv4_udp, .len_fields_bad, .ip_bad, .udp_bad, .udp_zero]' <<<"$S")" "[0,0,0,0,0]"
check "(c) odd sizes: sequence numbers 0..999 in order" \
	eq "$(jq -c '[.no_sig, .seq_contiguous]' <<<"$S")" '[0,{"0":true}]'
check "(d) odd sizes: JSON tx_packets equals the frames in the file" \
	eq "$(js "$O.json" .totals.tx_packets)" "$(jq .frames <<<"$S")"

# Many sizes, enough frames that every mbuf is reused with other sizes
# (pool of 8191 per worker and port): checksums, zero payload, sequence.
M=$T/mix.pcap
gen "$M" --size 1518,64,65,127,1000,66,1517 --burst 7 --count 30000
check "(b) seven mixed sizes, --burst 7, --count 30000: exit 0" rc_is 0
S=$(pcapsum "$M")
check "(b) mixed: 30000 frames, lengths in turn" \
	eq "$(jq -c '[.frames, ([.lens as $l | range(0; $l | length; 7) | $l[.:.+7] | select(length == 7) | tostring] | unique)]' <<<"$S")" \
	'[30000,["[1514,60,61,123,996,62,1513]"]]'
check "(b) mixed: tshark: checksums Good on all 30000 frames" eq "$(good_csums "$M")" 30000
check "(b) mixed: parser: no bad checksum, no stale payload" \
	eq "$(jq -c '[.not_ipv4_udp, .len_fields_bad, .ip_bad, .udp_bad, .udp_zero, .payload_dirty]' <<<"$S")" \
	"[0,0,0,0,0,0]"
check "(c) mixed: sequence numbers 0..29999 in order" \
	eq "$(jq -c '[.no_sig, .producers, .seq_contiguous]' <<<"$S")" '[0,{"0":30000},{"0":true}]'
check "(d) mixed: JSON tx_packets and tx_bytes equal the file's" \
	eq "$(js "$M.json" '[.totals.tx_packets, .totals.tx_bytes]')" "$(jq -c '[.frames, .bytes]' <<<"$S")"

# Two ports, one worker: --count is per port, --eth-peer only on port 1,
# each port's frames carry its own source MAC and their own sequence.
P0=$T/p0.pcap P1=$T/p1.pcap
new_prefix
timeout 60 "$sluice" --no-huge -m 512 --no-pci --file-prefix "$prefix" -l 0-1 \
	--vdev "net_pcap0,tx_pcap=$P0" --vdev "net_pcap1,tx_pcap=$P1" -- \
	--sign on --count 500 --eth-peer 1,02:aa:bb:cc:dd:01 --json "$P0.json" >"$P0.out" 2>&1 && rc=0 || rc=$?
check "two pcap ports --count 500 --eth-peer 1,...: exit 0" rc_is 0
S0=$(pcapsum "$P0") S1=$(pcapsum "$P1")
check "two ports: 500 frames in each file" eq "$(jq .frames <<<"$S0") $(jq .frames <<<"$S1")" "500 500"
check "two ports: JSON per-port tx_packets match the files" \
	eq "$(js "$P0.json" '[.ports[].tx_packets]')" "[$(jq .frames <<<"$S0"),$(jq .frames <<<"$S1")]"
check "two ports: port 1 frames go to 02:aa:bb:cc:dd:01" eq "$(jq -c .eth_dst <<<"$S1")" '["02:aa:bb:cc:dd:01"]'
check "two ports: port 0 frames do not (the peer is per port)" \
	eq "$(jq -c '.eth_dst | length == 1 and .[0] != "02:aa:bb:cc:dd:01"' <<<"$S0")" true
check "two ports: each port sends from its own MAC" \
	eq "$(jq -c '.eth_src | length' <<<"$S0") $(jq -c '.eth_src | length' <<<"$S1") $([ "$(jq -c .eth_src <<<"$S0")" != "$(jq -c .eth_src <<<"$S1")" ] && echo differ)" "1 1 differ"
check "two ports: checksums good in both files" \
	eq "$(jq -c '[.ip_bad, .udp_bad]' <<<"$S0")$(jq -c '[.ip_bad, .udp_bad]' <<<"$S1")" "[0,0][0,0]"
check "two ports: sequence numbers 0..499 in each file" \
	eq "$(jq -c .seq_contiguous <<<"$S0")$(jq -c .seq_contiguous <<<"$S1")" '{"0":true}{"0":true}'

echo "test_pcap: $pass passed, $fail failed"
[ "$fail" = 0 ]
