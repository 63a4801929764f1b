#!/usr/bin/env python3
"""A minimal Open Traffic Generator client written from the spec (otg.yaml),
with Python's standard library only (snappi is not a Debian package).

    otg_client.py URL CONFIG.json [TIMEOUT_S]

set_config (POST /config), start traffic (POST /control/state), poll flow
metrics (POST /monitor/metrics) until every flow is stopped (bounded by
TIMEOUT_S, default 20), then prints the flow metrics and the port metrics
as JSON lines, and GET /capabilities/version. Exits 1 on an HTTP error,
printing its body.
"""
import json
import sys
import time
import urllib.error
import urllib.request


def call(url, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def main():
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
