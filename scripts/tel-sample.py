#!/usr/bin/env python3
"""Sample a running Sluice through its telemetry socket.

tel-sample.py PREFIX PERIOD SECONDS [PID]

Connects to /var/run/dpdk/PREFIX/dpdk_telemetry.v2 (waiting up to 10 s for
it), then every PERIOD seconds, for SECONDS, prints one JSON line:
{"t": wall-clock seconds, "totals": /sluice/totals (counters, and
mempool_in_use: mbufs out of the TX pools now), "rss_kb": the resident set of
PID (from /proc/PID/status)}. Ends early, exit 0,
when the process closes the socket; exit 1 if it never could connect.
"""
import json
import os
import socket
import sys
import time


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    prefix, period, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    pid = sys.argv[4] if len(sys.argv) > 4 else None
    path = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
    end = time.time() + 10
    s = None
    while time.time() < end:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect(path)
            json.loads(s.recv(16384))
            break
        except (OSError, ValueError):
            s = None
            time.sleep(0.05)
    if s is None:
        print(f"tel-sample: cannot connect to {path}", file=sys.stderr)
        return 1
    end = time.time() + seconds
    nxt = time.time()
    try:
        while time.time() < end:
            s.send(b"/sluice/totals")
            data = s.recv(65536)
            if not data:
                break
            t = time.time()
            tot = json.loads(data)["/sluice/totals"]
            if tot is None:
                # Not registered yet (the program is still starting): no sample.
                time.sleep(period / 2)
                continue
            line = {"t": round(t, 4), "totals": tot}
            if pid is not None:
                line["rss_kb"] = rss_kb(pid)
            print(json.dumps(line), flush=True)
            # Every PERIOD; late (the machine busy), the next one a period
            # from now: two samples never come back to back.
            nxt = max(nxt + period, time.time() + period / 2)
            time.sleep(max(0.0, nxt - time.time()))
    except (ConnectionError, OSError):
        pass  # the process ended
    return 0


if __name__ == "__main__":
    sys.exit(main())
