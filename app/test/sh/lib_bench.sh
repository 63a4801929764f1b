# shellcheck shell=bash
# What the benchmark tests share (sourced; ok and ko are the caller's).

# pace_exact NAME JSON: every trial's pacers asked its load over its window
# to the frame (paced_pps x duration_s a sending port, or one more: the
# frame due at the window's last instant), and every frame asked is
# accounted for: sent, dropped or queued by the engine, made but never sent,
# or let go (issue 44). It holds on a busy machine too: what a stall took
# is let go, and counted. How much was let go is printed, not judged.
pace_exact() {
	local name=$1 j=$2 bad
	bad=$(jq -c '[.bench.trials[] | ((.directions // [1]) | length) as $p |
		((.paced_pps * .duration_s) | round) as $want |
		select(.asked < $want or .asked > $want + $p or
			.asked != .tx_packets + .gen_dropped + .gen_backlog + .unsent + .let_go_frames) |
		[.n, $want, .asked, .tx_packets, .gen_dropped, .gen_backlog, .unsent, .let_go_frames]]' "$j")
	[ "$bad" = "[]" ] &&
		ok "$name: every trial asked paced x duration frames and accounted for each ($(jq -r '[.bench.trials[] | select(.let_go_frames == 0)] | length' "$j") of $(jq '.bench.trials | length' "$j") let go none; at most $(jq '[.bench.trials[] | .let_go_frames] | max' "$j") frames)" ||
		ko "$name: trials whose frames asked are not paced x duration, or not accounted for ([n, want, asked, tx, dropped, backlog, unsent, let go]): $bad"
}

# dut_truth NAME JSON CAPS Q HI W: what the sim DUT's own rules make true
# on any machine, judged from the counts (issue 44 item 5: never where a
# timed search lands against a fixed margin). CAPS: a JSON array, the
# capacity (pps) of the DUT behind each sending port; Q: the DUT's queue
# (frames); HI: the most the weakest DUT can pass (C + Q/T); W: the goal
# width. The NDR is judged per sending port (the search's load), against
# the weakest DUT.
# 1. The DUT loses only what overflows its queue. A direction that lost
#    frames was paced above its capacity, or met a burst that can overflow
#    the queue: a pacer never runs ahead of its schedule, so above its pace
#    it sends at most what it is behind at once (behind_max_frames: the
#    lag it makes up at once and what it owes), and the engine's burst.
# 2. The result is no more than the DUT: NDR <= HI.
# 3. A converged NDR brackets the capacity: its upper bound is a load that
#    lost, counted at the load asked or more; unless a trial lost at a load
#    below C / (1 + tol) (a burst, or a pace set above the load for a
#    generator that fell short), that bound is above it, and the result
#    is within the width and the tolerance below it: NDR >= C (1 - W)
#    (1 - tol) / (1 + tol), tol the search's shortfall tolerance
#    (SL_BENCH_SHORTFALL_MAX). Otherwise that side is a SKIP naming them.
dut_truth() {
	local name=$1 j=$2 caps=$3 q=$4 hi=$5 w=$6 bad ndr lo low
	bad=$(jq -c --argjson caps "$caps" --argjson q "$q" '[.bench.trials[] | . as $t |
		.directions[]? | select(.lost > 0 and $t.paced_pps <= $caps[.tx_port] and
			$t.behind_max_frames + 64 < $q) |
		[$t.n, .tx_port, $t.paced_pps, .lost, $t.behind_max_frames]]' "$j")
	low=$(jq -c --argjson caps "$caps" '[.bench.trials[] | . as $t | select(.counted_pps > 0 and
		any(.directions[]?; .lost > 0 and $t.load_pps < $caps[.tx_port] / 1.01)) | .n]' "$j")
	[ "$bad" = "[]" ] &&
		ok "$name: every trial that lost was paced above the DUT's capacity, or met a burst its queue of $q could not hold (lost below the capacity: trials $low)" ||
		ko "$name: the DUT lost frames paced within its capacity, in bursts its queue of $q holds ([n, port, paced, lost, behind]): $bad"
	ndr=$(jq '.bench.results[0] | .ndr_pps / .ports' "$j")
	check "$name: the NDR $ndr a port is no more than the DUT's $hi" \
		jqe --argjson hi "$hi" '.bench.results[0] | .ndr_pps / .ports <= $hi' "$j"
	jqe '.bench.results[0].ndr_converged' "$j" || return 0
	lo=$(jq -n --argjson caps "$caps" --argjson w "$w" \
		'([$caps[] | select(. > 0)] | min) * (1 - $w) * 0.99 / 1.01')
	if [ "$low" != "[]" ]; then
		skip "$name: the NDR's lower side: counted trial(s) $low lost below the DUT's capacity (a burst: the generator's lcore ran late)"
	else
		check "$name: the converged NDR $ndr a port brackets the capacity: >= $lo" \
			jqe --argjson lo "$lo" '.bench.results[0] | .ndr_pps / .ports >= $lo' "$j"
	fi
}
