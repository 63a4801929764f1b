#!/usr/bin/env bash
# test_prompt.sh - the sluice> prompt:
#  1. every command with a wrong argument prints one error line and leaves
#     the configuration exactly as it was (show config before and after);
#  2. a session in a real terminal (tmux): set sizes and a rate, start, show
#     stats, stop, clear, quit; tab completion completes a command;
#  3. telemetry during a run returns the totals the JSON summary ends with
#     (to within what was sent in between);
#  4. --cmdline-file stops at the first bad line and names file and line;
#  5. docs/cli.md is what --cli-reference prints (the reference cannot drift);
#  6. (issue 15) a terminal session: clear port stats clears every view and
#     rates count from the clear and from the last show; set rate changes a
#     running port; live lines redraw the line being typed; Ctrl-C stops the
#     run and not the program; Ctrl-D quits; tab completion lists each word
#     once and arguments by name; --rate 500pps shows pps, not 0.000 Mpps;
#  7. (issue 31) a benchmark at a terminal runs on the main loop: the prompt
#     answers while it runs (show bench, show port stats; start refused),
#     stop ends it with its partial report, long before its trial would.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
T=$(mktemp -d)
sess=slp$$
cleanup() { tmux kill-session -t "$sess" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT
pass=0 fail=0
ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }
eal=(--no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 --log-level '*:error')

# 1. Bad arguments change nothing.
bad=(
	"set size 63" "set size 64,abc" "set size 2000-100" "set txpkts 10000"
	"set flows 0" "set flows x" "set rate 0 5Xbps" "set rate 0 20Gbps" "set rate 7 1Mpps"
	"set rate all 150%" "set burst 0" "set burst 65" "set tx-ip 1.2.3 4.5.6.7"
	"set tx-ip 198.18.0.1 2001::1" "set tx-udp 70000" "set eth-peer 0 zz:zz"
	"set eth-peer 3 02:00:00:00:00:01" "set vlan 0 5000" "set vlan 9 10"
	"set duration -1" "set count abc" "set map 1:0" "set map 1:0.99"
	"port config 0 txq 0" "port config 0 lltx maybe" "port config 4 txd 512"
	"port start 9" "clear port stats 9" "show port stats 9" "show txq stats 5"
	"set link-down port 9" "set link-down port 0" "set link-up port all"
	"bogus command" "strat" "set nbcore 2" "set rate 10Mpps" "show port stats"
	"set size 2000" "set field vlan=inc:1,3" "set flows 0x" "set stats-period x"
)
{
	for c in "${bad[@]}"; do
		echo "show config"
		echo "$c"
		echo "show config"
	done
	echo quit
} >"$T/bad.in"
timeout 60 "$bin" "${eal[@]}" --file-prefix "slpa$$" -- -i <"$T/bad.in" >"$T/bad.out" 2>&1 || true
# Split the output at each prompt; for each bad command compare the blocks.
python3 - "$T/bad.out" "${#bad[@]}" <<'PY' >"$T/bad.res"
import sys
out = open(sys.argv[1]).read()
n = int(sys.argv[2])
parts = out.split("sluice> ")[1:]
# per bad command: "show config" output, then the command's output, then "show config"
for i in range(n):
    before, err, after = parts[3 * i], parts[3 * i + 1], parts[3 * i + 2]
    before = before.split("\n", 1)[1] if "\n" in before else ""
    after = after.split("\n", 1)[1] if "\n" in after else ""
    lines = [l for l in err.split("\n")[1:] if l.strip()]
    # one error line, then (for a line that does not parse) the help of the
    # commands it resembles, indented
    errs = [l for l in lines if not l.startswith("  ")]
    helps = [l.split()[0] + "_" + l.split()[1] for l in lines if l.startswith("  ") and len(l.split()) > 1]
    print(f"{int(before == after)} {len(errs)} {len(lines) - len(errs)} {';'.join(helps) or '-'} {errs[0] if errs else '-'}")
PY
i=0
while read -r same nlines nhelp helps first; do
	c=${bad[$i]}
	if [ "$same" = 1 ] && [ "$nlines" = 1 ]; then
		ok "'$c': one error line ($first), configuration unchanged"
	else
		ko "'$c': unchanged=$same, $nlines error lines: $first"
	fi
	case $c in
	"set rate 10Mpps" | "show port stats" | "set nbcore 2")
		# the prompt's message is the --cmdline-file one, with the matching help
		w=$(echo "$c" | cut -d' ' -f1-2 | tr ' ' _)
		[ "$c" = "set nbcore 2" ] && w="set_size"
		if [[ $first == "error: unknown command or wrong arguments: '$c' (try: help)" ]] &&
			[[ ";$helps;" == *";$w;"* ]]; then
			ok "'$c': the cmdline-file message and $nhelp help line(s) ($w ...)"
		else
			ko "'$c': '$first', help lines: $helps"
		fi ;;
	"set size 2000" | "set field vlan=inc:1,3" | "set stats-period x")
		# refused at set time, naming the prompt command
		w=$(echo "$c" | cut -d' ' -f1-2)
		[[ $first == "error: $w:"* ]] && ok "'$c': refused now, naming '$w'" ||
			ko "'$c': '$first' does not name '$w'" ;;
	esac
	i=$((i + 1))
done <"$T/bad.res"
[ "$i" = "${#bad[@]}" ] || ko "only $i of ${#bad[@]} bad commands answered"

# 1b. Every setting the prompt changes can be set back to its default
# (issue 35): change each, set each back, and show config is what it was.
# Also: an error at the prompt names the prompt's command, not an option.
changes=(
	"set size 128" "set imix" "set flows 100" "set rate all 1Mpps" "set stats-period 2"
	"set burst 16" "set tx-ip 198.18.5.1 198.18.5.2" "set tx-tcp 1000 2000"
	"set eth-peer 0 02:00:00:00:00:99" "set vlan all 7" "set duration 5" "set count 100"
	"set field dst-ip=inc:198.18.0.2,10" "set map 1:0.0" "port stop all"
	"port config all txq 2" "port config all txd 1024" "port config all lltx on"
	"port config all mtu 9000"
)
back=(
	"set size auto" "set flows 1" "set rate all max" "set stats-period off" "set burst 32"
	"set tx-ip 198.18.0.1 198.18.0.2" "set tx-udp 9" "set eth-peer 0 auto" "set vlan all off"
	"set duration off" "set count off" "set field off" "set map default" "port start all"
	"port config all txq auto" "port config all txd auto" "port config all lltx auto"
	"port config all mtu auto"
)
{
	echo "show config"
	for c in "${changes[@]}"; do echo "$c"; done
	echo "show config"
	for c in "${back[@]}"; do echo "$c"; done
	echo "show config"
	echo "set imix"
	echo "set tx-ip 2001:2::1 2001:2::2"
	echo quit
} >"$T/back.in"
timeout 60 "$bin" "${eal[@]}" --file-prefix "slpb$$" -- -i <"$T/back.in" >"$T/back.out" 2>&1 || true
python3 - "$T/back.out" "${#changes[@]}" "${#back[@]}" <<'PY' >"$T/back.res"
import sys
parts = open(sys.argv[1]).read().split("sluice> ")[1:]
nc, nb = int(sys.argv[2]), int(sys.argv[3])
body = lambda p: p.split("\n", 1)[1] if "\n" in p else ""
first, changed, last = body(parts[0]), body(parts[1 + nc]), body(parts[2 + nc + nb])
errs = [l for p in parts[:3 + nc + nb] for l in body(p).split("\n") if l.startswith("error")]
print(int(first == last), int(first != changed), len(errs))
print(body(parts[4 + nc + nb]).strip().split("\n")[0])
PY
{ read -r same moved nerr; read -r v6err; } <"$T/back.res"
[ "$same" = 1 ] && [ "$moved" = 1 ] && [ "$nerr" = 0 ] &&
	ok "every setting changed (${#changes[@]} commands) and set back (${#back[@]}): show config as at start" ||
	ko "settings set back: same as at start $same, changed between $moved, $nerr error lines: $(diff <(python3 -c 'import sys; p=open(sys.argv[1]).read().split("sluice> ")[1:]; print(p[0])' "$T/back.out") <(python3 -c 'import sys; p=open(sys.argv[1]).read().split("sluice> ")[1:]; print(p[-3])' "$T/back.out") | head -8)"
[[ $v6err == "error: set tx-ip: set size:"* ]] &&
	ok "an IPv6 address with IMIX: the error names 'set size', not --size ($v6err)" ||
	ko "an IPv6 address with IMIX: '$v6err'"

# 2. A real terminal session in tmux.
cat >"$T/tty.sh" <<EOF
#!/bin/bash
"$bin" ${eal[*]} --file-prefix slpt$$ -- -i 2>&1 | tee "$T/tty.log"
echo "exit \${PIPESTATUS[0]}" >"$T/tty.exit"
sleep 2
EOF
tmux new-session -d -s "$sess" -x 200 -y 50 "bash $T/tty.sh"
wait_prompt() { # wait until the pane's last line is the prompt
	for _ in $(seq 100); do
		tmux capture-pane -p -t "$sess" | grep -v '^$' | tail -1 | grep -q '^sluice> *$' && return 0
		sleep 0.1
	done
	return 1
}
send() { tmux send-keys -t "$sess" "$1" Enter; sleep 0.2; wait_prompt || true; }
wait_prompt || ko "no prompt in the terminal"
send "set size 64,128"
send "set rate 0 1Mpps"
send "show config"
send "start"
sleep 1.5
send "show port stats all"
send "stop"
send "show txq stats"
send "clear port stats all"
send "show port stats 0"
tmux send-keys -t "$sess" "sho" Tab
sleep 0.5
tmux capture-pane -p -t "$sess" | grep -v '^$' | tail -1 >"$T/tab"
tmux send-keys -t "$sess" C-a C-k # rdline has no C-u: start of line, kill to its end
send "quit"
sleep 1
log=$T/tty.log
grep -q "^size 64,128 bytes with FCS, in turn" "$log" && ok "tty: set size shows in show config" || ko "tty: size not set"
grep -q "rate 1 Mpps" "$log" && ok "tty: set rate shows in show config" || ko "tty: rate not set"
grep -q "txq 0: mode exclusive" "$log" && ok "tty: start shows the queue modes" || ko "tty: no start"
grep -qE "TX-packets: [1-9][0-9]* " "$log" && grep -qE "Tx-rate: +[0-9.]+ (k|M)pps" "$log" &&
	ok "tty: show port stats during the run" || ko "tty: no stats"
grep -q "sluice summary" "$log" && ok "tty: stop prints the summary" || ko "tty: no summary"
grep -qE "^0 +0 +exclusive +1 +[1-9]" "$log" && ok "tty: show txq stats" || ko "tty: no txq stats"
grep -qE "TX-packets: 0 +TX-dropped: 0 +TX-bytes: 0 " "$log" && ok "tty: clear port stats zeroes the view" || ko "tty: clear did not clear"
grep -q "^sluice> show *$" "$T/tab" && ok "tty: tab completes 'sho' to 'show '" || ko "tty: tab gave '$(cat "$T/tab")'"
# quit must end the process (not just echo the word): its exit status is written after it.
for _ in $(seq 50); do [ -s "$T/tty.exit" ] && break; sleep 0.1; done
if grep -qx "exit 0" "$T/tty.exit" 2>/dev/null; then
	ok "tty: quit ended the program (exit 0)"
else
	ko "tty: quit did not end the program ($(cat "$T/tty.exit" 2>/dev/null || echo 'still running'))"
fi

# -i -a: traffic starts before the prompt takes commands.
(sleep 1; printf 'show port stats all\nquit\n') | timeout 30 "$bin" "${eal[@]}" --file-prefix "slpa$$" -- \
	-i -a --rate 1Mpps >"$T/auto.out" 2>&1 || true
grep -q "txq 0: mode exclusive" "$T/auto.out" && grep -qE "TX-packets: [1-9][0-9]* " "$T/auto.out" &&
	ok "-i -a: running before the first command" || ko "-i -a: $(tail -3 "$T/auto.out")"

# 3. Telemetry during a run vs the JSON at the end.
"$bin" "${eal[@]}" --file-prefix "slpm$$" -- --sim 10G --rate 1Mpps --duration 3 \
	--json "$T/tel.json" >/dev/null 2>&1 &
pid=$!
sleep 1.5
echo "/sluice/totals" | timeout 10 dpdk-telemetry.py -f "slpm$$" 2>/dev/null | tail -1 >"$T/tel.mid" || true
wait $pid || true
mid=$(jq '."/sluice/totals".tx_packets' "$T/tel.mid" 2>/dev/null || echo -1)
end=$(jq .totals.tx_packets "$T/tel.json")
ports=$(jq '.ports | length' "$T/tel.json")
# 1 Mpps per port over a 3 s run: mid-run must be about half of the end
if [ "$mid" -gt 0 ] && [ "$mid" -le "$end" ] &&
	awk -v m="$mid" -v e="$end" 'BEGIN { exit !(m > e * 0.2 && m < e * 0.8) }'; then
	ok "telemetry mid-run tx_packets $mid, JSON at the end $end ($ports ports, 1 Mpps each)"
else
	ko "telemetry mid-run '$mid' vs JSON end '$end'"
fi

# ...and after a run that the prompt started and that ended by itself, the
# telemetry totals equal the JSON summary exactly.
mkfifo "$T/fifo"
"$bin" "${eal[@]}" --file-prefix "slpq$$" -- -i --json "$T/q.json" <"$T/fifo" >"$T/q.out" 2>&1 &
pid=$!
exec 7>"$T/fifo"
printf 'set count 200000\nstart\n' >&7
for _ in $(seq 50); do grep -q "sluice summary" "$T/q.out" && break; sleep 0.1; done
sleep 0.3
echo "/sluice/totals" | timeout 10 dpdk-telemetry.py -f "slpq$$" 2>/dev/null | tail -1 >"$T/q.tel" || true
echo quit >&7
exec 7>&-
wait $pid || true
tel=$(jq '."/sluice/totals".tx_packets' "$T/q.tel" 2>/dev/null || echo -1)
js=$(jq .totals.tx_packets "$T/q.json" 2>/dev/null || echo -2)
[ "$tel" = "$js" ] && [ "$js" = 200000 ] && ok "telemetry after the run: tx_packets $tel == JSON $js" ||
	ko "telemetry after the run: '$tel' vs JSON '$js'"

# 4. --cmdline-file: the first bad line stops the file, named with its line.
printf '# a profile\nset size 64\n\nset flows 0\nset burst 16\n' >"$T/bad.cmd"
if ! "$bin" "${eal[@]}" --file-prefix "slpf$$" -- --cmdline-file "$T/bad.cmd" >"$T/f.out" 2>&1 &&
	grep -q "bad.cmd:4: 'set flows 0' failed" "$T/f.out"; then
	ok "--cmdline-file stops at line 4 and names it"
else
	ko "--cmdline-file: $(cat "$T/f.out" | tail -3)"
fi

# 5. The reference in docs/ is the one the tables generate.
if "$bin" -- --cli-reference | diff -q - "$top/docs/cli.md" >/dev/null; then
	ok "docs/cli.md matches sluice -- --cli-reference"
else
	ko "docs/cli.md differs from the command tables: regenerate it with 'sluice -- --cli-reference > docs/cli.md'"
fi

# 6. Issue 15: the stats views, live changes and keys in a real terminal.
sess2=slq$$
cleanup() { tmux kill-session -t "$sess" 2>/dev/null || true; tmux kill-session -t "$sess2" 2>/dev/null || true; rm -rf "$T"; }
cat >"$T/tty2.sh" <<EOF
#!/bin/bash
# tee ignores Ctrl-C (the terminal sends it to the whole pipeline): only Sluice gets it
"$bin" ${eal[*]} --file-prefix slpu$$ -- -i --json "$T/u.json" 2>&1 | (trap '' INT; tee "$T/tty2.log")
echo "exit \${PIPESTATUS[0]}" >"$T/tty2.exit"
sleep 2
EOF
tmux new-session -d -s "$sess2" -x 200 -y 50 "bash $T/tty2.sh"
sess_save=$sess; sess=$sess2
wait_prompt || ko "no prompt in the second terminal"
pane() { tmux capture-pane -p -t "$sess" | grep -v '^$'; }
# On a loaded machine keys arrive late: wait until the command's answer and a
# new prompt are in the log (each prompt is printed once more after a command).
prompts() { grep -o "sluice> " "$T/tty2.log" 2>/dev/null | wc -l; }
sendw() {
	local n
	n=$(prompts)
	tmux send-keys -t "$sess" "$1" Enter
	for _ in $(seq 300); do [ "$(prompts)" -gt "$n" ] && return 0; sleep 0.1; done
	ko "no answer to '$1' in 30 s"
}
waitlog() { for _ in $(seq 300); do grep -q "$1" "$T/tty2.log" && return 0; sleep 0.1; done; return 1; }
tmux send-keys -t "$sess" "set " Tab; sleep 1; pane >"$T/tab.set"
tmux send-keys -t "$sess" C-a C-k "set tx-udp " Tab; sleep 0.5; pane | tail -3 >"$T/tab.udp"
tmux send-keys -t "$sess" C-a C-k
sendw "set rate 0 1Mpps"
sendw "start"
sleep 1.5
sendw "show port stats 0" # what the run sent before the clear (at least)
sendw "clear port stats 0"
sendw "show port stats 0"
sendw "show txq stats 0"
sleep 1
sendw "show port stats 0"
sendw "set rate 0 100kpps"
sendw "show port stats 0"
sleep 1.5
sendw "show port stats 0"
sendw "set stats-period 0.3"
tmux send-keys -t "$sess" "show txq"   # typed, not entered, while live lines print
n=$(grep -c "\] port 0:" "$T/tty2.log" || true)
for _ in $(seq 100); do [ "$(grep -c "\] port 0:" "$T/tty2.log" || true)" -ge $((n + 2)) ] && break; sleep 0.1; done
sleep 0.2
pane | tail -1 >"$T/typing"
nlive=$(( $(grep -c "\] port 0:" "$T/tty2.log" || true) - n ))
tmux send-keys -t "$sess" C-a C-k
sendw "set stats-period 0"
# Ctrl-C with a half-typed line: the run stops and the line is dropped (as a
# shell does), so the next command is not appended to it (issue 35).
tmux send-keys -t "$sess" "show con"
sleep 0.3
tmux send-keys -t "$sess" C-c
waitlog "Ctrl-C: run stopped" && waitlog "sluice summary" || true
sleep 0.5
sendw "show config ports"
waitlog "port 0: rate" || true
# The same with no run: the line is dropped, the prompt stays.
tmux send-keys -t "$sess" "set bur"
sleep 0.3
tmux send-keys -t "$sess" C-c
waitlog "Ctrl-C stops a run or a benchmark" || true
sleep 0.3
sendw "show config map"
tmux send-keys -t "$sess" C-d
for _ in $(seq 50); do [ -s "$T/tty2.exit" ] && break; sleep 0.1; done
sess=$sess_save
# The log, cut at each command; figures read from show port stats.
python3 - "$T/tty2.log" "$T/u.json" <<'PY' >"$T/u.res"
import json, re, sys
log = re.sub(r"\x1b\[[0-9;]*[A-Za-z]|\x1bM|\x1bE|\r", "", open(sys.argv[1], errors="replace").read())
scale = {"pps": 1, "kpps": 1e3, "Mpps": 1e6, "Gpps": 1e9}
def shows(text):
    out = []
    for blk in text.split("sluice> show port stats 0")[1:]:
        blk = blk.split("sluice> ")[0]
        d = {}
        m = re.search(r"TX-packets: (\d+)", blk); d["pkts"] = int(m.group(1)) if m else -1
        for k, lab in (("clear", r"since (?:the clear|the start), ([0-9.]+) s"), ("last", r"since last show, ([0-9.]+) s")):
            m = re.search(lab + r"\):\s*\n\s*Tx-rate: +([0-9.]+) (\w+)", blk)
            d[k] = (float(m.group(1)), float(m.group(2)) * scale[m.group(3)]) if m else None
        out.append(d)
    return out
before, _, after = log.partition("sluice> clear port stats 0")
pre = shows(before)
s = shows(after)
print("preclear", pre[-1]["pkts"] if pre else -1)
txq = re.search(r"sluice> show txq stats 0.*?\n0 +0 +exclusive +\S+ +(\d+)", log, re.S)
try:
    j = json.load(open(sys.argv[2]))
except (OSError, ValueError):
    j = {"ports": [{"tx_pps": -1, "tx_packets": -1}], "duration_s": -1}
print("shows", len(s))
print("json_pps", j["ports"][0]["tx_pps"], "json_pkts", j["ports"][0]["tx_packets"])
for i, d in enumerate(s):
    print("show", i, d["pkts"], d["clear"], d["last"])
print("txq", txq.group(1) if txq else -1)
live = [int(x) for x in re.findall(r"\] port 0: .* tx (\d+) dropped", log)]
print("live", live[0] if live else -1)
PY
[ -s "$T/u.json" ] || ko "the terminal run wrote no JSON summary (--json)"
get() { awk -v k="$1" '$1 == k' "$T/u.res"; }
read -r _ n <<<"$(get shows)"
read -r _ jpps _ jpkts <<<"$(get json_pps)"
if [ "${n:-0}" -ge 4 ]; then
	# show 0: right after the clear; show 1: a second later; show 3: after set rate 100kpps
	s0=$(awk '$1 == "show" && $2 == 0 {print $3}' "$T/u.res")
	t0=$(awk '$1 == "txq" {print $2}' "$T/u.res")
	awk -v p="$s0" -v t="$t0" -v j="$jpkts" 'BEGIN { exit !(p >= 0 && p < j / 3 && t >= p && t < p + 700000) }' &&
		ok "clear port stats: show port stats $s0 and show txq stats $t0 count from the clear (run total $jpkts)" ||
		ko "clear port stats: show port stats '$s0', show txq stats '$t0' after the clear (run total $jpkts)"
	line1=$(awk '$1 == "show" && $2 == 1' "$T/u.res")
	jdur=$(jq .duration_s "$T/u.json" 2>/dev/null || echo -1)
	python3 - "$line1" "$jdur" <<'PY' && ok "rate since the clear: $line1 (run $jdur s)" || ko "rate since the clear: $line1 (run $jdur s; want its time at least 1.4 s less than the run's, and rate x time = TX-packets within 1 %)"
import sys, re
pk = int(sys.argv[1].split()[2])
v = re.findall(r"\(([0-9.e+]+), ([0-9.e+]+)\)", sys.argv[1])
secs, rate = float(v[0][0]), float(v[0][1])
# counted from the clear (made 1.5 s into the run), over that time: not over the time since the start
sys.exit(not (secs < float(sys.argv[2]) - 1.4 and abs(rate * secs - pk) <= 0.01 * pk + 1000))
PY
	line3=$(awk '$1 == "show" && $2 == 3' "$T/u.res")
	python3 - "$line3" <<'PY' && ok "set rate 0 100kpps while running: since last show $line3" || ko "set rate while running: since last show $line3 (want above 0 and at most 110 kpps)"
import sys, re
v = re.findall(r"\(([0-9.e+]+), ([0-9.e+]+)\)", sys.argv[1])
rate = float(v[-1][1])
# a paced port cannot go above its rate; how far below it goes depends on the CPU left
sys.exit(not (0 < rate <= 110e3))
PY
else
	ko "only ${n:-0} show port stats answers in the terminal log"
fi
live=$(awk '$1 == "live" {print $2}' "$T/u.res")
pre=$(awk '$1 == "preclear" {print $2}' "$T/u.res")
# Counted from the clear, the live line cannot exceed what the run sent after
# it: total - (sent before the clear, at least $pre). Without the clear it would
# also count those $pre (far more than the 100 kpps tail after the live lines).
awk -v l="$live" -v j="$jpkts" -v p="$pre" 'BEGIN { exit !(p > 0 && l >= 0 && l <= j - p) }' &&
	ok "live line after the clear: tx $live counts from the clear (run total $jpkts, $pre before the clear)" ||
	ko "live line after the clear: tx '$live' (run total $jpkts, '$pre' sent before the clear: want at most $((jpkts - ${pre:-0})))"
[ "$nlive" -ge 2 ] && grep -q "^sluice> show txq *$" "$T/typing" &&
	ok "$nlive live lines printed while typing, the typed line redrawn below them: '$(cat "$T/typing")'" ||
	ko "typing during live output: $nlive live lines, last line '$(cat "$T/typing")'"
! grep -q "unknown command" "$T/tty2.log" && grep -q "set bur^C" "$T/tty2.log" &&
	grep -q "^(Ctrl-C stops a run or a benchmark" "$T/tty2.log" &&
	ok "Ctrl-C drops the half-typed line (running and idle): the next command runs alone" ||
	ko "Ctrl-C and a half-typed line: $(grep -E "unknown command|\^C" "$T/tty2.log" | head -3 | tr '\n' ' ')"
grep -q "Ctrl-C: run stopped" "$T/tty2.log" && grep -q "port 0: rate 100 kpps" "$T/tty2.log" &&
	ok "Ctrl-C stopped the run, the prompt stayed (show config after it: rate 100 kpps)" ||
	ko "Ctrl-C: $(grep -c 'sluice summary' "$T/tty2.log") summaries, show config after it: $(grep -c 'port 0: rate' "$T/tty2.log")"
grep -qx "exit 0" "$T/tty2.exit" 2>/dev/null && ok "Ctrl-D quits (exit 0)" ||
	ko "Ctrl-D: $(cat "$T/tty2.exit" 2>/dev/null || echo 'still running')"
nmap=$(grep -cE "^ +map( |$)" "$T/tab.set" || true)
if [ "$nmap" = 1 ] && ! grep -q "STRING\]" "$T/tab.set" "$T/tab.udp" && grep -q "<sport>" "$T/tab.udp"; then
	ok "tab: 'set ' lists map once, 'set tx-udp ' names <sport>, no [Fixed STRING]/[Any STRING]"
else
	ko "tab: map listed $nmap times; $(grep -c 'STRING\]' "$T/tab.set" "$T/tab.udp" | tr '\n' ' '); udp: $(tr '\n' '|' <"$T/tab.udp")"
fi

# 7. A benchmark at a terminal: the prompt answers while it runs, stop ends it.
sess_save=$sess
sess=slpb$$
cat >"$T/tty3.sh" <<EOF
"$bin" --no-huge -m 1024 --no-pci -l 0-1 --log-level '*:error' --file-prefix slpb$$ -- \
	--sim 10G,dut=0,capacity=100kpps -i 2>&1 | (trap '' INT; tee "$T/tty3.log")
echo "exit \${PIPESTATUS[0]}" >"$T/tty3.exit"
EOF
tmux new-session -d -s "$sess" -x 200 -y 50 "bash $T/tty3.sh"
wait3() { for _ in $(seq 300); do grep -q "$1" "$T/tty3.log" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
wait3 "sluice> " || true
# One trial of 30 s: the benchmark is certainly running while the prompt is asked.
tmux send-keys -t "$sess" "bench mlr trial=30,width=0.001" Enter
wait3 "trial 1 (0 of" || true
tmux send-keys -t "$sess" "show bench" Enter
wait3 "bench mlr: running" || true
tmux send-keys -t "$sess" "show port stats 0" Enter
wait3 "TX-packets:" || true
tmux send-keys -t "$sess" "start" Enter
wait3 "a benchmark is running (stop ends it)" || true
tmux send-keys -t "$sess" "set rate 0 1Mpps" Enter
wait3 "set rate: a benchmark is running" || true
t0=$(date +%s.%N)
tmux send-keys -t "$sess" "stop" Enter
wait3 "bench: ended without its goal" || true
t1=$(date +%s.%N)
tmux send-keys -t "$sess" "show config" Enter
wait3 "^port 0: rate" || true
tmux send-keys -t "$sess" "quit" Enter
for _ in $(seq 100); do [ -s "$T/tty3.exit" ] && break; sleep 0.1; done
tmux kill-session -t "$sess" 2>/dev/null || true
sess=$sess_save
log3=$(sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/\r//g' "$T/tty3.log" 2>/dev/null)
grep -q "^bench mlr: running, 0 trial(s)" <<<"$log3" && grep -q "TX-packets: [1-9]" <<<"$log3" &&
	ok "bench at a terminal: show bench and show port stats answer while its trial runs" ||
	ko "bench at a terminal: show bench / show port stats during the trial: $(grep -E 'bench mlr: |TX-packets' <<<"$log3" | head -3 | tr '\n' '|')"
grep -q "error: a benchmark is running (stop ends it)" <<<"$log3" &&
	grep -q "error: set rate: a benchmark is running (stop ends it)" <<<"$log3" &&
	ok "bench at a terminal: start and set rate (the trial's own load) are refused while it runs" ||
	ko "bench at a terminal: start during it: $(grep -A1 'sluice> start' <<<"$log3" | tr '\n' '|')"
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
grep -q "(interrupted: not counted)" <<<"$log3" && grep -q "(interrupted: partial)" <<<"$log3" &&
	awk -v s="$secs" 'BEGIN { exit !(s < 10) }' &&
	ok "bench at a terminal: stop ended it with its partial report in $secs s (its trial had over 20 s left)" ||
	ko "bench at a terminal: stop: $secs s; $(grep -E 'interrupted|ended without' <<<"$log3" | tr '\n' '|')"
# The benchmark ended without its goal: the program's exit is 4 (reference.md), as from a script.
grep -q "^port 0: rate max" <<<"$log3" && grep -qx "exit 4" "$T/tty3.exit" 2>/dev/null &&
	ok "bench at a terminal: the prompt stays after it (show config), quit exits 4 (a benchmark short of its goal)" ||
	ko "bench at a terminal: after it: $(grep -c 'port 0: rate' <<<"$log3") show config, $(cat "$T/tty3.exit" 2>/dev/null || echo 'still running')"

# Units scale: 500 pps of 1518-byte frames reads as pps and Mb/s, not 0.000 Mpps.
"$bin" "${eal[@]}" --file-prefix "slpv$$" -- --rate 500PPS --size 1518 --duration 1S \
	--stats-period 0.5 >"$T/v.out" 2>&1 || true
if grep -qE "^\[.*\] port 0: +[0-9.]+ pps +[0-9.]+ Mb/s L1" "$T/v.out" &&
	grep -qE "^ +[0-9.]+ pps +[0-9.]+ Mb/s L1 +[0-9.]+ Mb/s L2" "$T/v.out" && ! grep -q "0.000 Mpps" "$T/v.out"; then
	ok "--rate 500PPS --duration 1S: live line and summary in pps and Mb/s"
else
	ko "units: $(grep -E 'pps' "$T/v.out" | head -3 | tr '\n' '|')"
fi

echo "test_prompt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
