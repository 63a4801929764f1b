#!/usr/bin/env bash
# test_testbed.sh - scripts/testbed.sh: up/down (plain and --fwd), twice,
# addresses, exact RX counts of frames sent into the gen interface, cleanup
# after a failed up. Needs root and ip netns. Uses its own SL_TB_PREFIX.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
tb=$top/scripts/testbed.sh
P=$(printf 'sltt%s' "$$" | cut -c1-10)
export SL_TB_PREFIX=$P
T=$(mktemp -d)
pass=0 fail=0

cleanup() {
	"$tb" down >/dev/null 2>&1 || true
	rm -rf "$T"
}
trap cleanup EXIT

ok() { echo "ok   - $*"; pass=$((pass + 1)); }
ko() { echo "FAIL - $*"; fail=$((fail + 1)); }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else ko "$what"; fi
}

leftovers() {
	{ ip netns list | awk '{print $1}'; ip -o link show | awk -F': ' '{sub(/@.*/, "", $2); print $2}'; } |
		grep -E "^$P-" || true
}
none_left() { [ -z "$(leftovers)" ]; }
has() { grep -qE -- "$2" <<<"$1"; }
is_num() { [[ $1 =~ ^[0-9]+$ ]]; }
not() { ! "$@"; }
quiet() { "$@" >/dev/null 2>&1; }
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
exits() { # exits CODE CMD...: CMD exits with CODE
	local want=$1 rc=0
	shift
	"$@" >/dev/null 2>&1 || rc=$?
	[ "$rc" = "$want" ]
}

# send IF DSTMAC DSTIP N: N UDP frames (198.18.0.1 -> DSTIP) written raw to IF.
send() {
	python3 - "$@" <<'EOF'
import socket, struct, sys
ifname, dmac, dip, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
smac = open(f"/sys/class/net/{ifname}/address").read().strip()
payload = b"sluice-testbed" + bytes(18)
udp = struct.pack("!HHHH", 1024, 9, 8 + len(payload), 0) + payload
ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                           socket.inet_aton("198.18.0.1"), socket.inet_aton(dip)))
s = sum(struct.unpack("!10H", ip))
s = (s & 0xFFFF) + (s >> 16)
s = (s & 0xFFFF) + (s >> 16)
ip[10:12] = struct.pack("!H", ~s & 0xFFFF)
eth = bytes.fromhex(dmac.replace(":", "")) + bytes.fromhex(smac.replace(":", "")) + b"\x08\x00"
sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
sock.bind((ifname, 0))
for _ in range(n):
    sock.send(eth + bytes(ip) + udp)
EOF
}

# rx_after N BEFORE: wait up to 2 s for rx-packets to reach BEFORE+N, and
# check it is exactly that (no stray ARP, ICMP or IPv6 frames).
rx_after() {
	local want=$(($2 + $1)) got
	for _ in $(seq 20); do
		got=$("$tb" rx-packets)
		[ "$got" -lt "$want" ] || break
		sleep 0.1
	done
	sleep 0.3
	got=$("$tb" rx-packets)
	[ "$got" -eq "$want" ] || { echo "    rx-packets $got, want $want"; return 1; }
}

round() { # round MODE (plain|fwd) N
	local mode=$1 n=$2 opt=() out rc peer_ip mac_if mac_ns
	[ "$mode" = plain ] || opt=(--fwd)
	out=$("$tb" up "${opt[@]}" 2>&1) && rc=0 || rc=$?
	check "$mode #$n: up exits 0" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || { echo "$out"; return; }

	peer_ip=198.18.0.2 mac_ns=$P-peer mac_if=$P-p0
	if [ "$mode" = fwd ]; then peer_ip=198.18.1.2 mac_ns=$P-fwd mac_if=$P-f0; fi
	local mac
	mac=$(awk '$1 == "dst-mac" {print $2}' <<<"$out")
	check "$mode #$n: up prints the dst MAC of $mac_if" \
		same "$mac" "$(ip netns exec "$mac_ns" cat "/sys/class/net/$mac_if/address")"
	check "$mode #$n: dst-mac prints the same MAC" [ "$("$tb" dst-mac)" = "$mac" ]
	check "$mode #$n: $P-gen in root ns has 198.18.0.1/30" \
		has "$(ip -o addr show dev "$P-gen")" 'inet 198\.18\.0\.1/30'
	check "$mode #$n: peer ns has $P-p0 $peer_ip/30" \
		has "$(ip netns exec "$P-peer" ip -o addr)" "$P-p0 +inet ${peer_ip//./\\.}/30"
	check "$mode #$n: no IPv6 on $P-p0 and $P-gen" \
		not has "$(ip netns exec "$P-peer" ip -o addr show dev "$P-p0"; ip -o addr show dev "$P-gen")" inet6
	if [ "$mode" = fwd ]; then
		local fa
		fa=$(ip netns exec "$P-fwd" ip -o addr)
		check "fwd #$n: fwd ns has $P-f0 198.18.0.2/30" has "$fa" "$P-f0 +inet 198\.18\.0\.2/30"
		check "fwd #$n: fwd ns has $P-f1 198.18.1.1/30" has "$fa" "$P-f1 +inet 198\.18\.1\.1/30"
		check "fwd #$n: fwd ns forwards (ip_forward=1)" \
			[ "$(ip netns exec "$P-fwd" sysctl -n net.ipv4.ip_forward)" = 1 ]
		check "fwd #$n: permanent neighbor 198.18.1.2 in fwd ns" \
			has "$(ip netns exec "$P-fwd" ip neigh show 198.18.1.2)" PERMANENT
	fi
	local before
	before=$("$tb" rx-packets)
	check "$mode #$n: rx-packets prints a number ($before)" is_num "$before"
	if is_num "$before"; then
		send "$P-gen" "$mac" "$peer_ip" 50
		check "$mode #$n: 50 frames sent into $P-gen reach $P-p0, exactly" rx_after 50 "$before"
	fi
	check "$mode #$n: status exits 0 and shows rx_packets" has "$("$tb" status)" 'rx_packets [0-9]+'
	check "$mode #$n: up again (idempotent) exits 0" quiet "$tb" up "${opt[@]}"
	check "$mode #$n: down exits 0" quiet "$tb" down
	check "$mode #$n: nothing named $P-* left" none_left
	check "$mode #$n: down again exits 0" quiet "$tb" down
	check "$mode #$n: status exits non-zero when down" not quiet "$tb" status
	check "$mode #$n: rx-packets fails when down" not quiet "$tb" rx-packets
}

check "prefix $P: no leftovers before the test" none_left
round plain 1
round plain 2
round fwd 1
round fwd 2

# A failing step in 'up' (here: sysctl) must leave nothing behind.
mkdir -p "$T/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/sysctl"
chmod +x "$T/bin/sysctl"
check "up --fwd with a failing sysctl exits non-zero" not quiet env PATH="$T/bin:$PATH" "$tb" up --fwd
check "failed up cleaned up after itself" none_left

check "bad prefix is a usage error (exit 2)" exits 2 env SL_TB_PREFIX=eth0 "$tb" status
check "unknown command is a usage error (exit 2)" exits 2 "$tb" bogus

echo "test_testbed: $pass passed, $fail failed"
[ "$fail" = 0 ]
