/*
 * ptx_parse_int.h - state shared by the PTX parser files (ptx_parse.c:
 * module, declarations, functions, names; ptx_parse_insn.c: instruction
 * decoding; ptx_parse_num.c: numeric literals).  Internal to the PTX front
 * end.
 *
 * Everything that ends up in the module is allocated in the module arena;
 * the growable working arrays below are heap memory owned by struct pp and
 * copied into the arena when a function or the module is finished.
 */
#ifndef WARPSIM_PTX_PARSE_INT_H
#define WARPSIM_PTX_PARSE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "ptx_ir.h"
#include "ptx_lex.h"

/* string -> int32 open-addressing map; keys are borrowed (source text or arena) */
struct pp_ment {
    const char *k;
    uint32_t len, hash;
    int32_t val;
};
struct pp_map {
    struct pp_ment *e;
    uint32_t cap, n;
};

/* uint64 -> lanes array, so equal immediates share one 32-lane copy */
struct pp_iment {
    uint64_t key;
    const uint64_t *lanes;
};

/* a name declared in a function scope ({ } blocks nest and shadow) */
enum pp_bind_kind { PPB_REG = 1, PPB_SYM, PPB_VREG };
struct pp_bind {
    const char *name;
    uint32_t len;
    uint8_t kind;     /* enum pp_bind_kind */
    uint8_t cnt;      /* PPB_VREG: element count (registers idx..idx+cnt-1) */
    uint8_t pad_[2];
    int32_t idx;      /* register or symbol index */
    int32_t prev;     /* binding this one shadows, -1 if none */
};

struct pp_label {
    int32_t insn;     /* instruction index the label names, -1 while only referenced */
    uint32_t line, col;
};

/* forward reference to a label from operand `opnd` of instruction `insn` */
struct pp_lfix {
    uint32_t insn;
    uint32_t opnd;
    int32_t label;
    const struct ptx_tok *tok;  /* the reference, for messages */
};

/* call whose target is resolved when the module is complete */
struct pp_cfix {
    uint32_t func, insn, call;
    const char *name;
    uint32_t len;
    uint32_t line, col;
};

struct pp {
    const char *path;
    struct ptx_error *err;
    bool failed;
    struct arena *A;
    struct ptx_module *m;
    const struct ptx_tok *t;
    size_t nt, pos;

    /* module */
    struct ptx_func *funcs;
    uint32_t nfuncs, capfuncs;
    struct ptx_sym *syms;
    uint32_t nsyms, capsyms;
    const char **files;
    uint32_t nfiles, capfiles;
    struct pp_map modsyms;   /* module-scope variable name -> symbol index */
    struct pp_map funcnames; /* function name -> function index */
    struct pp_cfix *cfix;
    uint32_t ncfix, capcfix;
    struct pp_iment *imm;
    uint32_t nimm, capimm;
    uint64_t shared_off, global_off, const_off;
    uint32_t *ext_shared;    /* `.extern .shared` symbols, placed after all static shared */
    uint32_t next_ext, capext;

    /* current function */
    int32_t cur;
    struct ptx_reg *regs;
    uint32_t nregs, capregs;
    struct ptx_insn *insns;
    uint32_t ninsns, capinsns;
    struct ptx_call *calls;
    uint32_t ncalls, capcalls;
    struct pp_bind *binds;
    uint32_t nbinds, capbinds;
    uint32_t *scopes;        /* nbinds at each open `{` */
    uint32_t nscopes, capscopes;
    struct pp_map names;     /* name -> binding index (or -1 when out of scope) */
    struct pp_map labelnames;
    struct pp_label *labels;
    uint32_t nlabels, caplabels;
    struct pp_lfix *lfix;
    uint32_t nlfix, caplfix;
    uint32_t frame_off, local_off;
    int32_t cc_reg;
    uint16_t loc_file;
    uint32_t loc_line;
};

/* ---- helpers (ptx_parse.c) ---- */
int pp_err(struct pp *p, const struct ptx_tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int pp_err_at(struct pp *p, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int pp_grow_(struct pp *p, void *arrp, uint32_t *cap, uint32_t need, size_t esz);
#define PP_RESERVE(p, arr, cap, need) \
    ((need) <= (cap) ? 0 : pp_grow_((p), (void *)&(arr), &(cap), (need), sizeof *(arr)))

static inline const struct ptx_tok *pp_peek(const struct pp *p) { return &p->t[p->pos]; }
static inline const struct ptx_tok *pp_peek2(const struct pp *p)
{
    return p->pos + 1 < p->nt ? &p->t[p->pos + 1] : &p->t[p->nt - 1];
}
static inline const struct ptx_tok *pp_next(struct pp *p)
{
    const struct ptx_tok *t = &p->t[p->pos];
    if (t->kind != PTK_EOF)
        p->pos++;
    return t;
}
static inline bool pp_is_punct(const struct ptx_tok *t, char c) { return t->kind == PTK_PUNCT && t->ch == c; }
bool pp_accept(struct pp *p, char c);
int pp_expect(struct pp *p, char c);
bool pp_tok_is(const struct ptx_tok *t, const char *s);

/* Numeric literal: kind 0 = integer (bits = two's complement value),
   1 = 0f single bits, 2 = 0d double bits, 3 = decimal float (fval). */
enum pp_num_kind { PPN_INT = 0, PPN_F32, PPN_F64, PPN_DEC };
struct pp_num {
    uint8_t kind;
    uint64_t bits;
    double fval;
};
/* Parse an optionally negated number at the cursor (ptx_parse_num.c). */
int pp_number(struct pp *p, struct pp_num *out);
/* Convert a literal to the bit pattern of `type`; `at` names it in errors
   (ptx_parse_num.c). */
int pp_num_to_type(struct pp *p, const struct ptx_tok *at, const struct pp_num *n, enum ptx_type type,
                   uint64_t *bits);
/* 32 copies of `bits` in the arena (shared between equal immediates). */
const uint64_t *pp_lanes(struct pp *p, uint64_t bits);

/* name lookup in the current function scope, then module scope */
const struct pp_bind *pp_lookup_local(const struct pp *p, const char *s, uint32_t len);
int32_t pp_lookup_modsym(const struct pp *p, const char *s, uint32_t len);
int32_t pp_lookup_func(const struct pp *p, const char *s, uint32_t len);
int32_t pp_label_ref(struct pp *p, const struct ptx_tok *t);  /* label index (created if new) */
int32_t pp_cc_reg(struct pp *p);                               /* hidden carry register */
/* argument/result counts of a call to g; error at line:col naming the callee */
int pp_call_counts(struct pp *p, uint32_t line, uint32_t col, const char *name, uint32_t len, uint32_t nargs,
                   uint32_t nrets, const struct ptx_func *g);

/* ---- instructions (ptx_parse_insn.c) ---- */
/* Parse one instruction statement (cursor on the guard or opcode), append it
   to p->insns. */
int pp_insn(struct pp *p);

#endif
