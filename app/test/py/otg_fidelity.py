#!/usr/bin/env python3
"""Decode a capture of the OTG fidelity config (test_flows.sh, issue 48)
with scapy and print, per IPv4 destination, what the frames carried: one
JSON object per line, {"dst": ..., "n": frames, "tos": [...], "flags":
[...], "frag": [...], "tcp_flags": [...], "dataofs": [...], "sizes":
{len: count}, "vxlan_rsv1": [...], "ip_csum": [...]} (the distinct
values seen, sorted), then "bad N" for frames whose checksums scapy
recomputes differently (a custom checksum excepted: its frames are named).

    otg_fidelity.py PCAP
"""
import json
import sys
from collections import Counter, defaultdict

from scapy.all import rdpcap, raw, IP, TCP, UDP
from scapy.layers.vxlan import VXLAN


def main():
    seen = defaultdict(lambda: defaultdict(set))
    sizes = defaultdict(Counter)
    n = Counter()
    bad = 0
    for p in rdpcap(sys.argv[1]):
        if IP not in p:
            continue
        ip = p[IP]
        d = ip.dst
        n[d] += 1
        sizes[d][len(p) + 4] += 1  # with the FCS, as OTG sizes are
        s = seen[d]
        s["tos"].add(ip.tos)
        s["flags"].add(int(ip.flags))
        s["frag"].add(ip.frag)
        s["ip_csum"].add(ip.chksum)
        if TCP in p:
            s["tcp_flags"].add(int(p[TCP].flags))
            s["dataofs"].add(p[TCP].dataofs)
        if VXLAN in p:
            s["vxlan_rsv1"].add(raw(p[VXLAN])[7])
        # checksums recomputed by scapy (the custom one is judged by value)
        if d != "198.18.3.3":
            q = ip.copy()
            del q.chksum
            if raw(q)[:20] != raw(ip)[:20]:
                bad += 1
    for d in sorted(n):
        out = {"dst": d, "n": n[d], "sizes": {str(k): v for k, v in sorted(sizes[d].items())}}
        for k, v in sorted(seen[d].items()):
            out[k] = sorted(v)
        print(json.dumps(out, sort_keys=True))
    print("bad", bad)


if __name__ == "__main__":
    main()
