/* params.c - dotted policy parameters (see params.h). */
#include "policy/params.h"

#include <string.h>

#include "policy/cta_sched.h"
#include "policy/repl.h"
#include "policy/warp_sched.h"

struct pol_ref {
    const char *kind, *name, *doc;
    const struct cfg_opt *params;
    size_t nparams;
};

/* Find the policy named by "<kind>.<policy>.<param>" (prefix only). */
static int lookup(const char *kind, size_t kl, const char *pol, size_t pl, struct pol_ref *out)
{
    char k[32], p[64];
    if (kl >= sizeof k || pl >= sizeof p)
        return -1;
    memcpy(k, kind, kl);
    k[kl] = '\0';
    memcpy(p, pol, pl);
    p[pl] = '\0';
    memset(out, 0, sizeof *out);
    if (strcmp(k, "warp_sched") == 0) {
        const struct warp_sched_ops *o = warp_sched_find(p);
        if (!o)
            return -2;
        *out = (struct pol_ref){"warp_sched", o->name, o->doc, o->params, o->nparams};
    } else if (strcmp(k, "cta_sched") == 0) {
        const struct cta_sched_ops *o = cta_sched_find(p);
        if (!o)
            return -2;
        *out = (struct pol_ref){"cta_sched", o->name, o->doc, o->params, o->nparams};
    } else {
        return -1;
    }
    return 0;
}

static int fail_at(const struct cfg_entry *e, struct cfg_error *err, const char *fmt, const char *a, const char *b)
{
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", e->file ? e->file : "command line");
    err->line = e->line;
    err->col = e->col;
    snprintf(err->msg, sizeof err->msg, fmt, e->name, a, b);
    return -1;
}

int policy_params_collect(struct policy_params *pp, struct cfg *c, struct cfg_error *err)
{
    cfg_init(&pp->cfg, pp->arena);
    for (uint32_t i = 0; i < c->n; i++) {
        struct cfg_entry *e = &c->e[i];
        const char *d1 = strchr(e->name, '.');
        if (!d1)
            continue;
        const char *d2 = strchr(d1 + 1, '.');
        char names[512];
        if (!d2)
            return fail_at(e, err, "-%s: a policy parameter is written <kind>.<policy>.<param>%s%s", "", "");
        struct pol_ref r;
        int rc = lookup(e->name, (size_t)(d1 - e->name), d1 + 1, (size_t)(d2 - d1 - 1), &r);
        if (rc == -1)
            return fail_at(e, err, "-%s: unknown policy kind (valid: warp_sched, cta_sched)%s%s", "", "");
        if (rc == -2) {
            if (strncmp(e->name, "warp_sched", 10) == 0)
                warp_sched_names(names, sizeof names);
            else
                cta_sched_names(names, sizeof names);
            return fail_at(e, err, "-%s: unknown policy (valid: %s)%s", names, "");
        }
        const char *param = d2 + 1;
        int found = 0;
        size_t used = 0;
        names[0] = '\0';
        for (size_t j = 0; j < r.nparams; j++) {
            found |= strcmp(r.params[j].name, param) == 0;
            if (used < sizeof names)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", j ? ", " : "", r.params[j].name);
        }
        if (!found)
            return fail_at(e, err, "-%s: %s has no such parameter (its parameters: %s)", r.name,
                           r.nparams ? names : "none");
        e->used = 1;
        if (cfg_set(&pp->cfg, e->name, e->value, e->file ? e->file : "command line") != 0)
            return fail_at(e, err, "-%s: out of memory%s%s", "", "");
    }
    return 0;
}

int policy_params_apply(const struct policy_params *pp, const char *kind, const char *policy,
                        const struct cfg_opt *opts, size_t nopts, void *state, struct cfg_error *err)
{
    if (!opts || !nopts)
        return 0;
    struct arena *a = arena_new(4096);
    if (!a)
        return -1;
    struct cfg local;
    cfg_init(&local, a);
    size_t kl = strlen(kind), pl = strlen(policy);
    for (uint32_t i = 0; pp && i < pp->cfg.n; i++) {
        const struct cfg_entry *e = &pp->cfg.e[i];
        if (strncmp(e->name, kind, kl) == 0 && e->name[kl] == '.' && strncmp(e->name + kl + 1, policy, pl) == 0 &&
            e->name[kl + 1 + pl] == '.')
            cfg_set(&local, e->name + kl + pl + 2, e->value, e->file);
    }
    int rc = cfg_apply(&local, opts, nopts, state, err);
    /* string values point into the temporary arena freed below: repoint them
       at storage that outlives it (the collected entry, owned by pp, or the
       table's default) */
    for (size_t i = 0; rc == 0 && i < nopts; i++) {
        if (opts[i].type != CFG_STRING)
            continue;
        const char *v = opts[i].def ? opts[i].def : "";
        for (uint32_t k = 0; pp && k < pp->cfg.n; k++) {
            const char *nm = pp->cfg.e[k].name;
            if (strncmp(nm, kind, kl) == 0 && nm[kl] == '.' && strncmp(nm + kl + 1, policy, pl) == 0 &&
                nm[kl + 1 + pl] == '.' && strcmp(nm + kl + pl + 2, opts[i].name) == 0)
                v = pp->cfg.e[k].value;   /* the last one wins, as in cfg_apply */
        }
        *(const char **)(void *)((char *)state + opts[i].offset) = v;
    }
    if (rc != 0) {
        char m[sizeof err->msg + 128];
        snprintf(m, sizeof m, "%s.%s: %s", kind, policy, err->msg);
        snprintf(err->msg, sizeof err->msg, "%.*s", (int)(sizeof err->msg - 1), m);
    }
    arena_free(a);
    return rc;
}

void policy_params_write(FILE *f, const char *kind, const char *policy, const struct cfg_opt *opts, size_t nopts,
                         const void *state)
{
    for (size_t i = 0; i < nopts; i++) {
        /* cfg_write prints "-name value"; prefix the dotted path */
        char tmp[4096];
        FILE *m = fmemopen(tmp, sizeof tmp, "w");
        if (!m)
            return;
        cfg_write(m, &opts[i], 1, state);
        fclose(m);
        tmp[sizeof tmp - 1] = '\0';
        const char *line = tmp[0] == '-' ? tmp + 1 : tmp;
        fprintf(f, "-%s.%s.%s", kind, policy, line);
    }
}

static void list_one(FILE *f, const char *kind, const char *name, const char *doc, const struct cfg_opt *p, size_t n)
{
    fprintf(f, "  %-12s %s\n", name, doc ? doc : "");
    for (size_t i = 0; i < n; i++) {
        char full[128];
        snprintf(full, sizeof full, "%s.%s.%s", kind, name, p[i].name);
        fprintf(f, "      %-34s default %-6s %s\n", full, p[i].def && p[i].def[0] ? p[i].def : "\"\"",
                p[i].doc ? p[i].doc : "");
    }
}

void policy_list(FILE *f)
{
    char names[1024];
    fprintf(f, "warp schedulers (-gpgpu_scheduler NAME or --warp-sched NAME):\n");
    warp_sched_names(names, sizeof names);
    for (char *s = names, *tok; (tok = strtok_r(s, ", ", &s)) != NULL;) {
        const struct warp_sched_ops *o = warp_sched_find(tok);
        if (o)
            list_one(f, "warp_sched", o->name, o->doc, o->params, o->nparams);
    }
    fprintf(f, "\nCTA schedulers (-warpsim_cta_scheduler NAME or --cta-sched NAME):\n");
    cta_sched_names(names, sizeof names);
    for (char *s = names, *tok; (tok = strtok_r(s, ", ", &s)) != NULL;) {
        const struct cta_sched_ops *o = cta_sched_find(tok);
        if (o)
            list_one(f, "cta_sched", o->name, o->doc, o->params, o->nparams);
    }
    fprintf(f, "\ncache replacement (the cache string's policy letter: L = lru, F = fifo):\n");
    repl_names(names, sizeof names);
    for (char *s = names, *tok; (tok = strtok_r(s, ", ", &s)) != NULL;) {
        const struct repl_ops *o = repl_find(tok);
        if (o)
            list_one(f, "repl", o->name, o->doc, NULL, 0);
    }
    fprintf(f, "\nParameters are set as -KIND.POLICY.PARAM VALUE in a config file or --set KIND.POLICY.PARAM=VALUE.\n");
}
