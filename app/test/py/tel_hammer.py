#!/usr/bin/env python3
"""Query a DPDK process's telemetry socket in a tight loop until it goes away.

tel_hammer.py PREFIX SECONDS: connects to /var/run/dpdk/PREFIX/dpdk_telemetry.v2
(waiting for it to appear), sends /sluice/totals, /sluice/ports,0,
/sluice/txqs,0, /sluice/streams, /sluice/streams,0, /sluice/flows and
/sluice/flows,0 in turn, and checks that every answer is JSON with the
command's key. Prints "replies N errors E" and exits 0 when the process
ended the connection (or SECONDS passed) with no error.
"""
import json
import os
import socket
import sys
import time

prefix, limit = sys.argv[1], float(sys.argv[2])
path = f"/var/run/dpdk/{prefix}/dpdk_telemetry.v2"
end = time.time() + limit
while not os.path.exists(path) and time.time() < end:
    time.sleep(0.01)
cmds = ["/sluice/totals", "/sluice/ports,0", "/sluice/txqs,0", "/sluice/streams",
        "/sluice/streams,0", "/sluice/flows", "/sluice/flows,0"]
replies = errors = 0
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    json.loads(s.recv(16384))
    i = 0
    while time.time() < end:
        c = cmds[i % len(cmds)]
        i += 1
        s.send(c.encode())
        data = s.recv(65536)
        if not data:
            break
        try:
            reply = json.loads(data)
            if c.split(",")[0] not in reply:
                errors += 1
                print("bad reply", c, data[:200], file=sys.stderr)
        except ValueError:
            errors += 1
            print("not JSON", c, data[:200], file=sys.stderr)
        replies += 1
except (ConnectionError, OSError):
    pass  # the process ended
print(f"replies {replies} errors {errors}")
sys.exit(1 if errors or replies == 0 else 0)
