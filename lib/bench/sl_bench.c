/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark searches (sl_bench.h): RFC 2544 binary search and a simplified,
 * faithful RFC 9971 MLRsearch. docs/benchmarking.md says what is simplified.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sl_bench.h"

#define EPS 1e-9
#define RTE_MIN(a, b) ((a) < (b) ? (a) : (b))

const char *
sl_bench_method_name(enum sl_bench_method m)
{
	return m == SL_BENCH_RFC2544 ? "rfc2544" : m == SL_BENCH_MLR ? "mlr" : "none";
}

void
sl_bench_params_default(struct sl_bench_params *p, enum sl_bench_method m)
{
	memset(p, 0, sizeof(*p));
	p->method = m;
	p->min_load = 0;   /* the caller sets min and max from the line */
	p->max_load = 0;
	if (m == SL_BENCH_RFC2544) {
		p->nb_goals = 1;
		p->goals[0] = (struct sl_bench_goal){ .loss_ratio = 0, .exceed_ratio = 0,
						      .width = 0.005, .initial_s = 1,
						      .final_s = 60, .sum_s = 60,
						      .name = "throughput" };
	} else {
		p->nb_goals = 2;
		p->goals[0] = (struct sl_bench_goal){ .loss_ratio = 0, .exceed_ratio = 0.5,
						      .width = 0.005, .initial_s = 1,
						      .final_s = 1, .sum_s = 21, .name = "NDR" };
		p->goals[1] = p->goals[0];
		p->goals[1].loss_ratio = 0.005;
		snprintf(p->goals[1].name, sizeof(p->goals[1].name), "PDR");
	}
}

int
sl_bench_params_check(const struct sl_bench_params *p, char *err, size_t len)
{
	if (p->method != SL_BENCH_RFC2544 && p->method != SL_BENCH_MLR) {
		snprintf(err, len, "method: not rfc2544 or mlr");
		return -EINVAL;
	}
	if (!(p->min_load > 0)) {
		snprintf(err, len, "min: the minimum load must be above 0");
		return -EINVAL;
	}
	if (!(p->min_load <= p->max_load)) {
		snprintf(err, len, "min: %.6g pps is above max %.6g pps", p->min_load, p->max_load);
		return -EINVAL;
	}
	if (p->nb_goals == 0 || p->nb_goals > SL_BENCH_MAX_GOALS) {
		snprintf(err, len, "goals: 1 to %d goals", SL_BENCH_MAX_GOALS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < p->nb_goals; i++) {
		const struct sl_bench_goal *g = &p->goals[i];

		if (!(g->width > 0 && g->width < 1)) {
			snprintf(err, len, "width: %g is not a relative width above 0 and below 1 "
				 "(such as 0.005)", g->width);
			return -EINVAL;
		}
		if (!(g->loss_ratio >= 0 && g->loss_ratio <= 1)) {
			snprintf(err, len, "loss: goal loss ratio %g is not from 0 to 1 "
				 "(such as 0.005)", g->loss_ratio);
			return -EINVAL;
		}
		if (!(g->exceed_ratio >= 0 && g->exceed_ratio < 1)) {
			snprintf(err, len, "exceed: %g is not from 0 to 1 (1 excluded)",
				 g->exceed_ratio);
			return -EINVAL;
		}
		if (!(g->initial_s > 0 && g->final_s > 0 && g->initial_s <= 86400 &&
		      g->final_s <= 86400)) {
			snprintf(err, len, "duration: trial durations must be above 0 s "
				 "(and at most a day)");
			return -EINVAL;
		}
		if (!(g->sum_s >= g->final_s - EPS && g->sum_s <= 864000)) {
			snprintf(err, len, "sum: the duration sum %g s is below the final "
				 "trial duration %g s", g->sum_s, g->final_s);
			return -EINVAL;
		}
	}
	return 0;
}

void
sl_search_init(struct sl_search *s, const struct sl_bench_params *p)
{
	double w = 1;

	memset(s, 0, sizeof(*s));
	s->p = *p;
	if (s->p.max_trials == 0 || s->p.max_trials > SL_BENCH_MAX_TRIALS)
		s->p.max_trials = SL_BENCH_MAX_TRIALS;
	if (!(s->p.max_seconds > 0))
		s->p.max_seconds = SL_BENCH_MAX_SECONDS;
	s->gen_max = p->max_load;
	/*
	 * A shortfall of half the narrowest goal width (at most 1 %) moves a
	 * result by at most half a width: such a trial counts at the load asked.
	 */
	for (unsigned int i = 0; i < p->nb_goals; i++)
		w = fmin(w, p->goals[i].width);
	s->tol = fmin(SL_BENCH_SHORTFALL_MAX, w / 2);
}

static double
max_eff(const struct sl_search *s)
{
	return s->gen_max;
}

/* RFC 9971 appendix A: classify with the four duration sums. */
static enum sl_load_class
classify_sums(const struct sl_bench_goal *g, double good_long, double bad_long, double good_short,
	      double bad_short)
{
	double exceed = g->exceed_ratio, subceed = 1 - exceed;
	double balancing = good_short * exceed / subceed;
	double eff_bad = bad_long + fmax(0, bad_short - balancing);
	double whole = fmax(good_long + eff_bad, g->sum_s);
	double quantile = whole * exceed;
	double pess_high = whole - good_long;

	if (eff_bad > quantile + EPS)
		return SL_LOAD_UPPER;
	if (pess_high <= quantile + EPS)
		return SL_LOAD_LOWER;
	return SL_LOAD_UNDECIDED;
}

enum sl_load_class
sl_bench_classify(const struct sl_bench_goal *g, const struct sl_bench_load *l, unsigned int gi)
{
	return classify_sums(g, l->dur[gi][1][0], l->dur[gi][1][1], l->dur[gi][0][0],
			     l->dur[gi][0][1]);
}

/* Phase 0 of a goal: trials of the initial duration, each deciding alone. */
static enum sl_load_class
classify_initial(const struct sl_bench_goal *g, const struct sl_bench_load *l, unsigned int gi)
{
	struct sl_bench_goal v = *g;

	v.exceed_ratio = 0;
	v.final_s = g->initial_s;
	v.sum_s = g->initial_s;
	/* Every trial counts as full length: the outcome of the last ones decide. */
	return classify_sums(&v, l->dur[gi][0][0] + l->dur[gi][1][0], l->dur[gi][0][1] +
			     l->dur[gi][1][1], 0, 0);
}

static struct sl_bench_load *
load_find(struct sl_search *s, double load, bool add)
{
	for (unsigned int i = 0; i < s->nb_loads; i++)
		if (fabs(s->loads[i].load - load) <= EPS * fmax(1, load))
			return &s->loads[i];
	if (!add || s->nb_loads == SL_BENCH_MAX_LOADS)
		return NULL;
	s->loads[s->nb_loads].load = load;
	return &s->loads[s->nb_loads++];
}

/* The relevant bounds of goal gi (phase 0 or 1); *und: the undecided load to try next. */
static void
bounds(const struct sl_search *s, unsigned int gi, int phase, double *rlb, double *rub,
       double *und)
{
	const struct sl_bench_goal *g = &s->p.goals[gi];

	*rub = 0;
	*rlb = 0;
	*und = 0;
	for (unsigned int i = 0; i < s->nb_loads; i++) {
		const struct sl_bench_load *l = &s->loads[i];
		enum sl_load_class c = phase == 0 ? classify_initial(g, l, gi) :
						    sl_bench_classify(g, l, gi);

		if (c == SL_LOAD_UPPER && (*rub == 0 || l->load < *rub))
			*rub = l->load;
	}
	for (unsigned int i = 0; i < s->nb_loads; i++) {
		const struct sl_bench_load *l = &s->loads[i];
		enum sl_load_class c = phase == 0 ? classify_initial(g, l, gi) :
						    sl_bench_classify(g, l, gi);

		if (l->load > max_eff(s) + EPS || (*rub != 0 && l->load >= *rub))
			continue;
		if (c == SL_LOAD_LOWER && l->load > *rlb)
			*rlb = l->load;
	}
	for (unsigned int i = 0; i < s->nb_loads; i++) {
		const struct sl_bench_load *l = &s->loads[i];
		enum sl_load_class c = phase == 0 ? classify_initial(g, l, gi) :
						    sl_bench_classify(g, l, gi);

		if (c != SL_LOAD_UNDECIDED || l->load <= *rlb || l->trials == 0 ||
		    (*rub != 0 && l->load >= *rub) || l->load > max_eff(s) + EPS)
			continue;
		/*
		 * Between two bounds, the highest (the one that would become the
		 * lower bound); with no upper bound, the lowest above the lower
		 * one (the nearest that could become the upper bound).
		 */
		if (*und == 0 || (*rub != 0 ? l->load > *und : l->load < *und))
			*und = l->load;
	}
}

/*
 * The forwarding rate measured at the upper bound, as a load: the highest
 * of rub (1 - w)^k not above it. A measured rate differs between two runs
 * by a few frames of timing; on this grid the next load does not (unless
 * the rate sits within that noise of a grid point), so the same DUT gives
 * the same trials. The load is at most w below the rate: one step of the
 * search's own resolution.
 */
static double
fwd_grid(double rub, double w, double fwd)
{
	double k = ceil(log(fwd / rub) / log(1 - w) - 1e-9);

	return rub * pow(1 - w, k);
}

/* mlr: the next load for goal gi in phase ph; 0 when the goal is done in that phase. */
static double
mlr_next_load(struct sl_search *s, unsigned int gi, int ph)
{
	const struct sl_bench_goal *g = &s->p.goals[gi];
	/*
	 * Both phases narrow to the goal's width: a trial of the initial phase
	 * decides alone (one trial a load), one of the final phase only with
	 * the duration sum (with CSIT's defaults, 11 trials a load), so the
	 * final phase classifies the two loads the initial one ended between
	 * and, if they hold, no load between them.
	 */
	double w = g->width;
	double rlb, rub, und, mx = max_eff(s), mn = s->p.min_load;

	bounds(s, gi, ph, &rlb, &rub, &und);
	if (ph == 1 && (rub == 0 || rlb == 0)) {
		/*
		 * The final phase starts where the initial one ended (as CSIT
		 * does): its relevant upper bound, then its lower bound, each
		 * until the final trials classify it; not every load it tried.
		 */
		double l0, u0, x0;

		bounds(s, gi, 0, &l0, &u0, &x0);
		if (rub == 0) {
			/* The lowest load above rlb the initial trials found an upper bound. */
			u0 = 0;
			for (unsigned int i = 0; i < s->nb_loads; i++) {
				const struct sl_bench_load *l = &s->loads[i];

				if (l->load > rlb && l->load <= mx + EPS * mx &&
				    (u0 == 0 || l->load < u0) &&
				    classify_initial(g, l, gi) == SL_LOAD_UPPER)
					u0 = l->load;
			}
			if (u0 != 0)
				return u0;
		}
		if (rlb == 0 && l0 != 0 && (rub == 0 || l0 < rub))
			return l0;
	}
	if (und != 0)
		return und;
	if (rub > mx + EPS * mx)
		rub = 0;  /* above what the generator can offer: no upper bound in reach */
	if (rub == 0) {
		if (rlb == 0)
			return mx;                    /* nothing measured yet: the max */
		if (rlb >= mx - EPS * mx)
			return 0;                     /* the max load is a lower bound */
		/* Expand upwards, the relative step doubling each time the bound holds. */
		{
			double step = fmin(0.5, w * (double)(1u << RTE_MIN(s->expand, 20u)));

			s->expand++;
			return fmin(mx, rlb / (1 - step));
		}
	}
	if (rlb == 0) {
		/* Expand downwards: first to the forwarding rate seen at the upper
		 * bound (CSIT's start), then by doubling steps. */
		double l;

		if (rub <= mn + EPS * mn)
			return 0;                     /* even the min load fails */
		/* The relative step doubles with each expansion. */
		l = rub * (1 - fmin(0.5, w * (double)(1u << RTE_MIN(s->expand, 20u))));
		s->expand++;
		if (s->fwd_at_max > 0 && s->fwd_at_max < l) {
			double f = fwd_grid(rub, w, s->fwd_at_max);

			if (f < l && load_find(s, f, false) == NULL)
				l = f;
		}
		return fmax(mn, l);
	}
	if (rub - rlb <= w * rub + EPS * rub)
		return 0;
	if (rub - rlb <= 2 * w * rub)
		return rub * (1 - w);
	{
		/*
		 * Far apart: up from the lower bound by steps that double, as
		 * long as that stays below the middle. The lower bound is most
		 * often the forwarding rate the max measured (CSIT's start),
		 * and the DUT's rate just above it: a step or two find it where
		 * halving [lower, max] would take ten.
		 */
		double up = rlb / (1 - fmin(0.5, w * (double)(1u << RTE_MIN(s->expand, 20u))));

		if (up < (rlb + rub) / 2) {
			s->expand++;
			return up;
		}
	}
	return (rlb + rub) / 2;
}

static bool
rfc2544_next(struct sl_search *s, struct sl_trial_req *req)
{
	const struct sl_bench_goal *g = &s->p.goals[0];
	double mn = s->p.min_load, mx = max_eff(s);

	req->goal = 0;
	req->final = false;
	req->duration_s = g->initial_s;
	if (s->need_final) {
		req->load = s->lo;
		req->final = true;
		req->duration_s = g->final_s;
		return true;
	}
	if (s->lo == 0 && (s->hi == 0 || s->hi > mx + EPS * mx) && !s->final_failed &&
	    s->max_tried != mx) {
		/* The max first (again, if the generator's ceiling came down). */
		s->max_tried = mx;
		req->load = mx;
		return true;
	}
	if (s->lo != 0 && (s->lo >= mx - EPS * mx ||
			   (s->hi != 0 && s->hi - s->lo <= g->width * s->hi + EPS * s->hi))) {
		s->need_final = true;
		return rfc2544_next(s, req);
	}
	if (s->lo == 0) {
		double hi = s->hi != 0 ? fmin(s->hi, mx) : mx;

		if (hi <= mn + EPS * mn) {
			s->done = true;  /* even the min load fails */
			return false;
		}
		req->load = hi - mn <= g->width * hi ? mn : (mn + hi) / 2;
		return true;
	}
	req->load = fmin((s->lo + s->hi) / 2, mx);
	return true;
}

bool
sl_search_next(struct sl_search *s, struct sl_trial_req *req)
{
	bool more = false;

	memset(req, 0, sizeof(*req));
	if (s->done)
		return false;
	if (s->retrying) {
		*req = s->retry;
		more = true;
	} else if (s->p.method == SL_BENCH_RFC2544) {
		more = rfc2544_next(s, req);
	} else {
		while (s->goal < s->p.nb_goals) {
			const struct sl_bench_goal *g = &s->p.goals[s->goal];
			double l;

			/* Phase 0 only when it differs from the final phase. */
			if (s->phase == 0 && g->initial_s >= g->final_s && g->sum_s <= g->final_s) {
				s->phase = 1;
				continue;
			}
			l = mlr_next_load(s, s->goal, (int)s->phase);
			if (l == 0) {
				s->expand = 0;
				if (s->phase == 0) {
					s->phase = 1;
				} else {
					s->phase = 0;
					s->goal++;
				}
				continue;
			}
			if (s->nb_loads == SL_BENCH_MAX_LOADS && load_find(s, l, false) == NULL) {
				s->done = true;
				s->why = "out of loads";
				return false;
			}
			req->load = l;
			req->goal = s->goal;
			req->duration_s = s->phase == 0 ? g->initial_s : g->final_s;
			more = true;
			break;
		}
		if (!more)
			s->done = true;
	}
	if (more && s->trials >= s->p.max_trials) {
		s->done = true;
		s->why = "out of trials";
		return false;
	}
	if (more && s->spent_s + req->duration_s > s->p.max_seconds + EPS) {
		s->done = true;
		s->why = "out of time";
		return false;
	}
	/* Never below the min (a load really offered may be): the search's range. */
	if (more && req->load < s->p.min_load)
		req->load = s->p.min_load;
	/* A trial run again is paced as the one it repeats (s->retry has its pace). */
	if (more && !s->retrying) {
		/*
		 * A generator that falls short of its loads below the max (its
		 * lcore stalls now and then: the time its pacer lets go) is
		 * paced a little faster, by what it achieved of its pace in
		 * its last trials: the least shortfall of the last three (a
		 * shortfall in all three, not one stall), at most 1/0.95. So
		 * the load it really offers is the load asked, and the search
		 * reaches its width; a trial that offers more than asked counts
		 * at what it offered when that is high-loss (never low-loss
		 * above the load asked).
		 */
		double comp = 0, lo = 1, hi = 0, sum = 0;
		unsigned int n = RTE_MIN(s->nb_ratio, 3u);

		for (unsigned int i = 0; i < n; i++) {
			lo = fmin(lo, s->ratio[i]);
			hi = fmax(hi, s->ratio[i]);
			sum += s->ratio[i];
		}
		/* The median of three (one stall moves it not); of fewer, the most. */
		comp = n == 3 ? sum - lo - hi : hi;
		comp = n == 0 ? 1 : fmin(1, fmax(0.95, comp));
		req->pace = req->load >= s->gen_max * (1 - EPS) ? req->load :
			    fmin(req->load / comp, s->gen_max);
	}
	return more;
}

/* Is load l's trial short of it by more than the tolerance? */
static bool
is_short(const struct sl_search *s, double load, double achieved)
{
	return achieved < load * (1 - s->tol);
}

/* Did load l's trial offer more than it by more than the tolerance? */
static bool
over(const struct sl_search *s, double load, double achieved)
{
	return achieved > load * (1 + s->tol);
}

/*
 * Counted short trials in a row that moved no lower bound (their load
 * really offered at or below it) that end a search: the generator cannot
 * offer the loads left between the bounds.
 */
#define STUCK_MAX 6

static void record_counted(struct sl_search *s, const struct sl_trial_req *req,
			   const struct sl_trial_res *res, bool fell_short, double ceil_at);

/* The relevant lower bounds of every goal (mlr: the final phase's, else the initial's). */
static void
lowers(const struct sl_search *s, double *lo)
{
	for (unsigned int gi = 0; gi < s->p.nb_goals; gi++) {
		double rlb, rub, und;

		if (s->p.method == SL_BENCH_RFC2544) {
			lo[gi] = s->lo;
			continue;
		}
		bounds(s, gi, 1, &rlb, &rub, &und);
		if (rlb == 0)
			bounds(s, gi, 0, &rlb, &rub, &und);
		lo[gi] = rlb;
	}
}

void
sl_search_record(struct sl_search *s, const struct sl_trial_req *req,
		 const struct sl_trial_res *res)
{
	bool fell_short = is_short(s, req->load, res->achieved);
	bool at_max = req->load >= s->gen_max * (1 - EPS), was_retry = s->retrying;
	double most = 0, ceil_at = 0, lo_before[SL_BENCH_MAX_GOALS], lo_after[SL_BENCH_MAX_GOALS];
	struct sl_trial_res r = *res;

	s->trials++;
	s->spent_s += req->duration_s;
	s->last_at = 0;
	memset(s->counted, 0, sizeof(s->counted));
	s->last_retry = false;
	/* How the generator keeps its pace below the max (the pace of the next ones). */
	if (req->load < s->gen_max * (1 - EPS) && req->pace > 0 && res->achieved > 0)
		s->ratio[s->nb_ratio++ % 3] = fmin(1, res->achieved / req->pace);
	if (fell_short)
		s->shorts++;
	for (unsigned int gi = 0; gi < s->p.nb_goals; gi++)
		most = fmax(most, s->p.goals[gi].loss_ratio);
	/*
	 * A trial short of its load at the max runs once more, this one not
	 * counted (its time is), before its shortfall is taken for the
	 * generator's ceiling. Below the max a short trial counts as it is:
	 * low-loss at what it offered (a lower bound there), high-loss at the
	 * load asked.
	 */
	if (fell_short && !was_retry && at_max && !s->gen_limited) {
		s->retry = *req;
		s->retry_res = *res;
		s->retrying = true;
		s->retries++;
		s->last_retry = true;
		return;
	}
	s->retrying = false;
	lowers(s, lo_before);
	if (fell_short && at_max && !s->gen_limited) {
		/*
		 * The generator's ceiling: short at the search's max twice, it
		 * cannot offer the max. The trial that offered more of the two
		 * counts, with its own loss, at what it offered, which becomes
		 * the search's max (once).
		 */
		if (was_retry && s->retry_res.achieved > res->achieved)
			r = s->retry_res;
		s->gen_max = r.achieved;
		s->gen_ceiling = r.achieved;
		s->gen_limited = true;
		ceil_at = s->gen_max;
		if (s->gen_max < s->p.min_load * (1 - EPS)) {
			s->done = true;
			s->why = "the generator cannot offer the min load";
		}
	} else if (at_max && s->gen_limited) {
		/*
		 * A trial at the ceiling is one at the generator's full speed,
		 * which varies a little from trial to trial: it counts at the
		 * ceiling, and the result is what it really offered.
		 */
		ceil_at = s->gen_max;
	}
	record_counted(s, req, &r, fell_short, ceil_at);
	/*
	 * The search is stuck when short trials with low loss (each short
	 * twice: run again) move no lower bound by a quarter of the goal's
	 * width, STUCK_MAX counted in a row: the generator cannot offer the
	 * loads left between the bounds.
	 */
	lowers(s, lo_after);
	if (fell_short && ceil_at == 0 && res->loss_ratio <= most + EPS) {
		bool moved = false;

		/*
		 * It narrowed a goal if it raised its lower bound, or counted
		 * above it (its time adds to a load that may become the next
		 * lower bound): a search that still narrows never stops here.
		 */
		for (unsigned int gi = 0; gi < s->p.nb_goals; gi++)
			moved |= lo_after[gi] > lo_before[gi] * (1 + EPS) ||
				 (res->loss_ratio <= s->p.goals[gi].loss_ratio + EPS &&
				  s->counted[gi] > lo_before[gi] * (1 + EPS));
		s->stuck = moved ? 0 : s->stuck + 1;
		if (s->stuck >= STUCK_MAX && !s->done) {
			s->done = true;
			s->why = "the generator fell short of the loads left to try";
		}
	} else {
		s->stuck = 0;
	}
}

/*
 * The load a trial that did not offer its load counts at: for a short
 * low-loss one, the highest load already measured within the shortfall
 * tolerance below what it offered; for a high-loss one that offered more
 * (@p up), the lowest within the tolerance above; else what it offered.
 * Trials that offered a little less (or more) each time (a busy machine, a
 * pace compensated) so add their time at one load, which the duration sum
 * can then classify; a low-loss trial counts at no more than it offered, a
 * high-loss one at no less.
 */
static double
snap_offered(const struct sl_search *s, double achieved, bool up)
{
	double best = 0;

	for (unsigned int i = 0; i < s->nb_loads; i++) {
		double l = s->loads[i].load;

		if (!up && l <= achieved * (1 + EPS) && l >= achieved * (1 - s->tol) && l > best)
			best = l;
		if (up && l >= achieved * (1 - EPS) && l <= achieved * (1 + s->tol) &&
		    (best == 0 || l < best))
			best = l;
	}
	return best != 0 ? best : achieved;
}

/* The counting part of sl_search_record(): the trial at the loads it counts at. */
static void
record_counted(struct sl_search *s, const struct sl_trial_req *req,
	       const struct sl_trial_res *res, bool fell_short, double ceil_at)
{
	if (s->p.method == SL_BENCH_RFC2544) {
		bool pass = res->loss_ratio <= s->p.goals[0].loss_ratio + EPS;
		/*
		 * A pass counts at the load really offered when it fell short, a
		 * failure at the load asked, or at the load offered when more was
		 * offered (a pace compensated too far).
		 */
		double at = ceil_at != 0 ? ceil_at : pass && fell_short ? res->achieved :
			    !pass && over(s, req->load, res->achieved) ? res->achieved : req->load;
		double ach = fmin(res->achieved, at);

		s->last_at = at;
		s->counted[0] = at;
		if (req->final) {
			s->need_final = false;
			if (pass) {
				s->lo_offered[0] += ach * req->duration_s;
				s->lo_offered[1] += req->duration_s;
				s->done = true;
				return;
			}
			s->final_failed = true;
			s->hi = s->lo;
			s->lo = 0;
			s->lo_offered[0] = s->lo_offered[1] = 0;
			return;
		}
		if (pass && at > s->lo) {
			s->lo = at;
			s->lo_offered[0] = ach * req->duration_s;
			s->lo_offered[1] = req->duration_s;
		} else if (!pass && (s->hi == 0 || at < s->hi)) {
			s->hi = at;
		}
		if (s->hi != 0 && s->lo >= s->hi) {
			/* A pass above a failure (a noisy DUT): the failure stands. */
			s->lo = 0;
			s->lo_offered[0] = s->lo_offered[1] = 0;
		}
		return;
	}
	{
		struct sl_bench_load *touched[2] = { NULL, NULL };

		for (unsigned int gi = 0; gi < s->p.nb_goals; gi++) {
			const struct sl_bench_goal *g = &s->p.goals[gi];
			int full = req->duration_s >= g->final_s - EPS;
			int high = res->loss_ratio > g->loss_ratio + EPS;
			/*
			 * High-loss at the load asked (or at the load offered when
			 * more was), low-loss at the load really offered when less was.
			 */
			double at = ceil_at != 0 ? ceil_at : !high && fell_short ?
				    snap_offered(s, res->achieved, false) :
				    high && over(s, req->load, res->achieved) ?
				    snap_offered(s, res->achieved, true) : req->load;
			struct sl_bench_load *l = load_find(s, at, true);

			if (l == NULL)
				continue; /* out of loads: sl_search_next() ends the search */
			if (touched[0] != l && touched[1] != l)
				touched[touched[0] == NULL ? 0 : 1] = l;
			l->dur[gi][full][high] += req->duration_s;
			if (!high) {
				double ach = fmin(res->achieved, l->load);

				l->low_offered[gi][0] += ach * req->duration_s;
				l->low_offered[gi][1] += req->duration_s;
			}
			s->counted[gi] = l->load;
			if (gi == s->goal || s->last_at == 0)
				s->last_at = l->load;
		}
		for (int k = 0; k < 2; k++)
			if (touched[k] != NULL)
				touched[k]->trials++;
	}
	if (s->fwd_at_max == 0 && res->loss_ratio > 0 && res->forwarding > 0)
		s->fwd_at_max = res->forwarding;
}

bool
sl_search_result(const struct sl_search *s, unsigned int goal, struct sl_bench_result *r)
{
	double rlb, rub, und, mx = max_eff(s);
	bool within = false; /* mlr: the final trials' bounds within the width */

	memset(r, 0, sizeof(*r));
	if (s->p.method == SL_BENCH_RFC2544) {
		r->lower = s->lo;
		r->achieved = s->lo != 0 && s->lo_offered[1] > 0 ?
			      fmin(s->lo, s->lo_offered[0] / s->lo_offered[1]) : s->lo;
		r->upper = s->hi;
		r->converged = s->done && s->why == NULL;
	} else {
		const struct sl_bench_load *l;

		bounds(s, goal, 1, &rlb, &rub, &und);
		/* Converged: the final trials' bounds within the width, or at a limit. */
		if (rub > mx + EPS * mx)
			rub = 0;
		if (rub == 0)
			r->converged = rlb != 0 && rlb >= mx - EPS * mx;
		else if (rub <= s->p.min_load + EPS * s->p.min_load)
			r->converged = true;
		else
			r->converged = within = rlb != 0 &&
						rub - rlb <= s->p.goals[goal].width * rub + EPS * rub;
		bounds(s, goal, 1, &rlb, &rub, &und);
		if (rlb == 0 || rub == 0) {
			/* Before the final trials decide: what the initial ones found. */
			double l0, u0, x;

			bounds(s, goal, 0, &l0, &u0, &x);
			if (rlb == 0 && (rub == 0 || l0 < rub))
				rlb = l0;
			if (rub == 0 && u0 > rlb)
				rub = u0;
		}
		r->lower = rlb;
		r->upper = rub;
		l = rlb != 0 ? load_find((struct sl_search *)s, rlb, false) : NULL;
		r->achieved = l != NULL && l->low_offered[goal][1] > 0 ?
			      fmin(rlb, l->low_offered[goal][0] / l->low_offered[goal][1]) : rlb;
	}
	/*
	 * Converged on the result too: the load really offered at the lower
	 * bound within the width (and the shortfall tolerated) of the upper.
	 * A goal the search did not finish (out of budget, the generator) is
	 * not converged, whatever its bounds.
	 */
	if (r->converged && r->upper != 0 && r->lower != 0 && r->upper - r->achieved >
	    (s->p.goals[goal].width + s->tol) * r->upper + EPS * r->upper)
		r->converged = false;
	/*
	 * A goal the search did not finish (out of budget, the generator) is
	 * not converged, unless its final bounds are already within the width:
	 * then it has, whatever ended the search.
	 */
	if (s->why != NULL && (s->p.method == SL_BENCH_RFC2544 || goal >= s->goal) &&
	    !(s->p.method == SL_BENCH_MLR && within))
		r->converged = false;
	r->at_ceiling = s->gen_limited && r->lower != 0 && r->lower >= s->gen_max - EPS * s->gen_max;
	return r->converged && !r->at_ceiling;
}
