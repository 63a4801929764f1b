#!/usr/bin/env python3
"""Decode a capture with scapy (not Sluice's parser) and check every
checksum of every layer, outer and inner: each IPv4 header, UDP, TCP,
ICMP and ICMPv6 checksum is recomputed by scapy from scratch.

    stack_check.py PCAP [--first N]

--first N: only the first N frames (a capture whose patterns repeat).

Prints one line per distinct layer stack ("Ether/Dot1AD/Dot1Q/.../UDP N")
with its frame count, then "bad N" (the frames with a wrong checksum,
the first few named) and "sig N" (frames whose last 16 bytes of the outer
IP payload carry Sluice's signature magic, 0xce).
"""
import sys
from collections import Counter

from scapy.all import rdpcap, raw, Ether, IP, IPv6, UDP, TCP, ICMP, Padding, Raw
from scapy.layers.inet6 import ICMPv6EchoRequest
from scapy.contrib.mpls import MPLS
from scapy.layers.vxlan import VXLAN
from scapy.contrib.gtp import GTP_U_Header
from scapy.layers.l2 import GRE  # noqa: F401 (binds GRE)

CK = (IP, UDP, TCP, ICMP, ICMPv6EchoRequest)


def layers(p):
    out, x = [], p
    while x is not None and not isinstance(x, (Raw, Padding)) and x.__class__.__name__ != "NoPayload":
        out.append(x.__class__.__name__)
        x = x.payload
    return "/".join(out)


def main():
    n = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--first" else -1
    pk = rdpcap(sys.argv[1], count=n)
    seen, bad, sig = Counter(), [], 0
    for i, p in enumerate(pk):
        seen[layers(p)] += 1
        for cls in CK:
            k = 1
            while p.getlayer(cls, k) is not None:
                lay = p.getlayer(cls, k)
                want = lay.chksum if hasattr(lay, "chksum") else lay.cksum
                q = p.copy()
                ql = q.getlayer(cls, k)
                if hasattr(ql, "chksum"):
                    ql.chksum = None
                else:
                    ql.cksum = None
                q = Ether(raw(q))
                ql = q.getlayer(cls, k)
                got = ql.chksum if hasattr(ql, "chksum") else ql.cksum
                if got != want:
                    bad.append((i, cls.__name__, k, hex(want), hex(got)))
                k += 1
        ip = p.getlayer(IP) if p.haslayer(IP) else p.getlayer(IPv6)
        if ip is not None:
            b = raw(ip)
            end = ip.len if ip.__class__ is IP else 40 + ip.plen
            if end >= 16 and b[end - 16] == 0xCE:
                sig += 1
    for k, v in sorted(seen.items()):
        print(k, v)
    print("bad", len(bad), bad[:5])
    print("sig", sig)


main()
