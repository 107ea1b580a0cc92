/*
 * params.h - policy parameters.  A policy declares its parameters as a
 * cfg_opt table over its state struct (ops->params); users set them as dotted
 * options `-<kind>.<policy>.<param> value` in a config file or
 * `--set <kind>.<policy>.<param>=value`, e.g. `cta_sched.dyncta.t_idle 16`.
 * The same table gives defaults, bounds, `warpsim list --policies` and the
 * effective config written beside results.
 */
#ifndef WARPSIM_POLICY_PARAMS_H
#define WARPSIM_POLICY_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "core/config.h"

/* A private copy of the dotted entries of a config (owned by whoever keeps it). */
struct policy_params {
    struct arena *arena;
    struct cfg cfg;
};

/* Check every dotted entry of c names a registered policy and one of its
   parameters (error naming the entry's position and the valid names
   otherwise), mark them used, and copy them into pp (pp->arena must be set). */
int policy_params_collect(struct policy_params *pp, struct cfg *c, struct cfg_error *err);

/* Defaults of the policy's table, then the collected values for
   "<kind>.<policy>.*", into state.  pp may be NULL (defaults only). */
int policy_params_apply(const struct policy_params *pp, const char *kind, const char *policy,
                        const struct cfg_opt *opts, size_t nopts, void *state, struct cfg_error *err);

/* Write the parameters of one policy (current values in state) as dotted options. */
void policy_params_write(FILE *f, const char *kind, const char *policy, const struct cfg_opt *opts, size_t nopts,
                         const void *state);

/* Every registered policy with its documentation and parameters. */
void policy_list(FILE *f);

#endif
