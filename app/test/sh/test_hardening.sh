#!/usr/bin/env bash
# test_hardening.sh - issue 13 item 6. The built programs are hardened, as
# their ELF shows (readelf): PIE, full RELRO (GNU_RELRO + BIND_NOW), stack
# protector (__stack_chk_fail), fortified libc calls (__*_chk); every C file
# compiled with -Werror=format-security and -Werror=format-nonliteral, and
# those flags do refuse a non-literal format. The runtime directory and the
# telemetry socket are not writable by other users, even under umask 0.
# --json replaces the file (write, then rename: a hard link to the old file
# keeps the old content), and a write that fails (a full file system, in a
# private mount namespace) leaves the old file and no temporary one; a link
# keeps its target, a FIFO (like /dev/full) is written in place, never
# renamed over.
# Needs root (unshare -m, mount), readelf (binutils), jq.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
sluice=${SLUICE_BIN:-$top/build/app/sluice/sluice}
build=$(cd "$(dirname "$sluice")/../.." && pwd)
# shellcheck source=app/test/sh/lib.sh
. "$(dirname "$0")/lib.sh"

new_prefix() {
	n=$((n + 1))
	prefix=slhd$$x$n
	prefixes+=("$prefix")
}

# ELF: one line per property and program.
for bin in "$sluice" "$build/app/test/sluice-test" "$build/app/test/sluice-app-test"; do
	name=$(basename "$bin")
	[ -x "$bin" ] || { ko "$name: not built"; continue; }
	readelf -hW "$bin" >"$T/h"
	readelf -dW "$bin" >"$T/d"
	readelf -lW "$bin" >"$T/l"
	readelf --dyn-syms -W "$bin" >"$T/s"
	check "$name: PIE" grep -q 'Flags:.*PIE' "$T/d"
	check "$name: full RELRO (GNU_RELRO and BIND_NOW)" \
		sh -c "grep -q GNU_RELRO '$T/l' && grep -qE 'BIND_NOW|Flags:.* NOW' '$T/d'"
	check "$name: stack protector (__stack_chk_fail)" grep -q '__stack_chk_fail' "$T/s"
	check "$name: _FORTIFY_SOURCE (__*_chk calls)" grep -qE '__[a-z]+_chk\b' "$T/s"
	check "$name: no executable stack" sh -c "grep GNU_STACK '$T/l' | grep -qv RWE"
done

# Every C file of the project was compiled with the format and hardening flags.
cc_db=$build/compile_commands.json
if [ -f "$cc_db" ]; then
	missing=$(jq -r '.[] | select(.file | test("\\.c$")) |
		select((.command | contains("-Werror=format-security") and
			contains("-Werror=format-nonliteral") and
			contains("-fstack-protector-strong")) | not) | .file' "$cc_db")
	check "every C file has -Werror=format-security, -Werror=format-nonliteral, -fstack-protector-strong ($(jq length "$cc_db") compiled)" \
		test -z "$missing"
	# The flags refuse a user string as a format (the same compiler and flags as parse.c).
	cmd=$(jq -r '.[] | select(.file | endswith("app/sluice/front/parse.c")) | .command' "$cc_db")
	printf '#include <stdio.h>\nvoid f(const char *user) { printf(user); }\n' >"$T/fmt.c"
	read -ra words <<<"$cmd"
	flags=()
	for w in "${words[@]:1}"; do
		case $w in -o|-c|-MD|-MQ|-MF|*.c|*.o|*.d) ;; -W*|-f*|-D*|-U*|-std=*|-O*) flags+=("$w") ;; esac
	done
	if (cd "$build" && "${words[0]}" "${flags[@]}" -fdiagnostics-color=never -c "$T/fmt.c" -o "$T/fmt.o") 2>"$T/cc.err"; then
		ko "printf(user) compiled with the project's flags"
	else
		check "printf(user) refused: $(grep -o 'format[^]]*' "$T/cc.err" | head -1)" \
			grep -q 'format' "$T/cc.err"
	fi
else
	ko "no $cc_db"
fi

# The runtime directory and the sockets in it, under umask 0.
new_prefix
(umask 0; timeout 30 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
	--file-prefix "$prefix" --log-level '*:error' -- --duration 3 >/dev/null 2>&1) &
run_pid=$!
dir=/var/run/dpdk/$prefix
for _ in $(seq 50); do [ -S "$dir/dpdk_telemetry.v2" ] && break; sleep 0.1; done
if [ -S "$dir/dpdk_telemetry.v2" ]; then
	dmode=$(stat -c %a "$dir") smode=$(stat -c %a "$dir/dpdk_telemetry.v2")
	check "runtime directory $dmode: only its user may write (umask 0)" test $((0$dmode & 022)) -eq 0
	check "telemetry socket $smode: only its user may write (umask 0)" test $((0$smode & 022)) -eq 0
	for s in "$dir"/*; do
		[ -S "$s" ] || continue
		check "socket $(basename "$s") $(stat -c %a "$s"): not writable by others" \
			test $((0$(stat -c %a "$s") & 002)) -eq 0
	done
else
	ko "no telemetry socket in $dir after 5 s"
fi
wait "$run_pid" || true

# --json replaces the file: a hard link keeps the old inode and content.
run_json() {
	new_prefix
	timeout 120 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 \
		--file-prefix "$prefix" --log-level '*:error' -- --count 1000 --json "$1" \
		>"$T/out" 2>"$T/err" && rc=0 || rc=$?
}
echo '{"old": true}' >"$T/run.json"
ln "$T/run.json" "$T/keep.json"
run_json "$T/run.json"
check "--json: exit 0 and a new valid file" sh -c "[ $rc = 0 ] && jq -e .totals.conserved '$T/run.json' >/dev/null"
check "--json: written to a new file renamed into place (the old inode still holds the old JSON)" \
	sh -c "[ \"\$(cat '$T/keep.json')\" = '{\"old\": true}' ] && [ \"\$(stat -c %i '$T/keep.json')\" != \"\$(stat -c %i '$T/run.json')\" ]"
check "--json: no temporary file left" sh -c "! ls '$T'/run.json.tmp* >/dev/null 2>&1"

# Only a regular file is replaced: a symbolic link keeps pointing at its
# (new) file, and a FIFO stays a FIFO, its reader gets the JSON.
echo '{"old": true}' >"$T/target.json"
ln -s "$T/target.json" "$T/link.json"
run_json "$T/link.json"
check "--json through a symbolic link: the link stays, its target has the new JSON" \
	sh -c "[ $rc = 0 ] && [ -L '$T/link.json' ] && jq -e .totals '$T/target.json' >/dev/null"
mkfifo "$T/fifo.json"
timeout 40 cat "$T/fifo.json" >"$T/from-fifo.json" &
cat_pid=$!
run_json "$T/fifo.json"
wait "$cat_pid" || true
check "--json to a FIFO: written in place (still a FIFO, the reader got valid JSON; exit $rc $(head -c 100 "$T/err"))" \
	sh -c "[ $rc = 0 ] && [ -p '$T/fifo.json' ] && jq -e .totals '$T/from-fifo.json' >/dev/null"

# A FIFO nobody reads: one message after at most 2 s (open() used to wait
# for a reader for ever, and SA_RESTART kept SIGTERM from ending that wait).
# Found by review.
mkfifo "$T/lonely.json"
run_json "$T/lonely.json"
check "--json to a FIFO with no reader: exit 1, one message ($(grep '^sluice: --json' "$T/err" || true))" \
	sh -c "[ $rc = 1 ] && [ \"\$(grep -c '^sluice: --json.*a FIFO with no reader' '$T/err')\" = 1 ]"

# A link that dangles: the file it names is made (absolute and relative),
# the link stays a link.
ln -s "$T/made.json" "$T/dangling.json"
run_json "$T/dangling.json"
check "--json through a dangling link: the link stays, the file it names has the JSON" \
	sh -c "[ $rc = 0 ] && [ -L '$T/dangling.json' ] && jq -e .totals '$T/made.json' >/dev/null"
ln -s made-rel.json "$T/dangling-rel.json"
run_json "$T/dangling-rel.json"
check "--json through a dangling relative link: the file is made beside the link" \
	sh -c "[ $rc = 0 ] && [ -L '$T/dangling-rel.json' ] && jq -e .totals '$T/made-rel.json' >/dev/null"

# A chain of links is followed to its end (the links in between stay
# links); a loop, and a link into a directory that does not exist, are
# refused before the run (exit 2), not after it with the JSON lost. Found
# by review.
ln -s "$T/chain-b.json" "$T/chain-a.json"
ln -s "$T/chain-c.json" "$T/chain-b.json"
run_json "$T/chain-a.json"
check "--json through a chain of links: both stay links, the last names the file made" \
	sh -c "[ $rc = 0 ] && [ -L '$T/chain-a.json' ] && [ -L '$T/chain-b.json' ] && jq -e .totals '$T/chain-c.json' >/dev/null"
ln -s "$T/loop-y.json" "$T/loop-x.json"
ln -s "$T/loop-x.json" "$T/loop-y.json"
run_json "$T/loop-x.json"
check "--json on a loop of links: exit 2 before the run ($(head -c 120 "$T/err"))" \
	sh -c "[ $rc = 2 ] && [ -L '$T/loop-y.json' ] && ! grep -q 'sluice summary' '$T/out'"
ln -s /nonexistent-sluice-dir/r.json "$T/nowhere.json"
run_json "$T/nowhere.json"
check "--json through a link into a missing directory: exit 2 before the run ($(head -c 120 "$T/err"))" \
	sh -c "[ $rc = 2 ] && ! grep -q 'sluice summary' '$T/out'"

# A link another user owns in a sticky world-writable directory is not
# followed (fs.protected_symlinks' rule, which resolving links ourselves
# would bypass): root's --json would otherwise create or replace any file
# the link names. Found by review.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
	chmod o+x "$T" # nobody must reach the sticky directory inside
	mkdir -m 1777 "$T/sticky"
	runuser -u nobody -- ln -s "$T/victim.json" "$T/sticky/report.json"
	run_json "$T/sticky/report.json"
	check "--json through another user's link in a sticky directory: exit 2, nothing made ($(head -c 120 "$T/err"))" \
		sh -c "[ $rc = 2 ] && [ ! -e '$T/victim.json' ]"
else
	skip "--json and another user's link in a sticky directory: needs root and runuser"
fi

# A FIFO's reader that leaves mid-write: one message and exit 1, not a
# SIGPIPE that ends the program (exit 141). Six ports: a JSON over 10 kB,
# into a FIFO whose buffer the reader shrinks to one page before the run
# ends, so the write must wait for it, and it reads one byte and leaves.
mkfifo "$T/short.json"
python3 - "$T/short.json" <<'PY' &
import fcntl, os, select, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)  # a reader now, no writer yet
fcntl.fcntl(fd, 1031, 4096)                            # F_SETPIPE_SZ: one page
select.select([fd], [], [], 100)                       # the JSON begins
os.read(fd, 1)
os.close(fd)
PY
reader=$!
new_prefix
timeout 120 "$sluice" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 --vdev net_null1 \
	--vdev net_null2 --vdev net_null3 --vdev net_null4 --vdev net_null5 \
	--file-prefix "$prefix" --log-level '*:error' -- --count 1000 --json "$T/short.json" \
	>"$T/out" 2>"$T/err" && rc=0 || rc=$?
wait "$reader" || true
check "--json to a FIFO whose reader leaves: exit 1 with one message, not SIGPIPE (exit $rc: $(head -c 120 "$T/err"))" \
	sh -c "[ $rc = 1 ] && grep -q '^sluice: --json.*write failed' '$T/err'"

# Another user's file keeps its owner and group (root may give them).
if [ "$(id -u)" = 0 ] && getent group nogroup >/dev/null; then
	echo '{"old": true}' >"$T/owned.json"
	chown nobody:nogroup "$T/owned.json"
	run_json "$T/owned.json"
	check "--json over another user's file: still nobody:nogroup ($(stat -c %U:%G "$T/owned.json"))" \
		sh -c "[ $rc = 0 ] && [ \"\$(stat -c %U:%G '$T/owned.json')\" = nobody:nogroup ] && jq -e .totals '$T/owned.json' >/dev/null"
else
	skip "--json keeps the owner: needs root and the group nogroup"
fi

# A writable file in a directory where no temporary file can be made (an
# immutable directory: even root may not create there): written in place.
mkdir "$T/ro"
echo '{"old": true}' >"$T/ro/run.json"
if chattr +i "$T/ro" 2>/dev/null; then
	run_json "$T/ro/run.json"
	chattr -i "$T/ro"
	check "--json in a directory without room for a temporary file: written in place ($(head -c 80 "$T/err"))" \
		sh -c "[ $rc = 0 ] && jq -e .totals.conserved '$T/ro/run.json' >/dev/null"
else
	skip "--json in an unwritable directory: chattr +i is not allowed here"
fi

# /dev/stdout while standard output goes to a log: the JSON follows what the
# run printed there (renamed over, the log lost the summary; reopened, it
# was truncated). Found by review.
run_json /dev/stdout
check "--json /dev/stdout into a log: the log keeps the summary, then the JSON" \
	sh -c "[ $rc = 0 ] && grep -q 'sluice summary' '$T/out' && sed -n '/^{/,\$p' '$T/out' | jq -e .totals.conserved >/dev/null"

# A write that fails: a full tmpfs in a private mount namespace.
mkdir -p "$T/full"
new_prefix
full_rc=0
unshare -m bash -c '
	set -e
	mount -t tmpfs -o size=64k tmpfs "$1"
	echo "{\"old\": true}" >"$1/run.json"
	dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null || true
	timeout 30 "$2" --no-huge -m 512 --no-pci -l 0-1 --vdev net_null0 --file-prefix "$3" \
		--log-level "*:error" -- --count 1000 --json "$1/run.json" >/dev/null 2>"$4/err" &&
		rc=0 || rc=$?
	cat "$1/run.json" >"$4/after.json"
	ls -a "$1" >"$4/ls"
	exit $rc
' _ "$T/full" "$sluice" "$prefix" "$T" || full_rc=$?
check "--json on a full file system: exit 1 (got $full_rc)" test "$full_rc" = 1
check "--json on a full file system: one message: $(grep '^sluice: --json' "$T/err" || true)" \
	grep -q '^sluice: --json .*write failed.*the file is as it was' "$T/err"
check "--json on a full file system: the old file is intact" \
	test "$(cat "$T/after.json")" = '{"old": true}'
check "--json on a full file system: no temporary file left ($(tr '\n' ' ' <"$T/ls"))" \
	sh -c "! grep -q 'run.json.tmp' '$T/ls'"

echo "test_hardening: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
