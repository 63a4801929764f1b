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
#define SL_BENCH_MAX_TRIALS 512  /* trials one search may run */
#define SL_BENCH_RETRIES 3       /* invalid trials in a row at one load before it is out of reach */

/** An RFC 9971 search goal. */
struct sl_bench_goal {
	double loss_ratio;     /**< goal loss ratio, 0..1 (NDR 0, PDR 0.005) */
	double exceed_ratio;   /**< goal exceed ratio, 0..1 (0.5 as CSIT) */
	double width;          /**< goal width, relative to the upper bound (0.005) */
	double initial_s;      /**< goal initial trial duration */
	double final_s;        /**< goal final trial duration */
	double sum_s;          /**< goal duration sum (>= final_s) */
	char name[16];         /**< "NDR", "PDR" */
};

struct sl_bench_params {
	enum sl_bench_method method;
	double min_load, max_load;  /**< pps per sending port, 0 < min <= max */
	/* rfc2544: goals[0] holds the loss tolerance (loss_ratio), the width
	 * (the search stops when (hi - lo) <= width * hi), the search trials'
	 * duration (initial_s) and the final trial's (final_s). */
	struct sl_bench_goal goals[SL_BENCH_MAX_GOALS];
	unsigned int nb_goals;
	unsigned int max_trials;    /**< 0: SL_BENCH_MAX_TRIALS */
};

/** What the search asks for. */
struct sl_trial_req {
	double load;        /**< pps per sending port */
	double duration_s;
	unsigned int goal;  /**< the goal this trial serves */
	bool final;         /**< rfc2544: the final (long) trial */
};

/** What a trial measured (the caller's measurer fills it). */
struct sl_trial_res {
	bool valid;          /**< false: the generator did not offer the load */
	double loss_ratio;   /**< (sent - received) / sent; ignored if !valid */
	double achieved;     /**< pps per port the generator really offered */
};

/** Per load: every trial's duration, by outcome, per goal. */
struct sl_bench_load {
	double load;
	double dur[SL_BENCH_MAX_GOALS][2][2]; /**< [goal][full-length?][high-loss?] seconds */
	unsigned int trials;
};

/** A load's state for one goal (RFC 9971 "load classification"). */
enum sl_load_class { SL_LOAD_UNDECIDED = 0, SL_LOAD_LOWER, SL_LOAD_UPPER };

struct sl_search {
	struct sl_bench_params p;
	struct sl_bench_load loads[SL_BENCH_MAX_LOADS];
	unsigned int nb_loads;
	unsigned int trials;         /**< trials recorded (valid or not) */
	unsigned int invalid;        /**< trials the generator could not offer */
	double gen_max;              /**< highest load the generator managed (0: max_load) */
	bool gen_limited;            /**< the generator capped max_load */
	double inv_load;             /**< the load of the invalid trials in a row */
	unsigned int inv_streak;     /**< invalid trials in a row at inv_load */
	double fwd_at_max;           /**< forwarding rate of the first lossy trial (mlr's start) */
	unsigned int goal;           /**< the goal being searched */
	unsigned int phase;          /**< mlr: 0 initial-duration trials, 1 final */
	unsigned int expand;         /**< mlr: expansions in a row (the step doubles) */
	bool done;
	const char *why;             /**< why it ended early (NULL: it converged) */
	/* rfc2544 state */
	double lo, hi;               /**< passing and failing loads (lo 0: none) */
	bool need_final, final_failed;
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
/** The next trial to run; false when the search is over. */
bool sl_search_next(struct sl_search *s, struct sl_trial_req *req);
/** Record what the trial asked by req measured. */
void sl_search_record(struct sl_search *s, const struct sl_trial_req *req,
		      const struct sl_trial_res *res);
/**
 * A goal's result: the relevant lower bound (pps per port), 0 when even
 * min_load failed. Returns true when the result meets its width (or is the
 * max load itself, or the min load failed), false when the search ended
 * before (out of trials, interrupted).
 */
bool sl_search_result(const struct sl_search *s, unsigned int goal, double *load, double *upper);
/** A load's class for a goal (RFC 9971 appendix A, simplified as documented). */
enum sl_load_class sl_bench_classify(const struct sl_bench_goal *g, const struct sl_bench_load *l,
				     unsigned int gi);

const char *sl_bench_method_name(enum sl_bench_method m);

#endif /* SL_BENCH_H */
