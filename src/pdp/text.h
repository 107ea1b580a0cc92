/*
 * text.h - what HeteroPDP's text readers share (dataset.c's training CSV, model.c's model
 * files; features.c's messages): the error message, a finite number, reading a file whole and
 * walking a private copy of the text line by line.
 */
#ifndef WARPSIM_PDP_TEXT_H
#define WARPSIM_PDP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The message (vsnprintf) into msg[0..n) when msg and n; returns -1. */
__attribute__((format(printf, 3, 4))) int pdp_err(char *msg, size_t n, const char *fmt, ...);

/* The whole of s as a finite number (strtod): 0, or -1 (empty, text after the number, inf, nan). */
int pdp_parse_double(const char *s, double *out);

/* A NUL-terminated copy of text[0..len) (malloc), or NULL when out of memory. */
char *pdp_text_copy(const char *text, size_t len);

/* The lines of a buffer [p, end) whose end is a NUL (pdp_text_copy's). */
struct pdp_lines {
    char *p, *end;
    uint32_t lineno;             /* of the line pdp_lines_next returned last, from 1 */
};
void pdp_lines_init(struct pdp_lines *l, char *buf, size_t len);
/* The next line with its newline replaced by a NUL, or NULL after the last one.  *nul tells
   whether the line holds a NUL byte of its own (then it ends early: not a text file). */
char *pdp_lines_next(struct pdp_lines *l, bool *nul);

/* Read path whole (file_read_all, at most max bytes) and give the text to parse with path:
   parse's result, or -1 with file_read_all's message. */
typedef int (*pdp_parse_fn)(void *obj, const char *text, size_t len, const char *path, char *msg, size_t n);
int pdp_load_file(const char *path, size_t max, pdp_parse_fn parse, void *obj, char *msg, size_t n);

#endif
