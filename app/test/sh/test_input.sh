#!/usr/bin/env bash
# test_input.sh - endless and huge input (issue 13 item 2): --cmdline-file
# on /dev/zero, /dev/urandom, a 3 GB file, a FIFO fed forever, binary text
# and an over-long line each end by themselves, within the timeout, with one
# "sluice: " line saying what is wrong, and exit 2; a FIFO nobody writes is
# left by SIGTERM and by SIGINT; the prompt (-i) reading /dev/zero or an
# over-long line ends the same way, and commands piped during a run are
# read as fast as they come. Each run is bounded by `timeout 60` (a
# loaded machine can take 20 s to start EAL): a run the timeout had to end
# is a failure. Good input still runs.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
sluice=${SLUICE_BIN:-$top/build/app/sluice/sluice}
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"
# sluice's own lines, less the note a wait on a silent FIFO prints after 2 s.
sluice_lines() { grep '^sluice: ' "$T/err" | grep -v 'waiting for input' || true; }

new_prefix() {
	n=$((n + 1))
	prefix=slin$$x$n
	prefixes+=("$prefix")
}
# run FILE [SIGNAL]: sluice with --cmdline-file FILE; with a signal, it is
# sent once sluice says it is waiting on the FIFO (its signal handlers are
# in place then; a loaded machine can take seconds to get there). rc, $T/err.
run() {
	local pid
	new_prefix
	timeout -s KILL 60 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
		--file-prefix "$prefix" --log-level '*:error' -- --count 1000 --cmdline-file "$1" \
		>"$T/out" 2>"$T/err" &
	pid=$!
	if [ -n "${2:-}" ]; then
		for _ in $(seq 450); do
			grep -q 'waiting for input' "$T/err" 2>/dev/null && break
			sleep 0.1
		done
		pkill "-$2" -P "$pid" -x sluice || true
	fi
	wait "$pid" && rc=0 || rc=$?
}
# expect WHAT RC TEXT: the run ended with RC and one sluice line holding TEXT.
expect() {
	local lines
	lines=$(sluice_lines)
	if [ "$rc" = 137 ]; then
		ko "$1: still running after 60 s (killed)"
	elif [ "$rc" != "$2" ]; then
		ko "$1: exit $rc, expected $2: $(tail -2 "$T/err")"
	elif [ "$(wc -l <<<"$lines")" != 1 ] || ! grep -qF -- "$3" <<<"$lines"; then
		ko "$1: expected one line with '$3', got: $lines"
	else
		ok "$1: exit $rc, '$lines'"
	fi
}

run /dev/zero
expect "/dev/zero" 2 "more than 1048576 bytes (1 MiB)"
run /dev/urandom
expect "/dev/urandom" 2 "more than 1048576 bytes (1 MiB)"
truncate -s 3G "$T/huge.cmd"
run "$T/huge.cmd"
expect "a 3 GB file" 2 "3221225472 bytes; a profile holds at most 1048576"
rm -f "$T/huge.cmd"

mkfifo "$T/fifo"
yes 'show config' >"$T/fifo" 2>/dev/null &
yes_pid=$!
run "$T/fifo"
kill "$yes_pid" 2>/dev/null || true
wait "$yes_pid" 2>/dev/null || true
expect "a FIFO fed forever" 2 "an endless source"

# A FIFO with a writer that never writes: only a signal ends the wait.
for sig in TERM INT; do
	sleep 30 >"$T/fifo" &
	sleep_pid=$!
	run "$T/fifo" "$sig"
	kill "$sleep_pid" 2>/dev/null || true
	wait "$sleep_pid" 2>/dev/null || true
	expect "a silent FIFO, SIG$sig" 0 "interrupted by a signal while reading"
done
# No writer at all yet: the same.
run "$T/fifo" TERM
expect "a FIFO with no writer, SIGTERM" 0 "interrupted by a signal while reading"
# A writer that sends a line, then stalls: the note after 2 s of silence
# all the same, and a signal ends the wait (found by review: the note once
# came only when nothing at all had arrived).
{ echo 'set burst 8'; sleep 30; } >"$T/fifo" &
sleep_pid=$!
run "$T/fifo" INT
pkill -P "$sleep_pid" sleep 2>/dev/null || true
kill "$sleep_pid" 2>/dev/null || true
wait "$sleep_pid" 2>/dev/null || true
if grep -q 'waiting for input' "$T/err"; then
	expect "a FIFO that stalls after a line, SIGINT" 0 "interrupted by a signal while reading"
else
	ko "a FIFO that stalls after a line: no note that it waits: $(tail -2 "$T/err")"
fi

printf 'set burst 8\nshow config\0\n' >"$T/nul.cmd"
run "$T/nul.cmd"
expect "a NUL byte" 2 "nul.cmd:2: a NUL byte"
{ echo "set burst 8"; echo "# $(head -c 1200 /dev/zero | tr '\0' x)"; } >"$T/long.cmd"
run "$T/long.cmd"
expect "a 1202-character line" 2 "long.cmd:2: 1202 characters; a line holds at most 1000"
# Nothing of a refused file ran: its first line (set burst 8) printed nothing.
check "a refused file ran no line" test ! -s "$T/out"

printf 'set burst 8\nset count 100\n' >"$T/good.cmd"
run "$T/good.cmd"
# expect_ran WHAT TEXT: exit 0 and TEXT in the output.
expect_ran() {
	if [ "$rc" = 0 ] && grep -q -- "$2" "$T/out"; then
		ok "$1 (exit 0)"
	else
		ko "$1: exit $rc: $(tail -3 "$T/err") $(tail -3 "$T/out")"
	fi
}
expect_ran "a good file runs" tx

# The prompt on standard input that is not a terminal: the same limits.
# prompt_run SOURCE: sluice -i reading SOURCE.
prompt_run() {
	new_prefix
	timeout -s KILL 60 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
		--file-prefix "$prefix" --log-level '*:error' -- -i <"$1" >"$T/out" 2>"$T/err" &&
		rc=0 || rc=$?
}
prompt_run /dev/zero
expect "-i < /dev/zero" 2 "standard input: a NUL byte"
head -c 5000 /dev/zero | tr '\0' x >"$T/long.txt"
prompt_run "$T/long.txt"
expect "-i with a 5000-character line" 2 "standard input: a line over 1000 characters"
printf 'set burst 8\nshow config\nquit\n' >"$T/cmds.txt"
prompt_run "$T/cmds.txt"
expect_ran "-i with commands on a pipe still runs them" "burst 8"

# Lines from a pipe are whole lines, as in a file: rdline cut a line past
# its 512-byte buffer (here the command after 690 blanks was lost) and acted
# on control bytes (^A moved to the line's start, so 'burst 8^Aset ' ran
# 'set burst 8'). Found by review.
{ printf '%690s' ''; printf 'set burst 8\nshow config\nquit\n'; } >"$T/wide.txt"
prompt_run "$T/wide.txt"
expect_ran "-i with a 701-character line: the whole line runs" "burst 8"
printf 'burst 8\001set \nshow config\nquit\n' >"$T/ctrl.txt"
prompt_run "$T/ctrl.txt"
check "-i with a control byte: the line is refused as written, not edited into another command" \
	sh -c "[ $rc = 0 ] && grep -q 'unknown command' '$T/out' && ! grep -q 'burst 8\$' '$T/out'"
printf 'set burst 8\nshow config' >"$T/last.txt"
prompt_run "$T/last.txt"
expect_ran "-i: a last line without its newline runs" "burst 8"

# The end of input is a file's end: a run in progress goes on to its own
# end (it was stopped at once: a 0.000 s summary), and a last line without
# its newline runs even when an earlier command set the exit code (a --json
# FIFO nobody reads). The echo comes before what the command prints on
# stderr. Found by review.
printf 'set duration 1\nstart\n' >"$T/run1.txt"
prompt_run "$T/run1.txt"
secs=$(sed -n 's/.*sluice summary (\([0-9.]*\) s.*/\1/p' "$T/out" | head -1)
check "-i: the end of input lets a 1 s run end by itself ($secs s)" \
	awk -v s="${secs:-0}" 'BEGIN { exit !(s >= 0.9) }'
mkfifo "$T/nobody.json"
printf 'start\nstop\nhelp quit' >"$T/after.txt"
new_prefix
timeout -s KILL 60 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
	--file-prefix "$prefix" --log-level '*:error' -- -i --json "$T/nobody.json" \
	<"$T/after.txt" >"$T/out" 2>"$T/err" && rc=0 || rc=$?
check "-i: a last line without its newline runs after a failed --json write (exit $rc)" \
	sh -c "[ $rc = 1 ] && grep -q '^  quit' '$T/out'"
new_prefix
printf 'start\n' | timeout -s KILL 60 "$sluice" --no-huge -m 512 --no-pci -l 0 --vdev net_null0 \
	--file-prefix "$prefix" --log-level '*:error' -- -i >"$T/both" 2>&1 || true
check "-i: the echo comes before the command's own message ($(grep -n -m2 -e '^sluice> start' -e 'lcore' "$T/both" | tr '\n' ' '))" \
	sh -c "[ \"\$(grep -n -m1 '^sluice> start' '$T/both' | cut -d: -f1)\" -lt \"\$(grep -n -m1 'lcore' '$T/both' | cut -d: -f1)\" ]"

# Piped commands during a run are read as fast as they come. The prompt
# read one byte per 1 ms turn of the session (2000 'show config' lines took
# 24 s); now poll() waits for input or the next turn, whichever is first.
# The 'stop' after them must come long before the run's own 10 s end (a
# margin of about 80 on this machine: 0.11 s). Found by review.
{
	printf 'set duration 10\nstart\n'
	for _ in $(seq 2000); do echo 'show config'; done
	printf 'stop\n'
} >"$T/many.txt"
prompt_run "$T/many.txt"
secs=$(sed -n 's/.*sluice summary (\([0-9.]*\) s.*/\1/p' "$T/out" | head -1)
shown=$(grep -c '^sluice> show config' "$T/out" || true)
check "-i: 2000 piped commands during a run, then stop: all read, stopped after $secs s (< 5 s)" \
	sh -c "[ $rc = 0 ] && [ '$shown' = 2000 ] && awk -v s='${secs:-99}' 'BEGIN { exit !(s < 5) }'"

# SIGINT with -i on a pipe ends the program (no terminal, no one to type
# quit); at a terminal it stops the run only. It used to be ignored here.
mkfifo "$T/in"
(printf 'show config\n'; sleep 30) >"$T/in" &
feeder=$!
new_prefix
timeout -s KILL 60 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
	--file-prefix "$prefix" --log-level '*:error' -- -i <"$T/in" >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 450); do
	grep -q 'burst' "$T/out" 2>/dev/null && break
	sleep 0.1
done
kill -INT "$pid" 2>/dev/null || true
wait "$pid" && rc=0 || rc=$?
kill "$feeder" 2>/dev/null || true
wait "$feeder" 2>/dev/null || true
check "-i on a pipe: SIGINT ends the program (exit $rc, 0 expected; 137: killed by the timeout)" rc_is 0

echo "test_input: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
