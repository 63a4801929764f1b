#!/usr/bin/env bash
# soak.sh MINUTES [PERIOD_S] - a long run that must stay flat and conserve.
#
# Runs Sluice for MINUTES on two simulated 10G ports wired to each other
# through the sim DUT model (port 0 -> 1 and 1 -> 0, no impairment): two
# streams, each port's one TX queue shared by two worker lcores (locked
# mode), paced, IMIX over 1000 flows, every frame analyzed on the receive
# side. Every PERIOD_S seconds (default: 120 samples in the run, 0.5 s to
# 10 s apart) it samples the counters, the mbufs out of the TX pools
# (telemetry /sluice/totals) and the process's RSS (scripts/tel-sample.py).
# At the end it judges and prints the figures:
#  - conservation: generated = tx + dropped + backlog, backlog 0, every mbuf
#    back (JSON); per stream tx = unique rx + lost with lost, duplicates and
#    reordered 0; the DUT model's ground truth: every frame sent entered it
#    and was delivered, nothing dropped or held; streams' tx sum = tx;
#  - progress: generated and tx_packets never went down, and tx_packets
#    never stood still for a minute (or three periods, if longer);
#  - RSS flat: after the warm-up (the first tenth of the samples, at least
#    two), it grew by at most SL_SOAK_RSS_KB (default 1024 kB);
#  - mempool use flat: the mbufs out of the pools less those waiting in the
#    backlog (counted there, so not lost); the lowest level of the last
#    third of the samples is at most 64 mbufs above the lowest of the first
#    third after the warm-up (a leak raises the floor; the level itself
#    moves with ring fill, kept bursts and mbufs in the DUT model, so the
#    floor needs many samples a third, dozens in a short run; a sample
#    with more in the backlog than out of the pools, read across a
#    preemption, is dropped; fewer than three samples a third fail).
# Exit 0 when all hold, 1 when one does not (the figures say which), 2 on
# bad usage. Environment: SLUICE_BIN (default build/app/sluice/sluice),
# SL_SOAK_RATE (per port, default 200kpps), SL_SOAK_OUT (a directory to
# keep samples.jsonl, run.json and run.out in; default a temporary one,
# removed), SL_SOAK_LCORES (default '0,(1-2)@(0-1)').
set -euo pipefail

usage() { echo "usage: scripts/soak.sh MINUTES [PERIOD_S]   (MINUTES: a number > 0, up to 1080)" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
minutes=$1
period=${2:-$(awk -v m="$minutes" 'BEGIN { p = m * 60 / 120; print (p < 0.5 ? 0.5 : (p > 10 ? 10 : p)) }')}
awk -v m="$minutes" 'BEGIN { exit !(m ~ /^[0-9]+(\.[0-9]+)?$/ && m > 0 && m <= 1080) }' || usage
awk -v p="$period" 'BEGIN { exit !(p ~ /^[0-9]+(\.[0-9]+)?$/ && p >= 0.1 && p <= 600) }' || usage

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
[ -x "$bin" ] || { echo "soak.sh: no sluice binary at $bin: build first (ninja -C build)" >&2; exit 1; }
rate=${SL_SOAK_RATE:-200kpps}
lcores=${SL_SOAK_LCORES:-'0,(1-2)@(0-1)'}
if [ -n "${SL_SOAK_OUT:-}" ]; then
	out=$SL_SOAK_OUT
	mkdir -p "$out"
	keep=1
else
	out=$(mktemp -d)
	keep=0
fi
prefix=slsoak$$
cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null || true
	rm -rf "/var/run/dpdk/$prefix"
	[ "$keep" = 1 ] || rm -rf "$out"
}
trap cleanup EXIT

seconds=$(awk -v m="$minutes" 'BEGIN { printf "%.3f", m * 60 }')
echo "soak: $minutes min, sampled every $period s, $rate per port, lcores $lcores, prefix $prefix"
rm -f "$out/run.json"
"$bin" --no-huge -m 1024 --no-pci --lcores "$lcores" --file-prefix "$prefix" --log-level '*:error' -- \
	--sim 10G,dut=1,delay=20:10 --sim 10G,dut=0,delay=20:10 --map 1-2:0.0,1-2:1.0 \
	--rate "$rate" --imix --flows 1000 --duration "$seconds" --drain 1 \
	--json "$out/run.json" >"$out/run.out" 2>&1 &
spid=$!
python3 "$top/scripts/tel-sample.py" "$prefix" "$period" "$(awk -v s="$seconds" 'BEGIN { print s + 30 }')" \
	"$spid" >"$out/samples.jsonl" 2>"$out/sample.err" || true
rc=0
wait "$spid" || rc=$?
spid=
python3 - "$out" "$rc" "$period" <<'PY'
import json, sys

out, rc = sys.argv[1], int(sys.argv[2])
bad = []
passed = []
def fail(msg):
    bad.append(msg)
    print("FAIL - " + msg)
def ok(msg):
    passed.append(msg)
    print("ok   - " + msg)

samples = []
with open(f"{out}/samples.jsonl") as f:
    for line in f:
        s = json.loads(line)
        if s["totals"].get("running") == 1 and s.get("rss_kb") is not None:
            samples.append(s)
try:
    j = json.load(open(f"{out}/run.json"))
except (OSError, ValueError) as e:
    j = None
    fail(f"no valid JSON summary ({e}); the run's exit code {rc}")
if rc != 0:
    fail(f"the run exited with {rc}")
if j is not None:
    t = j["totals"]
    conserved = t["generated"] == t["tx_packets"] + t["dropped"] + t["backlog"]
    (ok if conserved and t["conserved"] and t["backlog"] == 0 and t["dropped"] == 0 else fail)(
        f"totals: generated {t['generated']} = tx {t['tx_packets']} + dropped {t['dropped']}"
        f" + backlog {t['backlog']} (conserved: {t['conserved']})")
    (ok if t["mempool_in_use"] == 0 else fail)(f"mbufs not back in their pools at the end: {t['mempool_in_use']}")
    st = j.get("streams", [])
    stx = sum(s["tx_packets"] for s in st)
    for s in st:
        good = (s["lost"] == 0 and s["duplicates"] == 0 and s["reordered"] == 0
                and s["tx_packets"] == s["rx_packets"] and s["tx_packets"] > 0)
        (ok if good else fail)(f"stream {s['stream']}: tx {s['tx_packets']} rx {s['rx_packets']}"
                               f" lost {s['lost']} dup {s['duplicates']} reordered {s['reordered']}")
    (ok if len(st) == 2 and stx == t["tx_packets"] else fail)(
        f"{len(st)} streams, their tx {stx} = the ports' tx {t['tx_packets']}")
    for p in j["ports"]:
        d = p.get("dut", {})
        drops = sum(d.get(k, 0) for k in ("dropped_capacity", "dropped_loss", "dropped_full", "dropped_link"))
        good = d.get("in") == p["tx_packets"] == d.get("delivered") and drops == 0 and d.get("held") == 0
        (ok if good else fail)(f"port {p['port']}: tx {p['tx_packets']}, DUT in {d.get('in')} delivered"
                               f" {d.get('delivered')} dropped {drops} held {d.get('held')};"
                               f" pacer skipped {p.get('pacer_skipped_us', 0) / 1e6:.3f} s"
                               f" (CPU shortfall, lag max {p.get('pacer_lag_max_us', 0) / 1e3:.1f} ms)")
n = len(samples)
if n < 6:
    fail(f"only {n} samples while running: too few to judge flatness")
else:
    g = [s["totals"]["generated"] for s in samples]
    tx = [s["totals"]["tx_packets"] for s in samples]
    mono = all(b >= a for a, b in zip(g, g[1:])) and all(b >= a for a, b in zip(tx, tx[1:]))
    # The longest time tx_packets stood still: a stuck run, or a worker
    # without CPU for that long (a soak under nice on a busy machine).
    still, t0 = 0.0, samples[0]["t"]
    for a, b in zip(samples, samples[1:]):
        if b["totals"]["tx_packets"] > a["totals"]["tx_packets"]:
            t0 = b["t"]
        still = max(still, b["t"] - t0)
    lim_still = max(60.0, 3 * float(sys.argv[3]))
    (ok if mono and still < lim_still else fail)(
        f"{n} samples: counters never went down ({mono}); tx_packets stood still for {still:.1f} s"
        f" at most (limit {lim_still:.0f} s)")
    warm = max(2, n // 10)
    rss = [s["rss_kb"] for s in samples]
    base, last, top = rss[warm - 1], rss[-1], max(rss[warm - 1:])
    lim = int(__import__("os").environ.get("SL_SOAK_RSS_KB", "1024"))
    (ok if top - base <= lim else fail)(
        f"RSS flat: {base} kB after the warm-up ({warm} samples), {last} kB at the end, highest {top} kB"
        f" (+{top - base} kB, limit {lim}); at the start {rss[0]} kB")
    # Telemetry reads the backlog's ring count, then the pools: not one
    # snapshot. A ring count read across a preemption can come out near
    # the ring's size while the backlog is nearly empty; such a sample
    # (more in the backlog than out of the pools) is dropped, not judged.
    mp = [s["totals"]["mempool_in_use"] - s["totals"]["backlog"] for s in samples[warm:]]
    body = [v for v in mp if v >= 0]
    third = len(body) // 3
    if third < 3:
        fail(f"mempool use flat: {len(body)} consistent samples after the warm-up"
             f" ({len(mp) - len(body)} dropped): too few to judge")
    else:
        f1, f3 = min(body[:third]), min(body[-third:])
        (ok if f3 <= f1 + 64 else fail)(
            f"mempool use flat: lowest {f1} in the first third, {f3} in the last ({third} samples each,"
            f" {len(mp) - len(body)} inconsistent dropped); highest {max(body)};"
            f" mean {sum(body) / len(body):.0f} mbufs out, less the backlog's")
print(f"soak: {len(passed)} passed, {len(bad)} failed")
sys.exit(1 if bad else 0)
PY
