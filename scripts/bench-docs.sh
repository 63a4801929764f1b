#!/usr/bin/env bash
# bench-docs.sh [TARGET...] - the measurements the docs quote, as JSON in
# docs/bench/ (docs/bench/README.md says what each file holds).
#
# Each target runs the script that measures it and parses what it prints;
# the scripts' own output is not changed. Targets (what they run):
#   xmit          scripts/bench-xmit.sh SECS ROUNDS  -> docs/bench/xmit.json
#                 (and, with xmit-paired, docs/lltx.md's figures between its
#                 xmit-figures markers: the page's table is never written by hand)
#                 (SL_BD_XMIT="2 1": 2 s a run, 1 round, about 2 minutes)
#   xmit-paired   locked against spin, one queue shared by 2 pinned lcores
#                 (--lcores 0@0,1@0,2@1), on net_null and on the sim at 400G,
#                 the two alternated in each round -> docs/bench/xmit-paired.json
#                 (SL_BD_PAIRED="1 10": 1 s a run, 10 rounds, about 1 minute)
#   fuzz          scripts/fuzz.sh TARGET SECS for every fuzz target
#                 -> docs/bench/fuzz.json (SL_BD_FUZZ=10 s a target)
#   fuzz-campaign the same for 600 s a target under nice -n 19 (80 minutes)
#                 -> docs/bench/fuzz-campaign.json
#   soak          SL_SOAK_OUT=... nice -n 19 scripts/soak.sh 30 10 (30 minutes)
#                 -> docs/bench/soak.json
#   mutate        scripts/mutate.sh (every mutant; 10 to 40 minutes, builds a
#                 copy of the tree) -> docs/bench/mutate.json
# No target: the quick ones (xmit xmit-paired fuzz, about 5 minutes of two
# CPUs). "all": every target.
#
#   scripts/bench-docs.sh --log TARGET FILE [SOURCE]
# parses FILE, a saved output of that target's script, instead of running
# it (a soak or a mutation run made by hand); SOURCE says where the output
# came from (default "parsed from FILE"). What the log does not say can be
# given in SL_BD_DATE, SL_BD_COMMAND, SL_BD_COMMIT, SL_BD_EXIT, SL_BD_WALL_S
# and SL_BD_MACHINE (a JSON object); "regenerated" is then false.
#
# Environment: SLUICE_BIN (default build/app/sluice/sluice), SL_BD_OUT
# (default docs/bench), SL_BD_XMIT, SL_BD_PAIRED, SL_BD_FUZZ as above;
# fuzz.sh's own (SLUICE_FUZZ_NOBUILD=1 runs the fuzz binaries as built).
# A target whose script fails still writes its file, with "exit" and the
# figures it printed; the exit status is then 1.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
export SLUICE_BIN=$bin
out=${SL_BD_OUT:-$top/docs/bench}
quick=(xmit xmit-paired fuzz)
every=(xmit xmit-paired fuzz fuzz-campaign soak mutate)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

usage() {
	echo "usage: scripts/bench-docs.sh [TARGET...]   (TARGET: ${every[*]} all)" >&2
	echo "       scripts/bench-docs.sh --log TARGET FILE [SOURCE]" >&2
	exit 2
}

# write TARGET COMMAND RAW_OUTPUT EXIT WALL_S SOURCE LOAD_BEFORE [EXTRA_JSON]:
# the JSON file of TARGET, from the script's output.
write() {
	SL_BD_TOP=$top python3 - "$out" "$@" <<'PY'
import json, os, re, subprocess, sys, time

outdir, target, command, raw, rc, wall, source, load0 = sys.argv[1:9]
extra = json.loads(sys.argv[9]) if len(sys.argv) > 9 else {}
text = open(raw, errors="replace").read()
lines = text.split("\n")


def num(s):
    if s in ("-", "?", ""):
        return None
    v = float(s.replace(",", ""))
    return int(v) if v.is_integer() and "." not in s else v


def xmit():
    f = {"exclusive": {}, "shared": []}
    m = re.search(r"\((\d+) CPUs, ([\d.]+)s per run", text)
    if m:
        f["seconds_per_run"] = num(m.group(2))
    for l in lines:
        m = re.match(r"(plain rte_eth_tx_burst loop|sl_xmit, exclusive)\s+([\d.]+) Mpps"
                     r"(?:\s+\(runs: ([^)]*)\))?", l)
        if m:
            k = "plain" if m.group(1).startswith("plain") else "engine"
            f["exclusive"][k + "_mpps"] = float(m.group(2))
            if m.group(3) is not None:
                f["exclusive"][k + "_runs_mpps"] = [round(float(x), 2) for x in m.group(3).split()]
        m = re.match(r"ratio engine/plain\s+([\d.]+)", l)
        if m:
            f["exclusive"]["ratio_engine_plain"] = float(m.group(1))
        m = re.match(r"## B\..*median of (\d+) runs", l)
        if m:
            f["rounds"] = int(m.group(1))
        m = re.match(r"(sim\w+|null)\s+(\d+)((?:\s+(?:[\d.]+|-)){9})\s*$", l)
        if m:
            v = [num(x) for x in m.group(3).split()]
            keys = ["locked_mpps", "spin_mpps", "coarse_lltx_mpps", "coarse_locked_drv_mpps",
                    "fine_lltx_mpps", "fine_locked_drv_mpps", "ratio_locked_spin",
                    "ratio_coarse_lltx_locked_drv", "ratio_fine_lltx_locked_drv"]
            row = {"driver": m.group(1), "lcores": int(m.group(2))}
            row.update(zip(keys, v))
            f["shared"].append(row)
    f["note"] = ("Mpps = packets the driver took / run time; medians of 'rounds' runs, "
                 "the modes alternated; net_null's locked_drv is its locked (no driver lock), "
                 "and coarse_lltx is lock-free lltx there (--lltx on)")
    return f


def paired():
    return extra.pop("figures", {})


def fuzz():
    f = {"targets": {}}
    for l in lines:
        m = re.match(r"fuzz (\w+): (\d+) execs in (\d+) s \((\d+)/s\), cov (\S+), ft (\S+), "
                     r"corpus (\S+) inputs, crashes (\d+), hangs (\d+)", l)
        if m:
            f["targets"][m.group(1)] = {
                "execs": int(m.group(2)), "seconds": int(m.group(3)), "execs_per_s": int(m.group(4)),
                "cov_edges": num(m.group(5)), "ft_features": num(m.group(6)),
                "corpus_inputs": num(m.group(7)), "crashes": int(m.group(8)), "hangs": int(m.group(9))}
        m = re.match(r"fuzz (\w+): FOUND a problem \(exit (\d+)\): (\S+)", l)
        if m:
            f["targets"].setdefault(m.group(1), {})["found"] = m.group(3)
    f["note"] = ("cov: code edges reached; ft: features (edges with hit counts); corpus: inputs "
                 "kept (build-fuzz/corpus/TARGET, which grows from run to run); ASan + UBSan")
    return f


def soak():
    f = {"checks_passed": 0, "checks_failed": 0, "streams": [], "ports": []}
    for l in lines:
        m = re.match(r"soak: ([\d.]+) min, sampled every ([\d.]+) s, (\S+) per port", l)
        if m:
            f.update(minutes=float(m.group(1)), period_s=float(m.group(2)), rate_per_port=m.group(3))
        m = re.match(r"soak: (\d+) passed, (\d+) failed", l)
        if m:
            f["checks_passed"], f["checks_failed"] = int(m.group(1)), int(m.group(2))
        m = re.search(r"totals: generated (\d+) = tx (\d+) \+ dropped (\d+) \+ backlog (\d+)", l)
        if m:
            f["totals"] = dict(zip(["generated_packets", "tx_packets", "dropped_packets",
                                    "backlog_packets"], map(int, m.groups())))
        m = re.search(r"mbufs not back in their pools at the end: (\d+)", l)
        if m:
            f["mbufs_not_back"] = int(m.group(1))
        m = re.search(r"stream (\d+): tx (\d+) rx (\d+) lost (-?\d+) dup (\d+) reordered (\d+)", l)
        if m:
            f["streams"].append(dict(zip(["stream", "tx_packets", "rx_packets", "lost_packets",
                                          "duplicates", "reordered_packets"], map(int, m.groups()))))
        m = re.search(r"port (\d+): tx (\d+), DUT in (\d+) delivered (\d+) dropped (\d+) held (\d+);"
                      r" pacer skipped ([\d.]+) s .*lag max ([\d.]+) ms", l)
        if m:
            g = m.groups()
            f["ports"].append({"port": int(g[0]), "tx_packets": int(g[1]), "dut_in_packets": int(g[2]),
                               "dut_delivered_packets": int(g[3]), "dut_dropped_packets": int(g[4]),
                               "dut_held_packets": int(g[5]), "pacer_skipped_s": float(g[6]),
                               "pacer_lag_max_ms": float(g[7])})
        m = re.search(r"(\d+) samples: counters never went down \((\w+)\); tx_packets stood still"
                      r" for ([\d.]+) s", l)
        if m:
            f.update(samples=int(m.group(1)), counters_monotonic=m.group(2) == "True",
                     tx_still_max_s=float(m.group(3)))
        m = re.search(r"RSS flat: (\d+) kB after the warm-up.* (\d+) kB at the end, highest (\d+) kB"
                      r" \(\+(-?\d+) kB, limit (\d+)\); at the start (\d+) kB", l)
        if m:
            f["rss"] = dict(zip(["after_warmup_kb", "end_kb", "highest_kb", "growth_kb", "limit_kb",
                                 "start_kb"], map(int, m.groups())))
        m = re.search(r"mempool use flat: lowest (\d+) in the first third, (\d+) in the last.*"
                      r" highest (\d+); mean (\d+) mbufs out", l)
        if m:
            f["mempool"] = dict(zip(["floor_first_third_mbufs", "floor_last_third_mbufs",
                                     "highest_mbufs", "mean_mbufs"], map(int, m.groups())))
    return f


def mutate():
    f = {"mutants": {}, "weak": {}}
    weak = False
    for l in lines:
        if l.startswith("not counted"):
            weak = True
            continue
        m = re.match(r"(\d+) caught, (\d+) survived", l)
        if m:
            f["caught"], f["survived"] = int(m.group(1)), int(m.group(2))
            continue
        if weak:
            m = re.match(r"\s+(\S+)\s+(.*?) \((.*)\)$", l)
            if m:
                f["weak"][m.group(1)] = {"result": m.group(2), "guard": m.group(3)}
            continue
        m = re.match(r"(\S+)\s+caught by (.*)$", l)
        if m:
            f["mutants"][m.group(1)] = {"caught_by": [x.strip() for x in m.group(2).split(",")]}
            continue
        m = re.match(r"(\S+)\s+(survived|does not build)\s+<- (.*)$", l)
        if m:
            f["mutants"][m.group(1)] = {"caught_by": [], "result": m.group(2), "guard": m.group(3)}
    f["weak_listed_apart"] = len(f["weak"])
    return f


parse = {"xmit": xmit, "xmit-paired": paired, "fuzz": fuzz, "fuzz-campaign": fuzz,
         "soak": soak, "mutate": mutate}[target]


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=os.environ["SL_BD_TOP"]).stdout.strip()
    except OSError:
        return ""


model = ""
for l in open("/proc/cpuinfo"):
    if l.startswith("model name"):
        model = l.split(":", 1)[1].strip()
        break
loadavg = lambda s: [float(x) for x in s.split()[:3]]
logged = os.environ.get("SL_BD_LOGGED") == "1"
env = lambda k, d: os.environ.get(k) or d
doc = {
    "name": target,
    "date": env("SL_BD_DATE", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
    "source": source,
    "regenerated": not logged,
    "regenerate": "scripts/bench-docs.sh " + target,
    "command": env("SL_BD_COMMAND", command),
    "exit": json.loads(env("SL_BD_EXIT", "null")) if logged else int(rc),
    "wall_s": json.loads(env("SL_BD_WALL_S", "null")) if logged else int(wall),
    "commit": env("SL_BD_COMMIT", "" if logged else sh("git", "rev-parse", "--short=12", "HEAD")),
}
b = os.environ.get("SL_BD_BINARY")
if b and not logged and os.environ.get("SL_BD_BUILT"):
    # what ran: the commit above is the tree's, the binary may be older
    doc["binary"] = os.path.relpath(b, os.environ["SL_BD_TOP"])
    doc["binary_built"] = time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                        time.gmtime(int(os.environ["SL_BD_BUILT"])))
if logged:
    # The machine the log came from, as far as it is known (not this one).
    doc["machine"] = json.loads(env("SL_BD_MACHINE", '{"note": "not recorded"}'))
else:
    doc["machine"] = {"nproc": os.cpu_count(), "cpu_model": model, "kernel": os.uname().release,
                      "loadavg_before": loadavg(load0),
                      "loadavg_after": loadavg(open("/proc/loadavg").read())}
doc["figures"] = parse()
doc.update(extra)
path = os.path.join(outdir, target + ".json")
os.makedirs(outdir, exist_ok=True)
# one line per list of numbers, the rest indented
body = re.sub(r"\[\s*(-?[\d.]+(?:,\s*-?[\d.]+)*)\s*\]",
              lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
              json.dumps(doc, indent=1))
with open(path + ".tmp", "w") as fh:
    fh.write(body + "\n")
os.replace(path + ".tmp", path)
print("bench-docs: wrote " + os.path.relpath(path, os.environ["SL_BD_TOP"]))
PY
}

# paired SECS ROUNDS: locked against spin at N = 2 pinned, alternated; prints
# one line per run ("PORT MODE ROUND MPPS", 0 for a run that failed; then
# the exit status is 1). paired_json RAW SECS ROUNDS: the figures as JSON.
paired() {
	local secs=$1 rounds=$2 port mode r first failed=0
	for port in null sim400G; do
		for ((r = 0; r < rounds; r++)); do
			# who goes first alternates with the round
			if ((r % 2)); then first=(spin locked); else first=(locked spin); fi
			for mode in "${first[@]}"; do
				local lock=() dev=(--vdev net_null0) sim=()
				[ "$mode" = spin ] && lock=(--lock spin)
				[ "$port" = sim400G ] && { dev=(); sim=(--sim 400G); }
				rm -f "$tmp/p.json"
				"$bin" --no-huge -m 1024 --no-pci --lcores 0@0,1@0,2@1 "${dev[@]}" \
					--file-prefix slbd$$ --log-level '*:error' -- --duration "$secs" \
					--json "$tmp/p.json" "${sim[@]}" --map 1-2:0.0 --lltx off "${lock[@]}" \
					>/dev/null 2>&1
				local mpps=0
				if [ -s "$tmp/p.json" ]; then
					mpps=$(jq -r '.totals.tx_packets / .duration_s / 1e6' "$tmp/p.json")
				else
					failed=1
				fi
				echo "$port $mode $r $mpps"
				rm -rf "/var/run/dpdk/slbd$$"
			done
		done
	done
	return $failed
}

paired_json() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, math, statistics, sys
raw, secs, rounds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
secs = int(secs) if secs.is_integer() else secs
runs = {}
for l in open(raw):
    p = l.split()
    if len(p) == 4:
        runs.setdefault(p[0], {}).setdefault(p[1], {})[int(p[2])] = float(p[3])
ports = []
for port, by in runs.items():
    lk, sp = by.get("locked", {}), by.get("spin", {})
    rs = sorted(set(lk) & set(sp))
    ratios = [lk[r] / sp[r] for r in rs if lk[r] > 0 and sp[r] > 0]
    ports.append({
        "port": "net_null" if port == "null" else "sim 400G",
        "locked_runs_mpps": [round(lk[r], 2) for r in rs],
        "spin_runs_mpps": [round(sp[r], 2) for r in rs],
        "locked_median_mpps": round(statistics.median(lk.values()), 2) if lk else None,
        "spin_median_mpps": round(statistics.median(sp.values()), 2) if sp else None,
        "ratio_locked_spin_geomean": round(math.exp(sum(map(math.log, ratios)) / len(ratios)), 3)
        if ratios else None,
        "ratio_locked_spin_median": round(statistics.median(ratios), 3) if ratios else None,
        "rounds_locked_won": sum(1 for x in ratios if x > 1),
        "rounds": len(ratios)})
print(json.dumps({"figures": {
    "lcores": "0@0,1@0,2@1", "queue_shared_by": 2, "seconds_per_run": secs, "rounds": rounds,
    "ports": ports,
    "note": "each round runs locked (--lltx off) and spin (--lock spin), the order alternating "
            "with the round; a round's ratio is its locked Mpps over its spin Mpps"}}))
PY
}

# one TARGET: run it (or parse --log FILE), then write its JSON.
one() {
	local t=$1 log=${2:-} source=${3:-} cmd rc=0 t0 load0 extra='' binary=$bin built s r pre
	local raw=$tmp/$t.out
	load0=$(cat /proc/loadavg)
	# when the binary was built, read before the run (a rebuild may follow)
	built=$(stat -c %Y "$binary" 2>/dev/null)
	t0=$(date +%s)
	case $t in
	xmit)
		read -r s r <<<"${SL_BD_XMIT:-2 1}"
		cmd="scripts/bench-xmit.sh $s $r" ;;
	xmit-paired)
		read -r s r <<<"${SL_BD_PAIRED:-1 10}"
		cmd="bench-docs.sh's own loop, $r rounds of: sluice --no-huge -m 1024 --no-pci --lcores 0@0,1@0,2@1 [--vdev net_null0] -- --duration $s [--sim 400G] --map 1-2:0.0 --lltx off [--lock spin]" ;;
	fuzz)
		s=${SL_BD_FUZZ:-10} pre= ;;&
	fuzz-campaign)
		s=600 pre="nice -n 19 " ;;&
	fuzz | fuzz-campaign)
		[ "${SLUICE_FUZZ_NOBUILD:-0}" != 1 ] || pre="SLUICE_FUZZ_NOBUILD=1 $pre"
		cmd="for t in \$(scripts/fuzz.sh --list); do ${pre}scripts/fuzz.sh \$t $s; done"
		binary=${SLUICE_FUZZ_BUILD:-$top/build-fuzz}/app/fuzz/fuzz-rx ;;
	soak)
		cmd="SL_SOAK_OUT=DIR nice -n 19 scripts/soak.sh 30 10" ;;
	mutate)
		cmd="scripts/mutate.sh"
		binary='' ;; # it builds its own copy
	*)
		echo "bench-docs: unknown target '$t'" >&2
		usage ;;
	esac
	if [ -n "$log" ]; then
		[ "$t" != xmit-paired ] || { echo "bench-docs: xmit-paired has no log to parse" >&2; exit 2; }
		cp "$log" "$raw" || exit 2
		source=${source:-parsed from $log}
		export SL_BD_LOGGED=1
	else
		echo "bench-docs: $t: $cmd" >&2
		source="regenerated by scripts/bench-docs.sh $t"
		case $t in
		xmit)
			"$top/scripts/bench-xmit.sh" "$s" "$r" >"$raw" 2>&1 || rc=$? ;;
		xmit-paired)
			paired "$s" "$r" >"$raw" 2>&1 || rc=$?
			extra=$(paired_json "$raw" "$s" "$r") ;;
		fuzz | fuzz-campaign)
			local nice=()
			[ "$t" = fuzz-campaign ] && nice=(nice -n 19)
			: >"$raw"
			for f in $("$top/scripts/fuzz.sh" --list); do
				"${nice[@]}" "$top/scripts/fuzz.sh" "$f" "$s" >>"$raw" 2>&1 || rc=1
			done ;;
		soak)
			mkdir -p "$tmp/soak"
			SL_SOAK_OUT=$tmp/soak nice -n 19 "$top/scripts/soak.sh" 30 10 >"$raw" 2>&1 || rc=$? ;;
		mutate)
			"$top/scripts/mutate.sh" >"$raw" 2>&1 || rc=$? ;;
		esac
		cat "$raw" >&2
	fi
	[ "$rc" -eq 0 ] || status=1
	SL_BD_BINARY=$binary SL_BD_BUILT=${built:-} write "$t" "$cmd" "$raw" "$rc" "$(($(date +%s) - t0))" "$source" "$load0" ${extra:+"$extra"} ||
		status=1
}

# lltx_table: docs/lltx.md's figures (between its xmit-figures markers),
# written from docs/bench/xmit.json and xmit-paired.json, never by hand.
lltx_table() {
	local doc=$top/docs/lltx.md
	[ -f "$out/xmit.json" ] && [ -f "$doc" ] || return 0
	python3 - "$out/xmit.json" "$out/xmit-paired.json" "$doc" <<'PY' || status=1
import json, os, sys
x = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2])) if os.path.exists(sys.argv[2]) else None
doc = sys.argv[3]
f = x["figures"]
L = []
ex = f.get("exclusive", {})
L.append(f"Figures of {x['date'][:10]} (`{x['command']}`, commit {x['commit']}, "
         f"{x['machine'].get('nproc', '?')} CPUs; load average before "
         f"{x['machine'].get('loadavg_before', ['?'])[0]}):")
L.append("")
L.append(f"- exclusive queue, net_null: engine {ex.get('engine_mpps', '?')} Mpps, plain "
         f"`rte_eth_tx_burst()` {ex.get('plain_mpps', '?')} Mpps, engine/plain "
         f"**{ex.get('ratio_engine_plain', '?')}**")
L.append("")
L.append("| driver | N | locked | spin | locked/spin | lltx/locked+drv coarse | fine |")
L.append("|---|---|---|---|---|---|---|")
for r in f.get("shared", []):
    def g(k):
        v = r.get(k)
        return "-" if v is None else v
    L.append(f"| {r['driver']} | {r['lcores']} | {g('locked_mpps')} | {g('spin_mpps')} | "
             f"**{g('ratio_locked_spin')}** | {g('ratio_coarse_lltx_locked_drv')} | "
             f"{g('ratio_fine_lltx_locked_drv')} |")
if p is not None:
    L.append("")
    pf = p["figures"]
    for q in pf.get("ports", []):
        L.append(f"- paired, {q['port']}, N = {pf['queue_shared_by']} "
                 f"(`--lcores {pf['lcores']}`, {pf['rounds']} rounds of "
                 f"{pf['seconds_per_run']} s, {p['date'][:10]}): locked/spin geometric mean "
                 f"**{q['ratio_locked_spin_geomean']}**, locked won {q['rounds_locked_won']} of "
                 f"{q['rounds']} (medians {q['locked_median_mpps']} and {q['spin_median_mpps']} Mpps)")
block = "\n".join(L)
text = open(doc).read()
b, e = "<!-- xmit-figures:begin (scripts/bench-docs.sh writes this) -->", "<!-- xmit-figures:end -->"
if b not in text or e not in text:
    sys.exit("bench-docs: docs/lltx.md has no xmit-figures markers")
head, rest = text.split(b, 1)
_, tail = rest.split(e, 1)
open(doc, "w").write(head + b + "\n" + block + "\n" + e + tail)
PY
}

if [ "${1:-}" = --log ]; then
	if [ $# -lt 3 ] || [ $# -gt 4 ]; then usage; fi
	[ -r "$3" ] || { echo "bench-docs: cannot read $3" >&2; exit 2; }
	one "$2" "$3" "${4:-}"
	exit $status
fi
case "${1:-}" in -h | --help) usage ;; esac
[ -x "$bin" ] || { echo "bench-docs: no sluice at $bin: build first (scripts/setup.sh)" >&2; exit 1; }
targets=("$@")
[ $# -gt 0 ] || targets=("${quick[@]}")
[ "${targets[*]}" != all ] || targets=("${every[@]}")
for t in "${targets[@]}"; do
	[[ " ${every[*]} " == *" $t "* ]] || { echo "bench-docs: unknown target '$t'" >&2; usage; }
done
for t in "${targets[@]}"; do
	one "$t"
done
case " ${targets[*]} " in *" xmit "* | *" xmit-paired "*) lltx_table ;; esac
exit $status
