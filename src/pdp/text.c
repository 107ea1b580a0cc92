/*
 * text.c - what HeteroPDP's text readers share (text.h).
 */
#include "pdp/text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"

int pdp_err(char *msg, size_t n, const char *fmt, ...)
{
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int pdp_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

char *pdp_text_copy(const char *text, size_t len)
{
    char *buf = malloc(len + 1);
    if (!buf)
        return NULL;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return buf;
}

void pdp_lines_init(struct pdp_lines *l, char *buf, size_t len)
{
    l->p = buf;
    l->end = buf + len;
    l->lineno = 0;
}

char *pdp_lines_next(struct pdp_lines *l, bool *nul)
{
    if (l->p >= l->end)
        return NULL;
    char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
    char *line = l->p;
    l->p = nl ? nl + 1 : l->end;
    if (nl)
        *nl = '\0';
    l->lineno++;
    *nul = strlen(line) != (size_t)((nl ? nl : l->end) - line);
    return line;
}

int pdp_load_file(const char *path, size_t max, pdp_parse_fn parse, void *obj, char *msg, size_t n)
{
    size_t len = 0;
    char why[512];
    char *text = file_read_all(path, max, &len, NULL, why, sizeof why);
    if (!text)
        return pdp_err(msg, n, "%s", why);
    int rc = parse(obj, text, len, path, msg, n);
    free(text);
    return rc;
}
