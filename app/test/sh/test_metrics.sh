#!/usr/bin/env bash
# test_metrics.sh - the Prometheus endpoint (--metrics [ADDR:]PORT), on
# loopback only, every client loop bounded:
#  (a) bad --metrics values are exit 2 with one line; an address in use or
#      not on this machine is exit 1 with what to do, and nothing is left;
#  (b) during a run: GET /metrics answers the text format (valid: HELP and
#      TYPE before each family, counters end in _total) or OpenMetrics when
#      asked (UNIT lines, # EOF); every counter table is there;
#  (c) anything else is refused and the server goes on: other paths 404,
#      other methods 405, a line without a version 400, HTTP/2's preface
#      505, bytes that are no request line at all closed at the 5 s
#      deadline, a 9 KB head 431, a NUL byte in a header ends its value
#      (libmicrohttpd's reading); a 2 MB body never read still gets its 405;
#  (d) a client that sends half a request and stalls is closed at the 5 s
#      deadline while others are answered at once; 300 idle connections
#      (more than the 256 slots) do not lock out a real client; 200 clients
#      at once all get their answer;
#  (e) after all that the run is conserved, and the metrics read after the
#      run equal the JSON summary exactly (every port and queue counter);
#      show metrics prints the same; quit closes the port;
#  (f) the receive side's metrics equal the JSON;
#  (g) out of file descriptors, a real client is still answered and the
#      main lcore's thread, which serves it, does not spin.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
eal=(--no-huge -m 256 --no-pci -l 0-1 --vdev net_null0 --log-level '*:error')
pfx() { n=$((n + 1)); prefix=slm$$x$n; prefixes+=("$prefix"); }
py() { timeout 60 python3 "$T/cli.py" "$@"; }

# A small HTTP client: raw bytes in, the status code (or what happened) out.
cat >"$T/cli.py" <<'PY'
import os, re, socket, sys, threading, time
port = int(sys.argv[1])
what = sys.argv[2]

def conn():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s

def ask(raw, s=None):
    s = s or conn()
    if raw:
        s.sendall(raw)
    data = b""
    while True:
        try:
            b = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not b:
            break
        data += b
    s.close()
    m = re.match(rb"HTTP/1\.1 (\d{3})", data)
    return (m.group(1).decode() if m else "none"), data

GET = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
if what == "raw":        # argv[3]: the request, Python escapes allowed
    print(ask(sys.argv[3].encode().decode("unicode_escape").encode("latin-1"))[0])
elif what == "garbage":
    print(ask(os.urandom(300) + b"\n\r\n\r\n")[0])
elif what == "bighead":
    print(ask(b"GET /metrics HTTP/1.1\r\nX-Pad: " + b"a" * 9000 + b"\r\n\r\n")[0])
elif what == "body":     # argv[3]: Accept header or "-"; the whole answer to stdout
    acc = b"" if sys.argv[3] == "-" else b"Accept: " + sys.argv[3].encode() + b"\r\n"
    code, data = ask(b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + acc + b"\r\n")
    sys.stdout.buffer.write(data)
elif what == "stall":
    # half a request, then nothing: others are answered meanwhile; we are
    # closed at the deadline (5 s), not left open.
    s = conn()
    s.sendall(b"GET /met")
    t0 = time.monotonic()
    end = {}
    def watch():  # when the server closes it, seen as it happens
        s.settimeout(15)
        try:
            end["data"] = s.recv(100)
        except Exception as e:
            end["data"] = repr(e).encode()
        end["t"] = time.monotonic() - t0
    w = threading.Thread(target=watch)
    w.start()
    slow = 0
    for _ in range(20):
        t = time.monotonic()
        code, _ = ask(GET)
        if code != "200" or time.monotonic() - t > 1.0:
            slow += 1
    w.join(20)
    print(slow, round(end.get("t", -1), 1), end.get("data", b"open")[:12].decode("latin-1").split("\r")[0] or "EOF")
elif what == "idle":
    # 300 connections that say nothing (more than the server's 256 slots),
    # then 10 real requests: all answered.
    idle = [conn() for _ in range(300)]
    time.sleep(0.5)
    codes = [ask(GET)[0] for _ in range(10)]
    for s in idle:
        s.close()
    print(codes.count("200"))
elif what == "bigbody":
    # a 2 MB body the server never reads: the 405 still arrives (sendall may
    # fail when the server closes; the answer is read after it).
    s = conn()
    try:
        s.sendall(b"POST /metrics HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n" + b"x" * 2000000)
    except OSError:
        pass
    print(ask(b"", s)[0])
elif what == "flood":
    # argv[3] idle connections held argv[4] s, then one real request: its code.
    idle = []
    for _ in range(int(sys.argv[3])):
        try:
            idle.append(conn())
        except OSError:
            break
    time.sleep(float(sys.argv[4]))
    print(len(idle), ask(GET)[0])
    for s in idle:
        s.close()
elif what == "many":
    # 200 clients at once, each a whole request.
    socks = [conn() for _ in range(200)]
    res = []
    def one(s):
        res.append(ask(GET, s)[0])
    th = [threading.Thread(target=one, args=(s,)) for s in socks]
    for t in th:
        t.start()
    for t in th:
        t.join(30)
    print(res.count("200"), len(res))
PY

# A text-format / OpenMetrics check: families declared before their samples,
# counters' samples end in _total, values are numbers; prints the families.
cat >"$T/lint.py" <<'PY'
import re, sys
om = sys.argv[2] == "om"
txt = open(sys.argv[1], encoding="utf-8", newline="").read()
body = txt.split("\r\n\r\n", 1)[1] if "\r\n\r\n" in txt else txt
fam, typ, err = None, {}, []
for ln in body.splitlines():
    if ln.startswith("# HELP ") or ln.startswith("# UNIT "):
        name = ln.split()[2]
        if ln.startswith("# UNIT ") and not name.endswith("_" + ln.split()[3]):
            err.append("unit not in name: " + ln)
        continue
    if ln.startswith("# TYPE "):
        _, _, name, t = ln.split()
        fam = name
        typ[name] = t
        if not om and t == "counter" and not name.endswith("_total"):
            err.append("counter without _total: " + ln)
        continue
    if ln == "# EOF":
        continue
    # a counter's sample carries the time its value was read (ms; OpenMetrics: s)
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9]+(?:\.[0-9]+)?)( [0-9]+(\.[0-9]{3})?)?$', ln)
    if not m:
        err.append("bad line: " + ln)
        continue
    want = fam + ("_total" if om and typ.get(fam) == "counter" else "")
    if m.group(1) != want:
        err.append(f"sample {m.group(1)} outside its family {fam}")
    if (m.group(4) is not None) != (typ.get(fam) == "counter") or \
            (m.group(4) is not None and (m.group(5) is not None) != om):
        err.append("a counter without its read time, a gauge with one, or the wrong unit: " + ln)
if om and not body.endswith("# EOF\n"):
    err.append("no # EOF at the end")
print(len(typ), len(err), (err + ["-"])[0])
PY

# (a) Refused values.
for v in abc 70000 1.2.3:9100 ::1:9100 '[::1' 127.0.0.1: ' 9100' 9100x; do
	pfx
	timeout 30 "$bin" "${eal[@]}" --file-prefix "$prefix" -- --metrics "$v" --count 10 \
		>"$T/a.out" 2>&1
	rc=$?
	if [ "$rc" = 2 ] && [ "$(grep -c . "$T/a.out")" = 1 ] && grep -q "^sluice: --metrics: '" "$T/a.out"; then
		ok "(a) --metrics '$v': exit 2, one line"
	else
		ko "(a) --metrics '$v': exit $rc: $(head -3 "$T/a.out")"
	fi
done
# A port in use (held by this test's own listener), and an address not ours.
python3 -c 'import socket,sys,time
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(1); print(s.getsockname()[1], flush=True); time.sleep(30)' >"$T/held" &
holder=$!
for _ in $(seq 50); do [ -s "$T/held" ] && break; sleep 0.1; done
held=$(cat "$T/held")
pfx
timeout 30 "$bin" "${eal[@]}" --file-prefix "$prefix" -- --metrics "$held" --count 10 >"$T/a.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "in use (choose another port)" "$T/a.out" && ! grep -q "sluice summary" "$T/a.out"; then
	ok "(a) --metrics $held (in use): exit 1, $(grep -o 'cannot listen.*' "$T/a.out"), no run"
else
	ko "(a) --metrics $held (in use): exit $rc: $(tail -2 "$T/a.out")"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
pfx
timeout 30 "$bin" "${eal[@]}" --file-prefix "$prefix" -- --metrics 192.0.2.1:9100 --count 10 >"$T/a.out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "not an address of this machine" "$T/a.out" &&
	ok "(a) --metrics 192.0.2.1:9100: exit 1, $(grep -o 'cannot listen.*' "$T/a.out")" ||
	ko "(a) --metrics 192.0.2.1:9100: exit $rc: $(tail -2 "$T/a.out")"

# (b)-(e) One prompt session: a run at 500 kpps while the clients work, stopped
# at the prompt once they are done (bounded at 120 s by its --duration).
pfx
mkfifo "$T/fifo"
timeout 120 "$bin" "${eal[@]}" --file-prefix "$prefix" -- -i --sign on --metrics 0 --json "$T/run.json" \
	<"$T/fifo" >"$T/run.out" 2>&1 &
pid=$!
exec 7>"$T/fifo"
printf 'set rate all 500kpps\nset duration 120\nstart\n' >&7
for _ in $(seq 100); do grep -q "^metrics: http://127.0.0.1:" "$T/run.out" && break; sleep 0.1; done
port=$(grep -o "^metrics: http://127.0.0.1:[0-9]*" "$T/run.out" | cut -d: -f4)
if [ -z "$port" ]; then
	ko "no metrics URL printed: $(head -3 "$T/run.out")"
	echo quit >&7
	exec 7>&-
	wait "$pid"
	echo "test_metrics: $pass passed, $fail failed"
	exit 1
fi
ok "(b) the URL is printed: $(grep "^metrics:" "$T/run.out")"
sleep 0.5

py "$port" body - >"$T/text" 2>&1
read -r nfam nerr first <<<"$(python3 "$T/lint.py" "$T/text" text)"
# 40: the run's 2, the ports' 2, 5 port, 12 queue and 8 stream counters (a stream that
# arrives nowhere: net_null does not receive), the 5 of its flow (the port's default
# one; its receive-side families have no sample, and are not written), and the pacers'
# 3 per port and 3 per queue (asked, let_go_frames, let_go_seconds)
grep -q "^Content-Type: text/plain; version=0.0.4" "$T/text" && [ "$nerr" = 0 ] && [ "$nfam" = 40 ] &&
	ok "(b) text format 0.0.4: $nfam families, valid" || ko "(b) text format: $nfam families, $nerr errors: $first"
if command -v promtool >/dev/null; then
	sed '1,/^\r$/d' "$T/text" | promtool check metrics >"$T/promtool" 2>&1 &&
		ok "(b) promtool check metrics: no complaint" || ko "(b) promtool: $(head -3 "$T/promtool")"
fi
py "$port" body 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' >"$T/om" 2>&1
read -r nfam nerr first <<<"$(python3 "$T/lint.py" "$T/om" om)"
grep -q "^Content-Type: application/openmetrics-text; version=1.0.0" "$T/om" && [ "$nerr" = 0 ] &&
	grep -q "^# UNIT sluice_tx_bytes bytes" "$T/om" &&
	ok "(b) OpenMetrics when asked: $nfam families with # UNIT, ends in # EOF" ||
	ko "(b) OpenMetrics: $nerr errors: $first"
miss=
for m in sluice_running sluice_runs_total sluice_port_info sluice_tx_packets_total \
	sluice_generated_packets_total sluice_backlog_packets sluice_txq_tx_packets_total \
	sluice_txq_busy_calls_total sluice_txq_collisions_total sluice_txq_requeued_packets_total \
	sluice_txq_backlog_packets sluice_txq_dropped_packets_total sluice_txq_dead_loops_total \
	sluice_txq_waited_total sluice_txq_deferred_total; do
	grep -q "^$m[{ ]" "$T/text" || miss="$miss $m"
done
[ -z "$miss" ] && ok "(b) port and queue families all there" || ko "(b) missing:$miss"

# (c) Refusals, and the server answers on.
for r in "GET / HTTP/1.1\r\n\r\n=404" "GET /metricsx HTTP/1.1\r\n\r\n=404" \
	"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n=405" "HEAD /metrics HTTP/1.1\r\n\r\n=405" \
	"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n=505" "GET /metrics\r\n\r\n=400" "\x00\x01\x02\r\n\r\n=none" \
	"GET /metrics HTTP/1.1\r\nX-A: a\x00b\r\n\r\n=200" "GET /metrics?x=1 HTTP/1.0\r\n\r\n=200" \
	"POST /metrics HTTP/1.1\r\nContent-Length: 4\r\n\r\n\x00\x01\x02\x03=405"; do
	want=${r##*=}
	got=$(py "$port" raw "${r%=*}")
	[ "$got" = "$want" ] && ok "(c) '${r%%\\r*}': $got" || ko "(c) '${r%%\\r*}': $got, want $want"
done
got=$(py "$port" garbage)
case $got in 400 | none) ok "(c) 300 random bytes: $got" ;; *) ko "(c) random bytes: $got" ;; esac
got=$(py "$port" bighead)
[ "$got" = 431 ] && ok "(c) a 9 KB head: 431" || ko "(c) a 9 KB head: $got"
got=$(py "$port" bigbody)
[ "$got" = 405 ] && ok "(c) a 2 MB body never read: 405 still arrives" || ko "(c) a 2 MB body: $got"

# (d) Slow, idle and many clients.
read -r slow secs closed <<<"$(py "$port" stall)"
if [ "$slow" = 0 ] && [ "$closed" = EOF ] && awk -v s="$secs" 'BEGIN { exit !(s >= 4.9 && s <= 8) }'; then
	ok "(d) half a request, stalled: 20 others answered within 1 s meanwhile, it was closed after $secs s"
else
	ko "(d) stall: $slow slow or failed answers, closed after $secs s with '$closed'"
fi
got=$(py "$port" idle)
[ "$got" = 10 ] && ok "(d) 300 idle connections held: 10 of 10 real requests answered" ||
	ko "(d) 300 idle connections: $got of 10 answered"
read -r nok nall <<<"$(py "$port" many)"
[ "$nok" = 200 ] && ok "(d) 200 clients at once: $nok of $nall answered 200" ||
	ko "(d) 200 clients at once: $nok of $nall answered 200"
py "$port" body - >"$T/mid" 2>&1
grep -q "^sluice_running 1" "$T/mid" && ok "(d) the run was still going after the clients" ||
	ko "(d) the run had ended before the clients were done"

# (e) Stop the run; the metrics then equal the JSON exactly.
echo stop >&7
for _ in $(seq 200); do grep -q "sluice summary" "$T/run.out" && break; sleep 0.1; done
sleep 0.3
py "$port" body - >"$T/end" 2>&1
echo "show metrics" >&7
sleep 0.5
echo quit >&7
exec 7>&-
wait "$pid"
rc=$?
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
bad=
for k in generated:sluice_generated_packets_total tx_packets:sluice_tx_packets_total \
	tx_bytes:sluice_tx_bytes_total dropped:sluice_dropped_packets_total backlog:sluice_backlog_packets; do
	j=$(jq ".ports[0].${k%%:*}" "$T/run.json")
	m=$(val "${k#*:}{port=\"0\"}" "$T/end")
	[ "$j" = "$m" ] || bad="$bad ${k%%:*}($j/$m)"
done
for k in tx_packets:tx_packets tx_bytes:tx_bytes busy:busy_calls collisions:collisions \
	locked:locked_calls requeued:requeued_packets backlog:backlog_packets dropped:dropped_packets \
	dead_loops:dead_loops release_bound:release_bound; do
	j=$(jq ".txqs[0].${k%%:*}" "$T/run.json")
	sfx=_total
	[ "${k%%:*}" = backlog ] && sfx=
	m=$(val "sluice_txq_${k#*:}$sfx{port=\"0\",queue=\"0\"}" "$T/end")
	[ "$j" = "$m" ] || bad="$bad txq.${k%%:*}($j/$m)"
done
tx=$(jq .totals.tx_packets "$T/run.json")
[ -z "$bad" ] && [ "$tx" -gt 1000000 ] &&
	ok "(e) after the run every port and queue counter equals the JSON (tx_packets $tx)" ||
	ko "(e) metrics vs JSON (json/metrics):$bad; tx $tx"
[ "$rc" = 0 ] && jq -e '.totals.conserved and .totals.mempool_in_use == 0' "$T/run.json" >/dev/null &&
	ok "(e) exit 0, conserved, every mbuf back, after every client" ||
	ko "(e) exit $rc, $(grep total: "$T/run.out")"
grep -q "^sluice_tx_packets_total{port=\"0\"} $tx [0-9]*\$" "$T/run.out" &&
	ok "(e) show metrics prints the same: sluice_tx_packets_total{port=\"0\"} $tx" ||
	ko "(e) show metrics: $(grep -m1 "^sluice_tx_packets_total" "$T/run.out")"
got=$(py "$port" raw 'GET /metrics HTTP/1.1\r\n\r\n' 2>&1 | tail -1)
[ "$got" != 200 ] && ok "(e) after quit the port is closed" || ko "(e) something still answers on $port"

# (f) The receive side: a sim DUT losing 1 %; after the run the receiving
# port's and the stream's metrics equal the JSON.
pfx
mkfifo "$T/fifo2"
timeout 60 "$bin" --no-huge -m 256 --no-pci --lcores '0,(1-3)@(0-1)' --log-level '*:error' \
	--file-prefix "$prefix" -- -i --metrics 0 --sim 10G,dut=1,loss=0.01 --sim 10G \
	--json "$T/rx.json" <"$T/fifo2" >"$T/rx.out" 2>&1 &
pid=$!
exec 7>"$T/fifo2"
printf 'set count 200000\nstart\n' >&7
for _ in $(seq 100); do grep -q "sluice summary" "$T/rx.out" && break; sleep 0.1; done
sleep 0.3
port=$(grep -o "^metrics: http://127.0.0.1:[0-9]*" "$T/rx.out" | cut -d: -f4)
py "$port" body - >"$T/rx.m" 2>&1
echo quit >&7
exec 7>&-
wait "$pid"
bad=
for k in rx_packets:rx_packets rx_bytes:rx_bytes rx_signed:rx_signed_packets \
	rx_foreign:rx_foreign_packets rx_bad_signature:rx_bad_signature_packets \
	rx_stale:rx_stale_packets imissed:imissed_packets ierrors:ierrors_packets \
	rx_nombuf:rx_nombuf_packets; do
	j=$(jq ".ports[1].${k%%:*}" "$T/rx.json")
	m=$(val "sluice_${k#*:}_total{port=\"1\"}" "$T/rx.m")
	[ "$j" = "$m" ] || bad="$bad ${k%%:*}($j/$m)"
done
for k in tx_packets:tx_packets_total tx_signed:tx_signed_packets_total rx_packets:rx_packets_total \
	unique:unique_packets_total lost:lost_packets duplicates:duplicates_total \
	reordered:reordered_packets_total late:late_packets_total; do
	j=$(jq ".streams[0].${k%%:*}" "$T/rx.json")
	m=$(val "sluice_stream_${k#*:}{stream=\"0\",rx_port=\"1\"}" "$T/rx.m")
	[ "$j" = "$m" ] || bad="$bad stream.${k%%:*}($j/$m)"
done
lost=$(jq .streams[0].lost "$T/rx.json")
[ -z "$bad" ] && [ "${lost:-0}" -gt 0 ] &&
	ok "(f) receiving port and stream metrics equal the JSON (lost $lost of 200000)" ||
	ko "(f) receive side (json/metrics):$bad; lost $lost"

# (g) Out of descriptors (ulimit -n 80, 200 idle connections held 3 s): a
# real request is still answered (the oldest idle connection makes room)
# and the main lcore's thread (the loop that serves HTTP) does not spin on
# a listening socket it cannot accept from (a thread of the old server
# did: 10 s of CPU in 13 s, and no answer).
pfx
(
	ulimit -n 80
	exec timeout 60 "$bin" "${eal[@]}" --file-prefix "$prefix" -- --metrics 0 --rate 10kpps \
		--duration 30 >"$T/g.out" 2>&1
) &
gpid=$!
for _ in $(seq 300); do grep -q "^metrics: http://127.0.0.1:" "$T/g.out" && break; sleep 0.1; done
port=$(grep -o "^metrics: http://127.0.0.1:[0-9]*" "$T/g.out" | cut -d: -f4)
spid=$(pgrep -P "$gpid" -x sluice || true)
tid=$spid # the main lcore's thread: the process's first
if [ -n "$port" ] && [ -n "$tid" ]; then
	ticks() { awk '{ print $14 + $15 }' "/proc/$spid/task/$tid/stat"; }
	t0=$(ticks)
	read -r held code <<<"$(py "$port" flood 200 3)"
	used=$(($(ticks) - t0))
	[ "$code" = 200 ] && ok "(g) out of descriptors ($held idle held): a real request answered 200" ||
		ko "(g) out of descriptors ($held idle held): the real request got '$code'"
	[ "$used" -lt 50 ] && ok "(g) out of descriptors: the main thread used $used ticks in 3 s (no busy loop)" ||
		ko "(g) out of descriptors: the main thread used $used ticks in 3 s (a busy loop)"
else
	ko "(g) no metrics server or process to watch: $(head -3 "$T/g.out")"
fi
kill "$spid" 2>/dev/null
wait "$gpid" 2>/dev/null

echo "test_metrics: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
