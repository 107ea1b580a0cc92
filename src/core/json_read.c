/*
 * json_read.c - the JSON reader for the files json.c writes (run results, study and sweep files): tools
 * need a dozen numbers per file and a completeness check, so values are found by walking the text
 * (skipping what is not asked for) instead of building a tree.  Strict enough to reject a file cut short
 * by a killed run.  Reads the writer's conventions back: null as NaN, 1e999 as infinity (json.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

#define JR_MAX_DEPTH 64

static const char *jr_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* past a string starting at '"', or NULL */
static const char *jr_skip_string(const char *p)
{
    if (*p != '"')
        return NULL;
    for (p++; *p; p++) {
        if (*p == '"')
            return p + 1;
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return NULL;
}

static const char *jr_skip_number(const char *p)
{
    const char *s = p;
    if (*p == '-')
        p++;
    /* printf("%g") writes nan/inf for a 0/0 ratio: read it as a number rather
       than declaring the whole result file broken */
    if (strncmp(p, "nan", 3) == 0 || strncmp(p, "inf", 3) == 0)
        return p + 3;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p > s ? p : NULL;
}

static const char *jr_skip_value(const char *p, int depth)
{
    p = jr_ws(p);
    if (depth > JR_MAX_DEPTH)
        return NULL;
    switch (*p) {
    case '"':
        return jr_skip_string(p);
    case 't':
        return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f':
        return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n':
        return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    case '[':
    case '{': {
        char close = *p == '[' ? ']' : '}';
        int obj = *p == '{';
        p = jr_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (obj) {
                p = jr_skip_string(jr_ws(p));
                if (!p)
                    return NULL;
                p = jr_ws(p);
                if (*p != ':')
                    return NULL;
                p++;
            }
            p = jr_skip_value(p, depth + 1);
            if (!p)
                return NULL;
            p = jr_ws(p);
            if (*p == close)
                return p + 1;
            if (*p != ',')
                return NULL;
            p++;
        }
    }
    default:
        return jr_skip_number(p);
    }
}

int jr_valid(const char *text)
{
    if (!text)
        return 0;
    const char *p = jr_skip_value(text, 0);
    return p && *jr_ws(p) == '\0';
}

/* does the string at p (a key) equal seg[0..len)?  Keys here are plain ASCII
   without escapes; an escaped key simply never matches. */
static int jr_key_is(const char *p, const char *seg, size_t len)
{
    return p[0] == '"' && strncmp(p + 1, seg, len) == 0 && p[1 + len] == '"';
}

const char *jr_lookup(const char *text, const char *path)
{
    if (!text || !path)
        return NULL;
    const char *p = jr_ws(text);
    while (*path) {
        const char *dot = strchr(path, '.');
        size_t len = dot ? (size_t)(dot - path) : strlen(path);
        if (*p == '[') {   /* a segment of digits indexes an array ("timing.kernels.0.name") */
            if (len == 0 || len > 9 || strspn(path, "0123456789") < len)
                return NULL;
            unsigned long idx = strtoul(path, NULL, 10);
            p = jr_ws(p + 1);
            for (unsigned long i = 0; i < idx; i++) {
                if (*p == ']')
                    return NULL;
                p = jr_skip_value(p, 1);
                if (!p)
                    return NULL;
                p = jr_ws(p);
                if (*p != ',')
                    return NULL;
                p = jr_ws(p + 1);
            }
            if (*p == ']')
                return NULL;
            path += len;
            if (*path == '.')
                path++;
            continue;
        }
        if (*p != '{')
            return NULL;
        p = jr_ws(p + 1);
        const char *found = NULL;
        while (*p == '"') {
            int match = jr_key_is(p, path, len);
            p = jr_skip_string(p);
            if (!p)
                return NULL;
            p = jr_ws(p);
            if (*p != ':')
                return NULL;
            p = jr_ws(p + 1);
            if (match) {
                found = p;
                break;
            }
            p = jr_skip_value(p, 1);
            if (!p)
                return NULL;
            p = jr_ws(p);
            if (*p == ',')
                p = jr_ws(p + 1);
        }
        if (!found)
            return NULL;
        p = found;
        path += len;
        if (*path == '.')
            path++;
    }
    return p;
}

int jr_number(const char *text, const char *path, double *out)
{
    const char *p = jr_lookup(text, path);
    if (p && strncmp(p, "null", 4) == 0) {   /* the writer's NaN (json.h) */
        *out = NAN;
        return 0;
    }
    if (!p || !jr_skip_number(p))
        return -1;
    *out = strtod(p, NULL);   /* 1e999: the writer's infinity */
    return 0;
}

int jr_bool(const char *text, const char *path, int *out)
{
    const char *p = jr_lookup(text, path);
    if (!p)
        return -1;
    if (strncmp(p, "true", 4) == 0)
        *out = 1;
    else if (strncmp(p, "false", 5) == 0)
        *out = 0;
    else
        return -1;
    return 0;
}

int jr_string(const char *text, const char *path, char *buf, size_t n)
{
    const char *p = jr_lookup(text, path);
    const char *end = p ? jr_skip_string(p) : NULL;
    if (!end || n == 0)
        return -1;
    size_t o = 0;
    for (p++; p < end - 1 && o + 1 < n; p++) {
        char c = *p;
        if (c == '\\') {
            p++;
            switch (*p) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                unsigned v = (unsigned)strtoul((char[5]){p[1], p[2], p[3], p[4], 0}, NULL, 16);
                c = v < 0x80 ? (char)v : '?';
                p += 4;
                break;
            }
            default: c = *p; break;   /* \" \\ \/ */
            }
        }
        buf[o++] = c;
    }
    buf[o] = '\0';
    return 0;
}

