/*
 * config.c - GPGPU-Sim gpgpusim.config syntax, option tables (see config.h).
 *
 * Syntax accepted, per line:
 *   -name value [-name value ...]  # comment to end of line
 * The value is the next token on the SAME line as its option: a bare word
 * (everything up to whitespace or '#'), or a "quoted string" that may hold
 * spaces and '#' (backslash escapes \" and \\).  A token starting with '-'
 * followed by a digit or '.' is a (negative) number, so it is a value; any
 * other '-' token where a value is expected means the value is missing.
 * `-config FILE` includes FILE (relative to the including file's directory)
 * at that point; the include stack is checked for cycles.
 *
 * Nothing here runs in the tick loop: allocation (arena, and a temporary
 * malloc'ed file buffer) is fine.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_read.h"

#define CFG_MAX_DEPTH 32          /* nested includes; deeper is surely a mistake */
#define CFG_MAX_FILE_BYTES (16u << 20)    /* one config file (or include): 16 MiB */
#define CFG_MAX_LOAD_BYTES (64u << 20)    /* every file one cfg_load_file call reads, includes together */
#define CFG_CMDLINE "command line"

/* ------------------------------------------------------------------------ */
/* errors                                                                   */

int cfg_error_format(const struct cfg_error *e, char *buf, size_t n)
{
    if (e->line == 0)
        return snprintf(buf, n, "%s: error: %s", e->file, e->msg);
    return snprintf(buf, n, "%s:%" PRIu32 ":%" PRIu32 ": error: %s", e->file, e->line, e->col, e->msg);
}

static void cfg_err_set(struct cfg_error *err, const char *file, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void cfg_err_set(struct cfg_error *err, const char *file, uint32_t line, uint32_t col, const char *fmt, ...)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%s", file ? file : CFG_CMDLINE);
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------ */
/* the entry list                                                           */

void cfg_init(struct cfg *c, struct arena *a)
{
    memset(c, 0, sizeof *c);
    c->arena = a;
}

static int cfg_push(struct cfg *c, const char *name, size_t name_len, const char *value, const char *file,
                    uint32_t line, uint32_t col)
{
    if (c->n == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 64;
        struct cfg_entry *ne = arena_alloc(c->arena, sizeof *ne * cap);
        if (!ne)
            return -1;
        if (c->n)
            memcpy(ne, c->e, sizeof *ne * c->n);
        c->e = ne;
        c->cap = cap;
    }
    char *nm = arena_strndup(c->arena, name, name_len);
    if (!nm)
        return -1;
    c->e[c->n++] = (struct cfg_entry){nm, value, file, line, col, 0};
    return 0;
}

int cfg_set(struct cfg *c, const char *name, const char *value, const char *origin)
{
    while (name && *name == '-')   /* accept "-opt" as well as "opt" */
        name++;
    if (!name || !*name || !value)
        return -1;
    const char *v = arena_strdup(c->arena, value);
    const char *o = arena_strdup(c->arena, origin ? origin : CFG_CMDLINE);
    if (!v || !o)
        return -1;
    return cfg_push(c, name, strlen(name), v, o, 0, 0);
}

int cfg_insert_after(struct cfg *c, const struct cfg_entry *at, const char *name, const char *value)
{
    if (!at || at < c->e || at >= c->e + c->n || !name || !value)
        return -1;
    size_t idx = (size_t)(at - c->e);
    struct cfg_entry src = *at;
    const char *v = arena_strdup(c->arena, value);
    if (!v || cfg_push(c, name, strlen(name), v, src.file, src.line, src.col))
        return -1;
    struct cfg_entry ne = c->e[c->n - 1];
    memmove(&c->e[idx + 2], &c->e[idx + 1], sizeof *c->e * (c->n - 1 - (idx + 1)));
    c->e[idx + 1] = ne;
    return 0;
}

const struct cfg_entry *cfg_find(const struct cfg *c, const char *name)
{
    for (uint32_t i = c->n; i-- > 0;)
        if (strcmp(c->e[i].name, name) == 0)
            return &c->e[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* parsing text                                                             */

struct cfg_load {                 /* one load call: the include stack */
    const char *canon[CFG_MAX_DEPTH];
    const char *shown[CFG_MAX_DEPTH];
    unsigned depth;
    size_t total;                 /* bytes read so far, every file of the call */
};

static int cfg_load_path(struct cfg *c, struct cfg_load *ld, const char *path, const char *site_file,
                         uint32_t site_line, uint32_t site_col, struct cfg_error *err);

static int cfg_is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }

/* "-" followed by a digit or '.': a negative number, i.e. a value, not an option */
static int cfg_is_negnum(const char *p, const char *end)
{
    return p + 1 < end && p[0] == '-' && ((p[1] >= '0' && p[1] <= '9') || p[1] == '.');
}

/* Include path relative to the directory of the including file. */
static char *cfg_include_path(struct arena *a, const char *including, const char *inc)
{
    if (inc[0] == '/')
        return arena_strdup(a, inc);
    const char *slash = strrchr(including, '/');
    if (!slash)
        return arena_strdup(a, inc);
    size_t dl = (size_t)(slash - including) + 1;
    size_t il = strlen(inc);
    char *p = arena_alloc(a, dl + il + 1);
    if (!p)
        return NULL;
    memcpy(p, including, dl);
    memcpy(p + dl, inc, il + 1);
    return p;
}

static int cfg_parse(struct cfg *c, struct cfg_load *ld, const char *text, size_t len, const char *file,
                     struct cfg_error *err)
{
    const char *p = text, *end = text + len, *line_start = text;
    uint32_t line = 1;
    const char *pend_name = NULL;     /* option waiting for its value */
    size_t pend_len = 0;
    uint32_t pend_line = 0, pend_col = 0;
    char *tmp = NULL;                 /* unescaped quoted value (arena) */

#define COL(q) ((uint32_t)((q) - line_start) + 1)
#define MISSING()                                                                              \
    do {                                                                                       \
        cfg_err_set(err, file, pend_line, pend_col, "-%.*s: value missing", (int)pend_len,     \
                    pend_name);                                                                \
        return -1;                                                                             \
    } while (0)

    for (;;) {
        while (p < end && cfg_is_space(*p))
            p++;
        if (p == end || *p == '\n' || *p == '#') {
            if (pend_name)
                MISSING();
            while (p < end && *p != '\n')
                p++;
            if (p == end)
                break;
            p++;
            line++;
            line_start = p;
            continue;
        }
        if (!pend_name) {
            /* expect an option name */
            const char *t = p;
            while (p < end && !cfg_is_space(*p) && *p != '\n' && *p != '#')
                p++;
            if (*t != '-' || p - t < 2 || cfg_is_negnum(t, p)) {
                cfg_err_set(err, file, line, COL(t), "expected an option ('-name'), got '%.*s'", (int)(p - t), t);
                return -1;
            }
            pend_name = t + 1;
            pend_len = (size_t)(p - t - 1);
            pend_line = line;
            pend_col = COL(t);
            continue;
        }
        /* expect a value */
        const char *value;
        if (*p == '"') {
            /* a quoted value may span lines (GPGPU-Sim's configs wrap long DRAM timing strings):
               each line break is dropped with the spaces and tabs around it */
            const char *q = p + 1;
            uint32_t qline = line;
            const char *qline_start = line_start;
            while (q < end && *q != '"') {
                if (*q == '\\' && q + 1 < end && (q[1] == '"' || q[1] == '\\'))
                    q++;
                else if (*q == '\n') {
                    line++;
                    line_start = q + 1;
                }
                q++;
            }
            if (q == end) {
                cfg_err_set(err, file, qline, (uint32_t)(p - qline_start) + 1, "-%.*s: unterminated quoted value",
                            (int)pend_len, pend_name);
                return -1;
            }
            tmp = arena_alloc(c->arena, (size_t)(q - p));
            if (!tmp)
                goto oom;
            size_t k = 0;
            for (const char *s = p + 1; s < q; s++) {
                if (*s == '\\' && (s[1] == '"' || s[1] == '\\')) {
                    tmp[k++] = *++s;
                    continue;
                }
                if (*s == '\n') {
                    while (k && (tmp[k - 1] == ' ' || tmp[k - 1] == '\t' || tmp[k - 1] == '\r'))
                        k--;
                    while (s + 1 < q && cfg_is_space(s[1]))
                        s++;
                    continue;
                }
                tmp[k++] = *s;
            }
            tmp[k] = '\0';
            value = tmp;
            p = q + 1;
        } else {
            const char *t = p;
            while (p < end && !cfg_is_space(*p) && *p != '\n' && *p != '#')
                p++;
            if (*t == '-' && !cfg_is_negnum(t, p))
                MISSING();      /* the next option follows directly */
            value = arena_strndup(c->arena, t, (size_t)(p - t));
            if (!value)
                goto oom;
        }
        if (pend_len == 6 && memcmp(pend_name, "config", 6) == 0) {
            /* include: processed in place so later lines override it */
            char *inc = cfg_include_path(c->arena, file, value);
            if (!inc)
                goto oom;
            if (cfg_load_path(c, ld, inc, file, pend_line, pend_col, err))
                return -1;
        } else if (cfg_push(c, pend_name, pend_len, value, file, pend_line, pend_col)) {
            goto oom;
        }
        pend_name = NULL;
    }
    return 0;
oom:
    cfg_err_set(err, file, line, 0, "out of memory");
    return -1;
#undef COL
#undef MISSING
}

/* Read a whole file, at most `limit` bytes: NULL with errno on failure (EISDIR
   for a directory, EFBIG when the file holds more than `limit` bytes; reading
   stops there, so /dev/zero ends too). */
static char *cfg_slurp(const char *path, size_t limit, size_t *len)
{
    return file_read_all(path, limit, len, NULL, NULL, 0);
}

static int cfg_load_path(struct cfg *c, struct cfg_load *ld, const char *path, const char *site_file,
                         uint32_t site_line, uint32_t site_col, struct cfg_error *err)
{
    size_t len = 0;
    size_t left = ld->total < CFG_MAX_LOAD_BYTES ? CFG_MAX_LOAD_BYTES - ld->total : 0;
    size_t limit = left < CFG_MAX_FILE_BYTES ? left : CFG_MAX_FILE_BYTES;
    char *text = cfg_slurp(path, limit, &len);
    if (!text) {
        int e = errno;
        const char *what = site_file ? "-config: " : "";
        const char *sf = site_file ? site_file : path;
        char quoted[300];
        snprintf(quoted, sizeof quoted, "'%s' ", path);
        /* an include names the file; a top-level error is positioned at it already */
        const char *p = site_file ? quoted : e == EISDIR ? "" : "the file ";
        if (e == EISDIR)
            cfg_err_set(err, sf, site_line, site_col, "%s%sis a directory, not a config file", what, p);
        else if (e == EFBIG && limit < CFG_MAX_FILE_BYTES)
            cfg_err_set(err, sf, site_line, site_col,
                        "%s%stakes this config and its includes beyond %u MiB (the limit; reading stopped there)",
                        what, p, CFG_MAX_LOAD_BYTES >> 20);
        else if (e == EFBIG)
            cfg_err_set(err, sf, site_line, site_col,
                        "%s%sis larger than %u MiB (the limit for a config file; reading stopped there)", what, p,
                        CFG_MAX_FILE_BYTES >> 20);
        else if (site_file)
            cfg_err_set(err, site_file, site_line, site_col, "-config: cannot open '%s': %s", path, strerror(e));
        else
            cfg_err_set(err, path, 0, 0, "cannot open config file: %s", strerror(e));
        return -1;
    }
    ld->total += len;
    /* cycle check on the canonical path (the same file reached by two spellings) */
    char *real = realpath(path, NULL);
    const char *canon = arena_strdup(c->arena, real ? real : path);
    free(real);
    const char *shown = arena_strdup(c->arena, path);
    int rc = -1;
    if (!canon || !shown) {
        cfg_err_set(err, path, 0, 0, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < ld->depth; i++) {
        if (strcmp(ld->canon[i], canon) == 0) {
            char chain[200];
            size_t used = 0;
            chain[0] = '\0';
            for (unsigned k = i; k < ld->depth && used < sizeof chain; k++)
                used += (size_t)snprintf(chain + used, sizeof chain - used, "%s -> ", ld->shown[k]);
            cfg_err_set(err, site_file, site_line, site_col, "-config: include cycle: %s%s", chain, path);
            goto out;
        }
    }
    if (ld->depth == CFG_MAX_DEPTH) {
        cfg_err_set(err, site_file, site_line, site_col, "-config: includes nested more than %d deep",
                    CFG_MAX_DEPTH);
        goto out;
    }
    ld->canon[ld->depth] = canon;
    ld->shown[ld->depth] = shown;
    ld->depth++;
    rc = cfg_parse(c, ld, text, len, shown, err);
    ld->depth--;
out:
    free(text);
    return rc;
}

int cfg_load_file(struct cfg *c, const char *path, struct cfg_error *err)
{
    struct cfg_load ld;
    ld.depth = 0;
    ld.total = 0;
    return cfg_load_path(c, &ld, path, NULL, 0, 0, err);
}

int cfg_load_text(struct cfg *c, const char *text, size_t len, const char *name, struct cfg_error *err)
{
    struct cfg_load ld;
    ld.depth = 0;
    ld.total = len;
    const char *nm = arena_strdup(c->arena, name ? name : "<text>");
    if (!nm) {
        cfg_err_set(err, name, 0, 0, "out of memory");
        return -1;
    }
    return cfg_parse(c, &ld, text, len, nm, err);
}

/* ------------------------------------------------------------------------ */
/* values                                                                   */

static const char *const cfg_type_names[] = {"int", "uint", "u64", "double", "bool", "string"};

/* Bounds lo == hi == 0 mean "the type's whole range". */
static int cfg_has_bounds(const struct cfg_opt *o) { return !(o->lo == 0 && o->hi == 0); }

static void cfg_fmt_num(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1.8e19)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%g", v);
}

/* "expected an integer in [1, 256]" style description of what the option takes. */
static void cfg_expect(const struct cfg_opt *o, char *buf, size_t n)
{
    char lo[40], hi[40];
    double l = o->lo, h = o->hi;
    if (!cfg_has_bounds(o)) {
        switch (o->type) {
        case CFG_INT: l = INT_MIN; h = INT_MAX; break;
        case CFG_UINT: l = 0; h = UINT_MAX; break;
        case CFG_U64: l = 0; h = 18446744073709551615.0; break;
        default: break;
        }
    }
    cfg_fmt_num(lo, sizeof lo, l);
    cfg_fmt_num(hi, sizeof hi, h);
    switch (o->type) {
    case CFG_INT:
    case CFG_UINT:
        snprintf(buf, n, "an integer in [%s, %s]", lo, hi);
        break;
    case CFG_U64:
        if (o->type == CFG_U64 && h >= 18446744073709551615.0)
            snprintf(buf, n, "an integer >= %s", lo);
        else
            snprintf(buf, n, "an integer in [%s, %s]", lo, hi);
        break;
    case CFG_DOUBLE:
        if (cfg_has_bounds(o))
            snprintf(buf, n, "a number in [%s, %s]", lo, hi);
        else
            snprintf(buf, n, "a number");
        break;
    case CFG_BOOL:
        snprintf(buf, n, "0, 1, true or false");
        break;
    case CFG_STRING:
        snprintf(buf, n, "a string");
        break;
    }
}

/* Decimal (or 0x hex) integer, optional sign; whole string. */
static int cfg_parse_int(const char *s, int allow_neg, int *neg, uint64_t *mag)
{
    const char *p = s;
    *neg = 0;
    if (*p == '+' || *p == '-') {
        *neg = *p == '-';
        p++;
    }
    if (*neg && !allow_neg)
        return -1;
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (!*p)
        return -1;
    uint64_t v = 0;
    for (; *p; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            return -1;
        if (v > (UINT64_MAX - d) / (uint64_t)base)
            return -1;   /* overflow: reported as out of range by the caller */
        v = v * (uint64_t)base + d;
    }
    *mag = v;
    return 0;
}

/* Parse text into the field of option o. Returns 0 or -1 (message in why). */
static int cfg_value(struct arena *a, const struct cfg_opt *o, const char *text, void *field, char *why, size_t n)
{
    char exp[128];
    cfg_expect(o, exp, sizeof exp);
    switch (o->type) {
    case CFG_INT:
    case CFG_UINT:
    case CFG_U64: {
        int neg;
        uint64_t mag;
        if (cfg_parse_int(text, o->type == CFG_INT, &neg, &mag))
            goto bad;
        double dv = neg ? -(double)mag : (double)mag;
        if (cfg_has_bounds(o) && (dv < o->lo || (dv > o->hi && o->hi < 18446744073709551615.0)))
            goto bad;
        if (o->type == CFG_INT) {
            if (neg ? mag > (uint64_t)INT_MAX + 1 : mag > (uint64_t)INT_MAX)
                goto bad;
            *(int *)field = neg ? (int)(-(int64_t)mag) : (int)mag;
        } else if (o->type == CFG_UINT) {
            if (mag > UINT_MAX)
                goto bad;
            *(unsigned *)field = (unsigned)mag;
        } else {
            *(uint64_t *)field = mag;
        }
        return 0;
    }
    case CFG_DOUBLE: {
        char *endp;
        errno = 0;
        double v = strtod(text, &endp);
        if (!*text || *endp || errno || !isfinite(v))
            goto bad;
        if (cfg_has_bounds(o) && (v < o->lo || v > o->hi))
            goto bad;
        *(double *)field = v;
        return 0;
    }
    case CFG_BOOL:
        if (strcmp(text, "1") == 0 || strcmp(text, "true") == 0)
            *(int *)field = 1;
        else if (strcmp(text, "0") == 0 || strcmp(text, "false") == 0)
            *(int *)field = 0;
        else
            goto bad;
        return 0;
    case CFG_STRING: {
        const char *s = arena_strdup(a, text);
        if (!s) {
            snprintf(why, n, "-%s: out of memory", o->name);
            return -1;
        }
        *(const char **)field = s;
        return 0;
    }
    }
bad:
    snprintf(why, n, "-%s: expected %s, got '%s'", o->name, exp, text);
    return -1;
}

/* Remember a table for the "did you mean" of unknown options. */
static void cfg_note_table(struct cfg *c, const struct cfg_opt *opts, size_t n)
{
    for (unsigned k = 0; k < c->ntab; k++)
        if (c->tab[k] == opts)
            return;
    if (c->ntab < CFG_MAX_TABLES) {
        c->tab[c->ntab] = opts;
        c->ntab_opts[c->ntab++] = n;
    }
}

int cfg_apply(struct cfg *c, const struct cfg_opt *opts, size_t n, void *obj, struct cfg_error *err)
{
    char why[sizeof err->msg];
    cfg_note_table(c, opts, n);
    for (size_t i = 0; i < n; i++) {
        const struct cfg_opt *o = &opts[i];
        void *field = (char *)obj + o->offset;
        if (cfg_value(c->arena, o, o->def ? o->def : "", field, why, sizeof why)) {
            /* a table bug, not bad input: still report it rather than abort */
            cfg_err_set(err, "built-in default", 0, 0, "%s", why);
            return -1;
        }
        const struct cfg_entry *last = NULL;
        for (uint32_t k = 0; k < c->n; k++) {
            if (strcmp(c->e[k].name, o->name) == 0) {
                c->e[k].used = CFG_USED;    /* earlier occurrences are overridden, not unknown */
                last = &c->e[k];
            }
        }
        if (last && cfg_value(c->arena, o, last->value, field, why, sizeof why)) {
            cfg_err_set(err, last->file, last->line, last->col, "%s", why);
            return -1;
        }
    }
    return 0;
}

unsigned cfg_mark_ignored(struct cfg *c, const char *const *names, size_t n)
{
    if (c->nign < CFG_MAX_TABLES) {
        unsigned k;
        for (k = 0; k < c->nign && c->ign[k] != names; k++)
            ;
        if (k == c->nign) {
            c->ign[c->nign] = names;
            c->nign_names[c->nign++] = n;
        }
    }
    unsigned marked = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->e[i].used == CFG_USED)
            continue;
        for (size_t k = 0; k < n; k++)
            if (strcmp(c->e[i].name, names[k]) == 0) {
                if (c->e[i].used != CFG_IGNORED)
                    marked++;
                c->e[i].used = CFG_IGNORED;
                break;
            }
    }
    return marked;
}

/* Edit distance (insert, delete, substitute, swap of neighbours), capped at cap + 1. */
static unsigned cfg_distance(const char *a, const char *b, unsigned cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return cap + 1;
    if ((la > lb ? la - lb : lb - la) > cap)
        return cap + 1;
    unsigned d[66][66];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb] > cap ? cap + 1 : d[la][lb];
}

/* cand is name with a prefix ending in '_' ("gpgpu_smem_latency" for "smem_latency") */
static int cfg_prefixed(const char *cand, const char *name, size_t len)
{
    size_t cl = strlen(cand);
    return cl > len + 1 && cand[cl - len - 1] == '_' && strcmp(cand + cl - len, name) == 0;
}

const char *cfg_suggest(const struct cfg *c, const char *name)
{
    size_t len = strlen(name);
    /* a known option that only adds a prefix ("gpgpu_") is the likeliest meaning */
    for (unsigned t = 0; t < c->ntab; t++)
        for (size_t i = 0; i < c->ntab_opts[t]; i++)
            if (cfg_prefixed(c->tab[t][i].name, name, len))
                return c->tab[t][i].name;
    /* else the nearest within a third of the name's length in edits, at least 1, at most 4 */
    unsigned cap = (unsigned)(len / 3);
    cap = cap < 1 ? 1 : cap > 4 ? 4 : cap;
    const char *best = NULL;
    unsigned bd = cap + 1;
    for (unsigned t = 0; t < c->ntab; t++)
        for (size_t i = 0; i < c->ntab_opts[t]; i++) {
            unsigned d = cfg_distance(name, c->tab[t][i].name, cap);
            if (d < bd) {
                bd = d;
                best = c->tab[t][i].name;
            }
        }
    for (unsigned t = 0; t < c->nign; t++)
        for (size_t i = 0; i < c->nign_names[t]; i++) {
            unsigned d = cfg_distance(name, c->ign[t][i], cap);
            if (d < bd) {
                bd = d;
                best = c->ign[t][i];
            }
        }
    return best;
}

int cfg_check_unused(struct cfg *c, int warn_only, FILE *warn, struct cfg_error *err)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const struct cfg_entry *e = &c->e[i];
        if (e->used)
            continue;
        const char *near = cfg_suggest(c, e->name);
        char hint[160] = "";
        if (near)
            snprintf(hint, sizeof hint, " (did you mean '-%s'?)", near);
        if (!warn_only) {
            cfg_err_set(err, e->file, e->line, e->col, "unknown option '-%s'%s", e->name, hint);
            return -1;
        }
        if (!warn)
            continue;
        if (e->line)
            fprintf(warn, "%s:%" PRIu32 ":%" PRIu32 ": warning: unknown option '-%s'%s (ignored)\n", e->file,
                    e->line, e->col, e->name, hint);
        else
            fprintf(warn, "%s: warning: unknown option '-%s'%s (ignored)\n", e->file, e->name, hint);
    }
    if (warn && !c->ignored_reported) {
        /* one line: every ignored option once, in the order first written */
        size_t cnt = 0, used = 0, cap = 0;
        char *line = NULL;
        for (uint32_t i = 0; i < c->n; i++) {
            if (c->e[i].used != CFG_IGNORED)
                continue;
            uint32_t k;
            for (k = 0; k < i && !(c->e[k].used == CFG_IGNORED && strcmp(c->e[k].name, c->e[i].name) == 0); k++)
                ;
            if (k < i)
                continue;
            size_t need = strlen(c->e[i].name) + 4;
            if (used + need + 1 > cap) {
                size_t ncap = (cap ? cap * 2 : 1024) + need;
                char *nl = realloc(line, ncap);
                if (!nl)
                    break;
                line = nl;
                cap = ncap;
            }
            used += (size_t)snprintf(line + used, cap - used, "%s-%s", cnt ? ", " : "", c->e[i].name);
            cnt++;
        }
        if (cnt)
            fprintf(warn, "warning: %zu GPGPU-Sim option%s that warpsim does not model %s ignored: %s\n", cnt,
                    cnt == 1 ? "" : "s", cnt == 1 ? "was" : "were", line);
        free(line);
        c->ignored_reported = 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* writing                                                                  */

static int cfg_needs_quotes(const char *s)
{
    if (!*s || (s[0] == '-' && !cfg_is_negnum(s, s + strlen(s))))
        return 1;
    for (; *s; s++)
        if (cfg_is_space(*s) || *s == '\n' || *s == '#' || *s == '"' || *s == '\\')
            return 1;
    return 0;
}

static void cfg_write_string(FILE *f, const char *s)
{
    if (!s)
        s = "";
    if (!cfg_needs_quotes(s)) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Shortest decimal text that reads back as exactly v. */
static void cfg_fmt_double(char *buf, size_t n, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* keep it visibly a real number ("700" -> "700.0") as GPGPU-Sim configs do */
    if (!strpbrk(buf, ".eEni")) {
        size_t l = strlen(buf);
        if (l + 2 < n)
            memcpy(buf + l, ".0", 3);
    }
}

static void cfg_write_value(FILE *f, const struct cfg_opt *o, const void *obj)
{
    const void *field = (const char *)obj + o->offset;
    char buf[64];
    switch (o->type) {
    case CFG_INT: fprintf(f, "%d", *(const int *)field); break;
    case CFG_UINT: fprintf(f, "%u", *(const unsigned *)field); break;
    case CFG_U64: fprintf(f, "%" PRIu64, *(const uint64_t *)field); break;
    case CFG_DOUBLE:
        cfg_fmt_double(buf, sizeof buf, *(const double *)field);
        fputs(buf, f);
        break;
    case CFG_BOOL: fputs(*(const int *)field ? "1" : "0", f); break;
    case CFG_STRING: cfg_write_string(f, *(const char *const *)field); break;
    }
}

void cfg_write(FILE *f, const struct cfg_opt *opts, size_t n, const void *obj)
{
    int w = 0;
    for (size_t i = 0; i < n; i++) {
        int l = (int)strlen(opts[i].name);
        w = l > w ? l : w;
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "-%-*s ", w, opts[i].name);
        cfg_write_value(f, &opts[i], obj);
        fputc('\n', f);
    }
}

void cfg_list(FILE *f, const struct cfg_opt *opts, size_t n)
{
    int wn = 6, wd = 7;
    for (size_t i = 0; i < n; i++) {
        int l = (int)strlen(opts[i].name) + 1;
        wn = l > wn ? l : wn;
        l = opts[i].def ? (int)strlen(opts[i].def) : 0;
        wd = l > wd ? l : wd;
    }
    if (wd > 36)
        wd = 36;   /* long strings (address maps) just push their own row wider */
    fprintf(f, "%-*s  %-6s  %-*s  %-16s  %s\n", wn, "option", "type", wd, "default", "range", "description");
    for (size_t i = 0; i < n; i++) {
        const struct cfg_opt *o = &opts[i];
        char range[128] = "-";
        if (o->type == CFG_INT || o->type == CFG_UINT || o->type == CFG_U64 || o->type == CFG_DOUBLE) {
            char exp[128];
            cfg_expect(o, exp, sizeof exp);
            /* the same words as the error messages, minus the article */
            const char *r = strchr(exp, '[');
            if (!r)
                r = strstr(exp, ">=");
            if (r)
                snprintf(range, sizeof range, "%s", r);
        } else if (o->type == CFG_BOOL) {
            snprintf(range, sizeof range, "0/1");
        }
        const char *def = o->def && *o->def ? o->def : "\"\"";
        fprintf(f, "-%-*s  %-6s  %-*s  %-16s  %s\n", wn - 1, o->name, cfg_type_names[o->type], wd, def, range,
                o->doc ? o->doc : "");
    }
}
