#!/usr/bin/python3
"""plot-bench.py - turn a Sluice benchmark JSON (--bench / bench ... --json FILE)
into PNGs: NDR/PDR vs frame size with the line-rate curve, loss ratio vs
offered load (every trial), latency percentiles vs load, and the latency
distribution as a percentile plot on a log axis (as HdrHistogram plots).

    scripts/plot-bench.py bench.json [OUTDIR]

Needs python3-matplotlib (Debian; scripts/setup.sh installs it) and runs with
Debian's /usr/bin/python3, which sees it.
"""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    os.makedirs(out, exist_ok=True)
    b = doc.get("bench")
    if not b:
        sys.exit("plot-bench: %s has no bench object" % sys.argv[1])
    res = b["results"]
    method = b["method"]
    written = []

    # 1. NDR/PDR vs frame size, with the line rate.
    num = [r for r in res if isinstance(r["size"], int)]
    if num:
        fig, ax = plt.subplots()
        xs = [r["size"] for r in num]
        # A marker too: with one size there is no line to draw.
        ax.plot(xs, [r["line_pps"] / 1e6 for r in num], "k--", marker="_", markersize=16,
                label="line rate")
        for key, lab in (("ndr", "NDR"), ("pdr", "PDR")):
            if key + "_pps" in num[0]:
                ax.plot(xs, [r[key + "_pps"] / 1e6 for r in num], "o-", label=lab)
        ax.set_xlabel("frame size (bytes, with FCS)")
        ax.set_ylabel("Mpps (aggregate)")
        ax.set_title("%s: throughput vs frame size" % method)
        print("throughput.png: %d size(s): %s" % (len(num), " ".join(str(x) for x in xs)))
        ax.legend()
        ax.grid(True, alpha=.3)
        written.append(save(fig, out, "throughput.png"))

    # 2. Loss ratio vs the load really offered, every search trial, per size.
    fig, ax = plt.subplots()
    nt = [t for t in b["trials"] if t["kind"] != "latency"]
    for r in res:
        ts = [t for t in nt if str(t["size"]) == str(r["size"]) and not t.get("interrupted")]
        full = [t for t in ts if not t.get("short")]
        short = [t for t in ts if t.get("short")]
        if full:
            ax.scatter([t["tx_pps"] / 1e6 for t in full],
                       [max(t["loss_ratio"], 1e-9) for t in full],
                       label="size %s" % r["size"], s=14)
        if short:
            ax.scatter([t["tx_pps"] / 1e6 for t in short],
                       [max(t["loss_ratio"], 1e-9) for t in short], s=14, facecolors="none",
                       edgecolors="grey",
                       label="size %s, short (offered less than asked)" % r["size"])
    ax.set_yscale("log")
    ax.set_xlabel("load really offered (Mpps)")
    ax.set_ylabel("loss ratio (1e-9 = none)")
    ax.set_title("%s: every trial" % method)
    print("loss-vs-load.png: %d search trial(s), %d short" %
          (len(nt), sum(1 for t in nt if t.get("short"))))
    legend_or_note(ax, "no search trial to plot")
    ax.grid(True, alpha=.3)
    written.append(save(fig, out, "loss-vs-load.png"))

    # 3. Latency percentiles vs load.
    fig, ax = plt.subplots()
    for r in res:
        la = r.get("latency_at", {})
        pts = sorted((v["load_pps"], v["latency_ns"]) for v in la.values())
        if not pts:
            continue
        for q, st in (("p50", "-"), ("p99", "--"), ("max", ":")):
            ax.plot([p[0] / 1e6 for p in pts], [p[1][q] / 1e3 for p in pts], st, marker="o",
                    label="%s %s" % (r["size"], q))
    ax.set_yscale("log")
    ax.set_xlabel("load (Mpps)")
    ax.set_ylabel("latency (us)")
    ax.set_title("latency at 0/10/50/90 % of the result")
    legend_or_note(ax, "no latency trial to plot")
    ax.grid(True, alpha=.3)
    written.append(save(fig, out, "latency-vs-load.png"))

    # 4. Latency distribution: percentile plot on a log axis, from the last
    # run's histogram (the last latency trial) and the per-load percentiles.
    fig, ax = plt.subplots()
    for s in doc.get("streams", []):
        bk = s.get("latency_ns", {}).get("buckets")
        if not bk:
            continue
        total = sum(c for _, c in bk)
        acc, xs, ys = 0, [], []
        for up, c in bk:
            acc += c
            frac = min(acc / total, 1 - 1e-7)
            xs.append(1 / (1 - frac))
            ys.append(up / 1e3)
        ax.plot(xs, ys, label="stream %s (last trial)" % s["stream"])
    ax.set_xscale("log")
    ax.set_xticks([2, 10, 100, 1000, 10000, 100000])
    ax.set_xticklabels(["50%", "90%", "99%", "99.9%", "99.99%", "99.999%"])
    ax.set_xlabel("percentile")
    ax.set_ylabel("latency (us)")
    ax.set_title("latency distribution")
    legend_or_note(ax, "no latency histogram to plot")
    ax.grid(True, alpha=.3)
    written.append(save(fig, out, "latency-distribution.png"))
    print("\n".join(written))


def legend_or_note(ax, note):
    """A legend, or (nothing plotted) the note, on the plot and printed."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")
        return
    ax.text(0.5, 0.5, note, ha="center", va="center", transform=ax.transAxes)
    print("%s: %s" % (ax.get_title(), note))


def save(fig, out, name):
    p = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p


if __name__ == "__main__":
    main()
