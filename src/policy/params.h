/*
 * params.h - policy parameters.  A policy declares its parameters as a
 * cfg_opt table over its state struct (ops->params); users set them as dotted
 * options `-<kind>.<policy>.<param> value` in a config file or
 * `--set <kind>.<policy>.<param>=value`, e.g. `cta_sched.dyncta.t_idle 16` or
 * `repl.brrip.long_prob_log2 5` (kinds: warp_sched, cta_sched, repl, bypass, cm).
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

/* The machine a policy's parameter check compares against (ops->check). */
struct policy_machine {
    unsigned n_cores;              /* SMs */
    unsigned max_cta_per_core;     /* -gpgpu_shader_cta: the hardware CTA limit per SM */
    unsigned max_warps_per_core;
    unsigned num_sched_per_core;
};

/* Validate the dotted entries of c when the configuration is loaded, before
   any kernel runs (so that a bad parameter is a configuration error, not a
   failed launch): the entries must name registered policies and parameters
   (as policy_params_collect), every parameter of the selected warp and CTA
   schedulers is parsed against its table's bounds, then the policy's own
   cross-checks (ops->check) run.  An entry for a policy that is not selected
   is one warning line on `warn` (NULL: none) naming it and the selected policy.
   A selected name that is not registered is left to the caller (gpu_new
   reports it).  Errors are positioned at the entry (file:line:col or its
   command-line origin) and start with the dotted option.  Returns 0 or -1. */
int policy_params_check(struct cfg *c, const char *warp_sched, const char *cta_sched, const struct policy_machine *m,
                        FILE *warn, struct cfg_error *err);

/* addition: the same with the replacement policies in use (repl[0..nrepl-1],
   registry names, duplicates allowed: e.g. one per cache); their parameters
   ("repl.<name>.<param>") are parsed against their tables, and parameters of
   a replacement policy no cache uses are a warning.  policy_params_check is
   this with no replacement list (repl.* entries are then only checked to name
   registered policies and parameters).  byp[0..nbyp-1]: the bypass policies
   in use, likewise for "bypass.<name>.<param>". */
int policy_params_check_all(struct cfg *c, const char *warp_sched, const char *cta_sched, const char *const *repl,
                            size_t nrepl, const char *const *byp, size_t nbyp, const char *cm,
                            const struct policy_machine *m,
                            FILE *warn, struct cfg_error *err);

/* Write the parameters of one policy (current values in state) as dotted options. */
void policy_params_write(FILE *f, const char *kind, const char *policy, const struct cfg_opt *opts, size_t nopts,
                         const void *state);

/* Every registered policy with its documentation and parameters. */
void policy_list(FILE *f);
/* addition: the registered names of one kind ("warp_sched", "cta_sched",
   "repl", "bypass"), one a line, in registry order; -1 for an unknown kind. */
int policy_list_names(FILE *f, const char *kind);

#endif
