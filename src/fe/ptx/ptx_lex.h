/*
 * ptx_lex.h - tokenizer for PTX text (internal to the PTX front end).
 *
 * The whole text is tokenized up front into one array so the parser can look
 * ahead freely.  Dotted words are kept whole: an opcode with its modifiers
 * (`ld.global.nc.v4.f32`), a special register with its component (`%tid.x`)
 * and a directive with attributes (`.ptr.global.align`, `.shared::cta`) are
 * each one token; the parser splits them where it needs the parts.
 *
 * Columns are 1-based byte offsets in the line (a tab counts as one column).
 */
#ifndef WARPSIM_PTX_LEX_H
#define WARPSIM_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "ptx_ir.h"

enum ptx_tok_kind {
    PTK_EOF = 0,
    PTK_IDENT,     /* name, opcode, register, label: [A-Za-z_$%][A-Za-z0-9_$]* (.part)* */
    PTK_DIRECTIVE, /* .name(.part)* */
    PTK_NUMBER,    /* raw text of a numeric literal, validated by the parser */
    PTK_STRING,    /* "..." including the quotes */
    PTK_PUNCT      /* one character: , ; : ( ) [ ] { } < > + - ! @ | = */
};

struct ptx_tok {
    const char *s;     /* points into the source text (not NUL-terminated) */
    uint32_t len;
    uint8_t kind;      /* enum ptx_tok_kind */
    char ch;           /* PTK_PUNCT: the character */
    uint8_t pad_[2];
    uint32_t line, col;
};

struct ptx_toks {
    struct ptx_tok *v; /* heap array, ends with one PTK_EOF token */
    size_t n;
};

/* Tokenize text[0..len).  Returns 0, or -1 with *err filled (unterminated
   comment or string, stray character).  `path` names the file in messages. */
int ptx_lex(const char *text, size_t len, const char *path, struct ptx_toks *out,
            struct ptx_error *err);
void ptx_toks_free(struct ptx_toks *t);

#endif
