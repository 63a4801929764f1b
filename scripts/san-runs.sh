#!/usr/bin/env bash
# Short runs of a sanitizer build of sluice (ASan + UBSan, as .ci/run builds
# it in build-san): each must exit as expected with no sanitizer report.
#   scripts/san-runs.sh build-san/app/sluice/sluice
set -uo pipefail
bin=${1:?usage: scripts/san-runs.sh SLUICE_BINARY}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail=0
# run EXPECTED_EXIT ARGS...: one bounded run on virtual ports.
run() {
	local want=$1 rc
	shift
	timeout -k 5 120 "$bin" --no-huge -m 1024 --no-pci --file-prefix slsan$$ \
		--log-level '*:error' "$@" <"${SAN_STDIN:-/dev/null}" >"$out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out"; then
		echo "san-runs: FAIL (exit $rc, expected $want): $*"
		grep -A20 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out" | head -40
		fail=$((fail + 1))
	else
		echo "san-runs: ok: $*"
	fi
}
run 0 -l 0-1 --vdev net_null0 -- --duration 1 --flows 100 --imix
run 0 --lcores '0,(1-2)@1' -- --sim 10G,verify=on --map 1-2:0.0 --duration 1 --rate 1Mpps
run 0 -l 0-1 --vdev net_ring0 -- --rx 0 --count 100000 --rate 1Mpps
run 0 -l 0-1 -- --sim 10G,dut=0,capacity=100kpps,queue=4096 \
	--bench mlr,trial=0.2,width=0.05,lat=0.1
run 2 -l 0-1 --vdev net_null0 -- --rate 20Mpps --duration 1
# The prompt on the main loop: candidates refused and committed, a benchmark
# from piped input on its own copy of the configuration, a run to its end.
cmds=$(mktemp)
printf '%s\n' "set size 9999" "set size 128" "port config 0 mtu 9000" "set rate 0 1Mpps" \
	"bench trial load=20kpps,trial=0.1,sizes=64:256" "show config" "set duration 0.2" \
	"start" "show port stats all" >"$cmds"
SAN_STDIN=$cmds run 0 -l 0-1 -- --sim 10G,dut=0 -i
# The flow table at the prompt: flows added, refused, changed and deleted,
# a header stack and a classic flow sharing a port's pool, a benchmark on
# flows; then an OTG Config read by --otg-config.
printf '%s\n' "flow add a port 0 to 1 count 3000 size 64-200/8" \
	"flow add v port 0 to 1 count 2000 stack eth/vlan/ipv4/udp/vxlan/eth/ipv6/tcp field vxlan.vni=inc:1,5,2" \
	"flow add bad port 0 stack eth/ipx" "flow set a rate 1Mpps" "flow add b port 1 to 0 burst 10 gap 1ms bursts 5" \
	"start" "show flow stats" "bench trial load=20kpps,trial=0.1" "flow del a" "show flows" \
	"flow del all" >"$cmds"
SAN_STDIN=$cmds run 0 -l 0-1 -- --sim 10G,dut=1 --sim 10G,dut=0 -i
run 0 -l 0-1 -- --sim 10G,dut=1 --sim 10G,dut=0 --otg-config "$(dirname "$0")/../config/otg/two-port.json"
rm -f "$cmds"

# The OTG API under the sanitizers, driven by curl on loopback: a Config, a
# start refused for a name that is no flow, the metrics call whose error
# once named freed memory (issue 49), refusals of every kind, a run started
# and stopped; then SIGTERM. Exit 0, no report.
api_run() {
	local pid url rc i
	timeout -k 5 120 "$bin" --no-huge -m 1024 --no-pci --file-prefix slsanapi$$ \
		--log-level '*:error' -l 0-1 -- --sim 10G,dut=1 --sim 10G,dut=0 \
		--api http://127.0.0.1:0 </dev/null >"$out" 2>&1 &
	pid=$!
	for _ in $(seq 300); do grep -q '^api: http' "$out" && break; sleep 0.1; done
	url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$out" | head -1)
	c() { curl -s --max-time 20 -o /dev/null -w '%{http_code} ' "$@"; }
	if [ -n "$url" ]; then
		c -XPOST --data-binary @"$(dirname "$0")/../config/otg/two-port.json" "${url}config"
		for i in 1 2 3 4 5; do
			c -XPOST -d '{"choice":"port","port":{"port_names":"p1"}}' "${url}monitor/metrics"
			c -XPOST -d '{"choice":"flow","flow":{"flow_names":{"a":1}}}' "${url}monitor/metrics"
		done
		c -XPOST -d '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":["f1","nosuch"],"state":"start"}}}' "${url}control/state"
		c -XPOST -d '{"choice":"port","port":{"choice":"link","link":{"port_names":"p1","state":"down"}}}' "${url}control/state"
		c -XPOST -d '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"state":"start"}}}' "${url}control/state"
		c -XPOST -d '{"choice":"flow","flow":{}}' "${url}monitor/metrics"
		c -XPOST -d '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"flow_names":"f1","state":"stop"}}}' "${url}control/state"
		c -XPOST -d '{"choice":"traffic","traffic":{"choice":"flow_transmit","flow_transmit":{"state":"stop"}}}' "${url}control/state"
		c -XPOST -d 'not json' "${url}config"
		c -XPUT "${url}config"
		c "${url}nothing"
		c "${url}metrics"
		head -c 5000000 /dev/zero | c -XPOST --data-binary @- "${url}config"
		echo
	fi
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	if [ -z "$url" ] || [ "$rc" != 0 ] ||
		grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out"; then
		echo "san-runs: FAIL (exit $rc): the API under curl"
		grep -A20 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out" | head -40
		fail=$((fail + 1))
	else
		echo "san-runs: ok: the API under curl"
	fi
}
api_run
echo "san-runs: $((9 - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
