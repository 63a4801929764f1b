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
#    frames was sent more than its capacity over the trial's window, or met
#    a burst that can overflow the queue: a pacer that ran L late is at
#    most L x pace frames behind its schedule and catches up without ever
#    running ahead of it (behind_max_frames), so with the engine's bursts
#    the queue holds at most behind_max_frames + 64 above the load.
# 2. The result is no more than the DUT: NDR <= HI.
# 3. A converged NDR brackets the capacity: its upper bound is a load that
#    lost, so (1) puts it above C / (1 + tol) unless a trial lost to a
#    burst, and the result is within the width and the tolerance below it:
#    NDR >= C (1 - W)(1 - tol) / (1 + tol), tol the search's shortfall
#    tolerance (SL_BENCH_SHORTFALL_MAX). After a loss to a burst that side
#    is a SKIP that names the trials.
dut_truth() {
	local name=$1 j=$2 caps=$3 q=$4 hi=$5 w=$6 bad ndr lo bursts
	bad=$(jq -c --argjson caps "$caps" --argjson q "$q" '[.bench.trials[] | . as $t |
		.directions[]? | select(.lost > 0 and .tx_packets <= $caps[.tx_port] * $t.effective_s and
			$t.behind_max_frames + 64 < $q) |
		[$t.n, .tx_port, .tx_packets, .lost, $t.behind_max_frames]]' "$j")
	bursts=$(jq -c --argjson caps "$caps" '[.bench.trials[] | . as $t | select(any(.directions[]?;
		.lost > 0 and .tx_packets <= $caps[.tx_port] * $t.effective_s)) | .n]' "$j")
	[ "$bad" = "[]" ] &&
		ok "$name: every trial that lost was fed above the DUT's capacity, or a burst its queue of $q could not hold (trials $bursts)" ||
		ko "$name: the DUT lost frames fed within its capacity, in bursts its queue of $q holds ([n, port, tx, lost, behind]): $bad"
	ndr=$(jq '.bench.results[0] | .ndr_pps / .ports' "$j")
	check "$name: the NDR $ndr a port is no more than the DUT's $hi" \
		jqe --argjson hi "$hi" '.bench.results[0] | .ndr_pps / .ports <= $hi' "$j"
	jqe '.bench.results[0].ndr_converged' "$j" || return 0
	lo=$(jq -n --argjson caps "$caps" --argjson w "$w" \
		'([$caps[] | select(. > 0)] | min) * (1 - $w) * 0.99 / 1.01')
	if [ "$bursts" != "[]" ]; then
		skip "$name: the NDR's lower side: trial(s) $bursts lost to a burst (the generator's lcore ran late)"
	else
		check "$name: the converged NDR $ndr a port brackets the capacity: >= $lo" \
			jqe --argjson lo "$lo" '.bench.results[0] | .ndr_pps / .ports >= $lo' "$j"
	fi
}
