/* json.c - see json.h */
#include "json.h"

#include <inttypes.h>
#include <math.h>

static void sep(struct json *j, const char *key)
{
    if (j->need_comma[j->depth])
        fputc(',', j->f);
    j->need_comma[j->depth] = 1;
    fprintf(j->f, "\n%*s", 2 * j->depth, "");
    if (key) {
        fputc('"', j->f);
        fputs(key, j->f);
        fputs("\": ", j->f);
    }
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
    if (!v) {
        fputs("null", j->f);
        return;
    }
    fputc('"', j->f);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", j->f); break;
        case '\\': fputs("\\\\", j->f); break;
        case '\n': fputs("\\n", j->f); break;
        case '\t': fputs("\\t", j->f); break;
        case '\r': fputs("\\r", j->f); break;
        default:
            if (*p < 0x20)
                fprintf(j->f, "\\u%04x", *p);
            else
                fputc(*p, j->f);
        }
    }
    fputc('"', j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v) { sep(j, key); fprintf(j->f, "%" PRIu64, v); }
void json_i64(struct json *j, const char *key, int64_t v) { sep(j, key); fprintf(j->f, "%" PRId64, v); }
void json_bool(struct json *j, const char *key, int v) { sep(j, key); fputs(v ? "true" : "false", j->f); }

void json_dbl(struct json *j, const char *key, double v)
{
    sep(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.17g", v);
    else
        fputs("null", j->f);
}

void json_raw_obj(struct json *j, const char *key, const char *body)
{
    sep(j, key);
    fputc('{', j->f);
    fputs(body ? body : "", j->f);
    fprintf(j->f, "\n%*s}", 2 * j->depth, "");
}
