#!/usr/bin/env bash
# Generator benchmark on net_null, one worker lcore each, 64 B frames unless
# said, in one invocation of alternating rounds. Each round runs, one after
# the other:
#   testpmd --forward-mode=txonly (--txpkts=60), and with --txonly-multi-flow
#   the driver's ceiling: scripts/bench-gen-ceiling.c, a bare loop of raw
#     rte_mempool_get_bulk() of prebuilt frames and rte_eth_tx_burst(), and
#     the same loop writing 16 bytes per frame, and 2 bytes (a source port:
#     the least that tells one flow's frame from another's)
#   Sluice: 1 flow unsigned and signed, --flows 1024 (one address, 1024
#     source ports) unsigned and signed, IMIX 7:4:1, 1000 flows of the flow
#     table on one port (unsigned and signed), a VXLAN header stack, and 2
#     lcores sharing one TX queue on one CPU, 4 on two CPUs (the engine's
#     lock and backlog), each against --lock spin in the same round: the
#     locked / spin ratio is printed beside the generator's rows, so a
#     change that speeds one up at the other's cost shows in one table
# Each Sluice figure is taken as a ratio within its round: to testpmd (the
# multi-flow engine for --flows 1024), to the bare ceiling, and for many
# flows to 1 flow of the same signing; the medians of those ratios
# are printed, with TSC cycles per packet (the TSC's measured rate over the
# packet rate: the worker lcore is busy all the time on net_null). Judge
# the ratios: this VM's speed swings by up to 2x between phases.
#
# Sizes: Sluice counts the FCS (64 -> 60 bytes handed to the PMD); testpmd's
# --txpkts is the mbuf length, so --txpkts=60 is the same frame.
# Usage: scripts/bench-gen.sh [SECONDS] [ROUNDS]   (default 5 3; SECONDS >= 3:
# testpmd's first per-second line is dropped, and a median needs some left)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
secs=${1:-5}
[ "$secs" -ge 3 ] 2>/dev/null || { echo "bench: SECONDS must be a whole number >= 3" >&2; exit 2; }
rounds=${2:-3}
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "bench: ROUNDS must be a whole number >= 1" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--no-huge -m 1024 --no-pci --vdev net_null0 --log-level '*:error')
eal=("${common[@]}" -l 0-1)

command -v dpdk-testpmd >/dev/null || { echo "bench: dpdk-testpmd not found (apt install dpdk)" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench: jq not found (apt install jq)" >&2; exit 1; }
# shellcheck disable=SC2046
gcc -O3 -Wall $(pkg-config --cflags libdpdk) "$top/scripts/bench-gen-ceiling.c" -o "$tmp/ceiling" \
	$(pkg-config --libs libdpdk) || { echo "bench: cannot build the ceiling loop" >&2; exit 1; }

# testpmd: median of its per-second Tx-pps lines, first one dropped (start-up).
testpmd() {
	{ timeout -s INT $((secs + 3)) dpdk-testpmd "${eal[@]}" --file-prefix slbtp$$ -- \
		--forward-mode=txonly --stats-period 1 --total-num-mbufs 16384 \
		--burst 32 --txpkts=60 "$@" 2>/dev/null </dev/null || true; } |
		awk '/Tx-pps:/ { for (i = 1; i <= NF; i++) if ($i == "Tx-pps:") print $(i + 1) }' |
		tail -n +2 | head -n "$secs" | sort -g | awk '{a[NR]=$1} END {printf "%.3f\n", a[int((NR+1)/2)]/1e6}'
}

# The ceiling: "Mpps cycles/pkt TSC-MHz".
ceiling() {
	"$tmp/ceiling" "${eal[@]}" --file-prefix slbce$$ -- "$secs" "$1" 2>/dev/null
}

# Sluice: Mpps by its own JSON (frames sent over the run).
sluice() {
	local e=("${eal[@]}")
	if [ "$1" = --shared ]; then
		e=("${common[@]}" --lcores '0@0,1@1,2@1')
		shift
	elif [ "$1" = --shared4 ]; then
		e=("${common[@]}" --lcores '0@0,1@0,2@1,3@0,4@1')
		shift
	fi
	"$bin" "${e[@]}" --file-prefix slbsl$$ -- --duration "$secs" --json "$tmp/s.json" "$@" \
		>/dev/null 2>&1
	jq -r '.totals.tx_pps / 1e6 | . * 1000 | round / 1000' "$tmp/s.json"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print 0 }'; }

for ((k = 0; k < 1000; k++)); do
	echo "flow add f$k port 0 src 198.18.$((k / 250)).$((k % 250 + 1)) dst 198.19.0.1 sport $((1000 + k))"
done >"$tmp/table.txt"
echo start >>"$tmp/table.txt"
printf '%s\n' "flow add vx port 0 stack eth/ipv4/udp/vxlan(vni=5000)/eth/ipv4/udp size 110" start \
	>"$tmp/vxlan.txt"

rows=(unsigned signed flows1024 flows1024_s imix table_u table_s vxlan shared shared_spin shared4
      shared4_spin)
declare -A name=(
	[unsigned]="64 B, 1 flow, unsigned" [signed]="64 B, 1 flow, signed"
	[flows1024]="64 B, --flows 1024" [flows1024_s]="64 B, --flows 1024, signed" [imix]="IMIX 64/594/1518 7:4:1"
	[table_u]="1000 table flows, unsigned" [table_s]="1000 table flows, signed"
	[vxlan]="110 B VXLAN stack" [shared]="2 lcores, 1 shared queue"
	[shared_spin]="  the same, --lock spin" [shared4]="4 lcores, 1 shared queue"
	[shared4_spin]="  the same, --lock spin"
)
declare -A args=(
	[unsigned]="--size 64 --sign off" [signed]="--size 64 --sign on"
	[flows1024]="--size 64 --flows 1024 --sign off"
	[flows1024_s]="--size 64 --flows 1024 --sign on" [imix]="--imix --sign off"
	[table_u]="--sign off --cmdline-file $tmp/table.txt"
	[table_s]="--sign on --cmdline-file $tmp/table.txt"
	[vxlan]="--sign off --cmdline-file $tmp/vxlan.txt"
	[shared]="--shared --size 64 --sign off --map 1-2:0.0"
	[shared_spin]="--shared --size 64 --sign off --map 1-2:0.0 --lock spin"
	[shared4]="--shared4 --size 64 --sign off --map 1-4:0.0"
	[shared4_spin]="--shared4 --size 64 --sign off --map 1-4:0.0 --lock spin"
)
: >"$tmp/log"
for ((r = 0; r < rounds; r++)); do
	tp=$(testpmd)
	tpm=$(testpmd --txonly-multi-flow)
	read -r cb cbc mhz < <(ceiling bare) || { echo "bench: the ceiling loop failed" >&2; exit 1; }
	read -r cw cwc _ < <(ceiling write16) || { echo "bench: the ceiling loop failed" >&2; exit 1; }
	read -r c2 c2c _ < <(ceiling write2) || { echo "bench: the ceiling loop failed" >&2; exit 1; }
	echo "$tp" >>"$tmp/tp"; echo "$tpm" >>"$tmp/tpm"
	echo "$cb" >>"$tmp/cb"; echo "$cbc" >>"$tmp/cbc"; echo "$cw" >>"$tmp/cw"; echo "$cwc" >>"$tmp/cwc"
	echo "$c2" >>"$tmp/c2"; echo "$c2c" >>"$tmp/c2c"; ratio "$c2" "$cb" >>"$tmp/c2.ce"
	ratio "$cw" "$cb" >>"$tmp/cw.ce"
	declare -A got=()
	for w in "${rows[@]}"; do
		# shellcheck disable=SC2086
		got[$w]=$(sluice ${args[$w]})
		base=$tp
		[ "${w%_s}" = flows1024 ] && base=$tpm
		ratio "${got[$w]}" "$base" >>"$tmp/$w.tp"
		ratio "${got[$w]}" "$cb" >>"$tmp/$w.ce"
		awk -v m="$mhz" -v p="${got[$w]}" 'BEGIN { if (p > 0) printf "%.1f\n", m / p; else print 0 }' \
			>>"$tmp/$w.cy"
		echo "${got[$w]}" >>"$tmp/$w.mpps"
	done
	ratio "${got[flows1024]}" "${got[unsigned]}" >>"$tmp/flows1024.one"
	ratio "${got[flows1024_s]}" "${got[signed]}" >>"$tmp/flows1024_s.one"
	ratio "${got[table_u]}" "${got[unsigned]}" >>"$tmp/table_u.one"
	ratio "${got[table_s]}" "${got[signed]}" >>"$tmp/table_s.one"
	# The engine's promise beside the generator's rows (issue 45): locked / spin.
	ratio "${got[shared]}" "${got[shared_spin]}" >>"$tmp/shared.ls"
	ratio "${got[shared4]}" "${got[shared4_spin]}" >>"$tmp/shared4.ls"
	echo "round $((r + 1)): testpmd $tp, multi-flow $tpm, ceiling $cb ($cw writing 16 B, $c2 2 B);" \
		"sluice $(for w in "${rows[@]}"; do printf '%s ' "${got[$w]}"; done)" >>"$tmp/log"
done

echo "# Sluice vs testpmd txonly and the driver's ceiling, net_null, 1 worker lcore, ${secs}s runs,"
echo "# medians of $rounds alternating rounds ($(nproc) CPUs, $(date -u +%F), TSC ${mhz} MHz)"
printf "%-28s %8s %10s %11s %10s\n" workload Mpps "x testpmd" "of ceiling" cycles/pkt
printf "%-28s %8s %10s %11s %10s\n" "testpmd txonly" "$(median <"$tmp/tp")" 1.00 - -
printf "%-28s %8s %10s %11s %10s\n" "testpmd txonly-multi-flow" "$(median <"$tmp/tpm")" - - -
for c in cb cw c2; do
	paste "$tmp/$c" "$tmp/tp" | while read -r a b; do ratio "$a" "$b"; done >"$tmp/$c.tp"
done
printf "%-28s %8s %10s %11s %10s\n" "ceiling: bare loop" "$(median <"$tmp/cb")" \
	"$(median <"$tmp/cb.tp")" 1.00 "$(median <"$tmp/cbc")"
printf "%-28s %8s %10s %11s %10s\n" "ceiling: 16 B written" "$(median <"$tmp/cw")" \
	"$(median <"$tmp/cw.tp")" "$(median <"$tmp/cw.ce")" "$(median <"$tmp/cwc")"
printf "%-28s %8s %10s %11s %10s\n" "ceiling: 2 B written" "$(median <"$tmp/c2")" \
	"$(median <"$tmp/c2.tp")" "$(median <"$tmp/c2.ce")" "$(median <"$tmp/c2c")"
for w in "${rows[@]}"; do
	extra=
	[ -f "$tmp/$w.one" ] && extra="  ($(median <"$tmp/$w.one") of 1 flow)"
	[ "${w%_s}" = flows1024 ] && extra="$extra (x testpmd multi-flow)"
	[ -f "$tmp/$w.ls" ] && extra="$extra  (locked / spin $(median <"$tmp/$w.ls"))"
	printf "%-28s %8s %10s %11s %10s%s\n" "${name[$w]}" "$(median <"$tmp/$w.mpps")" \
		"$(median <"$tmp/$w.tp")" "$(median <"$tmp/$w.ce")" "$(median <"$tmp/$w.cy")" "$extra"
done
cat "$tmp/log"
