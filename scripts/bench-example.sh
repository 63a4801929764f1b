#!/usr/bin/env bash
# bench-example.sh [OUTDIR] - the example benchmark report of docs/: an
# MLRsearch (NDR and PDR, latency at 0/10/50/90 % of the PDR) of the sim
# DUT (10G, capacity 2 Mpps, queue 1024, delay 20 us +- 5 us) at
# 64, 512 and 1518 bytes, then scripts/plot-bench.py on its JSON. Writes
# OUTDIR/{report.txt,bench.json,*.png} (default docs/bench-example) and
# prints the command it ran. Takes about 2 minutes; run it on a quiet
# machine (a busy CPU makes the generator fall short: docs/benchmarking.md).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
out=${1:-$top/docs/bench-example}
mkdir -p "$out"
cmd=("$bin" --no-huge -m 1024 --no-pci --lcores 0,1 --log-level '*:error'
	--file-prefix "slbex$$" --
	--sim 10G,dut=0,capacity=2Mpps,queue=1024,delay=20:5,seed=7 --drain 0.05
	--bench mlr,min=0.1Mpps,max=100%,width=0.01,trial=1,lat=2,sizes=64:512:1518
	--json "$out/bench.json")
trap 'rm -rf /var/run/dpdk/slbex$$' EXIT
{ printf "+"; printf " %q" "${cmd[@]}" | sed "s|$top/||g"; echo; } | tee "$out/report.txt"
"${cmd[@]}" >>"$out/report.txt" 2>&1
"$top/scripts/plot-bench.py" "$out/bench.json" "$out" | sed "s|$top/||g"
tail -8 "$out/report.txt"
