/*
 * ptx_parse.c - PTX module parser: directives, module variables, functions,
 * parameter lists, register and variable declarations, scopes, labels and
 * call resolution.  Instruction statements are decoded in ptx_parse_insn.c.
 *
 * One pass over the token array.  Labels and call targets may be referenced
 * before they are defined, so they are patched when the function (labels) or
 * the module (calls) is complete.  Module-scope names must be declared before
 * use, as PTX requires.
 *
 * Address assignment (documented in ptx_ir.h ptx_sym.addr):
 *   .global/.const : byte offset in the module's global/const segment
 *                    (module->global_bytes/const_bytes); the loader rebases.
 *   .shared        : module-wide unique offset, module and function scope alike,
 *                    so all kernels can share one layout; total in
 *                    module->shared_static_bytes.  `.extern .shared` arrays all
 *                    start at the end of the static part (aligned), like CUDA's
 *                    dynamic shared memory.
 *   .local         : offset in the owning function's per-thread local frame.
 *   kernel params  : offset in the kernel parameter buffer (natural alignment
 *                    or .align).
 *   .func params   : per-thread param frame of the function: formal params at
 *                    [0, param_bytes), then return params, then every call-site
 *                    `.param` of its body at its own offset (no reuse between
 *                    call sites: frames stay small and simple to debug).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse_int.h"
#include "core/file_read.h"

/* ---- errors and growth ------------------------------------------------- */

static int pp_verr(struct pp *p, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
    if (!p->failed) {
        p->failed = true;
        snprintf(p->err->file, sizeof p->err->file, "%s", p->path);
        p->err->line = line;
        p->err->col = col;
        vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    }
    return -1;
}

int pp_err(struct pp *p, const struct ptx_tok *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_verr(p, t->line, t->col, fmt, ap);
    va_end(ap);
    return -1;
}

int pp_err_at(struct pp *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_verr(p, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int pp_grow_(struct pp *p, void *arrp, uint32_t *cap, uint32_t need, size_t esz)
{
    void *old;
    memcpy(&old, arrp, sizeof old);
    uint32_t nc = *cap ? *cap : 8;
    while (nc < need) {
        if (nc > UINT32_MAX / 2)
            return pp_err(p, pp_peek(p), "out of memory");
        nc *= 2;
    }
    void *nv = realloc(old, (size_t)nc * esz);
    if (!nv)
        return pp_err(p, pp_peek(p), "out of memory");
    memset((char *)nv + (size_t)*cap * esz, 0, (size_t)(nc - *cap) * esz);
    memcpy(arrp, &nv, sizeof nv);
    *cap = nc;
    return 0;
}

static void *pp_alloc(struct pp *p, size_t bytes)
{
    void *r = arena_alloc(p->A, bytes);
    if (!r)
        pp_err(p, pp_peek(p), "out of memory");
    return r;
}

/* ---- tokens ------------------------------------------------------------ */

bool pp_accept(struct pp *p, char c)
{
    if (pp_is_punct(pp_peek(p), c)) {
        pp_next(p);
        return true;
    }
    return false;
}

int pp_expect(struct pp *p, char c)
{
    const struct ptx_tok *t = pp_peek(p);
    if (pp_is_punct(t, c)) {
        pp_next(p);
        return 0;
    }
    if (t->kind == PTK_EOF)
        return pp_err(p, t, "expected '%c' at end of file", c);
    return pp_err(p, t, "expected '%c' before '%.*s'", c, (int)t->len, t->s);
}

bool pp_tok_is(const struct ptx_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

/* Next dotted part of a token starting at *off (a leading '.' is skipped);
   `::` stays inside a part.  Returns the part length, 0 at the end. */
static uint32_t pp_part(const struct ptx_tok *t, uint32_t *off, const char **s)
{
    uint32_t i = *off;
    if (i < t->len && t->s[i] == '.')
        i++;
    uint32_t b = i;
    while (i < t->len && t->s[i] != '.')
        i++;
    *s = t->s + b;
    *off = i;
    return i - b;
}

static bool pp_str_is(const char *s, uint32_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* `.reg` or `.reg.<more parts>` */
static bool pp_head_is(const struct ptx_tok *t, const char *head)
{
    size_t n = strlen(head);
    return t->len >= n && memcmp(t->s, head, n) == 0 && (t->len == n || t->s[n] == '.');
}

/* ---- maps -------------------------------------------------------------- */

static uint32_t pp_hash(const char *s, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return h;
}

static struct pp_ment *pp_map_slot(const struct pp_map *m, const char *k, uint32_t len, uint32_t h)
{
    uint32_t mask = m->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        struct pp_ment *e = &m->e[i];
        if (!e->k || (e->hash == h && e->len == len && memcmp(e->k, k, len) == 0))
            return e;
    }
}

static int32_t pp_map_get(const struct pp_map *m, const char *k, uint32_t len)
{
    if (!m->cap)
        return -1;
    const struct pp_ment *e = pp_map_slot(m, k, len, pp_hash(k, len));
    return e->k ? e->val : -1;
}

static int pp_map_put(struct pp *p, struct pp_map *m, const char *k, uint32_t len, int32_t val)
{
    if ((m->n + 1) * 2 > m->cap) {
        uint32_t nc = m->cap ? m->cap * 2 : 64;
        struct pp_ment *ne = calloc(nc, sizeof *ne);
        if (!ne)
            return pp_err(p, pp_peek(p), "out of memory");
        struct pp_map nm = {ne, nc, m->n};
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->e[i].k)
                *pp_map_slot(&nm, m->e[i].k, m->e[i].len, m->e[i].hash) = m->e[i];
        free(m->e);
        *m = nm;
    }
    uint32_t h = pp_hash(k, len);
    struct pp_ment *e = pp_map_slot(m, k, len, h);
    if (!e->k) {
        e->k = k;
        e->len = len;
        e->hash = h;
        m->n++;
    }
    e->val = val;
    return 0;
}

static void pp_map_clear(struct pp_map *m)
{
    if (m->cap)
        memset(m->e, 0, (size_t)m->cap * sizeof *m->e);
    m->n = 0;
}

static void pp_map_free(struct pp_map *m)
{
    free(m->e);
    m->e = NULL;
    m->cap = m->n = 0;
}

const uint64_t *pp_lanes(struct pp *p, uint64_t bits)
{
    if ((p->nimm + 1) * 2 > p->capimm) {
        uint32_t nc = p->capimm ? p->capimm * 2 : 256;
        struct pp_iment *ne = calloc(nc, sizeof *ne);
        if (!ne) {
            pp_err(p, pp_peek(p), "out of memory");
            return NULL;
        }
        for (uint32_t i = 0; i < p->capimm; i++) {
            if (!p->imm[i].lanes)
                continue;
            uint32_t j = (uint32_t)(p->imm[i].key * 0x9E3779B97F4A7C15ull >> 40) & (nc - 1);
            while (ne[j].lanes)
                j = (j + 1) & (nc - 1);
            ne[j] = p->imm[i];
        }
        free(p->imm);
        p->imm = ne;
        p->capimm = nc;
    }
    uint32_t mask = p->capimm - 1;
    uint32_t j = (uint32_t)(bits * 0x9E3779B97F4A7C15ull >> 40) & mask;
    while (p->imm[j].lanes) {
        if (p->imm[j].key == bits)
            return p->imm[j].lanes;
        j = (j + 1) & mask;
    }
    uint64_t *l = pp_alloc(p, PTX_WARP_SIZE * sizeof *l);
    if (!l)
        return NULL;
    for (int i = 0; i < PTX_WARP_SIZE; i++)
        l[i] = bits;
    p->imm[j].key = bits;
    p->imm[j].lanes = l;
    p->nimm++;
    return l;
}

/* ---- names --------------------------------------------------------------- */

const struct pp_bind *pp_lookup_local(const struct pp *p, const char *s, uint32_t len)
{
    int32_t b = pp_map_get(&p->names, s, len);
    return b >= 0 ? &p->binds[b] : NULL;
}

int32_t pp_lookup_modsym(const struct pp *p, const char *s, uint32_t len)
{
    return pp_map_get(&p->modsyms, s, len);
}

int32_t pp_lookup_func(const struct pp *p, const char *s, uint32_t len)
{
    return pp_map_get(&p->funcnames, s, len);
}

static int pp_bind(struct pp *p, const struct ptx_tok *at, const char *name, uint32_t len, uint8_t kind,
                   int32_t idx, uint8_t cnt)
{
    int32_t cur = pp_map_get(&p->names, name, len);
    uint32_t scope_start = p->nscopes ? p->scopes[p->nscopes - 1] : 0;
    if (cur >= 0 && (uint32_t)cur >= scope_start)
        return pp_err(p, at, "duplicate declaration of '%.*s'", (int)len, name);
    if (PP_RESERVE(p, p->binds, p->capbinds, p->nbinds + 1))
        return -1;
    p->binds[p->nbinds] = (struct pp_bind){.name = name, .len = len, .kind = kind, .cnt = cnt, .idx = idx,
                                           .prev = cur};
    return pp_map_put(p, &p->names, name, len, (int32_t)p->nbinds++);
}

static int pp_scope_push(struct pp *p)
{
    if (PP_RESERVE(p, p->scopes, p->capscopes, p->nscopes + 1))
        return -1;
    p->scopes[p->nscopes++] = p->nbinds;
    return 0;
}

static int pp_scope_pop(struct pp *p)
{
    uint32_t mark = p->scopes[--p->nscopes];
    while (p->nbinds > mark) {
        const struct pp_bind *b = &p->binds[--p->nbinds];
        if (pp_map_put(p, &p->names, b->name, b->len, b->prev))
            return -1;
    }
    return 0;
}

int32_t pp_label_ref(struct pp *p, const struct ptx_tok *t)
{
    int32_t l = pp_map_get(&p->labelnames, t->s, t->len);
    if (l >= 0)
        return l;
    if (PP_RESERVE(p, p->labels, p->caplabels, p->nlabels + 1))
        return -1;
    p->labels[p->nlabels] = (struct pp_label){.insn = -1, .line = t->line, .col = t->col};
    if (pp_map_put(p, &p->labelnames, t->s, t->len, (int32_t)p->nlabels))
        return -1;
    return (int32_t)p->nlabels++;
}

static int32_t pp_add_reg(struct pp *p, const char *name, uint8_t type)
{
    if (PP_RESERVE(p, p->regs, p->capregs, p->nregs + 1))
        return -1;
    p->regs[p->nregs] = (struct ptx_reg){.name = name, .type = type};
    return (int32_t)p->nregs++;
}

int32_t pp_cc_reg(struct pp *p)
{
    /* the carry flag of add.cc/addc/... is a hidden 1-bit register of the function */
    if (p->cc_reg < 0)
        p->cc_reg = pp_add_reg(p, "%cc", PT_PRED);
    return p->cc_reg;
}

/* ---- types ----------------------------------------------------------------- */

static int pp_type_of(const char *s, uint32_t n)
{
    for (int t = PT_B8; t < PT_COUNT; t++)
        if (pp_str_is(s, n, ptx_type_name((enum ptx_type)t)))
            return t;
    return -1;
}

static uint32_t pp_align_up(uint64_t v, uint32_t a) { return (uint32_t)((v + a - 1) / a * a); }
static uint64_t pp_align_up64(uint64_t v, uint32_t a) { return (v + a - 1) / a * a; }

/* ---- symbols ------------------------------------------------------------------ */

static int32_t pp_add_sym(struct pp *p, const struct ptx_tok *name, uint8_t space, uint8_t type, uint32_t align,
                          uint64_t size, uint64_t addr)
{
    if (PP_RESERVE(p, p->syms, p->capsyms, p->nsyms + 1))
        return -1;
    char *nm = arena_strndup(p->A, name->s, name->len);
    if (!nm)
        return pp_err(p, name, "out of memory");
    p->syms[p->nsyms] = (struct ptx_sym){.name = nm, .space = space, .elem_type = type, .align = align,
                                         .size = size, .addr = addr, .func = p->cur, .line = name->line,
                                         .col = name->col};
    return (int32_t)p->nsyms++;
}

static bool pp_mod_name_taken(const struct pp *p, const struct ptx_tok *t)
{
    return pp_lookup_modsym(p, t->s, t->len) >= 0 || pp_lookup_func(p, t->s, t->len) >= 0;
}

/* After an opening `open` token: skip to its matching `close`, with nesting.
   An end of file first is "unterminated WHAT" at `at`. */
static int pp_skip_balanced(struct pp *p, const struct ptx_tok *at, char open, char close, const char *what)
{
    int depth = 1;
    while (depth) {
        const struct ptx_tok *t = pp_next(p);
        if (t->kind == PTK_EOF)
            return pp_err(p, at, "unterminated '%s'", what);
        if (pp_is_punct(t, open))
            depth++;
        else if (pp_is_punct(t, close))
            depth--;
    }
    return 0;
}

/* Skip `( ... )` with nesting (attribute lists). */
static int pp_skip_parens(struct pp *p)
{
    const struct ptx_tok *open = pp_peek(p);
    if (pp_expect(p, '('))
        return -1;
    return pp_skip_balanced(p, open, '(', ')', "(");
}

/* Growable byte buffer of an initialiser. */
struct pp_ibuf {
    uint8_t *b;
    uint32_t n, cap;
};

static int pp_init_elems(struct pp *p, struct pp_ibuf *ib, uint8_t type, uint32_t esz, int depth)
{
    const struct ptx_tok *open = pp_peek(p);
    if (pp_expect(p, '{'))
        return -1;
    if (depth > 8)
        return pp_err(p, open, "initialiser nested too deeply");
    if (pp_accept(p, '}'))
        return 0;
    for (;;) {
        const struct ptx_tok *t = pp_peek(p);
        if (pp_is_punct(t, '{')) {
            if (pp_init_elems(p, ib, type, esz, depth + 1))
                return -1;
        } else if (t->kind == PTK_IDENT) {
            return pp_err(p, t, "address initialiser '%.*s' is not supported", (int)t->len, t->s);
        } else {
            struct pp_num num;
            uint64_t bits;
            if (pp_number(p, &num) || pp_num_to_type(p, t, &num, (enum ptx_type)type, &bits))
                return -1;
            if (PP_RESERVE(p, ib->b, ib->cap, ib->n + esz))
                return -1;
            for (uint32_t i = 0; i < esz; i++)
                ib->b[ib->n + i] = (uint8_t)(bits >> (8 * i));
            ib->n += esz;
        }
        if (pp_accept(p, '}'))
            return 0;
        if (pp_expect(p, ','))
            return -1;
    }
}

/* `.global/.const/.shared/.local/.tex [.align N] [.vN] .type name[dims] [= init], ...;`
   The cursor is on the space directive. */
static int pp_var_decl(struct pp *p, bool is_extern)
{
    const struct ptx_tok *sp = pp_next(p);
    uint32_t off = 0;
    const char *s;
    uint32_t n = pp_part(sp, &off, &s);
    uint8_t space;
    if (pp_str_is(s, n, "global"))
        space = PS_GLOBAL;
    else if (pp_str_is(s, n, "const"))
        space = PS_CONST;
    else if (pp_str_is(s, n, "shared") || pp_str_is(s, n, "shared::cta"))
        space = PS_SHARED;
    else if (pp_str_is(s, n, "local"))
        space = PS_LOCAL;
    else if (pp_str_is(s, n, "tex"))
        space = PS_TEX;
    else
        return pp_err(p, sp, "unsupported state space '%.*s'", (int)sp->len, sp->s);
    if (space == PS_LOCAL && p->cur < 0)
        return pp_err(p, sp, "module-scope .local variables are not supported");
    uint32_t align = 0, vec = 1;
    int type = -1;
    bool opaque = false;
    /* attributes: the rest of the space token (`.shared.align`), then
       the following directive tokens */
    for (const struct ptx_tok *t = sp;;) {
        while ((n = pp_part(t, &off, &s)) != 0) {
            int ty = pp_type_of(s, n);
            if (ty >= 0 && ty != PT_PRED) {
                type = ty;
            } else if (pp_str_is(s, n, "align")) {
                struct pp_num num;
                const struct ptx_tok *nt = pp_peek(p);
                if (pp_number(p, &num))
                    return -1;
                if (num.kind != PPN_INT || num.bits == 0 || num.bits > 4096 || (num.bits & (num.bits - 1)))
                    return pp_err(p, nt, "bad alignment '%.*s'", (int)nt->len, nt->s);
                align = (uint32_t)num.bits;
            } else if (pp_str_is(s, n, "v2") || pp_str_is(s, n, "v4") || pp_str_is(s, n, "v8")) {
                vec = (uint32_t)(s[1] - '0');
            } else if (pp_str_is(s, n, "texref") || pp_str_is(s, n, "samplerref") ||
                       pp_str_is(s, n, "surfref")) {
                /* opaque handles: one 64-bit slot, addressed through PS_TEX */
                type = PT_B64;
                opaque = true;
            } else if (pp_str_is(s, n, "attribute")) {
                if (pp_skip_parens(p))
                    return -1;
            } else {
                return pp_err(p, t, "unexpected '%.*s' in variable declaration", (int)t->len, t->s);
            }
        }
        if (pp_peek(p)->kind != PTK_DIRECTIVE)
            break;
        t = pp_next(p);
        off = 0;
    }
    if (type < 0)
        return pp_err(p, pp_peek(p), "missing type in variable declaration");
    if (opaque)
        space = PS_TEX;
    uint32_t esz = ptx_type_bits((enum ptx_type)type) / 8;
    if (!align)
        align = esz * vec;
    for (;;) {
        const struct ptx_tok *name = pp_peek(p);
        if (name->kind != PTK_IDENT)
            return pp_err(p, name, "expected a variable name, got '%.*s'", (int)name->len, name->s);
        pp_next(p);
        uint64_t count = vec;
        bool unsized = false;
        while (pp_is_punct(pp_peek(p), '[')) {
            const struct ptx_tok *br = pp_next(p);
            if (pp_accept(p, ']')) {
                if (br != name + 1 || unsized)
                    return pp_err(p, br, "only the first array dimension may be left empty");
                unsized = true;
                continue;
            }
            struct pp_num num;
            const struct ptx_tok *nt = pp_peek(p);
            if (pp_number(p, &num))
                return -1;
            if (num.kind != PPN_INT || num.bits > ((uint64_t)1 << 40))
                return pp_err(p, nt, "bad array size '%.*s'", (int)nt->len, nt->s);
            count *= num.bits;
            if (pp_expect(p, ']'))
                return -1;
        }
        const uint8_t *init = NULL;
        uint64_t size = count * esz;
        if (pp_is_punct(pp_peek(p), '=')) {
            const struct ptx_tok *eq = pp_next(p);
            if (space != PS_GLOBAL && space != PS_CONST)
                return pp_err(p, eq, "initialiser for a variable in a space other than .global/.const");
            struct pp_ibuf ib = {0};
            int rc;
            if (pp_is_punct(pp_peek(p), '{')) {
                rc = pp_init_elems(p, &ib, (uint8_t)type, esz, 0);
            } else {
                /* a scalar initialiser: reuse the element path on a one-element list */
                const struct ptx_tok *t = pp_peek(p);
                struct pp_num num;
                uint64_t bits = 0;
                if (t->kind == PTK_IDENT)
                    rc = pp_err(p, t, "address initialiser '%.*s' is not supported", (int)t->len, t->s);
                else
                    rc = pp_number(p, &num) || pp_num_to_type(p, t, &num, (enum ptx_type)type, &bits) ||
                         PP_RESERVE(p, ib.b, ib.cap, esz) ? -1 : 0;
                if (!rc) {
                    for (uint32_t i = 0; i < esz; i++)
                        ib.b[i] = (uint8_t)(bits >> (8 * i));
                    ib.n = esz;
                }
            }
            if (rc) {
                free(ib.b);
                return -1;
            }
            if (unsized) {
                uint64_t row = count * esz; /* bytes per index of the open dimension */
                size = row ? pp_align_up64(ib.n, (uint32_t)row) : 0;
            }
            if (ib.n > size) {
                free(ib.b);
                return pp_err(p, eq, "too many initialisers for '%.*s'", (int)name->len, name->s);
            }
            uint8_t *buf = size ? pp_alloc(p, (size_t)size) : NULL;
            if (size && !buf) {
                free(ib.b);
                return -1;
            }
            if (ib.n)
                memcpy(buf, ib.b, ib.n);
            free(ib.b);
            init = buf;
        } else if (unsized) {
            size = 0;
        }
        /* place it in its space */
        uint64_t addr = 0;
        bool ext_shared = space == PS_SHARED && (is_extern || unsized) && size == 0;
        if (space == PS_GLOBAL) {
            addr = p->global_off = pp_align_up64(p->global_off, align);
            p->global_off += size;
        } else if (space == PS_CONST) {
            addr = p->const_off = pp_align_up64(p->const_off, align);
            p->const_off += size;
        } else if (space == PS_SHARED && !ext_shared) {
            addr = p->shared_off = pp_align_up64(p->shared_off, align);
            p->shared_off += size;
        } else if (space == PS_LOCAL) {
            addr = p->local_off = pp_align_up(p->local_off, align);
            p->local_off = (uint32_t)(p->local_off + size);
        }
        if (p->cur < 0) {
            if (pp_mod_name_taken(p, name))
                return pp_err(p, name, "duplicate declaration of '%.*s'", (int)name->len, name->s);
        }
        int32_t si = pp_add_sym(p, name, space, (uint8_t)type, align, size, addr);
        if (si < 0)
            return -1;
        p->syms[si].init = init;
        p->syms[si].is_extern = ext_shared;
        if (ext_shared) {
            if (PP_RESERVE(p, p->ext_shared, p->capext, p->next_ext + 1))
                return -1;
            p->ext_shared[p->next_ext++] = (uint32_t)si;
        }
        if (p->cur < 0) {
            if (pp_map_put(p, &p->modsyms, name->s, name->len, si))
                return -1;
        } else if (pp_bind(p, name, name->s, name->len, PPB_SYM, si, 0)) {
            return -1;
        }
        if (pp_accept(p, ';'))
            return 0;
        if (pp_expect(p, ','))
            return -1;
    }
}

/* `.reg [.vN] .type name[<N>], ...;`  cursor after `.reg` */
static int pp_reg_decl(struct pp *p, const struct ptx_tok *kw)
{
    int type = -1;
    uint32_t vec = 1, off = 0, n;
    const char *s;
    pp_part(kw, &off, &s); /* "reg"; `.reg.b16` carries its type in the same token */
    for (const struct ptx_tok *t = kw;;) {
        while ((n = pp_part(t, &off, &s)) != 0) {
            int ty = pp_type_of(s, n);
            if (ty >= 0)
                type = ty;
            else if (pp_str_is(s, n, "v2") || pp_str_is(s, n, "v4"))
                vec = (uint32_t)(s[1] - '0');
            else
                return pp_err(p, t, "unexpected '%.*s' in register declaration", (int)t->len, t->s);
        }
        if (pp_peek(p)->kind != PTK_DIRECTIVE)
            break;
        t = pp_next(p);
        off = 0;
    }
    if (type < 0)
        return pp_err(p, kw, "missing type in register declaration");
    static const char comps[4] = {'x', 'y', 'z', 'w'};
    for (;;) {
        const struct ptx_tok *name = pp_peek(p);
        if (name->kind != PTK_IDENT || memchr(name->s, '.', name->len))
            return pp_err(p, name, "expected a register name, got '%.*s'", (int)name->len, name->s);
        pp_next(p);
        uint64_t count = 0;
        bool range = false;
        if (pp_accept(p, '<')) {
            struct pp_num num;
            const struct ptx_tok *nt = pp_peek(p);
            if (pp_number(p, &num))
                return -1;
            if (num.kind != PPN_INT || num.bits > 10000000)
                return pp_err(p, nt, "bad register count '%.*s'", (int)nt->len, nt->s);
            count = num.bits;
            range = true;
            if (pp_expect(p, '>'))
                return -1;
        }
        for (uint64_t i = 0; i < (range ? count : 1); i++) {
            char buf[300];
            int bl = range ? snprintf(buf, sizeof buf, "%.*s%llu", (int)name->len, name->s, (unsigned long long)i)
                           : snprintf(buf, sizeof buf, "%.*s", (int)name->len, name->s);
            if (bl < 0 || (size_t)bl >= sizeof buf - 4)
                return pp_err(p, name, "register name too long");
            const char *nm = arena_strndup(p->A, buf, (size_t)bl);
            if (!nm)
                return pp_err(p, name, "out of memory");
            if (vec == 1) {
                int32_t r = pp_add_reg(p, nm, (uint8_t)type);
                if (r < 0 || pp_bind(p, name, nm, (uint32_t)bl, PPB_REG, r, 0))
                    return -1;
                continue;
            }
            /* vector register: one scalar register per element, named
               `%v.x` ..., and the whole name usable as a vector operand */
            int32_t first = -1;
            for (uint32_t c = 0; c < vec; c++) {
                char eb[310];
                int el = snprintf(eb, sizeof eb, "%s.%c", buf, comps[c]);
                const char *en = arena_strndup(p->A, eb, (size_t)el);
                int32_t r = en ? pp_add_reg(p, en, (uint8_t)type) : -1;
                if (r < 0 || pp_bind(p, name, en, (uint32_t)el, PPB_REG, r, 0))
                    return -1;
                if (c == 0)
                    first = r;
            }
            if (pp_bind(p, name, nm, (uint32_t)bl, PPB_VREG, first, (uint8_t)vec))
                return -1;
        }
        if (pp_accept(p, ';'))
            return 0;
        if (pp_expect(p, ','))
            return -1;
    }
}

/* ---- parameters ----------------------------------------------------------------- */

struct pp_pdecl {
    const struct ptx_tok *name;
    uint8_t type;
    uint32_t align, size;
};

/* one `.param [.align N] [.ptr...] .type name[N]` (cursor on `.param`) */
static int pp_param_decl(struct pp *p, struct pp_pdecl *d)
{
    const struct ptx_tok *kw = pp_next(p);
    if (pp_head_is(kw, ".reg"))
        return pp_err(p, kw, "register parameters are not supported");
    if (!pp_head_is(kw, ".param"))
        return pp_err(p, kw, "expected '.param', got '%.*s'", (int)kw->len, kw->s);
    int type = -1;
    uint32_t align = 0, vec = 1, off = 0, n;
    bool ptr_seen = false;
    const char *s;
    pp_part(kw, &off, &s); /* "param" */
    for (const struct ptx_tok *t = kw;;) {
        while ((n = pp_part(t, &off, &s)) != 0) {
            int ty = pp_type_of(s, n);
            bool in_ptr = pp_str_is(s, n, "ptr");
            ptr_seen = ptr_seen || in_ptr;
            if (ty >= 0 && ty != PT_PRED) {
                type = ty;
            } else if (pp_str_is(s, n, "align")) {
                struct pp_num num;
                const struct ptx_tok *nt = pp_peek(p);
                if (pp_number(p, &num))
                    return -1;
                if (num.kind != PPN_INT || num.bits == 0 || num.bits > 4096 || (num.bits & (num.bits - 1)))
                    return pp_err(p, nt, "bad alignment '%.*s'", (int)nt->len, nt->s);
                /* `.ptr.space.align N` describes the pointee and does not
                   change the parameter's own layout */
                if (!ptr_seen)
                    align = (uint32_t)num.bits;
            } else if (pp_str_is(s, n, "v2") || pp_str_is(s, n, "v4")) {
                vec = (uint32_t)(s[1] - '0');
            } else if (in_ptr || pp_str_is(s, n, "global") || pp_str_is(s, n, "shared") ||
                       pp_str_is(s, n, "const") || pp_str_is(s, n, "local")) {
                /* pointer attributes: informational */
            } else {
                return pp_err(p, t, "unexpected '%.*s' in parameter declaration", (int)t->len, t->s);
            }
        }
        if (pp_peek(p)->kind != PTK_DIRECTIVE)
            break;
        t = pp_next(p);
        off = 0;
    }
    if (type < 0)
        return pp_err(p, pp_peek(p), "missing type in parameter declaration");
    const struct ptx_tok *name = pp_peek(p);
    if (name->kind != PTK_IDENT)
        return pp_err(p, name, "expected a parameter name, got '%.*s'", (int)name->len, name->s);
    pp_next(p);
    uint64_t count = vec;
    if (pp_accept(p, '[')) {
        struct pp_num num;
        const struct ptx_tok *nt = pp_peek(p);
        if (pp_number(p, &num))
            return -1;
        if (num.kind != PPN_INT || num.bits == 0 || num.bits > (1u << 20))
            return pp_err(p, nt, "bad array size '%.*s'", (int)nt->len, nt->s);
        count *= num.bits;
        if (pp_expect(p, ']'))
            return -1;
    }
    uint32_t esz = ptx_type_bits((enum ptx_type)type) / 8;
    d->name = name;
    d->type = (uint8_t)type;
    d->size = (uint32_t)(count * esz);
    d->align = align ? align : esz * vec;
    return 0;
}

/* `( .param ..., .param ... )` */
static int pp_param_list(struct pp *p, struct pp_pdecl **out, uint32_t *n)
{
    uint32_t cap = 0;
    *out = NULL;
    *n = 0;
    if (pp_expect(p, '('))
        return -1;
    if (pp_accept(p, ')'))
        return 0;
    for (;;) {
        if (PP_RESERVE(p, *out, cap, *n + 1) || pp_param_decl(p, &(*out)[*n]))
            return -1;
        (*n)++;
        if (pp_accept(p, ')'))
            return 0;
        if (pp_expect(p, ','))
            return -1;
    }
}

/* Create the symbols and layout of a parameter list. */
static int pp_make_params(struct pp *p, const struct pp_pdecl *d, uint32_t n, uint8_t space, uint32_t *off,
                          struct ptx_param **out)
{
    *out = NULL;
    if (!n)
        return 0;
    struct ptx_param *v = pp_alloc(p, n * sizeof *v);
    if (!v)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = pp_align_up(*off, d[i].align);
        int32_t si = pp_add_sym(p, d[i].name, space, d[i].type, d[i].align, d[i].size, o);
        if (si < 0)
            return -1;
        v[i] = (struct ptx_param){.name = p->syms[si].name, .type = d[i].type, .align = d[i].align,
                                  .size = d[i].size, .offset = o, .sym = si};
        *off = o + d[i].size;
    }
    *out = v;
    return 0;
}

/* ---- function bodies ------------------------------------------------------------------ */

static int pp_skip_to_semicolon(struct pp *p)
{
    const struct ptx_tok *start = pp_peek(p);
    for (;;) {
        const struct ptx_tok *t = pp_next(p);
        if (t->kind == PTK_EOF)
            return pp_err(p, start, "missing ';'");
        if (pp_is_punct(t, ';'))
            return 0;
    }
}

static int pp_loc(struct pp *p, const struct ptx_tok *kw)
{
    struct pp_num f, l;
    if (pp_number(p, &f) || pp_number(p, &l))
        return -1;
    if (f.kind != PPN_INT || l.kind != PPN_INT || f.bits > 65535 || l.bits > UINT32_MAX)
        return pp_err(p, kw, "bad '.loc'");
    p->loc_file = (uint16_t)f.bits;
    p->loc_line = (uint32_t)l.bits;
    /* column, then `, function_name $L__info_stringN, inlined_at F L C`: code
       inlined from a header is attributed to the line it was inlined at,
       which is where a user of the profile wants to look */
    while (pp_peek(p)->kind != PTK_EOF && pp_peek(p)->line == kw->line) {
        const struct ptx_tok *t = pp_next(p);
        if (t->kind == PTK_IDENT && pp_tok_is(t, "inlined_at") && pp_peek(p)->kind == PTK_NUMBER &&
            pp_peek2(p)->kind == PTK_NUMBER) {
            if (pp_number(p, &f) || pp_number(p, &l))
                return -1;
            p->loc_file = (uint16_t)f.bits;
            p->loc_line = (uint32_t)l.bits;
        }
    }
    return 0;
}

static int pp_body_directive(struct pp *p, const struct ptx_tok *t)
{
    if (pp_head_is(t, ".reg")) {
        pp_next(p);
        return pp_reg_decl(p, t);
    }
    if (pp_head_is(t, ".local") || pp_head_is(t, ".shared") || pp_head_is(t, ".global") ||
        pp_head_is(t, ".const") || pp_head_is(t, ".shared::cta"))
        return pp_var_decl(p, false);
    if (pp_head_is(t, ".param")) {
        struct pp_pdecl d;
        if (pp_param_decl(p, &d) || pp_expect(p, ';'))
            return -1;
        uint32_t o = pp_align_up(p->frame_off, d.align);
        int32_t si = pp_add_sym(p, d.name, PS_PARAM_FUNC, d.type, d.align, d.size, o);
        if (si < 0)
            return -1;
        p->frame_off = o + d.size;
        return pp_bind(p, d.name, d.name->s, d.name->len, PPB_SYM, si, 0);
    }
    pp_next(p);
    if (pp_tok_is(t, ".loc"))
        return pp_loc(p, t);
    if (pp_tok_is(t, ".pragma") || pp_tok_is(t, ".callprototype"))
        return pp_skip_to_semicolon(p);
    if (pp_tok_is(t, ".extern"))
        return pp_err(p, t, "'.extern' inside a function is not supported");
    return pp_err(p, t, "unsupported directive '%.*s'", (int)t->len, t->s);
}

/* Finish a function body: patch labels, move the working arrays into the arena. */
static int pp_finish_body(struct pp *p, struct ptx_func *f)
{
    for (uint32_t i = 0; i < p->nlfix; i++) {
        const struct pp_lfix *x = &p->lfix[i];
        const struct pp_label *l = &p->labels[x->label];
        if (l->insn < 0)
            return pp_err(p, x->tok, "undefined label '%.*s'", (int)x->tok->len, x->tok->s);
        p->insns[x->insn].o[x->opnd].imm = l->insn;
    }
    f->nregs = p->nregs;
    f->regs = p->nregs ? pp_alloc(p, p->nregs * sizeof *f->regs) : NULL;
    f->ninsns = p->ninsns;
    f->insns = p->ninsns ? pp_alloc(p, p->ninsns * sizeof *f->insns) : NULL;
    f->ncalls = p->ncalls;
    f->calls = p->ncalls ? pp_alloc(p, p->ncalls * sizeof *f->calls) : NULL;
    if ((p->nregs && !f->regs) || (p->ninsns && !f->insns) || (p->ncalls && !f->calls))
        return -1;
    if (p->nregs)
        memcpy(f->regs, p->regs, p->nregs * sizeof *f->regs);
    if (p->ninsns)
        memcpy(f->insns, p->insns, p->ninsns * sizeof *f->insns);
    if (p->ncalls)
        memcpy(f->calls, p->calls, p->ncalls * sizeof *f->calls);
    f->cc_reg = p->cc_reg;
    f->local_bytes = p->local_off;
    f->frame_param_bytes = p->frame_off;
    return 0;
}

static int pp_body(struct pp *p, uint32_t fi)
{
    const struct ptx_tok *open = pp_next(p); /* '{' */
    uint32_t base = p->nscopes;
    if (pp_scope_push(p))
        return -1;
    while (p->nscopes > base) {
        const struct ptx_tok *t = pp_peek(p);
        if (t->kind == PTK_EOF)
            return pp_err(p, open, "unterminated '{': missing '}' at end of file");
        if (pp_is_punct(t, '{')) {
            pp_next(p);
            if (pp_scope_push(p))
                return -1;
        } else if (pp_is_punct(t, '}')) {
            pp_next(p);
            if (pp_scope_pop(p))
                return -1;
        } else if (t->kind == PTK_DIRECTIVE) {
            if (pp_body_directive(p, t))
                return -1;
        } else if (t->kind == PTK_IDENT && pp_is_punct(pp_peek2(p), ':')) {
            int32_t l = pp_label_ref(p, t);
            if (l < 0)
                return -1;
            if (p->labels[l].insn >= 0)
                return pp_err(p, t, "duplicate label '%.*s'", (int)t->len, t->s);
            p->labels[l].insn = (int32_t)p->ninsns;
            p->labels[l].line = t->line;
            p->labels[l].col = t->col;
            pp_next(p);
            pp_next(p);
        } else if (t->kind == PTK_IDENT || pp_is_punct(t, '@')) {
            if (pp_insn(p))
                return -1;
        } else {
            return pp_err(p, t, "unexpected '%.*s'", (int)t->len, t->s);
        }
    }
    return pp_finish_body(p, &p->funcs[fi]);
}

static void pp_func_reset(struct pp *p, int32_t fi)
{
    p->cur = fi;
    p->nregs = p->ninsns = p->ncalls = p->nbinds = p->nscopes = p->nlabels = p->nlfix = 0;
    pp_map_clear(&p->names);
    pp_map_clear(&p->labelnames);
    p->frame_off = p->local_off = 0;
    p->cc_reg = -1;
    p->loc_file = 0;
    p->loc_line = 0;
}

/* performance directives between the parameter list and the body */
static int pp_perf_directive(struct pp *p, struct ptx_func *f)
{
    const struct ptx_tok *t = pp_next(p);
    uint32_t *dst3 = NULL, *dst1 = NULL;
    if (pp_tok_is(t, ".maxntid"))
        dst3 = f->maxntid;
    else if (pp_tok_is(t, ".reqntid"))
        dst3 = f->reqntid;
    else if (pp_tok_is(t, ".minnctapersm"))
        dst1 = &f->minnctapersm;
    else if (pp_tok_is(t, ".maxnreg"))
        dst1 = &f->maxnreg;
    else if (pp_tok_is(t, ".noreturn") || pp_tok_is(t, ".explicitcluster"))
        return 0;
    else if (pp_tok_is(t, ".pragma"))
        return pp_skip_to_semicolon(p);
    else if (pp_tok_is(t, ".maxclusterrank") || pp_tok_is(t, ".reqnctapercluster") ||
             pp_tok_is(t, ".maxnctapersm")) {
        for (int i = 0; i < 3; i++) {
            struct pp_num num;
            if (pp_number(p, &num))
                return -1;
            if (!pp_accept(p, ','))
                break;
        }
        return 0;
    } else
        return pp_err(p, t, "unsupported directive '%.*s'", (int)t->len, t->s);
    if (dst1) {
        struct pp_num num;
        if (pp_number(p, &num))
            return -1;
        *dst1 = (uint32_t)num.bits;
        return 0;
    }
    dst3[0] = dst3[1] = dst3[2] = 1;
    for (int i = 0; i < 3; i++) {
        struct pp_num num;
        if (pp_number(p, &num))
            return -1;
        dst3[i] = (uint32_t)num.bits;
        if (!pp_accept(p, ','))
            break;
    }
    return 0;
}

/* `.entry|.func [(rets)] name [(params)] [directives] ( ; | { body } )`,
   cursor on .entry/.func.  A prototype followed later by the definition
   shares one function index; the definition's parameter list wins. */
static int pp_function(struct pp *p, bool visible)
{
    const struct ptx_tok *kw = pp_next(p);
    bool entry = pp_tok_is(kw, ".entry");
    struct pp_pdecl *rets = NULL, *params = NULL;
    uint32_t nrets = 0, nparams = 0;
    int rc = -1;
    if (!entry && pp_is_punct(pp_peek(p), '(') && pp_param_list(p, &rets, &nrets))
        goto out;
    const struct ptx_tok *name = pp_peek(p);
    if (name->kind != PTK_IDENT) {
        pp_err(p, name, "expected a function name, got '%.*s'", (int)name->len, name->s);
        goto out;
    }
    pp_next(p);
    if (pp_is_punct(pp_peek(p), '(') && pp_param_list(p, &params, &nparams))
        goto out;
    int32_t fi = pp_lookup_func(p, name->s, name->len);
    bool first = fi < 0;
    if (first) {
        if (pp_lookup_modsym(p, name->s, name->len) >= 0) {
            pp_err(p, name, "duplicate declaration of '%.*s'", (int)name->len, name->s);
            goto out;
        }
        if (PP_RESERVE(p, p->funcs, p->capfuncs, p->nfuncs + 1))
            goto out;
        fi = (int32_t)p->nfuncs++;
        struct ptx_func *f = &p->funcs[fi];
        memset(f, 0, sizeof *f);
        f->name = arena_strndup(p->A, name->s, name->len);
        f->is_extern = true; /* until a body is seen */
        f->is_entry = entry;
        f->cc_reg = -1;
        f->line = name->line;
        f->col = name->col;
        if (!f->name || pp_map_put(p, &p->funcnames, name->s, name->len, fi))
            goto out;
    }
    struct ptx_func *f = &p->funcs[fi];
    if (f->is_entry != entry) {
        pp_err(p, name, "'%.*s' redeclared as a different kind of function", (int)name->len, name->s);
        goto out;
    }
    f->is_visible = f->is_visible || visible;
    while (pp_peek(p)->kind == PTK_DIRECTIVE)
        if (pp_perf_directive(p, f))
            goto out;
    bool body = pp_is_punct(pp_peek(p), '{');
    if (!body && pp_expect(p, ';'))
        goto out;
    if (body && !f->is_extern) {
        pp_err(p, name, "duplicate definition of function '%.*s'", (int)name->len, name->s);
        goto out;
    }
    if (!body && !first) {
        rc = 0; /* repeated prototype */
        goto out;
    }
    pp_func_reset(p, fi);
    /* layout: kernel params in the param buffer; .func formals then return
       values at the start of the per-thread frame */
    uint32_t off = 0;
    struct ptx_param *pv, *rv;
    if (pp_make_params(p, params, nparams, entry ? PS_PARAM : PS_PARAM_FUNC, &off, &pv))
        goto out;
    uint32_t pbytes = off;
    if (pp_make_params(p, rets, nrets, PS_PARAM_FUNC, &off, &rv))
        goto out;
    f->params = pv;
    f->nparams = nparams;
    f->rets = rv;
    f->nrets = nrets;
    f->param_bytes = pbytes;
    f->frame_param_bytes = entry ? 0 : off;
    if (!body) {
        rc = 0;
        goto out;
    }
    f->is_extern = false;
    f->line = name->line;
    f->col = name->col;
    p->frame_off = entry ? 0 : off;
    if (pp_scope_push(p))
        goto out;
    for (uint32_t i = 0; i < nparams + nrets; i++) {
        const struct ptx_param *pr = i < nparams ? &pv[i] : &rv[i - nparams];
        const struct ptx_tok *nt = i < nparams ? params[i].name : rets[i - nparams].name;
        if (pp_bind(p, nt, nt->s, nt->len, PPB_SYM, pr->sym, 0))
            goto out;
    }
    rc = pp_body(p, (uint32_t)fi);
out:
    p->cur = -1;
    free(rets);
    free(params);
    return rc;
}

/* ---- module ------------------------------------------------------------------ */

static int pp_section(struct pp *p)
{
    /* debug sections (-lineinfo/-G): skipped as a balanced { } block */
    const struct ptx_tok *kw = pp_next(p);
    while (pp_peek(p)->kind != PTK_EOF && !pp_is_punct(pp_peek(p), '{'))
        pp_next(p);
    if (pp_expect(p, '{'))
        return -1;
    return pp_skip_balanced(p, kw, '{', '}', ".section");
}

static int pp_file(struct pp *p)
{
    struct pp_num num;
    const struct ptx_tok *nt = pp_peek(p);
    if (pp_number(p, &num))
        return -1;
    if (num.kind != PPN_INT || num.bits == 0 || num.bits > 65535)
        return pp_err(p, nt, "bad file number '%.*s'", (int)nt->len, nt->s);
    const struct ptx_tok *st = pp_peek(p);
    if (st->kind != PTK_STRING)
        return pp_err(p, st, "expected a file name string, got '%.*s'", (int)st->len, st->s);
    pp_next(p);
    uint32_t idx = (uint32_t)num.bits;
    if (PP_RESERVE(p, p->files, p->capfiles, idx + 1))
        return -1;
    if (idx >= p->nfiles)
        p->nfiles = idx + 1;
    p->files[idx] = arena_strndup(p->A, st->s + 1, st->len - 2);
    /* optional timestamp and size */
    while (pp_accept(p, ','))
        if (pp_number(p, &num))
            return -1;
    return 0;
}

static int pp_module_directive(struct pp *p)
{
    const struct ptx_tok *t = pp_peek(p);
    bool visible = false, is_extern = false;
    /* linkage prefixes */
    while (pp_tok_is(t, ".visible") || pp_tok_is(t, ".extern") || pp_tok_is(t, ".weak") ||
           pp_tok_is(t, ".common")) {
        if (pp_tok_is(t, ".visible") || pp_tok_is(t, ".weak") || pp_tok_is(t, ".common"))
            visible = true;
        else
            is_extern = true;
        pp_next(p);
        t = pp_peek(p);
    }
    if (pp_tok_is(t, ".entry") || pp_tok_is(t, ".func"))
        return pp_function(p, visible);
    if (pp_head_is(t, ".global") || pp_head_is(t, ".const") || pp_head_is(t, ".shared") ||
        pp_head_is(t, ".shared::cta") || pp_head_is(t, ".tex") || pp_head_is(t, ".local"))
        return pp_var_decl(p, is_extern);
    if (t->kind != PTK_DIRECTIVE) {
        if (t->kind == PTK_EOF)
            return pp_err(p, t, "unexpected end of file after linkage directive");
        return pp_err(p, t, "unexpected '%.*s'", (int)t->len, t->s);
    }
    if (visible || is_extern)
        return pp_err(p, t, "unexpected '%.*s' after linkage directive", (int)t->len, t->s);
    pp_next(p);
    struct ptx_module *m = p->m;
    if (pp_tok_is(t, ".version")) {
        const struct ptx_tok *v = pp_next(p);
        unsigned maj = 0, min = 0;
        char buf[32];
        int used = 0;
        if (v->kind == PTK_NUMBER && v->len < sizeof buf) {
            memcpy(buf, v->s, v->len);
            buf[v->len] = '\0';
            if (sscanf(buf, "%u.%u%n", &maj, &min, &used) != 2 || (uint32_t)used != v->len)
                used = 0;
        }
        if (!used)
            return pp_err(p, v, "bad version '%.*s'", (int)v->len, v->s);
        m->version_major = maj;
        m->version_minor = min;
        return 0;
    }
    if (pp_tok_is(t, ".target")) {
        /* the first target names the architecture; the rest (texmode_*,
           debug, map_f64_to_f32) are accepted and ignored */
        bool first = true;
        do {
            const struct ptx_tok *a = pp_next(p);
            if (a->kind != PTK_IDENT)
                return pp_err(p, a, "expected a target name, got '%.*s'", (int)a->len, a->s);
            if (first)
                snprintf(m->target, sizeof m->target, "%.*s", (int)a->len, a->s);
            first = false;
        } while (pp_accept(p, ','));
        return 0;
    }
    if (pp_tok_is(t, ".address_size")) {
        struct pp_num num;
        const struct ptx_tok *nt = pp_peek(p);
        if (pp_number(p, &num))
            return -1;
        if (num.kind != PPN_INT || (num.bits != 32 && num.bits != 64))
            return pp_err(p, nt, "bad address size '%.*s'", (int)nt->len, nt->s);
        m->address_size = (uint32_t)num.bits;
        return 0;
    }
    if (pp_tok_is(t, ".file"))
        return pp_file(p);
    if (pp_tok_is(t, ".section")) {
        p->pos--;
        return pp_section(p);
    }
    if (pp_tok_is(t, ".pragma"))
        return pp_skip_to_semicolon(p);
    if (pp_tok_is(t, ".loc"))
        return pp_loc(p, t);
    return pp_err(p, t, "unsupported directive '%.*s'", (int)t->len, t->s);
}

int pp_call_counts(struct pp *p, uint32_t line, uint32_t col, const char *name, uint32_t len, uint32_t nargs,
                   uint32_t nrets, const struct ptx_func *g)
{
    if (nargs != g->nparams)
        return pp_err_at(p, line, col, "wrong number of arguments in call to '%.*s': %u given, %u expected",
                         (int)len, name, nargs, g->nparams);
    if (nrets != g->nrets)
        return pp_err_at(p, line, col, "wrong number of return values in call to '%.*s': %u given, %u expected",
                         (int)len, name, nrets, g->nrets);
    return 0;
}

/* Resolve call targets and check argument counts. */
static int pp_resolve_calls(struct pp *p)
{
    for (uint32_t i = 0; i < p->ncfix; i++) {
        const struct pp_cfix *x = &p->cfix[i];
        int32_t callee = pp_lookup_func(p, x->name, x->len);
        if (callee < 0)
            return pp_err_at(p, x->line, x->col, "undefined function '%.*s'", (int)x->len, x->name);
        struct ptx_func *f = &p->funcs[x->func];
        struct ptx_call *c = &f->calls[x->call];
        const struct ptx_func *g = &p->funcs[callee];
        if (g->is_entry)
            return pp_err_at(p, x->line, x->col, "call to kernel '%.*s'", (int)x->len, x->name);
        if (pp_call_counts(p, x->line, x->col, x->name, x->len, c->nargs, c->nrets, g))
            return -1;
        c->callee = callee;
        f->insns[x->insn].o[0].imm = callee;
    }
    return 0;
}

/* The PTX ISA's module header: .version first, then .target before any
   variable or function.  Anything else (an empty file, a file that is not
   PTX) is rejected here rather than loaded as an empty module. */
static int pp_module_header(struct pp *p, bool *seen_version, bool *seen_target)
{
    const struct ptx_tok *t = pp_peek(p);
    if (!*seen_version) {
        if (t->kind == PTK_EOF)
            return pp_err(p, t, "empty PTX module: expected a '.version' directive first (is this a PTX file?)");
        if (!pp_tok_is(t, ".version"))
            return pp_err(p, t, "expected '.version' as the first directive of a PTX module, got '%.*s'",
                          (int)t->len, t->s);
        *seen_version = true;
        return 0;
    }
    if (pp_tok_is(t, ".target")) {
        *seen_target = true;
        return 0;
    }
    if (!*seen_target && !pp_tok_is(t, ".version") && !pp_tok_is(t, ".file") && !pp_tok_is(t, ".pragma") &&
        !pp_tok_is(t, ".address_size"))
        return pp_err(p, t, "expected a '.target' directive before '%.*s'", (int)t->len, t->s);
    return 0;
}

static int pp_module(struct pp *p)
{
    bool seen_version = false, seen_target = false;
    for (;;) {
        if (pp_module_header(p, &seen_version, &seen_target))
            return -1;
        const struct ptx_tok *t = pp_peek(p);
        if (t->kind == PTK_EOF)
            break;
        if (t->kind != PTK_DIRECTIVE)
            return pp_err(p, t, "expected a directive, got '%.*s'", (int)t->len, t->s);
        if (pp_module_directive(p))
            return -1;
    }
    if (pp_resolve_calls(p))
        return -1;
    struct ptx_module *m = p->m;
    /* dynamic shared memory starts after all static shared variables */
    uint32_t ext_align = 16;
    for (uint32_t i = 0; i < p->next_ext; i++)
        if (p->syms[p->ext_shared[i]].align > ext_align)
            ext_align = p->syms[p->ext_shared[i]].align;
    uint64_t dyn = pp_align_up64(p->shared_off, ext_align);
    for (uint32_t i = 0; i < p->next_ext; i++)
        p->syms[p->ext_shared[i]].addr = dyn;
    m->shared_static_bytes = p->shared_off;
    m->global_bytes = p->global_off;
    m->const_bytes = p->const_off;
    m->nfuncs = p->nfuncs;
    m->nsyms = p->nsyms;
    m->funcs = p->nfuncs ? pp_alloc(p, p->nfuncs * sizeof *m->funcs) : NULL;
    m->syms = p->nsyms ? pp_alloc(p, p->nsyms * sizeof *m->syms) : NULL;
    m->nfiles = p->nfiles ? p->nfiles - 1 : 0;
    m->files = p->nfiles ? pp_alloc(p, p->nfiles * sizeof *m->files) : NULL;
    if ((p->nfuncs && !m->funcs) || (p->nsyms && !m->syms) || (p->nfiles && !m->files))
        return -1;
    if (p->nfuncs)
        memcpy(m->funcs, p->funcs, p->nfuncs * sizeof *m->funcs);
    if (p->nsyms)
        memcpy(m->syms, p->syms, p->nsyms * sizeof *m->syms);
    if (p->nfiles)
        memcpy(m->files, p->files, p->nfiles * sizeof *m->files);
    return 0;
}

static void pp_free_work(struct pp *p)
{
    free(p->funcs);
    free(p->syms);
    free(p->files);
    free(p->cfix);
    free(p->imm);
    free(p->ext_shared);
    free(p->regs);
    free(p->insns);
    free(p->calls);
    free(p->binds);
    free(p->scopes);
    free(p->labels);
    free(p->lfix);
    pp_map_free(&p->modsyms);
    pp_map_free(&p->funcnames);
    pp_map_free(&p->names);
    pp_map_free(&p->labelnames);
}

/* ---- entry points ---------------------------------------------------------------- */

struct ptx_module *ptx_parse(const char *text, size_t len, const char *path, struct ptx_error *err)
{
    memset(err, 0, sizeof *err);
    if (!path)
        path = "<ptx>";
    struct ptx_toks toks;
    if (ptx_lex(text, len, path, &toks, err))
        return NULL;
    struct arena *A = arena_new(0);
    struct ptx_module *m = A ? arena_alloc(A, sizeof *m) : NULL;
    if (!m) {
        arena_free(A);
        ptx_toks_free(&toks);
        snprintf(err->file, sizeof err->file, "%s", path);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    m->arena = A;
    m->path = arena_strdup(A, path);
    struct pp p = {.path = path, .err = err, .A = A, .m = m, .t = toks.v, .nt = toks.n, .cur = -1, .cc_reg = -1};
    int rc = pp_module(&p);
    pp_free_work(&p);
    ptx_toks_free(&toks);
    if (rc || p.failed) {
        arena_free(A);
        return NULL;
    }
    return m;
}

struct ptx_module *ptx_parse_file(const char *path, struct ptx_error *err)
{
    memset(err, 0, sizeof *err);
    size_t n = 0;
    char why[512];
    char *buf = file_read_all(path, FILE_LIMIT_PTX, &n, NULL, why, sizeof why);
    if (!buf) {
        snprintf(err->file, sizeof err->file, "%s", path);
        snprintf(err->msg, sizeof err->msg, "cannot load: %s", why + strlen(path) + 2);
        return NULL;
    }
    struct ptx_module *m = ptx_parse(buf, n, path, err);
    free(buf);
    return m;
}

void ptx_module_free(struct ptx_module *m)
{
    if (m)
        arena_free(m->arena);
}

int ptx_find_func(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

int ptx_find_sym(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].func < 0 && strcmp(m->syms[i].name, name) == 0)
            return (int)i;
    return -1;
}
