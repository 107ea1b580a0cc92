/* params.c - dotted policy parameters (see params.h). */
#include "policy/params.h"

#include <stdlib.h>
#include <string.h>

#include "policy/bypass.h"
#include "policy/cm.h"
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
    } else if (strcmp(k, "repl") == 0) {
        const struct repl_ops *o = repl_find(p);
        if (!o)
            return -2;
        *out = (struct pol_ref){"repl", o->name, o->doc, o->params, o->nparams};
    } else if (strcmp(k, "bypass") == 0) {
        const struct bypass_ops *o = bypass_find(p);
        if (!o)
            return -2;
        *out = (struct pol_ref){"bypass", o->name, o->doc, o->params, o->nparams};
    } else if (strcmp(k, "cm") == 0) {
        const struct cm_ops *o = cm_find(p);
        if (!o)
            return -2;
        *out = (struct pol_ref){"cm", o->name, o->doc, o->params, o->nparams};
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
            return fail_at(e, err, "-%s: unknown policy kind (valid: warp_sched, cta_sched, repl, bypass, cm)%s%s", "", "");
        if (rc == -2) {
            if (strncmp(e->name, "warp_sched", 10) == 0)
                warp_sched_names(names, sizeof names);
            else if (strncmp(e->name, "repl.", 5) == 0)
                repl_names(names, sizeof names);
            else if (strncmp(e->name, "bypass.", 7) == 0)
                bypass_names(names, sizeof names);
            else if (strncmp(e->name, "cm.", 3) == 0)
                cm_names(names, sizeof names);
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
        pp->cfg.e[pp->cfg.n - 1].line = e->line;   /* keep the position for errors at load and launch */
        pp->cfg.e[pp->cfg.n - 1].col = e->col;
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
            e->name[kl + 1 + pl] == '.' && cfg_set(&local, e->name + kl + pl + 2, e->value, e->file) == 0) {
            local.e[local.n - 1].line = e->line;
            local.e[local.n - 1].col = e->col;
        }
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
        /* cfg_apply's "-param: why" becomes "-kind.policy.param: why" (the option as the user wrote it) */
        char m[sizeof err->msg + 128];
        size_t nl = 0;
        if (err->msg[0] == '-')
            nl = strcspn(err->msg + 1, ":");
        if (nl && err->msg[1 + nl] == ':' && strcmp(err->file, "built-in default") != 0)
            snprintf(m, sizeof m, "-%s.%s.%s", kind, policy, err->msg + 1);
        else
            snprintf(m, sizeof m, "%s.%s: %s", kind, policy, err->msg);
        snprintf(err->msg, sizeof err->msg, "%.*s", (int)(sizeof err->msg - 1), m);
    }
    arena_free(a);
    return rc;
}

/* The selected policy of one kind: its table, state size and check hook. */
struct pol_sel {
    const char *kind, *what, *opt;     /* "cta_sched", "CTA scheduler", "-warpsim_cta_scheduler" */
    const char *name;                  /* selected name (registered) or NULL */
    const struct cfg_opt *params;
    size_t nparams, state_size;
    const char *(*check)(const void *st, const struct policy_machine *m, char *msg, size_t n);
};

/* The last entry of c named "<kind>.<policy>.<param>" (param NULL: any parameter of the policy). */
static const struct cfg_entry *find_param(const struct cfg *c, const char *kind, const char *policy,
                                          const char *param)
{
    size_t kl = strlen(kind), pl = strlen(policy);
    for (uint32_t i = c->n; i-- > 0;) {
        const char *nm = c->e[i].name;
        if (strncmp(nm, kind, kl) == 0 && nm[kl] == '.' && strncmp(nm + kl + 1, policy, pl) == 0 &&
            nm[kl + 1 + pl] == '.' && (!param || strcmp(nm + kl + pl + 2, param) == 0))
            return &c->e[i];
    }
    return NULL;
}

static int check_selected(const struct policy_params *pp, const struct cfg *c, const struct pol_sel *s,
                          const struct policy_machine *m, struct cfg_error *err)
{
    if (!s->name || !s->nparams)
        return 0;
    void *st = calloc(1, s->state_size ? s->state_size : 1);
    if (!st) {
        memset(err, 0, sizeof *err);
        snprintf(err->file, sizeof err->file, "%s", "command line");
        snprintf(err->msg, sizeof err->msg, "out of host memory");
        return -1;
    }
    int rc = policy_params_apply(pp, s->kind, s->name, s->params, s->nparams, st, err);
    char msg[400] = "";
    const char *bad = rc == 0 && s->check && m ? s->check(st, m, msg, sizeof msg) : NULL;
    free(st);
    if (!bad)
        return rc;
    /* positioned at the blamed parameter if the config set it, else at another of the policy's */
    const struct cfg_entry *e = find_param(c, s->kind, s->name, bad);
    if (!e)
        e = find_param(c, s->kind, s->name, NULL);
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", e && e->file ? e->file : "built-in default");
    err->line = e ? e->line : 0;
    err->col = e ? e->col : 0;
    snprintf(err->msg, sizeof err->msg, "-%s.%s.%s: %s", s->kind, s->name, bad, msg);
    return -1;
}

int policy_params_check(struct cfg *c, const char *warp_sched, const char *cta_sched, const struct policy_machine *m,
                        FILE *warn, struct cfg_error *err)
{
    return policy_params_check_all(c, warp_sched, cta_sched, NULL, 0, NULL, 0, NULL, m, warn, err);
}

#define PP_MAX_SEL (3 + 8 + 4)

int policy_params_check_all(struct cfg *c, const char *warp_sched, const char *cta_sched, const char *const *repl,
                            size_t nrepl, const char *const *byp, size_t nbyp, const char *cm,
                            const struct policy_machine *m, FILE *warn, struct cfg_error *err)
{
    struct policy_params pp;
    pp.arena = arena_new(0);
    if (!pp.arena) {
        memset(err, 0, sizeof *err);
        snprintf(err->file, sizeof err->file, "%s", "command line");
        snprintf(err->msg, sizeof err->msg, "out of host memory");
        return -1;
    }
    int rc = policy_params_collect(&pp, c, err);
    /* the selected policies: one warp and one CTA scheduler, the replacement policies in use (once each) */
    struct pol_sel sel[PP_MAX_SEL];
    size_t nsel = 0;
    int have_w = 0, have_t = 0, have_r = 0, have_b = 0, have_m = 0;
    const struct warp_sched_ops *w = warp_sched_find(warp_sched ? warp_sched : "");
    const struct cta_sched_ops *t = cta_sched_find(cta_sched ? cta_sched : "");
    if (w) {
        sel[nsel++] = (struct pol_sel){"warp_sched", "warp scheduler", "-gpgpu_scheduler", w->name, w->params,
                                       w->nparams, w->state_size, w->check};
        have_w = 1;
    }
    if (t) {
        sel[nsel++] = (struct pol_sel){"cta_sched", "CTA scheduler", "-warpsim_cta_scheduler", t->name, t->params,
                                       t->nparams, t->state_size, t->check};
        have_t = 1;
    }
    const struct cm_ops *cmo = cm_find(cm ? cm : "");
    if (cmo) {
        sel[nsel++] = (struct pol_sel){"cm", "concurrency manager", "-warpsim_cm", cmo->name, cmo->params,
                                       cmo->nparams, cmo->state_size(1), NULL};
        have_m = 1;
    }
    char rnames[256] = "";
    size_t rused = 0;
    for (size_t i = 0; repl && i < nrepl && nsel < PP_MAX_SEL; i++) {
        const struct repl_ops *r = repl_find(repl[i] ? repl[i] : "");
        if (!r)
            continue;
        have_r = 1;
        int seen = 0;
        for (size_t j = 0; j < nsel; j++)
            seen |= strcmp(sel[j].kind, "repl") == 0 && strcmp(sel[j].name, r->name) == 0;
        if (seen)
            continue;
        if (rused < sizeof rnames)
            rused += (size_t)snprintf(rnames + rused, sizeof rnames - rused, "%s%s", rused ? ", " : "", r->name);
        sel[nsel++] = (struct pol_sel){"repl", "replacement policy", "-warpsim_{l1d,l1i,l1c,l1t,l2}_repl", r->name,
                                       r->params, r->nparams, r->state_size(1, 1), NULL};
    }
    char bnames[256] = "";
    size_t bused = 0;
    for (size_t i = 0; byp && i < nbyp && nsel < PP_MAX_SEL; i++) {
        const struct bypass_ops *b = bypass_find(byp[i] ? byp[i] : "");
        if (!b)
            continue;
        have_b = 1;
        int seen = 0;
        for (size_t j = 0; j < nsel; j++)
            seen |= strcmp(sel[j].kind, "bypass") == 0 && strcmp(sel[j].name, b->name) == 0;
        if (seen)
            continue;
        if (bused < sizeof bnames)
            bused += (size_t)snprintf(bnames + bused, sizeof bnames - bused, "%s%s", bused ? ", " : "", b->name);
        sel[nsel++] = (struct pol_sel){"bypass", "bypass policy", "-warpsim_{l1d,l1i,l1c,l1t,l2}_bypass", b->name,
                                       b->params, b->nparams, b->state_size(1, 1), NULL};
    }
    for (size_t k = 0; rc == 0 && k < nsel; k++)
        rc = check_selected(&pp, c, &sel[k], m, err);
    /* parameters of policies that are not selected: one warning each (the last occurrence); a kind
       whose selection is unknown (NULL name, no replacement list) is not warned about */
    for (uint32_t i = 0; rc == 0 && warn && i < pp.cfg.n; i++) {
        const struct cfg_entry *e = &pp.cfg.e[i];
        int later = 0;
        for (uint32_t j = i + 1; j < pp.cfg.n && !later; j++)
            later = strcmp(pp.cfg.e[j].name, e->name) == 0;
        if (later)
            continue;
        const char *kind = strncmp(e->name, "warp_sched.", 11) == 0 ? "warp_sched"
                           : strncmp(e->name, "repl.", 5) == 0     ? "repl"
                           : strncmp(e->name, "bypass.", 7) == 0   ? "bypass"
                           : strncmp(e->name, "cm.", 3) == 0       ? "cm"
                                                                   : "cta_sched";
        if ((kind[0] == 'w' && !have_w) || (kind[1] == 't' && !have_t) || (kind[0] == 'r' && !have_r) ||
            (kind[0] == 'b' && !have_b) || (kind[1] == 'm' && !have_m))
            continue;
        size_t kl = strlen(kind);
        const char *pol = e->name + kl + 1;
        size_t pl = (size_t)(strchr(pol, '.') - pol);
        const struct pol_sel *first = NULL;
        int selected = 0;
        for (size_t k = 0; k < nsel; k++) {
            if (strcmp(sel[k].kind, kind) != 0)
                continue;
            if (!first)
                first = &sel[k];
            selected |= strlen(sel[k].name) == pl && strncmp(pol, sel[k].name, pl) == 0;
        }
        if (selected || !first)
            continue;
        char where[300];
        if (e->line)
            snprintf(where, sizeof where, "%s:%u:%u", e->file, e->line, e->col);
        else
            snprintf(where, sizeof where, "%s", e->file ? e->file : "command line");
        if (kind[0] == 'b')
            fprintf(warn, "%s: warning: -%s: a parameter of bypass policy '%.*s', which no cache uses (the "
                          "caches use %s; select it with %s): ignored\n",
                    where, e->name, (int)pl, pol, bnames, first->opt);
        else if (kind[0] == 'r')
            fprintf(warn, "%s: warning: -%s: a parameter of replacement policy '%.*s', which no cache uses (the "
                          "caches use %s; select it with %s): ignored\n",
                    where, e->name, (int)pl, pol, rnames, first->opt);
        else
            fprintf(warn, "%s: warning: -%s: a parameter of %s '%.*s', which is not selected (%s is %s): ignored\n",
                    where, e->name, first->what, (int)pl, pol, first->opt, first->name);
    }
    arena_free(pp.arena);
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

/* "[1, 64]", "0/1", "string" (the table's bounds, as the machine's option listing shows them). */
static void param_range(const struct cfg_opt *o, char *buf, size_t n)
{
    switch (o->type) {
    case CFG_BOOL: snprintf(buf, n, "0/1"); return;
    case CFG_STRING: snprintf(buf, n, "string"); return;
    default: break;
    }
    if (o->lo == 0 && o->hi == 0)
        snprintf(buf, n, "any");
    else if (o->type == CFG_DOUBLE)
        snprintf(buf, n, "[%g, %g]", o->lo, o->hi);
    else
        snprintf(buf, n, "[%.0f, %.0f]", o->lo, o->hi);
}

static void list_one(FILE *f, const char *kind, const char *name, const char *doc, const struct cfg_opt *p, size_t n)
{
    fprintf(f, "  %-12s %s\n", name, doc ? doc : "");
    for (size_t i = 0; i < n; i++) {
        char full[128], range[64];
        snprintf(full, sizeof full, "%s.%s.%s", kind, name, p[i].name);
        param_range(&p[i], range, sizeof range);
        fprintf(f, "      %-34s default %-6s %-15s %s\n", full, p[i].def && p[i].def[0] ? p[i].def : "\"\"", range,
                p[i].doc ? p[i].doc : "");
    }
}

int policy_list_names(FILE *f, const char *kind)
{
    if (strcmp(kind, "warp_sched") == 0)
        for (size_t i = 0; warp_sched_at(i); i++)
            fprintf(f, "%s\n", warp_sched_at(i)->name);
    else if (strcmp(kind, "cta_sched") == 0)
        for (size_t i = 0; cta_sched_at(i); i++)
            fprintf(f, "%s\n", cta_sched_at(i)->name);
    else if (strcmp(kind, "repl") == 0)
        for (size_t i = 0; repl_at(i); i++)
            fprintf(f, "%s\n", repl_at(i)->name);
    else if (strcmp(kind, "bypass") == 0)
        for (size_t i = 0; bypass_at(i); i++)
            fprintf(f, "%s\n", bypass_at(i)->name);
    else if (strcmp(kind, "cm") == 0)
        for (size_t i = 0; cm_at(i); i++)
            fprintf(f, "%s\n", cm_at(i)->name);
    else
        return -1;
    return 0;
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
    fprintf(f, "\ncache replacement policies (-warpsim_l1d_repl NAME or --l1-repl NAME, -warpsim_l2_repl NAME or "
               "--l2-repl NAME;\n  default: the cache string's letter, L = lru, F = fifo):\n");
    for (size_t i = 0; repl_at(i); i++) {
        const struct repl_ops *o = repl_at(i);
        list_one(f, "repl", o->name, o->doc, o->params, o->nparams);
    }
    fprintf(f, "\ncache bypass policies (-warpsim_l1d_bypass NAME or --l1-bypass NAME, -warpsim_l2_bypass NAME or "
               "--l2-bypass NAME;\n  default: none):\n");
    for (size_t i = 0; bypass_at(i); i++) {
        const struct bypass_ops *o = bypass_at(i);
        list_one(f, "bypass", o->name, o->doc, o->params, o->nparams);
    }
    fprintf(f, "\nconcurrency managers (-warpsim_cm NAME or --cm NAME; they set each core's warp limit through a "
               "scheduler\n  that takes one: swl; default: none):\n");
    for (size_t i = 0; cm_at(i); i++) {
        const struct cm_ops *o = cm_at(i);
        list_one(f, "cm", o->name, o->doc, o->params, o->nparams);
    }
    fprintf(f, "\nParameters are set as -KIND.POLICY.PARAM VALUE in a config file or --set KIND.POLICY.PARAM=VALUE.\n");
}
