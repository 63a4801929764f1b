#!/usr/bin/env python3
"""The session of docs/api.md with snappi itself (the OTG Python client).

    snappi_session.py URL [TIMEOUT_S]

Sets a two-port Config (ports sim0 and sim1) with three flows, starts the
traffic, polls the flow metrics until every flow has stopped (bounded by
TIMEOUT_S, default 30), then prints one JSON line per flow (name,
transmit, frames_tx, frames_rx) and the pcap-free port metrics. Exits 3
when snappi cannot be imported (not a Debian package: the caller skips).
"""
import json
import sys
import time

try:
    import snappi
except ImportError:
    sys.exit(3)


def main():
    url = sys.argv[1]
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    # As OTG test suites run it: the client checks the server's models
    # version (GET /capabilities/version) before its first call.
    api = snappi.api(location=url, verify=False, version_check=True)
    cfg = api.config()
    p1, p2 = cfg.ports.port(name="p1", location="sim0").port(name="p2", location="sim1")
    for name, tx, rx, n, size in (("east", p1, p2, 3000, 128), ("west", p2, p1, 2000, 256),
                                  ("probe", p1, p2, 1000, 64)):
        f = cfg.flows.flow(name=name)[-1]
        f.tx_rx.port.tx_name = tx.name
        f.tx_rx.port.rx_names = [rx.name]
        eth, ip, udp = f.packet.ethernet().ipv4().udp()
        eth.src.value = "02:00:00:00:00:01"
        ip.src.value = "198.18.0.1"
        ip.dst.value = "198.19.0.1"
        udp.src_port.increment.start = 1000
        udp.src_port.increment.step = 1
        udp.src_port.increment.count = 10
        udp.dst_port.value = 4791
        f.size.fixed = size
        f.rate.pps = 20000
        f.duration.fixed_packets.packets = n
        f.metrics.enable = True
        f.metrics.latency.enable = True
    w = api.set_config(cfg)
    print("set_config warnings", json.dumps(list(w.warnings)))
    cs = api.control_state()
    cs.traffic.flow_transmit.state = cs.traffic.flow_transmit.START
    api.set_control_state(cs)
    end = time.time() + limit
    while True:
        req = api.metrics_request()
        req.flow.flow_names = []
        fm = api.get_metrics(req).flow_metrics
        if all(m.transmit == "stopped" for m in fm) or time.time() > end:
            break
        time.sleep(0.1)
    for m in fm:
        print("flow", json.dumps({"name": m.name, "transmit": m.transmit,
                                  "frames_tx": m.frames_tx, "frames_rx": m.frames_rx}))
    req = api.metrics_request()
    req.port.port_names = []
    for m in api.get_metrics(req).port_metrics:
        print("port", json.dumps({"name": m.name, "location": m.location,
                                  "frames_tx": m.frames_tx, "frames_rx": m.frames_rx}))


main()
