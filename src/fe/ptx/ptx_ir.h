/*
 * ptx_ir.h - decoded PTX: the contract between the parser (ptx_parse.c), the
 * analyses (ptx_cfg.c) and the functional SIMT executor (ptx_exec*.c).
 *
 * Ownership: everything reachable from a struct ptx_module lives in the
 * module's arena and is freed by ptx_module_free().
 *
 * Registers: every .reg a function declares (including each element of a
 * `%r<N>` range and the hidden carry flag) gets a dense index 0..nregs-1 in that
 * function.  At run time a warp holds one 32-lane array of uint64_t per
 * register; values are stored zero-extended in the low bits (predicates as 0/1,
 * f32 as their IEEE bits in the low 32 bits).
 *
 * Immediates are decoded at parse time to the bit pattern of the instruction's
 * operand type (0f/0d hex floats and decimal floats converted; integers
 * truncated to the width) and broadcast into a 32-lane array `lanes`, so the
 * executor can treat register and immediate sources the same way.
 */
#ifndef WARPSIM_PTX_IR_H
#define WARPSIM_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PTX_WARP_SIZE 32
#define PTX_MAX_OPNDS 6
#define PTX_MAX_VEC 4

/* ---- types ------------------------------------------------------------- */
enum ptx_type {
    PT_NONE = 0,
    PT_B8, PT_B16, PT_B32, PT_B64,
    PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64,
    PT_F16, PT_F16X2, PT_BF16, PT_F32, PT_F64,
    PT_PRED,
    PT_COUNT
};
unsigned ptx_type_bits(enum ptx_type t);        /* 1 for pred, 0 for none */
bool ptx_type_is_float(enum ptx_type t);
bool ptx_type_is_signed(enum ptx_type t);        /* sN only */
const char *ptx_type_name(enum ptx_type t);      /* ".s32" style without dot: "s32" */

/* ---- state spaces -------------------------------------------------------- */
enum ptx_space {
    PS_NONE = 0,   /* no space given: generic addressing for ld/st/atom */
    PS_GLOBAL,
    PS_SHARED,     /* CTA shared; also .shared::cta */
    PS_LOCAL,
    PS_CONST,
    PS_PARAM,      /* kernel parameter when used in an .entry; see ptx_sym.space */
    PS_PARAM_FUNC, /* .func formal params and call-site (callseq) params: per-thread frame */
    PS_TEX,
    PS_COUNT
};

/* ---- opcodes ------------------------------------------------------------- */
#define PTX_OPCODES(X) \
    X(ADD, "add") X(SUB, "sub") X(MUL, "mul") X(MAD, "mad") X(MUL24, "mul24") X(MAD24, "mad24") \
    X(SAD, "sad") X(DIV, "div") X(REM, "rem") X(ABS, "abs") X(NEG, "neg") X(MIN, "min") X(MAX, "max") \
    X(POPC, "popc") X(CLZ, "clz") X(BFIND, "bfind") X(FNS, "fns") X(BREV, "brev") X(BFE, "bfe") \
    X(BFI, "bfi") X(PRMT, "prmt") X(SHL, "shl") X(SHR, "shr") X(SHF, "shf") X(AND, "and") X(OR, "or") \
    X(XOR, "xor") X(NOT, "not") X(CNOT, "cnot") X(LOP3, "lop3") X(ADDC, "addc") X(SUBC, "subc") \
    X(MADC, "madc") X(DP4A, "dp4a") X(DP2A, "dp2a") \
    X(FMA, "fma") X(RCP, "rcp") X(SQRT, "sqrt") X(RSQRT, "rsqrt") X(SIN, "sin") X(COS, "cos") \
    X(LG2, "lg2") X(EX2, "ex2") X(TANH, "tanh") X(COPYSIGN, "copysign") X(TESTP, "testp") \
    X(SETP, "setp") X(SELP, "selp") X(SET, "set") X(SLCT, "slct") \
    X(CVT, "cvt") X(CVTA, "cvta") X(MOV, "mov") \
    X(LD, "ld") X(LDU, "ldu") X(ST, "st") X(PREFETCH, "prefetch") X(ATOM, "atom") X(RED, "red") \
    X(TEX, "tex") X(TLD4, "tld4") X(SULD, "suld") X(SUST, "sust") \
    X(BRA, "bra") X(CALL, "call") X(RET, "ret") X(EXIT, "exit") X(TRAP, "trap") \
    X(BAR, "bar") X(BARRIER, "barrier") X(MEMBAR, "membar") X(FENCE, "fence") \
    X(SHFL, "shfl") X(VOTE, "vote") X(ACTIVEMASK, "activemask") X(MATCH, "match") \
    X(NANOSLEEP, "nanosleep") X(PMEVENT, "pmevent") X(ISSPACEP, "isspacep")

enum ptx_opcode {
    PO_INVALID = 0,
#define PTX_X_ENUM(e, s) PO_##e,
    PTX_OPCODES(PTX_X_ENUM)
#undef PTX_X_ENUM
    PO_COUNT
};
const char *ptx_opcode_name(enum ptx_opcode op);

/* rounding modifiers: .rn .rz .rm .rp (float results), .rni .rzi .rmi .rpi (integer rounding) */
enum ptx_round { PR_NONE = 0, PR_RN, PR_RZ, PR_RM, PR_RP, PR_RNI, PR_RZI, PR_RMI, PR_RPI };

/* comparison operators of setp/set/slct */
enum ptx_cmp {
    PC_NONE = 0, PC_EQ, PC_NE, PC_LT, PC_LE, PC_GT, PC_GE,      /* ordered for floats */
    PC_LO, PC_LS, PC_HI, PC_HS,                                  /* unsigned */
    PC_EQU, PC_NEU, PC_LTU, PC_LEU, PC_GTU, PC_GEU, PC_NUM, PC_NAN /* unordered float forms */
};

/* boolean combiner of setp/set (`.and/.or/.xor` with an extra predicate) */
enum ptx_boolop { PB_NONE = 0, PB_AND, PB_OR, PB_XOR };

/* sub-operation field, meaning depends on opcode (see ptx_insn.subop) */
enum ptx_atom_op {
    PA_NONE = 0, PA_ADD, PA_MIN, PA_MAX, PA_INC, PA_DEC, PA_CAS, PA_EXCH, PA_AND, PA_OR, PA_XOR
};
enum ptx_shfl_mode { PSH_NONE = 0, PSH_UP, PSH_DOWN, PSH_BFLY, PSH_IDX };
enum ptx_vote_mode { PV_NONE = 0, PV_ALL, PV_ANY, PV_UNI, PV_BALLOT };
enum ptx_bar_mode  { PBM_SYNC = 0, PBM_ARRIVE, PBM_RED_POPC, PBM_RED_AND, PBM_RED_OR,
                      PBM_WARP_SYNC /* bar.warp.sync membermask (__syncwarp) */ };
enum ptx_testp_op  { PTP_NONE = 0, PTP_FINITE, PTP_INFINITE, PTP_NUMBER, PTP_NOTANUMBER, PTP_NORMAL, PTP_SUBNORMAL };
enum ptx_prmt_mode { PPM_NONE = 0, PPM_F4E, PPM_B4E, PPM_RC8, PPM_ECL, PPM_ECR, PPM_RC16 };
enum ptx_shf_mode  { PSF_L_WRAP = 0, PSF_L_CLAMP, PSF_R_WRAP, PSF_R_CLAMP };
enum ptx_tex_geom  { PTG_NONE = 0, PTG_1D, PTG_2D, PTG_3D, PTG_A1D, PTG_A2D };
/* out-of-range handling of suld/sust (kept in ptx_insn.boolop) */
enum ptx_surf_clamp { PSC_TRAP = 0, PSC_CLAMP, PSC_ZERO };

/* boolean modifiers */
enum ptx_flag {
    PF_FTZ    = 1u << 0,
    PF_SAT    = 1u << 1,
    PF_APPROX = 1u << 2,
    PF_FULL   = 1u << 3,
    PF_HI     = 1u << 4,   /* mul.hi / mad.hi */
    PF_LO     = 1u << 5,   /* mul.lo / mad.lo (default for mul of ints) */
    PF_WIDE   = 1u << 6,   /* mul.wide / mad.wide: dst is twice the source width */
    PF_CC     = 1u << 7,   /* .cc: writes the carry flag */
    PF_UNI    = 1u << 8,   /* bra.uni / call.uni */
    PF_NC     = 1u << 9,   /* ld.global.nc */
    PF_TO     = 1u << 10,  /* cvta.to.SPACE (generic -> space) */
    PF_VOLATILE = 1u << 11,
    PF_SYNC   = 1u << 12,  /* shfl.sync / vote.sync / bar.sync spelled explicitly */
    PF_ALIGNED = 1u << 13, /* barrier.sync.aligned, bar.sync (always aligned) */
    PF_SHIFTAMT = 1u << 14, /* bfind.shiftamt */
    PF_NOFTZ_DEFAULT = 1u << 15, /* reserved */
    PF_RELU   = 1u << 16,
    PF_NAN    = 1u << 17,  /* min.NaN / max.NaN */
    PF_ABS_SRC = 1u << 18, /* reserved */
    PF_CALL_INDIRECT = 1u << 19
};

/* special registers (value of mov %r, %sreg). comp: 0=x 1=y 2=z (where meaningful) */
enum ptx_sreg {
    PSR_NONE = 0, PSR_TID, PSR_NTID, PSR_CTAID, PSR_NCTAID, PSR_LANEID, PSR_WARPID, PSR_NWARPID,
    PSR_SMID, PSR_NSMID, PSR_GRIDID, PSR_CLOCK, PSR_CLOCK_HI, PSR_CLOCK64, PSR_GLOBALTIMER,
    PSR_GLOBALTIMER_LO, PSR_GLOBALTIMER_HI,
    PSR_LANEMASK_EQ, PSR_LANEMASK_LT, PSR_LANEMASK_LE, PSR_LANEMASK_GT, PSR_LANEMASK_GE,
    PSR_DYNAMIC_SMEM_SIZE, PSR_TOTAL_SMEM_SIZE, PSR_PM0, PSR_ENVREG,
    PSR_COUNT
};

/* ---- operands ---------------------------------------------------------- */
enum ptx_opnd_kind {
    POK_NONE = 0,
    POK_REG,    /* reg */
    POK_IMM,    /* imm (bits) + lanes */
    POK_SREG,   /* sreg + comp */
    POK_ADDR,   /* memory operand [base + off]: reg (-1 if none), sym (-1 if none), imm = byte offset */
    POK_VEC,    /* {a, b, c, d}: vregs[0..nvec-1], -1 = sink `_`; may also hold immediates, see vimm */
    POK_LABEL,  /* branch target: imm = instruction index in the function */
    POK_SYM,    /* a variable's address used as a value (mov.u64 %rd, gvar): sym, imm = offset */
    POK_FUNC,   /* call target: imm = function index in the module */
    POK_SINK    /* `_` as a whole destination */
};

struct ptx_opnd {
    uint8_t kind;          /* enum ptx_opnd_kind */
    uint8_t neg;           /* !%p as a predicate source */
    uint8_t nvec;          /* POK_VEC element count */
    uint8_t sreg;          /* enum ptx_sreg */
    uint8_t comp;          /* sreg component x/y/z = 0/1/2 */
    uint8_t pad_[3];
    int32_t reg;           /* register index, or -1 */
    int32_t sym;           /* index into module->syms, or -1 */
    int64_t imm;           /* immediate bits, address offset, label or function index */
    int32_t vregs[PTX_MAX_VEC];
    const uint64_t *lanes; /* POK_IMM: 32 copies of imm, in the module arena */
    /* POK_VEC with immediate elements (`mov.b32 %f1, {0, %rs2}`): array of
       nvec lanes pointers, non-NULL for the immediate elements (whose vregs[k]
       is -1); NULL when every element is a register or `_` */
    const uint64_t *const *vimm;
};

/* instruction class for timing and statistics */
enum ptx_iclass {
    PIC_INT = 0, PIC_FP32, PIC_FP64, PIC_SFU, PIC_CONV, PIC_MOVE, PIC_PRED,
    PIC_LD_GLOBAL, PIC_ST_GLOBAL, PIC_LD_SHARED, PIC_ST_SHARED, PIC_LD_LOCAL, PIC_ST_LOCAL,
    PIC_LD_CONST, PIC_LD_PARAM, PIC_ST_PARAM, PIC_TEX, PIC_ATOM_GLOBAL, PIC_ATOM_SHARED,
    PIC_BRANCH, PIC_CALL, PIC_RET, PIC_EXIT, PIC_BARRIER, PIC_MEMBAR, PIC_WARP /* shfl/vote */,
    PIC_NOP,
    PIC_COUNT
};
const char *ptx_iclass_name(enum ptx_iclass c);

struct ptx_insn {
    uint16_t op;           /* enum ptx_opcode */
    uint8_t type;          /* primary type: dst type for cvt, operand type otherwise */
    uint8_t stype;         /* secondary type: cvt source type; setp/set compare type is `type`,
                              set's dst type is `stype`; mul.wide: type is the source type */
    uint8_t space;         /* enum ptx_space (ld/st/atom/red/cvta/prefetch/isspacep) */
    uint8_t vec;           /* 1, 2 or 4 (ld/st/tex .v2/.v4) */
    uint8_t rnd;           /* enum ptx_round */
    uint8_t cmp;           /* enum ptx_cmp */
    uint8_t boolop;        /* enum ptx_boolop */
    uint8_t subop;         /* atom/red: ptx_atom_op; shfl: ptx_shfl_mode; vote: ptx_vote_mode;
                              bar/barrier: ptx_bar_mode; testp: ptx_testp_op; prmt: ptx_prmt_mode;
                              shf: ptx_shf_mode; tex/suld/sust: ptx_tex_geom
                              (suld/sust keep ptx_surf_clamp in boolop) */
    uint8_t iclass;        /* enum ptx_iclass */
    uint8_t nopnd;         /* operands used in o[] */
    uint8_t guard_neg;     /* @!%p */
    uint8_t pad_[3];
    int32_t guard;         /* predicate register guarding the instruction, -1 = none */
    uint32_t flags;        /* enum ptx_flag bits */
    int32_t call;          /* PO_CALL: index into func->calls; -1 otherwise */
    uint32_t line, col;    /* position in the source file (1-based) */
    uint32_t src_line;     /* CUDA source line from .loc, 0 = unknown */
    uint16_t src_file;     /* .file index from .loc, 0 = unknown */
    uint16_t pad2_;
    /* Operands in PTX order: destinations first.  Two-destination forms
       (`setp.lt.s32 %p|%q, ...`, `shfl.sync... %r|%p, ...`) keep the second
       destination in o[1] and shift the sources by one; such instructions have
       has_d2 = 1. */
    uint8_t has_d2;
    uint8_t pad3_[7];
    struct ptx_opnd o[PTX_MAX_OPNDS];
};

/* ---- symbols (variables), registers, params ----------------------------- */
struct ptx_sym {
    const char *name;
    uint8_t space;         /* PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_CONST, PS_PARAM (kernel),
                              PS_PARAM_FUNC (func formal or callseq param), PS_TEX */
    uint8_t elem_type;     /* declared element type */
    uint8_t is_extern;     /* `.extern .shared` dynamic shared memory: address = end of static */
    uint8_t pad_;
    uint32_t align;
    uint64_t size;         /* bytes */
    /* address within its space:
       PS_GLOBAL/PS_CONST: absolute address in that space (assigned at load)
       PS_SHARED: byte offset in the CTA's shared segment
       PS_LOCAL: byte offset in the thread's local frame of `func`
       PS_PARAM: byte offset in the kernel parameter buffer
       PS_PARAM_FUNC: byte offset in the thread's param frame of `func` */
    uint64_t addr;
    int32_t func;          /* owning function for function-scope symbols, -1 for module scope */
    uint32_t line, col;
    const uint8_t *init;   /* initialiser bytes (size bytes) or NULL */
};

struct ptx_reg {
    const char *name;      /* "%r12", "%p1", "%SP" */
    uint8_t type;          /* declared type */
};

struct ptx_param {
    const char *name;
    uint8_t type;          /* element type (.b8 for byte arrays) */
    uint32_t align;
    uint32_t size;         /* bytes */
    uint32_t offset;       /* offset in the kernel param buffer / function param frame */
    int32_t sym;           /* symbol index of this param */
};

/* one call site: `call (ret...), func, (args...)` */
struct ptx_call {
    int32_t callee;        /* function index, -1 when indirect (unsupported at load) */
    uint8_t nargs, nrets;
    uint8_t pad_[2];
    int32_t *args;         /* caller symbols (PS_PARAM_FUNC) or registers, see arg_is_reg */
    int32_t *rets;
    uint8_t *arg_is_reg;   /* 1 when the argument is a register (allowed by PTX) */
    uint8_t *ret_is_reg;
};

struct ptx_peek_tmpl;   /* ptx_exec.h */

struct ptx_func {
    const char *name;
    bool is_entry;
    bool is_visible;
    bool is_extern;        /* declaration only (prototype) */
    uint32_t line, col;
    uint32_t nparams, nrets;
    struct ptx_param *params;
    struct ptx_param *rets;
    uint32_t param_bytes;  /* kernel: size of the param buffer; func: formal params in the frame */
    uint32_t frame_param_bytes; /* func: whole per-thread param frame (formals + rets + callseq params) */
    uint32_t local_bytes;  /* per-thread .local of this function (incl. __local_depot) */
    uint32_t nregs;
    struct ptx_reg *regs;
    int32_t cc_reg;        /* hidden carry-flag register, -1 if unused */
    uint32_t ninsns;
    struct ptx_insn *insns;
    uint32_t ncalls;
    struct ptx_call *calls;
    /* performance directives */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    /* filled by ptx_cfg_analyze(): for every instruction, the index of its
       immediate post-dominator (reconvergence point of a branch there);
       ninsns means "function exit". */
    int32_t *ipdom;
    /* filled by ptx_cfg_analyze() (ptx_peek_prepare in ptx_exec.h): what ptx_warp_peek reports of
       every instruction that does not depend on the warp, so that it is worked out once */
    struct ptx_peek_tmpl *peek;
    /* resource use recorded from ptxas -v (workloads/NAME/NAME.ptxas), 0 = unknown */
    uint32_t ptxas_regs, ptxas_smem, ptxas_lmem, ptxas_cmem;
};

struct ptx_module {
    const char *path;      /* file the text came from (for messages) */
    uint32_t version_major, version_minor;
    char target[32];
    uint32_t address_size;
    uint32_t nfuncs;
    struct ptx_func *funcs;
    uint32_t nsyms;
    struct ptx_sym *syms;
    uint32_t nfiles;       /* .file table, index 1..nfiles */
    const char **files;
    uint64_t shared_static_bytes; /* filled per kernel at launch; module-level .shared are per-CTA too */
    uint64_t global_bytes, const_bytes; /* sizes of module variables in each space */
    void *arena;           /* struct arena *, owns all of the above */
};

/* ---- errors --------------------------------------------------------------- */
struct ptx_error {
    char file[256];
    uint32_t line, col;
    char msg[512];
};
/* "file:line:col: error: msg" */
int ptx_error_format(const struct ptx_error *e, char *buf, size_t n);

/* ---- entry points (ptx_parse.c) ----------------------------------------- */
/* Parse and validate.  On failure returns NULL and fills *err.  `path` is used in
   messages only.  Unsupported opcodes or modifiers are errors that name the
   opcode and the PTX line. */
struct ptx_module *ptx_parse(const char *text, size_t len, const char *path, struct ptx_error *err);
struct ptx_module *ptx_parse_file(const char *path, struct ptx_error *err);
void ptx_module_free(struct ptx_module *m);
int ptx_find_func(const struct ptx_module *m, const char *name);   /* index or -1 */
int ptx_find_sym(const struct ptx_module *m, const char *name);    /* module-scope symbol index or -1 */

/* ---- analyses (ptx_cfg.c) ----------------------------------------------- */
/* Compute func->ipdom for every function. Returns 0 or -1 with *err. */
int ptx_cfg_analyze(struct ptx_module *m, struct ptx_error *err);
/* Where a thread goes after instruction i of f: a branch's target when it is a label inside the
   function, and i + 1 (when there is one) unless i is an unguarded bra/ret/exit/trap.  Writes the
   successors to s and returns how many (0..2); no successor means the thread's path ends. */
unsigned ptx_insn_succs(const struct ptx_func *f, uint32_t i, uint32_t s[2]);

/* ---- ptxas resource report (ptx_ptxas.c) -------------------------------- */
/* Fill ptx_func.ptxas_* from the text `ptxas -v` printed (see Makefile `ptx`).
   Returns the number of functions updated. */
int ptx_ptxas_apply(struct ptx_module *m, const char *text, size_t len);

#endif
