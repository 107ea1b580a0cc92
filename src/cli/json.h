/*
 * json.h - minimal streaming JSON writer for result files.  Keys and values are
 * written in call order (deterministic); strings are escaped.
 */
#ifndef WARPSIM_CLI_JSON_H
#define WARPSIM_CLI_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json {
    FILE *f;
    int depth;
    int need_comma[32];
    char closer[32];     /* '}' or ']' per open level */
};

void json_begin(struct json *j, FILE *f);      /* opens the top-level object */
void json_end(struct json *j);                 /* closes it, adds a newline */
void json_obj(struct json *j, const char *key); /* key may be NULL inside arrays */
void json_arr(struct json *j, const char *key);
void json_close(struct json *j);               /* closes the innermost object/array */
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_dbl(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, int v);
/* An object whose body (members without braces, already indented for this
   depth + 1) was written elsewhere, e.g. gpu_report_json. */
void json_raw_obj(struct json *j, const char *key, const char *body);

#endif
