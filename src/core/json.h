/*
 * json.h - the streaming JSON writer of every result file warpsim writes.  Keys and values are
 * written in call order (deterministic); keys and strings are escaped.
 */
#ifndef WARPSIM_CORE_JSON_H
#define WARPSIM_CORE_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json {
    FILE *f;
    int depth;
    int need_comma[32];
    char closer[32];     /* '}' or ']' per open level */
};

void json_begin(struct json *j, FILE *f);      /* opens the top-level object */
/* Members of an object opened elsewhere, indented for nesting depth `depth` (no braces written; e.g.
   gpu_report_json's body, which json_raw_obj places into a result file). */
void json_begin_body(struct json *j, FILE *f, int depth);
void json_end(struct json *j);                 /* closes it, adds a newline */
void json_obj(struct json *j, const char *key); /* key may be NULL inside arrays */
void json_arr(struct json *j, const char *key);
void json_close(struct json *j);               /* closes the innermost object/array */
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
/* Numbers: the shortest decimal that reads back as the same double (15-17 digits); JSON has no NaN or
   infinity, so NaN is written as null and +-infinity as +-1e999 (a valid JSON number that every IEEE
   reader turns into infinity).  jr_number (study.h) reads null back as NaN. */
void json_dbl(struct json *j, const char *key, double v);
void json_number(FILE *f, double v);
/* Arrays of numbers on one line: v[0], v[stride], ... (n values) */
void json_arr_u64(struct json *j, const char *key, const uint64_t *v, unsigned n, unsigned stride);
void json_arr_dbl(struct json *j, const char *key, const double *v, unsigned n);
void json_bool(struct json *j, const char *key, int v);
/* An object whose body (members without braces, already indented for this
   depth + 1) was written elsewhere, e.g. gpu_report_json. */
void json_raw_obj(struct json *j, const char *key, const char *body);

/* ---- the reader (json_read.c): lookups by dotted path in a document held as one string; nothing is
   allocated ---- */

/* 1 when text is one complete, well-formed JSON value (trailing white space allowed).  A result file
   cut short by a killed run fails this. */
int jr_valid(const char *text);
/* Start of the value at "a.b.c", or NULL; a segment of digits applied to an array selects that element
   ("timing.kernels.0.gpu_sim_cycle"). */
const char *jr_lookup(const char *text, const char *path);
/* 0 and *out on success (null reads as NaN, 1e999 as infinity); -1 when absent or of another type. */
int jr_number(const char *text, const char *path, double *out);
int jr_bool(const char *text, const char *path, int *out);
/* String value unescaped into buf (\uXXXX outside ASCII becomes '?'). */
int jr_string(const char *text, const char *path, char *buf, size_t n);

#endif
