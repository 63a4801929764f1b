#!/usr/bin/env python3
"""A minimal Open Traffic Generator client written from the spec (otg.yaml),
with Python's standard library only (snappi is not a Debian package).

    otg_client.py URL CONFIG.json [TIMEOUT_S]
    otg_client.py URL call METHOD PATH [BODY]    one request: prints status and body

https URLs are served by a self-signed certificate: this client does not
verify it (as snappi's verify=False). OTG_TOKEN in the environment: sent
as the bearer token.

set_config (POST /config), start traffic (POST /control/state), poll flow
metrics (POST /monitor/metrics) until every flow is stopped (bounded by
TIMEOUT_S, default 20), then prints the flow metrics and the port metrics
as JSON lines, and GET /capabilities/version. Exits 1 on an HTTP error,
printing its body.
"""
import json
import os
import ssl
import sys
import time
import urllib.error
import urllib.request


CTX = ssl.create_default_context()
CTX.check_hostname = False
CTX.verify_mode = ssl.CERT_NONE


def raw(url, method, path, data=None):
    headers = {"Content-Type": "application/json"}
    if os.environ.get("OTG_TOKEN"):
        headers["Authorization"] = "Bearer " + os.environ["OTG_TOKEN"]
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method=method,
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10, context=CTX) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def call(url, method, path, body=None):
    st, b = raw(url, method, path, json.dumps(body).encode() if body is not None else None)
    return st, json.loads(b or b"{}")


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "call":
        body = sys.argv[5].encode() if len(sys.argv) > 5 else None
        st, b = raw(sys.argv[1], sys.argv[3], sys.argv[4], body)
        if sys.argv[4] == "/monitor/capture" and st == 200:
            sys.stdout.buffer.write(b)
        else:
            print(st, b.decode(errors="replace"))
        return
    url, cfg = sys.argv[1], json.load(open(sys.argv[2]))
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 20
    st, r = call(url, "POST", "/config", cfg)
    print("set_config", st, json.dumps(r, sort_keys=True))
    if st != 200:
        sys.exit(1)
    st, r = call(url, "POST", "/control/state",
                 {"choice": "traffic", "traffic": {"choice": "flow_transmit",
                                                   "flow_transmit": {"state": "start"}}})
    print("start", st, json.dumps(r, sort_keys=True))
    if st != 200:
        sys.exit(1)
    end = time.time() + limit
    while True:
        st, m = call(url, "POST", "/monitor/metrics", {"choice": "flow", "flow": {}})
        if st != 200:
            print("metrics", st, json.dumps(m))
            sys.exit(1)
        if all(f["transmit"] == "stopped" for f in m["flow_metrics"]) or time.time() > end:
            break
        time.sleep(0.1)
    print("flow_metrics", json.dumps(m["flow_metrics"], sort_keys=True))
    st, p = call(url, "POST", "/monitor/metrics", {"choice": "port", "port": {}})
    print("port_metrics", st, json.dumps(p.get("port_metrics"), sort_keys=True))
    st, v = call(url, "GET", "/capabilities/version")
    print("version", st, json.dumps(v, sort_keys=True))


main()
