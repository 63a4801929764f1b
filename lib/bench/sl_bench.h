/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_BENCH_H
#define SL_BENCH_H

/**
 * @file
 * Benchmark searches, pure C (no EAL): RFC 2544 throughput (binary search)
 * and RFC 9971 MLRsearch (several goals in one search). A search is a
 * state machine driven by its caller, who owns the trials:
 *
 *     sl_search_init(&s, &params);
 *     while (sl_search_next(&s, &req))           what to measure next
 *             sl_search_record(&s, &req, &res);  what the trial measured
 *     sl_search_result(&s, goal, &load)          per goal
 *
 * Loads are in packets per second per sending port (the caller turns them
 * into rates); the search only compares them. The same inputs give the same
 * requests: a search is deterministic.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sl_bench_method { SL_BENCH_NONE = 0, SL_BENCH_RFC2544, SL_BENCH_MLR };

#define SL_BENCH_MAX_GOALS 4
#define SL_BENCH_MAX_LOADS 256   /* distinct loads one search may measure */
#define SL_BENCH_MAX_TRIALS 512  /* trials one search may run (the default budget) */
#define SL_BENCH_MAX_SECONDS 3600.0 /* trial time one search may use (the default budget) */
#define SL_BENCH_SHORTFALL_MAX 0.01 /* most shortfall that counts as the load asked */

/** An RFC 9971 search goal. */
struct sl_bench_goal {
	double loss_ratio;     /**< goal loss ratio, 0..1 (NDR 0, PDR 0.005) */
	double exceed_ratio;   /**< goal exceed ratio, 0..1 (0.5 as CSIT) */
	double width;          /**< goal width, relative to the upper bound (0.005) */
	double initial_s;      /**< goal initial trial duration */
	double final_s;        /**< goal final trial duration */
	double sum_s;          /**< goal duration sum (>= final_s) */
	char name[16];         /**< "NDR", "PDR"; rfc2544: "throughput" */
};

struct sl_bench_params {
	enum sl_bench_method method;
	double min_load, max_load;  /**< pps per sending port, 0 < min <= max */
	/* rfc2544: goals[0] holds the loss tolerance (loss_ratio), the width
	 * (the search stops when (hi - lo) <= width * hi), the search trials'
	 * duration (initial_s) and the final trial's (final_s). */
	struct sl_bench_goal goals[SL_BENCH_MAX_GOALS];
	unsigned int nb_goals;
	unsigned int max_trials;    /**< the budget in trials; 0: SL_BENCH_MAX_TRIALS */
	double max_seconds;         /**< the budget in trial time; 0: SL_BENCH_MAX_SECONDS */
};

/** What the search asks for. */
struct sl_trial_req {
	double load;        /**< pps per sending port */
	double pace;        /**< pps to pace the frames at, >= load: the load, or a little
			         more for a generator that fell short of its last loads (the
			         least shortfall of its last three trials below the max, at most
			         5 %), so that it offers the load; the caller keeps it within
			         the line */
	double duration_s;
	unsigned int goal;  /**< the goal this trial serves */
	bool final;         /**< rfc2544: the final (long) trial */
};

/** What a trial measured (the caller's measurer fills it). */
struct sl_trial_res {
	double loss_ratio;   /**< (sent - received) / sent: against the frames really sent */
	double achieved;     /**< pps per port the generator really offered */
	double forwarding;   /**< pps per port received (the forwarding rate) */
};

/** Per load: every trial's duration, by outcome, per goal. */
struct sl_bench_load {
	double load;
	double dur[SL_BENCH_MAX_GOALS][2][2]; /**< [goal][full-length?][high-loss?] seconds */
	double low_offered[SL_BENCH_MAX_GOALS][2]; /**< low-loss trials here: [0] the sum of
						      load offered x duration, [1] their duration */
	unsigned int trials;
};

/** A load's state for one goal (RFC 9971 "load classification"). */
enum sl_load_class { SL_LOAD_UNDECIDED = 0, SL_LOAD_LOWER, SL_LOAD_UPPER };

struct sl_search {
	struct sl_bench_params p;
	struct sl_bench_load loads[SL_BENCH_MAX_LOADS];
	unsigned int nb_loads;
	unsigned int trials;         /**< trials recorded */
	unsigned int shorts;         /**< trials in which the generator fell short of the load */
	unsigned int retries;        /**< of those, run again (a stall): not counted */
	double last_at;              /**< the load the last trial recorded counts at (its load
				          asked, or the generator's ceiling); 0: not counted */
	double counted[SL_BENCH_MAX_GOALS]; /**< the load it counts at, per goal */
	double ratio[3];             /**< achieved / pace of the last trials below the max */
	unsigned int nb_ratio;
	unsigned int stuck;          /**< counted short trials in a row that moved no lower bound */
	bool retrying;               /**< the next trial is retry, again */
	bool last_retry;             /**< the last trial recorded is run again, not counted */
	struct sl_trial_req retry;
	struct sl_trial_res retry_res; /**< what the trial run again measured */
	double spent_s;              /**< trial time used (the budget's seconds) */
	double tol;                  /**< shortfall that still counts as the load asked */
	double gen_max;              /**< the highest load the search asks: max_load, or the
				          generator's measured ceiling */
	double gen_ceiling;          /**< what the generator achieved when it set gen_max */
	bool gen_limited;            /**< the generator's ceiling lowered the search's max */
	double fwd_at_max;           /**< forwarding rate of the first lossy trial (mlr's start) */
	unsigned int goal;           /**< the goal being searched */
	unsigned int phase;          /**< mlr: 0 initial-duration trials, 1 final */
	unsigned int expand;         /**< mlr: expansions in a row (the step doubles) */
	bool done;
	const char *why;             /**< why it ended early (NULL: it converged) */
	/* rfc2544 state */
	double lo, hi;               /**< passing and failing loads (lo 0: none) */
	double lo_offered[2];        /**< the passing trials at lo: sum of load offered x
				          duration, and their duration */
	double max_tried;            /**< the max (gen_max) last tried */
	bool need_final, final_failed;
};

/** A goal's result (sl_search_result()). */
struct sl_bench_result {
	double lower;      /**< relevant lower bound, the load asked (0: none) */
	double achieved;   /**< the load really offered by lower's low-loss trials, their
			        mean weighted by duration (<= lower): the result */
	double upper;      /**< relevant upper bound (0: none) */
	bool converged;    /**< within the goal width, or at the max, or even min fails */
	bool at_ceiling;   /**< the result is the generator's ceiling: the DUT's is higher */
};

/**
 * Check parameters; 0 or -EINVAL with err naming the parameter:
 * width <= 0 or >= 1, min > max, min <= 0, a loss ratio outside 0..1,
 * an exceed ratio outside 0..1 (1 excluded), durations <= 0, sum < final.
 */
int sl_bench_params_check(const struct sl_bench_params *p, char *err, size_t len);

/** Defaults: NDR 0 and PDR 0.5 %, width 0.5 %, exceed 0.5, 1 s / 1 s / 21 s (mlr);
 * tolerance 0, width 0.5 %, trials 1 s and final 60 s (rfc2544). */
void sl_bench_params_default(struct sl_bench_params *p, enum sl_bench_method m);

void sl_search_init(struct sl_search *s, const struct sl_bench_params *p);
/**
 * The next trial to run; false when the search is over (converged, or out
 * of its budget: s->why says which budget). A trial is never asked above
 * the generator's ceiling, nor one whose duration would pass the budget's
 * seconds.
 */
bool sl_search_next(struct sl_search *s, struct sl_trial_req *req);
/**
 * Record what the trial asked by req measured. Every trial counts (RFC
 * 9971, but loss is counted against the frames really sent; frames the
 * generator did not send are its shortfall, not the DUT's loss). For each
 * goal, a trial whose loss exceeds the goal's loss ratio is high-loss at
 * the load asked, or at the load really offered when that was more (by more
 * than s->tol); one within it is low-loss at the load asked, or at the load
 * really offered when that was less (snapped down to a load already
 * measured within s->tol below it, so that such trials add up at one
 * load): never low-loss at a load that was not offered, never high-loss at
 * one below what was. A goal's result is the load really offered by the
 * low-loss trials of its relevant lower bound (their mean by duration).
 *
 * A short trial at the max runs again once, not counted (sl_search_next()
 * asks it), before its shortfall is taken for the generator's ceiling (the
 * trial of the two that offered more counts, with its own loss, at what it
 * offered, which becomes the search's max, once; later trials at the
 * ceiling count there, their result what they offered). Below the max a
 * short trial counts at once, as above. The search ends ("the generator
 * fell short of the loads left to try") after six short low-loss trials
 * counted in a row, none of which raised a goal's lower bound or counted
 * above it: a search that still narrows never ends so. Loads asked are
 * never below the min.
 */
void sl_search_record(struct sl_search *s, const struct sl_trial_req *req,
		      const struct sl_trial_res *res);
/**
 * A goal's result. The lower bound is reported as soon as there is one
 * (progress, partial reports); converged says whether it is the goal's
 * answer. Returns r->converged && !r->at_ceiling: the DUT's own result.
 */
bool sl_search_result(const struct sl_search *s, unsigned int goal, struct sl_bench_result *r);
/** A load's class for a goal (RFC 9971 appendix A, simplified as documented). */
enum sl_load_class sl_bench_classify(const struct sl_bench_goal *g, const struct sl_bench_load *l,
				     unsigned int gi);

const char *sl_bench_method_name(enum sl_bench_method m);

#endif /* SL_BENCH_H */
