#!/usr/bin/env python3
"""Send DPDK telemetry commands to a process and print each JSON reply.

    tel_query.py PREFIX CMD...    (e.g. /sluice/flows,1)

Connects to /var/run/dpdk/PREFIX/dpdk_telemetry.v2 (waiting up to 5 s for
it), prints one line per command: the reply, as JSON. Exits 1 if the
socket never appears.
"""
import json
import os
import socket
import sys
import time

path = f"/var/run/dpdk/{sys.argv[1]}/dpdk_telemetry.v2"
end = time.time() + 5
while not os.path.exists(path) and time.time() < end:
    time.sleep(0.05)
if not os.path.exists(path):
    sys.exit(1)
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(path)
json.loads(s.recv(16384))
for c in sys.argv[2:]:
    s.send(c.encode())
    print(json.dumps(json.loads(s.recv(1 << 20)), sort_keys=True))
