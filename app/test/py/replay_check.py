#!/usr/bin/env python3
"""Compare a replay's output capture with its input capture (scapy's
reader, not Sluice's parser).

    replay_check.py IN.pcap OUT.pcap [SPEED] [LOOPS]

Prints, one per line:
  frames IN OUT           frame counts (OUT should be IN * LOOPS)
  same_bytes yes|no       OUT's frames are IN's, LOOPS times over (as multisets)
  order yes|no            each 5-tuple's frames leave in the capture's order
  anchored_err_us MAX P99 MEAN
                          per output frame of the first loop: its time minus its
                          input frame's time / SPEED, less the median of that
                          over all frames (the schedule's start): the schedule's
                          error, with no drift allowed
  span IN_S OUT_S         first to last frame of the first loop
SPEED 0: top speed (no timing figures).
"""
import collections
import struct
import sys

from scapy.utils import RawPcapReader


def frames(path):
    out = []
    r = RawPcapReader(path)
    nano = getattr(r, "nano", False)
    for data, meta in r:
        if hasattr(meta, "tshigh"):  # pcapng
            ts = ((meta.tshigh << 32) | meta.tslow) / meta.tsresol
        else:
            ts = meta.sec + meta.usec / (1e9 if nano else 1e6)
        out.append((ts, bytes(data)))
    return out


def key(b):
    """The 5-tuple as Sluice splits by: addresses, protocol, ports."""
    if len(b) < 34 or b[12:14] != b"\x08\x00":
        return b[:14]
    ihl = (b[14] & 0xf) * 4
    proto = b[23]
    k = b[26:34] + bytes([proto])
    if proto in (6, 17) and len(b) >= 14 + ihl + 4:
        k += b[14 + ihl:14 + ihl + 4]
    return k


def main():
    a, b = frames(sys.argv[1]), frames(sys.argv[2])
    speed = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    loops = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    print("frames", len(a), len(b))
    same = collections.Counter(x for _, x in a * loops) == collections.Counter(x for _, x in b)
    print("same_bytes", "yes" if same else "no")
    # Per 5-tuple order: the input's sequence, repeated per loop.
    want = collections.defaultdict(list)
    for _ in range(loops):
        for _, x in a:
            want[key(x)].append(x)
    got = collections.defaultdict(list)
    for _, x in b:
        got[key(x)].append(x)
    print("order", "yes" if all(got[k] == want[k] for k in want) and len(got) == len(want) else "no")
    if speed > 0 and len(b) >= len(a) and len(a) > 1:
        # Match the first loop's output frames to input frames, in order per 5-tuple.
        pos = collections.defaultdict(collections.deque)
        for t, x in a:
            pos[(key(x), x)].append(t)
        pairs = []
        for t, x in sorted(b[:len(a)]):
            q = pos[(key(x), x)]
            if q:
                pairs.append((t, q.popleft()))
        # The schedule's start is where most frames say it is (a late first frame is one
        # frame late, not every frame): the median of (out - in / speed).
        d = sorted(t - ta / speed for t, ta in pairs)
        off = d[len(d) // 2]
        errs = sorted(abs(t - ta / speed - off) * 1e6 for t, ta in pairs)
        print("anchored_err_us %.1f %.1f %.1f" % (errs[-1], errs[int(len(errs) * 0.99)],
                                                  sum(errs) / len(errs)))
        first = sorted(t for t, _ in b[:len(a)])
        print("span %.6f %.6f" % (a[-1][0] - a[0][0], first[-1] - first[0]))


main()
