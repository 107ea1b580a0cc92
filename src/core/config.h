/*
 * config.h - configuration in GPGPU-Sim's gpgpusim.config syntax.
 *
 * A config is an ordered list of `-option value` pairs read from files
 * (`#` comments to end of line, values may be "quoted", `-config FILE`
 * includes another file relative to the including one) and from the command
 * line; the last occurrence of an option wins.  Option tables (struct cfg_opt)
 * declared next to the struct they fill give each option its type, default,
 * bounds and documentation; the same table drives parsing, validation,
 * `--help`-style listings and the effective config written beside results.
 * Errors name file:line:column (or the command-line option).
 */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"

struct cfg_error {
    char file[256];            /* file name, or "command line" */
    uint32_t line, col;        /* 0 when not from a file */
    char msg[512];
};
/* "file:line:col: error: msg" (or "command line: error: msg") */
int cfg_error_format(const struct cfg_error *e, char *buf, size_t n);

struct cfg_entry {
    const char *name;          /* without the leading '-' */
    const char *value;         /* unquoted */
    const char *file;          /* origin, "command line" for overrides */
    uint32_t line, col;        /* position of the option name */
    int used;                  /* CFG_USED when an option table consumed it, CFG_IGNORED when it is a
                                  known option of another simulator that warpsim does not model */
};
enum { CFG_UNUSED = 0, CFG_USED = 1, CFG_IGNORED = 2 };

#define CFG_MAX_TABLES 16
struct cfg_opt;
struct cfg {
    struct arena *arena;       /* owns every string */
    struct cfg_entry *e;
    uint32_t n, cap;
    /* every option name applied to this config (cfg_apply's tables and
       cfg_mark_ignored's lists): the candidates of "did you mean" */
    const struct cfg_opt *tab[CFG_MAX_TABLES];
    size_t ntab_opts[CFG_MAX_TABLES];
    unsigned ntab;
    const char *const *ign[CFG_MAX_TABLES];
    size_t nign_names[CFG_MAX_TABLES];
    unsigned nign;
    int ignored_reported;      /* the summary of ignored options was printed */
};

void cfg_init(struct cfg *c, struct arena *a);
int cfg_load_file(struct cfg *c, const char *path, struct cfg_error *err);
int cfg_load_text(struct cfg *c, const char *text, size_t len, const char *name, struct cfg_error *err);
/* Command-line override (`--set name=value` or a dotted policy parameter). */
int cfg_set(struct cfg *c, const char *name, const char *value, const char *origin);
/* Insert an entry right after `at` (an entry of c) with at's origin and position: an option
   derived from another one (e.g. a policy parameter spelled inside a GPGPU-Sim scheduler string),
   overridden by whatever comes later as if it had been written there.  0, or -1 out of memory. */
int cfg_insert_after(struct cfg *c, const struct cfg_entry *at, const char *name, const char *value);
const struct cfg_entry *cfg_find(const struct cfg *c, const char *name);   /* last occurrence or NULL */

enum cfg_type { CFG_INT = 0, CFG_UINT, CFG_U64, CFG_DOUBLE, CFG_BOOL, CFG_STRING };

struct cfg_opt {
    const char *name;          /* e.g. "gpgpu_n_clusters" */
    enum cfg_type type;
    size_t offset;             /* of the field in the target struct */
    const char *def;           /* default value as text */
    double lo, hi;             /* inclusive bounds for numbers */
    const char *doc;
};
#define CFG_OPT(name, type, st, field, def, lo, hi, doc) \
    {name, type, offsetof(st, field), def, lo, hi, doc}

/* Fill obj from defaults, then from the config; range-check; mark entries used.
   Fields: CFG_INT int, CFG_UINT unsigned, CFG_U64 uint64_t, CFG_DOUBLE double,
   CFG_BOOL int (0/1; accepts 0/1/true/false), CFG_STRING const char * (arena). */
int cfg_apply(struct cfg *c, const struct cfg_opt *opts, size_t n, void *obj, struct cfg_error *err);
/* Mark the entries named in names[] (without '-') that no table consumed as
   CFG_IGNORED: options of another simulator's config that warpsim accepts and
   does not model.  names must outlive c.  Returns how many entries it marked. */
unsigned cfg_mark_ignored(struct cfg *c, const char *const *names, size_t n);
/* Entries no table consumed: an error naming the first (with its position and
   the nearest known option name when one is close), or, with warn_only, one
   warning line each on `warn`.  Entries marked CFG_IGNORED are listed on
   `warn` in one summary line (once per cfg). */
int cfg_check_unused(struct cfg *c, int warn_only, FILE *warn, struct cfg_error *err);
/* The known option name (a table's or an ignored list's) nearest to `name`,
   or NULL when none is close enough to be a likely misspelling. */
const char *cfg_suggest(const struct cfg *c, const char *name);
/* Write `-name value` lines for every option of the table (quoted when needed). */
void cfg_write(FILE *f, const struct cfg_opt *opts, size_t n, const void *obj);
/* Print the table as documentation: name, type, default, bounds, doc. */
void cfg_list(FILE *f, const struct cfg_opt *opts, size_t n);

#endif
