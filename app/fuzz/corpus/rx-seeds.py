#!/usr/bin/env python3
"""Write the rx target's seed corpus (fuzz_rx.c's input format): signed
frames as the generator makes them (IPv4/IPv6, UDP/TCP, VLAN), in orders
with duplicates, reordering and late arrivals, plus foreign and truncated
frames. Run from app/fuzz: python3 corpus/rx-seeds.py"""
import struct

MAGIC = 0xce


def frame(seq, stream=0, producer=0, run=7, ipv6=False, tcp=False, vlan=0, size=64, tsc=1000):
    eth = b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01"
    if vlan:
        eth += struct.pack(">HH", 0x8100, vlan)
    l4 = 20 if tcp else 8
    l3 = 40 if ipv6 else 20
    payload = max(size - 4 - len(eth) - 2 - l3 - l4, 16)
    plen = l4 + payload
    if ipv6:
        eth += struct.pack(">H", 0x86DD)
        ip = struct.pack(">IHBB", 6 << 28, plen, 6 if tcp else 17, 64) + b"\x20\x01\x00\x02" + b"\0" * 11 + b"\x01" + b"\x20\x01\x00\x02" + b"\0" * 11 + b"\x02"
    else:
        eth += struct.pack(">H", 0x0800)
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + plen, 0, 0x4000, 64, 6 if tcp else 17, 0,
                         bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2]))
    w0 = MAGIC | run << 24 | stream << 32 | producer << 48 | ((tsc >> 32) & 0xFF) << 56
    w1 = seq | (tsc & 0xFFFFFFFF) << 32
    sig = struct.pack("<QQ", w0, w1)
    body = b"\0" * l4 + b"\0" * (payload - 16) + sig
    return eth + ip + body


def record(f, flags=2):
    return struct.pack(">HB", len(f), flags) + f


def seed(name, frames, hdr=b"\x01\x00\x07\x00"):
    with open(f"corpus/rx/{name}", "wb") as out:
        out.write(hdr + b"".join(frames))


seed("in-order", [record(frame(s)) for s in range(8)])
seed("dup-reorder", [record(frame(s)) for s in (0, 1, 2, 2, 5, 3, 4, 4, 9, 6)])
seed("late", [record(frame(s)) for s in (0, 3000, 1, 2999)])
seed("wrap", [record(frame(s)) for s in (0xFFFFFFFE, 0xFFFFFFFF, 0, 1)])
seed("streams", [record(frame(s % 4, stream=s % 2, producer=s % 3)) for s in range(12)],
     hdr=b"\x01\x3f\x07\x00")
seed("ipv6-tcp-vlan", [record(frame(0, ipv6=True)), record(frame(1, tcp=True)),
                       record(frame(2, vlan=10, size=128)), record(frame(3, ipv6=True, tcp=True, vlan=5))])
seed("stale-bad", [record(frame(0, run=6)), record(frame(1), flags=0), record(frame(2)[:40]),
                   record(frame(3, stream=3))])
seed("hw-ts-segs", [record(frame(0), flags=2 | 1), record(frame(1, size=1518), flags=2 | 4),
                    record(frame(2), flags=2 | 8), record(frame(3, tsc=1 << 39), flags=2 | 1 | 4)])
seed("foreign", [record(b"\xff" * 6 + b"\x02" * 6 + b"\x08\x06" + b"\0" * 28, 0),
                 record(b"\x01\x02", 0), record(b"", 0)])
