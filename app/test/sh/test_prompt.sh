#!/usr/bin/env bash
# test_prompt.sh - the sluice> prompt:
#  1. every command with a wrong argument prints one error line and leaves
#     the configuration exactly as it was (show config before and after);
#  2. a session in a real terminal (tmux): set sizes and a rate, start, show
#     stats, stop, clear, quit; tab completion completes a command;
#  3. telemetry during a run returns the totals the JSON summary ends with
#     (to within what was sent in between);
#  4. --cmdline-file stops at the first bad line and names file and line;
#  5. docs/cli.md is what --cli-reference prints (the reference cannot drift).
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
	"bogus command"
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
    print(f"{int(before == after)} {len(lines)} {lines[0] if lines else '-'}")
PY
i=0
while read -r same nlines first; do
	c=${bad[$i]}
	if [ "$same" = 1 ] && [ "$nlines" = 1 ]; then
		ok "'$c': one line ($first), configuration unchanged"
	else
		ko "'$c': unchanged=$same, $nlines lines: $first"
	fi
	i=$((i + 1))
done <"$T/bad.res"
[ "$i" = "${#bad[@]}" ] || ko "only $i of ${#bad[@]} bad commands answered"

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
grep -q "^size 64:1,128:1" "$log" && ok "tty: set size shows in show config" || ko "tty: size not set"
grep -q "rate 1 Mpps" "$log" && ok "tty: set rate shows in show config" || ko "tty: rate not set"
grep -q "txq 0: mode exclusive" "$log" && ok "tty: start shows the queue modes" || ko "tty: no start"
grep -qE "port 0: tx [1-9][0-9]* pkts .* Mpps" "$log" && ok "tty: show port stats during the run" || ko "tty: no stats"
grep -q "sluice summary" "$log" && ok "tty: stop prints the summary" || ko "tty: no summary"
grep -qE "^0 +0 +exclusive +1 +[1-9]" "$log" && ok "tty: show txq stats" || ko "tty: no txq stats"
grep -q "port 0: tx 0 pkts 0 bytes" "$log" && ok "tty: clear port stats zeroes the view" || ko "tty: clear did not clear"
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
grep -q "txq 0: mode exclusive" "$T/auto.out" && grep -qE "port 0: tx [1-9][0-9]* pkts" "$T/auto.out" &&
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

echo "test_prompt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
