#!/usr/bin/python3
"""Decode a capture and print facts as JSON.

Usage: pcap_check.py FILE [SCAPY_FRAMES]
Scapy (an independent decoder) decodes the first SCAPY_FRAMES frames
(default 3000) and recomputes their checksums; every frame is read with the
struct module for lengths, flows (source address, source port) and the
signature sequences per (stream, producer), which keeps 100,000-frame
captures fast.
"""
import json
import struct
import sys
from collections import Counter, defaultdict

from scapy.all import IP, TCP, UDP, Dot1Q, Ether, IPv6  # noqa: E402



from slsig import sig_check, sig_v2  # noqa: E402,F401

def csum_ok(pkt, layer):
    """True if scapy, rebuilding the layer's checksum, gets the same value."""
    got = pkt[layer].chksum
    clone = pkt.copy()
    del clone[layer].chksum
    rebuilt = Ether(bytes(clone))
    return rebuilt[layer].chksum == got


def frames(path):
    """Raw frames of a classic pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data, 0)[0]
    end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from(end + "I", data, off + 8)[0]
        yield data[off + 16:off + 16 + incl]
        off += 16 + incl


def flow_of(raw):
    """(source address bytes, source port) of an Ethernet/[VLAN]/IPv4|6/UDP|TCP frame."""
    l3 = 14
    etype = struct.unpack_from(">H", raw, 12)[0]
    if etype == 0x8100:
        etype = struct.unpack_from(">H", raw, 16)[0]
        l3 = 18
    if etype == 0x0800:
        return raw[l3 + 12:l3 + 16], struct.unpack_from(">H", raw, l3 + 20)[0]
    if etype == 0x86DD:
        return raw[l3 + 8:l3 + 24], struct.unpack_from(">H", raw, l3 + 40)[0]
    return None


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--many":
        # pcap_check.py --many N FILE...: FILE.j for each (one scapy import)
        limit = int(sys.argv[2])
        for path in sys.argv[3:]:
            with open(path[:-len(".pcap")] + ".j" if path.endswith(".pcap") else path + ".j",
                      "w") as out:
                json.dump(check(path, limit), out)
                out.write("\n")
        return
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    json.dump(check(sys.argv[1], limit), sys.stdout)
    print()


def check(path, limit):
    """The facts of one capture, as a dict."""
    lens = Counter()
    flows = Counter()
    bad_ip = bad_l4 = 0
    fields = defaultdict(set)
    seqs = defaultdict(list)
    n = 0
    for raw in frames(path):
        n += 1
        lens[len(raw)] += 1
        fl = flow_of(raw)
        if fl is not None:
            flows[fl] += 1
        if len(raw) >= 16:
            sig = sig_v2(raw[len(raw) - 16:])
            if sig is not None:
                stream, producer, seq = sig[0], sig[1], sig[2]
                seqs[f"{stream}/{producer}"].append(seq)
        if n > limit:
            continue
        p = Ether(raw)
        if Dot1Q in p:
            fields["vlan"].add(p[Dot1Q].vlan)
        l3 = IP if IP in p else IPv6 if IPv6 in p else None
        l4 = UDP if UDP in p else TCP if TCP in p else None
        fields["l3"].add(l3.__name__ if l3 else "none")
        fields["l4"].add(l4.__name__ if l4 else "none")
        fields["dst_mac"].add(p[Ether].dst)
        if l3 is None or l4 is None:
            continue
        if len(fields["src"]) < 4:
            fields["src"].add(p[l3].src)
        fields["dst"].add(p[l3].dst)
        fields["dport"].add(p[l4].dport)
        if l3 is IP and not csum_ok(p, IP):
            bad_ip += 1
        if not csum_ok(p, l4):
            bad_l4 += 1
    contiguous = {k: v == list(range(len(v))) for k, v in seqs.items()}
    out = {
        "frames": n,
        "checked": min(n, limit),
        "lengths": {str(k): v for k, v in sorted(lens.items())},
        "flows": len(flows),
        "flow_min": min(flows.values()) if flows else 0,
        "flow_max": max(flows.values()) if flows else 0,
        "bad_ip_csum": bad_ip,
        "bad_l4_csum": bad_l4,
        "fields": {k: sorted(map(str, v)) for k, v in fields.items()},
        "signed": sum(len(v) for v in seqs.values()),
        "seq_contiguous_from_0": all(contiguous.values()) if contiguous else False,
    }
    return out


if __name__ == "__main__":
    main()
