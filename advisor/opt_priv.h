/* opt_priv.h — the optimiser's parts (not public): the evaluator
 * (opt_eval.c), the GLPK model (opt_milp.c, the only file that includes
 * glpk.h) and the search over them (optimize.c: advisor_optimize()).
 */
#ifndef TW_OPT_PRIV_H
#define TW_OPT_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define ADVISOR_DEVICE_COST 1e-5	/* quality points per device: fewer devices on ties */
#define ADVISOR_MET_TOL 1e-9		/* a need is met when covered to this share */

/* Is device d eligible for tier t (a score, not NAN)? */
static inline bool advisor_opt_eligible(const struct advisor_opt_input *in, size_t d, int t)
{
	return !isnan(in->score[d][t]);
}

/* The array rule of tier t, BY_TIER resolved. */
static inline enum advisor_array_rule advisor_opt_rule(const struct advisor_opt_input *in, int t)
{
	return advisor_array_rule_of(in->rule[t], t);
}

/* Do like devices of tier t form an array that counts less than their sum? */
static inline bool advisor_opt_redundant(const struct advisor_opt_input *in, int t)
{
	return in->required[t] || advisor_opt_rule(in, t) != ADVISOR_ARRAY_STRIPE;
}

/* Do a and b belong to one media class in tier t (or may classes mix)? */
static inline bool advisor_opt_same_class(const struct advisor_opt_input *in, size_t a, size_t b,
					  int t)
{
	return !in->cls || in->cls[a][t] == in->cls[b][t];
}

/* ---- the evaluator (opt_eval.c) ---- */

/* Groups of like devices: ids are the index of a group's first member. */
struct advisor_opt_groups {
	size_t *size;		/* members per group id (ids are device indices) */
	double *capmin;		/* smallest member's capacity */
};

/* Work space of one evaluation, n entries each (advisor_opt_scratch_make()). */
struct advisor_opt_scratch {
	size_t *list;		/* devices of one tier */
	double *col;		/* their scores, by device */
	size_t *count;		/* members per group in the tier */
	double *rem;		/* group capacity left */
};


/* Count the like groups of in (g->size, g->capmin).  Returns 0 or -ENOMEM;
 * advisor_opt_groups_clear() frees what it took either way. */
int advisor_opt_groups_make(const struct advisor_opt_input *in, struct advisor_opt_groups *g);

/* Free what advisor_opt_groups_make() took. */
void advisor_opt_groups_clear(struct advisor_opt_groups *g);

/* The group of d that forms an array in tier t, or -1. */
int advisor_opt_group_of(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
			 size_t d, int t);

/* Can device d hold any of tier t's need?  In a required tier only with a
 * like device that may join it there (a pair for a mirror). */
bool advisor_opt_holds(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		       size_t d, int t);

/* May d join tier t of assign: no device of another class is there. */
bool advisor_opt_class_fits(const struct advisor_opt_input *in, const int *assign, size_t d,
			    int t);

/* Are a and b identical for the optimiser (capacity, price, group, classes,
 * scores)? */
bool advisor_opt_twins(const struct advisor_opt_input *in, size_t a, size_t b);

/* Allocate the work space for n devices.  Returns 0 or -ENOMEM;
 * advisor_opt_scratch_clear() frees what it took either way. */
int advisor_opt_scratch_make(size_t n, struct advisor_opt_scratch *s);

/* Free what advisor_opt_scratch_make() took. */
void advisor_opt_scratch_clear(struct advisor_opt_scratch *s);

/* qsort_r order of device indices: score (arg: a double per device)
 * highest first, then the lower index. */
int advisor_opt_cmp_by_score(const void *a, const void *b, void *arg);

/* advisor_evaluate() with groups and work space made by the caller. */
void advisor_opt_eval(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		      struct advisor_opt_scratch *s, const int *assign, struct advisor_eval *out);

/* Is a strictly better than b?  Needs met, then score, then fewer devices. */
bool advisor_opt_better(const struct advisor_eval *a, const struct advisor_eval *b);

/* a loses nothing against b: as many needs met, a score at least as high. */
bool advisor_opt_no_worse(const struct advisor_eval *a, const struct advisor_eval *b);

/* ---- the integer programme (opt_milp.c) ---- */

/* The programme of one optimisation (GLPK's problem inside). */
struct advisor_milp;

/* What one solve gave. */
struct advisor_milp_out {
	bool found, proven;
	double obj, bound;	/* objective of the solution, bound on the optimum */
	unsigned long nodes;
};

/*
 * Build the programme of in (phase 1: the most needs met) into *out.
 * Returns 0 or -ENOMEM; *out, when set, is freed by advisor_milp_free()
 * (also on error).
 */
int advisor_milp_make(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		      struct advisor_milp **out);

/* Free a programme.  NULL-safe. */
void advisor_milp_free(struct advisor_milp *p);

/* Solve phase 1 (integral objective: needs met), unscaled, until deadline
 * (seconds of tw_now_ns()). */
void advisor_milp_solve_met(struct advisor_milp *p, double deadline,
			    struct advisor_milp_out *o);

/* Solve the programme as it stands (phase 2 or 3), scaled, until deadline. */
void advisor_milp_solve(struct advisor_milp *p, double deadline, struct advisor_milp_out *o);

/* Phase 2's objective: the best score among plans meeting met needs.
 * Returns 0 or -ENOMEM. */
int advisor_milp_phase2(struct advisor_milp *p, const struct advisor_opt_input *in, double met);

/* Phase 3's objective (buying): the cheapest plan within in->margin of
 * phase 2's best_obj.  Returns 0 or -ENOMEM. */
int advisor_milp_phase3(struct advisor_milp *p, const struct advisor_opt_input *in,
			double best_obj);

/* The assignment of the last integer solution (assign: n entries). */
void advisor_milp_take(const struct advisor_milp *p, const struct advisor_opt_input *in,
		       int *assign);

#endif
