/* json.c - see json.h */
#include "core/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

static void put_string(FILE *f, const char *v)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void sep(struct json *j, const char *key)
{
    if (j->need_comma[j->depth])
        fputc(',', j->f);
    j->need_comma[j->depth] = 1;
    fprintf(j->f, "\n%*s", 2 * j->depth, "");
    if (key) {
        put_string(j->f, key);
        fputs(": ", j->f);
    }
}

void json_number(FILE *f, double v)
{
    if (isnan(v)) {
        fputs("null", f);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "1e999" : "-1e999", f);
        return;
    }
    /* the shortest of 15, 16 and 17 significant digits that reads back as the same double */
    char b[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(b, sizeof b, "%.*g", prec, v);
        if (prec == 17 || strtod(b, NULL) == v)
            break;
    }
    fputs(b, f);
}

static void open_(struct json *j, const char *key, char c)
{
    sep(j, key);
    fputc(c, j->f);
    if (j->depth < 31)
        j->depth++;
    j->need_comma[j->depth] = 0;
    j->closer[j->depth] = c == '{' ? '}' : ']';
}

void json_begin(struct json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->need_comma[0] = 0;
    fputc('{', f);
    j->depth = 1;
    j->need_comma[1] = 0;
}

void json_begin_body(struct json *j, FILE *f, int depth)
{
    j->f = f;
    j->depth = depth < 0 ? 0 : depth > 31 ? 31 : depth;
    j->need_comma[j->depth] = 0;
}

void json_arr_u64(struct json *j, const char *key, const uint64_t *v, unsigned n, unsigned stride)
{
    sep(j, key);
    fputc('[', j->f);
    for (unsigned i = 0; i < n; i++)
        fprintf(j->f, "%s%" PRIu64, i ? ", " : "", v[(size_t)i * stride]);
    fputc(']', j->f);
}

void json_arr_dbl(struct json *j, const char *key, const double *v, unsigned n)
{
    sep(j, key);
    fputc('[', j->f);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            fputs(", ", j->f);
        json_number(j->f, v[i]);
    }
    fputc(']', j->f);
}

void json_close(struct json *j)
{
    char c = j->closer[j->depth];
    j->depth--;
    fprintf(j->f, "\n%*s%c", 2 * j->depth, "", c);
}

void json_obj(struct json *j, const char *key) { open_(j, key, '{'); }
void json_arr(struct json *j, const char *key) { open_(j, key, '['); }

void json_end(struct json *j)
{
    j->depth = 0;
    fputs("\n}\n", j->f);
}

void json_str(struct json *j, const char *key, const char *v)
{
    sep(j, key);
    if (v)
        put_string(j->f, v);
    else
        fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v) { sep(j, key); fprintf(j->f, "%" PRIu64, v); }
void json_i64(struct json *j, const char *key, int64_t v) { sep(j, key); fprintf(j->f, "%" PRId64, v); }
void json_bool(struct json *j, const char *key, int v) { sep(j, key); fputs(v ? "true" : "false", j->f); }

void json_dbl(struct json *j, const char *key, double v)
{
    sep(j, key);
    json_number(j->f, v);
}

void json_raw_obj(struct json *j, const char *key, const char *body)
{
    sep(j, key);
    fputc('{', j->f);
    fputs(body ? body : "", j->f);
    fprintf(j->f, "\n%*s}", 2 * j->depth, "");
}
