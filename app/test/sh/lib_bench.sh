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
