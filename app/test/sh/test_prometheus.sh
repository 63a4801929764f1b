#!/usr/bin/env bash
# test_prometheus.sh - a real Prometheus server (Debian's prometheus) scrapes
# Sluice's --metrics every second on loopback, with the scrape configuration
# of docs/watching.md (only the ports changed: free ones are picked), a temp
# storage dir and a free port of its own; Sluice sends 1 Mpps on net_null
# (started at its prompt, stopped once Prometheus has 16 s of samples: at most
# 90 s). Then Prometheus's HTTP API is asked for
# rate(sluice_tx_packets_total[15s]) during the run: it must be within 2 % of
# the 1 Mpps Sluice was set to (Prometheus times a sample at the scrape's
# start: a scrape answered late on a loaded machine shifts it, hence 15 s). The target must be up with no scrape error.
# Prometheus is always stopped (trap); no process of it is left.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
rate=1000000
prefix=slprom$$
prefixes+=("$prefix")
spid= ppid=
stop_all() {
	exec 7>&- 2>/dev/null
	[ -n "$ppid" ] && kill "$ppid" 2>/dev/null && wait "$ppid" 2>/dev/null
	[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
	[ -n "${SL_DEBUG:-}" ] || cleanup
}
trap stop_all EXIT
[ -n "${SL_DEBUG:-}" ] && echo "T=$T"

skip() {
	echo "SKIP - $*"
	echo "test_prometheus: 0 passed, 0 failed, 1 skipped"
	exit 0
}
command -v prometheus >/dev/null ||
	skip "prometheus is not installed (scripts/setup.sh installs Debian's prometheus)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
api() { curl -s --max-time 5 "http://127.0.0.1:$pport/api/v1/$1" "${@:2}"; }

# The scrape configuration as docs/watching.md shows it (between its markers).
sed -n '/^# prometheus.yml (docs\/watching.md)/,/^```/p' "$top/docs/watching.md" | sed '$d' >"$T/doc.yml"
grep -q "127.0.0.1:9100" "$T/doc.yml" || { ko "no scrape configuration found in docs/watching.md"; }

mkfifo "$T/fifo"
timeout 150 "$bin" --no-huge -m 256 --no-pci -l 0-1 --vdev net_null0 --file-prefix "$prefix" \
	--log-level '*:error' -- -i --rate 1Mpps --duration 120 --metrics 0 --json "$T/run.json" \
	<"$T/fifo" >"$T/run.out" 2>&1 &
spid=$!
exec 7>"$T/fifo"
echo start >&7
for _ in $(seq 100); do grep -q "^metrics: http" "$T/run.out" && break; sleep 0.1; done
sport=$(grep -o "^metrics: http://127.0.0.1:[0-9]*" "$T/run.out" | cut -d: -f4)
[ -n "$sport" ] || { ko "Sluice printed no metrics URL: $(head -3 "$T/run.out")"; exit 1; }

pport=$(free_port)
sed "s/127.0.0.1:9100/127.0.0.1:$sport/" "$T/doc.yml" >"$T/prometheus.yml"
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$T/prom.out" 2>&1 &
ppid=$!
ready=
for _ in $(seq 100); do
	curl -s --max-time 1 "http://127.0.0.1:$pport/-/ready" 2>/dev/null | grep -qi ready && { ready=1; break; }
	kill -0 "$ppid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$ready" ] || skip "prometheus cannot run here: $(tail -2 "$T/prom.out")"
ok "prometheus $(prometheus --version 2>&1 | awk 'NR==1 {print $3}') ready on 127.0.0.1:$pport, scraping 127.0.0.1:$sport every 1 s"

# Enough samples for a 15 s window (at most 90 s); the target's state meanwhile.
n=0
end=$((SECONDS + 90))
while [ $SECONDS -lt $end ]; do
	n=$(api query --data-urlencode 'query=count_over_time(sluice_tx_packets_total{port="0"}[16s])' |
		jq -r '.data.result[0].value[1] // 0' 2>/dev/null)
	[ "${n:-0}" -ge 16 ] 2>/dev/null && break
	api targets | jq -c '.data.activeTargets[0] | [.health, .lastError, .lastScrapeDuration]' \
		>>"$T/targets.log" 2>/dev/null
	sleep 0.5
done
sleep 1
res=$(api query --data-urlencode 'query=rate(sluice_tx_packets_total{port="0"}[15s])')
got=$(jq -r '.data.result[0].value[1] // "none"' <<<"$res" 2>/dev/null)
running=$(api query --data-urlencode 'query=sluice_running' | jq -r '.data.result[0].value[1] // "none"')
if [ "$running" = 1 ] && awk -v g="$got" -v r=$rate 'BEGIN { d = (g - r) / r; exit !(g != "none" && d > -0.02 && d < 0.02) }'; then
	ok "rate(sluice_tx_packets_total[15s]) = $got during the run ($n samples in 16 s): within 2 % of $rate"
else
	# Judged after the run: a generator that fell short (the pacer let time
	# go, its CPU busy: Sluice's own pacer_skipped_us) is not Prometheus's error.
	rate_ko="rate(sluice_tx_packets_total[15s]) = '$got' (running '$running', $n samples), want $rate within 2 %: $res; the target meanwhile: $(sort "$T/targets.log" 2>/dev/null | uniq -c | head -5 | tr '\n' ' ')"
	# the samples behind it: value and Prometheus's time (a late scrape shows as a gap)
	api query --data-urlencode 'query=sluice_tx_packets_total{port="0"}[16s]' |
		jq -c '[.data.result[0].values[] | [(.[0] * 1000 | floor) % 100000, .[1]]]'
fi
api targets | jq -e '.data.activeTargets[0] | .health == "up" and .lastError == ""' >/dev/null &&
	ok "the target is up, no scrape error ($(api targets | jq -r '.data.activeTargets[0].scrapeUrl'))" ||
	ko "target: $(api targets | jq -c '.data.activeTargets[0] | {health, lastError}')"
# Every family with its metadata (HELP, TYPE, UNIT) reached Prometheus.
meta=$(api metadata -G --data-urlencode 'metric=sluice_tx_bytes' | jq -c '.data.sluice_tx_bytes[0]')
[ "$(jq -r '.type + " " + .unit' <<<"$meta")" = "counter bytes" ] &&
	ok "metadata of sluice_tx_bytes: $meta" || ko "metadata of sluice_tx_bytes: $meta"

printf 'stop\nquit\n' >&7
exec 7>&-
wait "$spid"
rc=$?
spid=
kill "$ppid" 2>/dev/null
wait "$ppid" 2>/dev/null
kill -0 "$ppid" 2>/dev/null && ko "prometheus $ppid still runs" || ok "prometheus stopped"
ppid=
pps=$(jq .totals.tx_pps "$T/run.json")
if [ -n "${rate_ko:-}" ]; then
	skipped=$(jq '.ports[0].pacer_skipped_us' "$T/run.json" 2>/dev/null)
	if awk -v s="${skipped:-0}" -v d="$(jq .duration_s "$T/run.json" 2>/dev/null)" \
		'BEGIN { exit !(d > 0 && s / 1e6 / d > 0.01) }'; then
		echo "SKIP - the generator fell short of $rate (pacer_skipped_us $skipped over the run: its CPU), so Prometheus's rate cannot be judged against it: $rate_ko"
	else
		ko "$rate_ko (pacer_skipped_us ${skipped:-?})"
	fi
fi
[ "$rc" = 0 ] && jq -e .totals.conserved "$T/run.json" >/dev/null &&
	ok "Sluice: exit 0, conserved, its own figure ${pps} pps" || ko "Sluice: exit $rc"

echo "test_prometheus: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
