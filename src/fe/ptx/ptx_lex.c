/* ptx_lex.c - PTX tokenizer (see ptx_lex.h). */
#include "ptx_lex.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lx {
    const char *s, *end;
    const char *line_start;
    uint32_t line;
    const char *path;
    struct ptx_error *err;
    struct ptx_tok *v;
    size_t n, cap;
};

static bool lx_is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool lx_is_digit(char c) { return c >= '0' && c <= '9'; }
static bool lx_is_idchar(char c) { return lx_is_alpha(c) || lx_is_digit(c) || c == '_' || c == '$'; }

static uint32_t lx_col(const struct lx *x, const char *at)
{
    return (uint32_t)(at - x->line_start) + 1;
}

static int lx_error(struct lx *x, uint32_t line, uint32_t col, const char *msg, char what)
{
    snprintf(x->err->file, sizeof x->err->file, "%s", x->path);
    x->err->line = line;
    x->err->col = col;
    if (what)
        snprintf(x->err->msg, sizeof x->err->msg, "%s '%c'", msg, what);
    else
        snprintf(x->err->msg, sizeof x->err->msg, "%s", msg);
    return -1;
}

static int lx_push(struct lx *x, uint8_t kind, const char *s, size_t len, uint32_t line, uint32_t col)
{
    if (x->n == x->cap) {
        size_t nc = x->cap ? x->cap * 2 : 4096;
        struct ptx_tok *nv = realloc(x->v, nc * sizeof *nv);
        if (!nv)
            return lx_error(x, line, col, "out of memory", 0);
        x->v = nv;
        x->cap = nc;
    }
    struct ptx_tok *t = &x->v[x->n++];
    memset(t, 0, sizeof *t);
    t->s = s;
    t->len = (uint32_t)len;
    t->kind = kind;
    t->ch = kind == PTK_PUNCT ? s[0] : 0;
    t->line = line;
    t->col = col;
    return 0;
}

/* Continue a dotted word: `.part` or `::part` segments after a name. */
static const char *lx_dotted(const char *p, const char *end)
{
    for (;;) {
        while (p < end && lx_is_idchar(*p))
            p++;
        if (p + 1 < end && p[0] == '.' && lx_is_idchar(p[1])) {
            p += 1;
            continue;
        }
        if (p + 2 < end && p[0] == ':' && p[1] == ':' && lx_is_idchar(p[2])) {
            p += 2;
            continue;
        }
        return p;
    }
}

/* A numeric literal: digits and letters (hex, 0f/0d, suffixes), a decimal
   point, and an exponent sign for decimal floats.  Validity is checked by the
   parser, which can name the whole bad token. */
static const char *lx_number(const char *p, const char *end)
{
    const char *start = p;
    bool hexlike = p + 1 < end && p[0] == '0' &&
                   (p[1] == 'x' || p[1] == 'X' || p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D');
    while (p < end) {
        char c = *p;
        if (lx_is_idchar(c) || c == '.') {
            p++;
            continue;
        }
        if (!hexlike && (c == '+' || c == '-') && p > start && (p[-1] == 'e' || p[-1] == 'E') &&
            p + 1 < end && lx_is_digit(p[1])) {
            p++;
            continue;
        }
        break;
    }
    return p;
}

int ptx_lex(const char *text, size_t len, const char *path, struct ptx_toks *out, struct ptx_error *err)
{
    struct lx x = {.s = text, .end = text + len, .line_start = text, .line = 1, .path = path, .err = err};
    const char *p = text, *end = text + len;
    out->v = NULL;
    out->n = 0;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            p++;
            x.line++;
            x.line_start = p;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
            continue;
        }
        uint32_t col = lx_col(&x, p);
        if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '*') {
            uint32_t l0 = x.line;
            p += 2;
            for (;;) {
                if (p + 1 >= end) {
                    free(x.v);
                    return lx_error(&x, l0, col, "unterminated comment", 0);
                }
                if (p[0] == '*' && p[1] == '/') {
                    p += 2;
                    break;
                }
                if (*p == '\n') {
                    x.line++;
                    x.line_start = p + 1;
                }
                p++;
            }
            continue;
        }
        const char *q;
        int rc;
        if (c == '"') {
            q = p + 1;
            while (q < end && *q != '"' && *q != '\n') {
                if (*q == '\\' && q + 1 < end && q[1] != '\n')
                    q++;
                q++;
            }
            if (q >= end || *q != '"') {
                free(x.v);
                return lx_error(&x, x.line, col, "unterminated string", 0);
            }
            q++;
            rc = lx_push(&x, PTK_STRING, p, (size_t)(q - p), x.line, col);
        } else if (c == '.' && p + 1 < end && (lx_is_alpha(p[1]) || p[1] == '_')) {
            q = lx_dotted(p + 1, end);
            rc = lx_push(&x, PTK_DIRECTIVE, p, (size_t)(q - p), x.line, col);
        } else if (lx_is_alpha(c) || c == '_' || c == '$' || c == '%') {
            q = lx_dotted(p + 1, end);
            rc = lx_push(&x, PTK_IDENT, p, (size_t)(q - p), x.line, col);
        } else if (lx_is_digit(c)) {
            q = lx_number(p, end);
            rc = lx_push(&x, PTK_NUMBER, p, (size_t)(q - p), x.line, col);
        } else if (strchr(",;:()[]{}<>+-!@|=", c) && c != '\0') {
            q = p + 1;
            rc = lx_push(&x, PTK_PUNCT, p, 1, x.line, col);
        } else {
            free(x.v);
            return lx_error(&x, x.line, col, "unexpected character", c);
        }
        if (rc) {
            free(x.v);
            return -1;
        }
        p = q;
    }
    if (lx_push(&x, PTK_EOF, end, 0, x.line, lx_col(&x, end))) {
        free(x.v);
        return -1;
    }
    out->v = x.v;
    out->n = x.n;
    return 0;
}

void ptx_toks_free(struct ptx_toks *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}
