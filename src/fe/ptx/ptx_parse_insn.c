/*
 * ptx_parse_insn.c - decoding of one PTX instruction statement:
 *   [@[!]%p] opcode{.modifier} operand, ... ;
 *
 * The opcode token carries all modifiers (`ld.global.nc.v4.f32`).  Each
 * modifier is looked up in a table of categories; an opcode accepts only the
 * categories listed for it in pp_allowed[], plus a few opcode-specific words
 * (shuffle modes, barrier forms, texture geometry...).  Semantic-free
 * qualifiers (memory order, scope, cache operators, eviction hints) are
 * accepted and dropped.
 *
 * Operands are parsed generically, then checked against a per-opcode shape
 * string (pp_shape) whose letters say what each position must be and which
 * type an immediate there takes:
 *   d dest reg or `_`       D dest reg, `_` or {vector}   V dest {vector}
 *   s src reg/imm/sreg (type)   x same, typed stype   u same, typed u32
 *   w same, typed 2x type (mad.wide addend)   q same, typed u64
 *   S src reg/imm/sreg/{vector} (st value, type)
 *   m mov/cvta source: also a symbol or function address or {vector}
 *   p predicate source (reg, `!reg`, or 0/1)
 *   a address   l label   h texture or surface handle (reg or .texref)   c {coordinates}
 */
#include <stdio.h>
#include <string.h>

#include "ptx_alu.h"
#include "ptx_parse_int.h"

/* ---- modifiers -------------------------------------------------------------- */

enum {
    MC_RND = 1u << 0,     /* .rn .rz .rm .rp */
    MC_RNDI = 1u << 1,    /* .rni .rzi .rmi .rpi */
    MC_FTZ = 1u << 2,
    MC_SAT = 1u << 3,
    MC_APPROX = 1u << 4,
    MC_FULL = 1u << 5,
    MC_HILO = 1u << 6,
    MC_WIDE = 1u << 7,
    MC_CC = 1u << 8,
    MC_UNI = 1u << 9,
    MC_NC = 1u << 10,
    MC_TO = 1u << 11,
    MC_VOL = 1u << 12,
    MC_SYNC = 1u << 13,
    MC_ALIGNED = 1u << 14,
    MC_SHIFTAMT = 1u << 15,
    MC_RELU = 1u << 16,
    MC_NAN = 1u << 17,
    MC_CMP = 1u << 18,
    MC_BOOL = 1u << 19,
    MC_SPACE = 1u << 20,
    MC_VEC = 1u << 21,
    MC_HINT = 1u << 22,   /* memory order, scope, cache operator: ignored */
    MC_ATOM = 1u << 23,
};

struct pp_mod {
    const char *s;
    uint32_t cat;
    uint32_t val;
};

static const struct pp_mod pp_mods[] = {
    {"rn", MC_RND, PR_RN}, {"rz", MC_RND, PR_RZ}, {"rm", MC_RND, PR_RM}, {"rp", MC_RND, PR_RP},
    {"rni", MC_RNDI, PR_RNI}, {"rzi", MC_RNDI, PR_RZI}, {"rmi", MC_RNDI, PR_RMI}, {"rpi", MC_RNDI, PR_RPI},
    {"ftz", MC_FTZ, PF_FTZ}, {"sat", MC_SAT, PF_SAT}, {"approx", MC_APPROX, PF_APPROX},
    {"full", MC_FULL, PF_FULL}, {"hi", MC_HILO, PF_HI}, {"lo", MC_HILO, PF_LO}, {"wide", MC_WIDE, PF_WIDE},
    {"cc", MC_CC, PF_CC}, {"uni", MC_UNI, PF_UNI}, {"nc", MC_NC, PF_NC}, {"to", MC_TO, PF_TO},
    {"volatile", MC_VOL, PF_VOLATILE}, {"sync", MC_SYNC, PF_SYNC}, {"aligned", MC_ALIGNED, PF_ALIGNED},
    {"shiftamt", MC_SHIFTAMT, PF_SHIFTAMT}, {"relu", MC_RELU, PF_RELU}, {"NaN", MC_NAN, PF_NAN},
    {"eq", MC_CMP, PC_EQ}, {"ne", MC_CMP, PC_NE}, {"lt", MC_CMP, PC_LT}, {"le", MC_CMP, PC_LE},
    {"gt", MC_CMP, PC_GT}, {"ge", MC_CMP, PC_GE}, {"lo", MC_CMP, PC_LO}, {"ls", MC_CMP, PC_LS},
    {"hi", MC_CMP, PC_HI}, {"hs", MC_CMP, PC_HS}, {"equ", MC_CMP, PC_EQU}, {"neu", MC_CMP, PC_NEU},
    {"ltu", MC_CMP, PC_LTU}, {"leu", MC_CMP, PC_LEU}, {"gtu", MC_CMP, PC_GTU}, {"geu", MC_CMP, PC_GEU},
    {"num", MC_CMP, PC_NUM}, {"nan", MC_CMP, PC_NAN},
    {"and", MC_BOOL, PB_AND}, {"or", MC_BOOL, PB_OR}, {"xor", MC_BOOL, PB_XOR},
    {"global", MC_SPACE, PS_GLOBAL}, {"shared", MC_SPACE, PS_SHARED}, {"shared::cta", MC_SPACE, PS_SHARED},
    {"local", MC_SPACE, PS_LOCAL}, {"const", MC_SPACE, PS_CONST}, {"param", MC_SPACE, PS_PARAM},
    {"param::entry", MC_SPACE, PS_PARAM}, {"param::func", MC_SPACE, PS_PARAM},
    {"v2", MC_VEC, 2}, {"v4", MC_VEC, 4},
    {"relaxed", MC_HINT, 0}, {"acquire", MC_HINT, 0}, {"release", MC_HINT, 0}, {"acq_rel", MC_HINT, 0},
    {"sc", MC_HINT, 0}, {"weak", MC_HINT, 0}, {"mmio", MC_HINT, 0}, {"cta", MC_HINT, 0}, {"gpu", MC_HINT, 0},
    {"sys", MC_HINT, 0}, {"cluster", MC_HINT, 0}, {"ca", MC_HINT, 0}, {"cg", MC_HINT, 0}, {"cs", MC_HINT, 0},
    {"lu", MC_HINT, 0}, {"cv", MC_HINT, 0}, {"wb", MC_HINT, 0}, {"wt", MC_HINT, 0},
    {"add", MC_ATOM, PA_ADD}, {"min", MC_ATOM, PA_MIN}, {"max", MC_ATOM, PA_MAX}, {"inc", MC_ATOM, PA_INC},
    {"dec", MC_ATOM, PA_DEC}, {"cas", MC_ATOM, PA_CAS}, {"exch", MC_ATOM, PA_EXCH}, {"and", MC_ATOM, PA_AND},
    {"or", MC_ATOM, PA_OR}, {"xor", MC_ATOM, PA_XOR},
};

#define MC_MEM (MC_SPACE | MC_VOL | MC_VEC | MC_HINT)
static const uint32_t pp_allowed[PO_COUNT] = {
    [PO_ADD] = MC_RND | MC_FTZ | MC_SAT | MC_CC, [PO_SUB] = MC_RND | MC_FTZ | MC_SAT | MC_CC,
    [PO_MUL] = MC_HILO | MC_WIDE | MC_RND | MC_FTZ | MC_SAT,
    [PO_MAD] = MC_HILO | MC_WIDE | MC_RND | MC_FTZ | MC_SAT | MC_CC,
    [PO_MUL24] = MC_HILO, [PO_MAD24] = MC_HILO | MC_SAT,
    [PO_DIV] = MC_RND | MC_FULL | MC_APPROX | MC_FTZ,
    [PO_ABS] = MC_FTZ, [PO_NEG] = MC_FTZ, [PO_MIN] = MC_FTZ | MC_NAN | MC_RELU, [PO_MAX] = MC_FTZ | MC_NAN | MC_RELU,
    [PO_BFIND] = MC_SHIFTAMT,
    [PO_ADDC] = MC_CC, [PO_SUBC] = MC_CC, [PO_MADC] = MC_HILO | MC_CC, [PO_DP2A] = MC_HILO,
    [PO_FMA] = MC_RND | MC_FTZ | MC_SAT | MC_RELU,
    [PO_RCP] = MC_RND | MC_APPROX | MC_FTZ, [PO_SQRT] = MC_RND | MC_APPROX | MC_FTZ,
    [PO_RSQRT] = MC_APPROX | MC_FTZ, [PO_SIN] = MC_APPROX | MC_FTZ, [PO_COS] = MC_APPROX | MC_FTZ,
    [PO_LG2] = MC_APPROX | MC_FTZ, [PO_EX2] = MC_APPROX | MC_FTZ, [PO_TANH] = MC_APPROX,
    [PO_SETP] = MC_CMP | MC_BOOL | MC_FTZ, [PO_SET] = MC_CMP | MC_BOOL | MC_FTZ, [PO_SLCT] = MC_FTZ,
    [PO_CVT] = MC_RND | MC_RNDI | MC_FTZ | MC_SAT | MC_RELU, [PO_CVTA] = MC_TO | MC_SPACE,
    [PO_LD] = MC_MEM | MC_NC, [PO_LDU] = MC_MEM, [PO_ST] = MC_MEM, [PO_PREFETCH] = MC_SPACE | MC_HINT,
    [PO_ATOM] = MC_SPACE | MC_ATOM | MC_HINT, [PO_RED] = MC_SPACE | MC_ATOM | MC_HINT,
    [PO_TEX] = MC_VEC, [PO_TLD4] = MC_VEC, [PO_SULD] = MC_VEC | MC_HINT, [PO_SUST] = MC_VEC | MC_HINT,
    [PO_BRA] = MC_UNI, [PO_CALL] = MC_UNI, [PO_RET] = MC_UNI,
    [PO_BAR] = MC_ALIGNED, [PO_BARRIER] = MC_ALIGNED, /* .sync is a barrier form, see pp_mod_special */
    [PO_FENCE] = MC_HINT, [PO_SHFL] = MC_SYNC, [PO_VOTE] = MC_SYNC, [PO_MATCH] = MC_SYNC,
    [PO_ISSPACEP] = MC_SPACE,
};

/* opcodes whose modifier list must carry a type */
static bool pp_needs_type(enum ptx_opcode op)
{
    switch (op) {
    case PO_BRA: case PO_CALL: case PO_RET: case PO_EXIT: case PO_TRAP: case PO_BAR: case PO_BARRIER:
    case PO_MEMBAR: case PO_FENCE: case PO_PMEVENT: case PO_ISSPACEP: case PO_PREFETCH:
        return false;
    default:
        return true;
    }
}

static bool pp_is(const char *s, uint32_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static int pp_word(const char *s, uint32_t n, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (pp_is(s, n, list[i]))
            return i;
    return -1;
}

static int pp_type_word(const char *s, uint32_t n)
{
    for (int t = PT_B8; t < PT_COUNT; t++)
        if (pp_is(s, n, ptx_type_name((enum ptx_type)t)))
            return t;
    return -1;
}

/* per-opcode words that are not in the shared table; 1 = taken, 0 = not known */
struct pp_modstate {
    int ntypes;
    int shf_dir, shf_mode;  /* -1 unset; 0 l / 1 r; 0 wrap / 1 clamp */
    bool bar_red, bar_warp, bar_mode_set;
};

static int pp_mod_special(struct ptx_insn *in, struct pp_modstate *st, const char *s, uint32_t n)
{
    static const char *const prmt[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
    static const char *const testp[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal", NULL};
    static const char *const shfl[] = {"up", "down", "bfly", "idx", NULL};
    static const char *const vote[] = {"all", "any", "uni", "ballot", NULL};
    static const char *const geom[] = {"1d", "2d", "3d", "a1d", "a2d", NULL};
    static const char *const comp[] = {"r", "g", "b", "a", NULL};
    static const char *const sclamp[] = {"trap", "clamp", "zero", NULL};
    static const char *const fence[] = {"proxy", "alias", "async", "tensormap", "generic", NULL};
    int k;
    switch (in->op) {
    case PO_PRMT:
        if ((k = pp_word(s, n, prmt)) >= 0) {
            in->subop = (uint8_t)(PPM_F4E + k);
            return 1;
        }
        return 0;
    case PO_TESTP:
        if ((k = pp_word(s, n, testp)) >= 0) {
            in->subop = (uint8_t)(PTP_FINITE + k);
            return 1;
        }
        return 0;
    case PO_SHF:
        if (pp_is(s, n, "l") || pp_is(s, n, "r")) {
            st->shf_dir = s[0] == 'r';
            return 1;
        }
        if (pp_is(s, n, "wrap") || pp_is(s, n, "clamp")) {
            st->shf_mode = s[0] == 'c';
            return 1;
        }
        return 0;
    case PO_SHFL:
        if ((k = pp_word(s, n, shfl)) >= 0) {
            in->subop = (uint8_t)(PSH_UP + k);
            return 1;
        }
        return 0;
    case PO_VOTE:
        if ((k = pp_word(s, n, vote)) >= 0) {
            in->subop = (uint8_t)(PV_ALL + k);
            return 1;
        }
        return 0;
    case PO_MATCH:
        /* match.any / match.all reuse the vote modes in subop */
        if (pp_is(s, n, "any") || pp_is(s, n, "all")) {
            in->subop = pp_is(s, n, "any") ? PV_ANY : PV_ALL;
            return 1;
        }
        return 0;
    case PO_TEX: case PO_TLD4:
        if ((k = pp_word(s, n, geom)) >= 0) {
            in->subop = (uint8_t)(PTG_1D + k);
            return 1;
        }
        /* tld4 gathers one component r/g/b/a: kept in boolop (0..3) */
        if (in->op == PO_TLD4 && (k = pp_word(s, n, comp)) >= 0) {
            in->boolop = (uint8_t)k;
            return 1;
        }
        return 0;
    case PO_SULD: case PO_SUST:
        /* suld.b / sust.b: unformatted (raw bits) access; .p (formatted) is not supported */
        if (pp_is(s, n, "b"))
            return 1;
        if ((k = pp_word(s, n, geom)) >= 0) {
            in->subop = (uint8_t)(PTG_1D + k);
            return 1;
        }
        if ((k = pp_word(s, n, sclamp)) >= 0) {
            in->boolop = (uint8_t)(PSC_TRAP + k);
            return 1;
        }
        return 0;
    case PO_BAR: case PO_BARRIER:
        if (pp_is(s, n, "sync")) {
            in->subop = st->bar_warp ? PBM_WARP_SYNC : PBM_SYNC;
            in->flags |= PF_SYNC;
            st->bar_mode_set = true;
            return 1;
        }
        if (pp_is(s, n, "arrive")) {
            in->subop = PBM_ARRIVE;
            st->bar_mode_set = true;
            return 1;
        }
        if (pp_is(s, n, "red")) {
            st->bar_red = true;
            return 1;
        }
        if (st->bar_red && (pp_is(s, n, "popc") || pp_is(s, n, "and") || pp_is(s, n, "or"))) {
            in->subop = pp_is(s, n, "popc") ? PBM_RED_POPC : pp_is(s, n, "and") ? PBM_RED_AND : PBM_RED_OR;
            st->bar_mode_set = true;
            return 1;
        }
        if (in->op == PO_BAR && pp_is(s, n, "warp")) {
            st->bar_warp = true;
            return 1;
        }
        return pp_is(s, n, "cta");
    case PO_MEMBAR:
        return pp_is(s, n, "cta") || pp_is(s, n, "gl") || pp_is(s, n, "sys");
    case PO_FENCE:
        return pp_word(s, n, fence) >= 0;
    case PO_PREFETCH:
        return pp_is(s, n, "L1") || pp_is(s, n, "L2");
    case PO_PMEVENT:
        return pp_is(s, n, "mask");
    default:
        return 0;
    }
}

/* Decode the modifiers of opcode token `opt` (base name length `blen`). */
static int pp_decode_mods(struct pp *p, const struct ptx_tok *opt, uint32_t blen, struct ptx_insn *in)
{
    struct pp_modstate st = {.shf_dir = -1, .shf_mode = -1};
    uint32_t allowed = pp_allowed[in->op];
    uint32_t i = blen;
    enum ptx_opcode op = (enum ptx_opcode)in->op;
    while (i < opt->len) {
        const char *s = opt->s + i + 1;
        uint32_t n = 0;
        while (i + 1 + n < opt->len && s[n] != '.')
            n++;
        i += 1 + n;
        int ty = pp_type_word(s, n);
        if (ty >= 0) {
            /* cvt/slct/tex/dp4a: dst (or a) type then source/second type;
               set: dst type then compare type (compare type goes to `type`) */
            bool two = op == PO_CVT || op == PO_SLCT || op == PO_TEX || op == PO_TLD4 || op == PO_DP4A ||
                       op == PO_DP2A || op == PO_SET;
            if (st.ntypes >= (two ? 2 : 1))
                return pp_err(p, opt, "unknown modifier '.%.*s' in '%.*s'", (int)n, s, (int)opt->len, opt->s);
            if (op == PO_SET) {
                if (st.ntypes == 0)
                    in->stype = (uint8_t)ty;
                else
                    in->type = (uint8_t)ty;
            } else if (st.ntypes == 0) {
                in->type = (uint8_t)ty;
            } else {
                in->stype = (uint8_t)ty;
            }
            st.ntypes++;
            continue;
        }
        bool done = false;
        for (size_t k = 0; k < sizeof pp_mods / sizeof pp_mods[0]; k++) {
            const struct pp_mod *md = &pp_mods[k];
            if (!(md->cat & allowed) || !pp_is(s, n, md->s))
                continue;
            switch (md->cat) {
            case MC_RND: case MC_RNDI: in->rnd = (uint8_t)md->val; break;
            case MC_CMP: in->cmp = (uint8_t)md->val; break;
            case MC_BOOL: in->boolop = (uint8_t)md->val; break;
            case MC_SPACE: in->space = (uint8_t)md->val; break;
            case MC_VEC: in->vec = (uint8_t)md->val; break;
            case MC_ATOM: in->subop = (uint8_t)md->val; break;
            case MC_HINT: break;
            default: in->flags |= md->val; break;
            }
            done = true;
            break;
        }
        if (done)
            continue;
        /* eviction priorities and cache hints of the memory ops */
        if ((allowed & MC_HINT) && n > 4 && (memcmp(s, "L1::", 4) == 0 || memcmp(s, "L2::", 4) == 0))
            continue;
        if (pp_mod_special(in, &st, s, n))
            continue;
        return pp_err(p, opt, "unknown modifier '.%.*s' in '%.*s'", (int)n, s, (int)opt->len, opt->s);
    }
    if (pp_needs_type(op) && st.ntypes == 0)
        return pp_err(p, opt, "missing type in '%.*s'", (int)opt->len, opt->s);
    if (op == PO_CVT && st.ntypes != 2)
        return pp_err(p, opt, "'%.*s' needs a destination and a source type", (int)opt->len, opt->s);
    if ((op == PO_SETP || op == PO_SET) && !in->cmp)
        return pp_err(p, opt, "missing comparison in '%.*s'", (int)opt->len, opt->s);
    if (op == PO_SET && st.ntypes != 2)
        return pp_err(p, opt, "'%.*s' needs a destination and a compare type", (int)opt->len, opt->s);
    bool need_sub = op == PO_ATOM || op == PO_RED || op == PO_SHFL || op == PO_VOTE || op == PO_TESTP ||
                    op == PO_MATCH || op == PO_TEX || op == PO_TLD4 || op == PO_SULD || op == PO_SUST;
    if (need_sub && !in->subop)
        return pp_err(p, opt, "missing operation in '%.*s'", (int)opt->len, opt->s);
    if ((op == PO_BAR || op == PO_BARRIER) && !st.bar_mode_set)
        return pp_err(p, opt, "missing barrier operation in '%.*s'", (int)opt->len, opt->s);
    if (op == PO_SHF) {
        if (st.shf_dir < 0 || st.shf_mode < 0)
            return pp_err(p, opt, "'%.*s' needs .l/.r and .wrap/.clamp", (int)opt->len, opt->s);
        in->subop = (uint8_t)(st.shf_dir ? (st.shf_mode ? PSF_R_CLAMP : PSF_R_WRAP)
                                         : (st.shf_mode ? PSF_L_CLAMP : PSF_L_WRAP));
    }
    if (op == PO_BAR)
        in->flags |= PF_ALIGNED; /* bar.* is the aligned form by definition */
    if (op == PO_CVTA && !in->space)
        return pp_err(p, opt, "missing state space in '%.*s'", (int)opt->len, opt->s);
    if (!in->vec)
        in->vec = 1;
    return 0;
}

/* ---- operands ----------------------------------------------------------------------- */

struct pp_op {
    struct ptx_opnd o;
    struct pp_num num;
    bool isnum;
    uint8_t vnum_mask;                 /* vector elements that are immediates */
    struct pp_num vnum[PTX_MAX_VEC];
    const struct ptx_tok *vtok[PTX_MAX_VEC];
    const struct ptx_tok *tok;
};

struct pp_sreg_name {
    const char *s;
    uint8_t sreg;
    uint8_t xyz;  /* needs .x/.y/.z */
};

static const struct pp_sreg_name pp_sregs[] = {
    {"%tid", PSR_TID, 1}, {"%ntid", PSR_NTID, 1}, {"%ctaid", PSR_CTAID, 1}, {"%nctaid", PSR_NCTAID, 1},
    {"%laneid", PSR_LANEID, 0}, {"%warpid", PSR_WARPID, 0}, {"%nwarpid", PSR_NWARPID, 0},
    {"%smid", PSR_SMID, 0}, {"%nsmid", PSR_NSMID, 0}, {"%gridid", PSR_GRIDID, 0},
    {"%clock", PSR_CLOCK, 0}, {"%clock_hi", PSR_CLOCK_HI, 0}, {"%clock64", PSR_CLOCK64, 0},
    {"%globaltimer", PSR_GLOBALTIMER, 0}, {"%globaltimer_lo", PSR_GLOBALTIMER_LO, 0},
    {"%globaltimer_hi", PSR_GLOBALTIMER_HI, 0},
    {"%lanemask_eq", PSR_LANEMASK_EQ, 0}, {"%lanemask_lt", PSR_LANEMASK_LT, 0},
    {"%lanemask_le", PSR_LANEMASK_LE, 0}, {"%lanemask_gt", PSR_LANEMASK_GT, 0},
    {"%lanemask_ge", PSR_LANEMASK_GE, 0},
    {"%dynamic_smem_size", PSR_DYNAMIC_SMEM_SIZE, 0}, {"%total_smem_size", PSR_TOTAL_SMEM_SIZE, 0},
};

/* Special register named by t: 0 and *o filled, 1 = not a special register, -1 = error. */
static int pp_sreg(struct pp *p, const struct ptx_tok *t, struct ptx_opnd *o)
{
    uint32_t n = t->len;
    const char *dot = memchr(t->s, '.', n);
    uint32_t base = dot ? (uint32_t)(dot - t->s) : n;
    for (size_t i = 0; i < sizeof pp_sregs / sizeof pp_sregs[0]; i++) {
        if (!pp_is(t->s, base, pp_sregs[i].s))
            continue;
        o->kind = POK_SREG;
        o->sreg = pp_sregs[i].sreg;
        if (pp_sregs[i].xyz) {
            if (n != base + 2 || (t->s[base + 1] != 'x' && t->s[base + 1] != 'y' && t->s[base + 1] != 'z'))
                return pp_err(p, t, "special register '%.*s' needs a component .x, .y or .z", (int)n, t->s);
            o->comp = (uint8_t)(t->s[base + 1] - 'x');
        } else if (dot) {
            return pp_err(p, t, "unknown special register '%.*s'", (int)n, t->s);
        }
        return 0;
    }
    /* numbered ones: %pm0..%pm7, %envreg0..%envreg31 (comp = the number) */
    const char *num = NULL;
    uint8_t sr = 0;
    unsigned lim = 0;
    if (n > 3 && memcmp(t->s, "%pm", 3) == 0) {
        num = t->s + 3;
        sr = PSR_PM0;
        lim = 8;
    } else if (n > 7 && memcmp(t->s, "%envreg", 7) == 0) {
        num = t->s + 7;
        sr = PSR_ENVREG;
        lim = 32;
    }
    if (num) {
        unsigned v = 0;
        const char *e = t->s + n;
        for (const char *c = num; c < e; c++) {
            if (*c < '0' || *c > '9' || c - num > 2)
                return 1;
            v = v * 10 + (unsigned)(*c - '0');
        }
        if (v >= lim)
            return 1;
        o->kind = POK_SREG;
        o->sreg = sr;
        o->comp = (uint8_t)v;
        return 0;
    }
    return 1;
}

static void pp_opnd_init(struct ptx_opnd *o)
{
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym = -1;
    for (int i = 0; i < PTX_MAX_VEC; i++)
        o->vregs[i] = -1;
}

/* A register operand by name. */
static int pp_reg_ref(struct pp *p, const struct ptx_tok *t, int32_t *reg)
{
    const struct pp_bind *b = pp_lookup_local(p, t->s, t->len);
    if (b && b->kind == PPB_REG) {
        *reg = b->idx;
        return 0;
    }
    if (b)
        return pp_err(p, t, "'%.*s' is not a register", (int)t->len, t->s);
    return pp_err(p, t, "undeclared register '%.*s'", (int)t->len, t->s);
}

/* A variable by name: function scope first, then module scope. */
static int32_t pp_sym_ref(const struct pp *p, const struct ptx_tok *t)
{
    const struct pp_bind *b = pp_lookup_local(p, t->s, t->len);
    if (b)
        return b->kind == PPB_SYM ? b->idx : -1;
    return pp_lookup_modsym(p, t->s, t->len);
}

static int pp_undefined(struct pp *p, const struct ptx_tok *t)
{
    if (t->s[0] == '%')
        return pp_err(p, t, "undeclared register '%.*s'", (int)t->len, t->s);
    return pp_err(p, t, "undefined symbol '%.*s'", (int)t->len, t->s);
}

static int pp_vector(struct pp *p, struct pp_op *op)
{
    struct ptx_opnd *o = &op->o;
    const struct ptx_tok *open = pp_next(p); /* '{' */
    o->kind = POK_VEC;
    for (;;) {
        const struct ptx_tok *t = pp_peek(p);
        if (o->nvec == PTX_MAX_VEC)
            return pp_err(p, t, "too many elements in vector operand");
        if (t->kind == PTK_IDENT && pp_tok_is(t, "_")) {
            o->vregs[o->nvec++] = -1;
            pp_next(p);
        } else if (t->kind == PTK_IDENT) {
            int32_t r = -1;
            if (pp_reg_ref(p, t, &r))
                return -1;
            o->vregs[o->nvec++] = r;
            pp_next(p);
        } else if (t->kind == PTK_NUMBER || pp_is_punct(t, '-') || pp_is_punct(t, '+')) {
            /* converted once the element type is known (pp_check_shape) */
            op->vtok[o->nvec] = t;
            if (pp_number(p, &op->vnum[o->nvec]))
                return -1;
            op->vnum_mask = (uint8_t)(op->vnum_mask | 1u << o->nvec);
            o->vregs[o->nvec++] = -1;
        } else {
            return pp_err(p, t, "expected a register in vector operand, got '%.*s'", (int)t->len, t->s);
        }
        if (pp_accept(p, '}'))
            return 0;
        if (!pp_is_punct(pp_peek(p), ','))
            return pp_err(p, pp_peek(p), "expected ',' or '}' in vector operand opened at %u:%u, got '%.*s'",
                          open->line, open->col, (int)pp_peek(p)->len, pp_peek(p)->s);
        pp_next(p);
    }
}

/* `[base]`, `[base+off]`, `[base+-off]`, `[base-off]`, `[imm]`, or the texture
   form `[handle, {coords}]` which yields two operands. */
static int pp_address(struct pp *p, struct pp_op *ops, uint32_t *nops)
{
    const struct ptx_tok *open = pp_next(p);
    struct pp_op *a = &ops[*nops];
    a->tok = open;
    a->o.kind = POK_ADDR;
    const struct ptx_tok *t = pp_peek(p);
    if (t->kind == PTK_IDENT) {
        pp_next(p);
        const struct pp_bind *b = pp_lookup_local(p, t->s, t->len);
        if (b && b->kind == PPB_REG) {
            a->o.reg = b->idx;
        } else {
            int32_t s = pp_sym_ref(p, t);
            if (s < 0)
                return pp_undefined(p, t);
            a->o.sym = s;
        }
    } else if (t->kind == PTK_NUMBER) {
        struct pp_num num;
        if (pp_number(p, &num))
            return -1;
        if (num.kind != PPN_INT)
            return pp_err(p, t, "bad address '%.*s'", (int)t->len, t->s);
        a->o.imm = (int64_t)num.bits;
    } else {
        return pp_err(p, t, "expected an address, got '%.*s'", (int)t->len, t->s);
    }
    if (pp_is_punct(pp_peek(p), '+') || pp_is_punct(pp_peek(p), '-')) {
        if (pp_is_punct(pp_peek(p), '+'))
            pp_next(p);
        const struct ptx_tok *nt = pp_peek(p);
        struct pp_num num;
        if (pp_number(p, &num))
            return -1;
        if (num.kind != PPN_INT)
            return pp_err(p, nt, "bad address offset '%.*s'", (int)nt->len, nt->s);
        a->o.imm += (int64_t)num.bits;
    }
    if (pp_accept(p, ',')) {
        /* texture: the handle becomes a plain register/symbol operand */
        if (a->o.reg >= 0) {
            a->o.kind = POK_REG;
        } else if (a->o.sym >= 0) {
            a->o.kind = POK_SYM;
        } else {
            return pp_err(p, t, "bad texture handle '%.*s'", (int)t->len, t->s);
        }
        (*nops)++;
        if (*nops >= PTX_MAX_OPNDS)
            return pp_err(p, open, "too many operands");
        struct pp_op *c = &ops[*nops];
        c->tok = pp_peek(p);
        if (!pp_is_punct(pp_peek(p), '{'))
            return pp_err(p, pp_peek(p), "expected '{' for texture coordinates, got '%.*s'", (int)pp_peek(p)->len,
                          pp_peek(p)->s);
        if (pp_vector(p, c))
            return -1;
    }
    if (pp_expect(p, ']'))
        return -1;
    (*nops)++;
    return 0;
}

/* Parse one operand (two for `a|b` and texture addresses) into ops[*nops]. */
static int pp_operand(struct pp *p, struct ptx_insn *in, struct pp_op *ops, uint32_t *nops)
{
    if (*nops >= PTX_MAX_OPNDS)
        return pp_err(p, pp_peek(p), "too many operands");
    struct pp_op *op = &ops[*nops];
    const struct ptx_tok *t = pp_peek(p);
    op->tok = t;
    if (pp_is_punct(t, '[')) {
        return pp_address(p, ops, nops);
    }
    if (pp_is_punct(t, '{')) {
        if (pp_vector(p, op))
            return -1;
        (*nops)++;
        return 0;
    }
    if (t->kind == PTK_NUMBER || pp_is_punct(t, '-') || pp_is_punct(t, '+')) {
        if (pp_number(p, &op->num))
            return -1;
        op->isnum = true;
        op->o.kind = POK_IMM;
        (*nops)++;
        return 0;
    }
    bool neg = false;
    if (pp_is_punct(t, '!')) {
        neg = true;
        pp_next(p);
        t = pp_peek(p);
        op->tok = t;
    }
    if (t->kind != PTK_IDENT) {
        if (t->kind == PTK_EOF)
            return pp_err(p, t, "expected an operand at end of file");
        return pp_err(p, t, "expected an operand, got '%.*s'", (int)t->len, t->s);
    }
    pp_next(p);
    if (neg) {
        op->o.neg = 1;
        op->o.kind = POK_REG;
        if (pp_reg_ref(p, t, &op->o.reg))
            return -1;
        (*nops)++;
        return 0;
    }
    if (pp_tok_is(t, "_")) {
        op->o.kind = POK_SINK;
        (*nops)++;
        return 0;
    }
    if (in->op == PO_BRA) {
        int32_t l = pp_label_ref(p, t);
        if (l < 0 || PP_RESERVE(p, p->lfix, p->caplfix, p->nlfix + 1))
            return -1;
        p->lfix[p->nlfix++] = (struct pp_lfix){.insn = p->ninsns, .opnd = *nops, .label = l, .tok = t};
        op->o.kind = POK_LABEL;
        op->o.imm = l;
        (*nops)++;
        return 0;
    }
    const struct pp_bind *b = pp_lookup_local(p, t->s, t->len);
    int32_t sym = -1, fn = -1;
    if (b && b->kind == PPB_REG) {
        op->o.kind = POK_REG;
        op->o.reg = b->idx;
    } else if (b && b->kind == PPB_VREG) {
        op->o.kind = POK_VEC;
        op->o.nvec = b->cnt;
        for (uint8_t i = 0; i < b->cnt; i++)
            op->o.vregs[i] = b->idx + i;
    } else if ((sym = pp_sym_ref(p, t)) >= 0) {
        op->o.kind = POK_SYM;
        op->o.sym = sym;
        if (pp_is_punct(pp_peek(p), '+')) {
            pp_next(p);
            struct pp_num num;
            const struct ptx_tok *nt = pp_peek(p);
            if (pp_number(p, &num))
                return -1;
            if (num.kind != PPN_INT)
                return pp_err(p, nt, "bad offset '%.*s'", (int)nt->len, nt->s);
            op->o.imm = (int64_t)num.bits;
        }
    } else if (t->s[0] == '%') {
        int r = pp_sreg(p, t, &op->o);
        if (r < 0)
            return -1;
        if (r > 0)
            return pp_err(p, t, "undeclared register '%.*s'", (int)t->len, t->s);
    } else if ((fn = pp_lookup_func(p, t->s, t->len)) >= 0) {
        op->o.kind = POK_FUNC;
        op->o.imm = fn;
    } else if (pp_tok_is(t, "WARP_SZ")) {
        /* PTX's predefined warp-size constant (cuda_fp16.h shuffles use it) */
        op->o.kind = POK_IMM;
        op->isnum = true;
        op->num = (struct pp_num){.kind = PPN_INT, .bits = PTX_WARP_SIZE};
    } else {
        return pp_undefined(p, t);
    }
    (*nops)++;
    if (pp_is_punct(pp_peek(p), '|')) {
        const struct ptx_tok *bar = pp_next(p);
        if (*nops != 1 || op->o.kind != POK_REG)
            return pp_err(p, bar, "'|' is only allowed between two destination registers");
        if (*nops >= PTX_MAX_OPNDS)
            return pp_err(p, bar, "too many operands");
        struct pp_op *op2 = &ops[*nops];
        const struct ptx_tok *t2 = pp_peek(p);
        op2->tok = t2;
        if (t2->kind == PTK_IDENT && pp_tok_is(t2, "_")) {
            pp_next(p);
            op2->o.kind = POK_SINK;
        } else {
            if (t2->kind != PTK_IDENT)
                return pp_err(p, t2, "expected a register after '|', got '%.*s'", (int)t2->len, t2->s);
            pp_next(p);
            op2->o.kind = POK_REG;
            if (pp_reg_ref(p, t2, &op2->o.reg))
                return -1;
        }
        in->has_d2 = 1;
        (*nops)++;
    }
    return 0;
}

/* ---- shapes ------------------------------------------------------------------------- */

static enum ptx_type pp_wide(enum ptx_type t)
{
    switch (t) {
    case PT_U16: return PT_U32;
    case PT_S16: return PT_S32;
    case PT_U32: return PT_U64;
    case PT_S32: return PT_S64;
    case PT_B16: return PT_B32;
    case PT_B32: return PT_B64;
    default: return t;
    }
}

/* Operand pattern for the instruction (see the letters at the top), chosen
   by modifiers and, for optional operands, by the count found. */
static const char *pp_shape(const struct ptx_insn *in, uint32_t n, char *buf)
{
    const char *d = in->has_d2 ? "dd" : "d";
    switch ((enum ptx_opcode)in->op) {
    case PO_ADD: case PO_SUB: case PO_MUL: case PO_DIV: case PO_REM: case PO_MIN: case PO_MAX:
    case PO_AND: case PO_OR: case PO_XOR: case PO_COPYSIGN: case PO_MUL24: case PO_ADDC: case PO_SUBC:
        return "dss";
    case PO_SHL: case PO_SHR:
        return "dsu";
    case PO_MAD:
        return (in->flags & PF_WIDE) ? "dssw" : "dsss";
    case PO_FMA: case PO_SAD: case PO_MAD24: case PO_MADC:
        return "dsss";
    case PO_DP4A: case PO_DP2A:
        return "dsxu";
    case PO_ABS: case PO_NEG: case PO_NOT: case PO_CNOT: case PO_POPC: case PO_CLZ: case PO_BFIND:
    case PO_BREV: case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS: case PO_LG2:
    case PO_EX2: case PO_TANH: case PO_TESTP:
        return "ds";
    case PO_MOV:
        return "Dm";
    case PO_CVTA:
        return "dm";
    case PO_CVT:
        return in->type == PT_F16X2 ? "dxx" : "dx"; /* cvt.rn.f16x2.f32 d, hi, lo packs two */
    case PO_BFE:
        return "dsuu";
    case PO_BFI:
        return "dssuu";
    case PO_PRMT: case PO_SHF:
        return "dssu";
    case PO_LOP3:
        return "dsssu";
    case PO_FNS:
        return "dsuu";
    case PO_SETP:
        snprintf(buf, 8, "%sss%s", d, in->boolop ? "p" : "");
        return buf;
    case PO_SET:
        return in->boolop ? "dssp" : "dss";
    case PO_SELP:
        return "dssp";
    case PO_SLCT:
        return "dssx";
    case PO_LD: case PO_LDU:
        return "Da";
    case PO_ST:
        return "aS";
    case PO_PREFETCH:
        return "a";
    case PO_ATOM:
        return in->subop == PA_CAS ? "dass" : "das";
    case PO_RED:
        return "as";
    case PO_TEX: case PO_TLD4:
        return "Vhc";
    case PO_SULD:
        return "Dhc";
    case PO_SUST:
        return "hcS";
    case PO_BRA:
        return "l";
    case PO_RET: case PO_EXIT: case PO_TRAP: case PO_MEMBAR: case PO_FENCE:
        return "";
    case PO_BAR: case PO_BARRIER:
        if (in->subop == PBM_WARP_SYNC)
            return "u";
        if (in->subop == PBM_SYNC || in->subop == PBM_ARRIVE)
            return n == 2 ? "uu" : "u";
        return n == 4 ? "duup" : "dup";
    case PO_SHFL:
        snprintf(buf, 8, "%s%s", d, (in->flags & PF_SYNC) ? "suuu" : "suu");
        return buf;
    case PO_VOTE:
        return (in->flags & PF_SYNC) ? "dpu" : "dp";
    case PO_ACTIVEMASK:
        return "d";
    case PO_MATCH:
        if (in->subop == PV_ANY)
            return "dsu";
        snprintf(buf, 8, "%ssu", d);
        return buf;
    case PO_NANOSLEEP: case PO_PMEVENT:
        return "u";
    case PO_ISSPACEP:
        return "dq";
    default:
        return "";
    }
}

static const char *pp_kind_desc(char c)
{
    switch (c) {
    case 'd': return "a register or '_'";
    case 'D': return "a register, '_' or a vector";
    case 'V': case 'c': return "a vector";
    case 'S': return "a register, immediate or vector";
    case 'm': return "a register, immediate or symbol";
    case 'p': return "a predicate or immediate";
    case 'a': return "an address";
    case 'l': return "a label";
    case 'h': return "a texture or surface handle";
    default: return "a register or immediate";
    }
}

static bool pp_kind_ok(char c, const struct ptx_opnd *o, enum ptx_opcode op)
{
    switch (c) {
    case 'd': return o->kind == POK_REG || o->kind == POK_SINK;
    case 'D': return o->kind == POK_REG || o->kind == POK_SINK || o->kind == POK_VEC;
    case 'V': case 'c': return o->kind == POK_VEC;
    case 'S': return o->kind == POK_REG || o->kind == POK_IMM || o->kind == POK_SREG || o->kind == POK_VEC;
    case 'm':
        return o->kind == POK_REG || o->kind == POK_IMM || o->kind == POK_SREG || o->kind == POK_SYM ||
               o->kind == POK_FUNC || (o->kind == POK_VEC && op == PO_MOV);
    case 'p': return o->kind == POK_REG || o->kind == POK_IMM;
    case 'a': return o->kind == POK_ADDR;
    case 'l': return o->kind == POK_LABEL;
    case 'h': return o->kind == POK_REG || o->kind == POK_SYM;
    default: return o->kind == POK_REG || o->kind == POK_IMM || o->kind == POK_SREG;
    }
}

static enum ptx_type pp_pos_type(const struct ptx_insn *in, char c)
{
    switch (c) {
    case 'x': return (enum ptx_type)in->stype;
    case 'u': return PT_U32;
    case 'q': return PT_U64;
    case 'p': return PT_PRED;
    case 'w': return pp_wide((enum ptx_type)in->type);
    default: return (enum ptx_type)in->type;
    }
}

/* Immediate elements of a vector operand: typed by the element type (the
   instruction type split into nvec parts for mov's pack/unpack). */
static int pp_vec_imms(struct pp *p, const struct ptx_insn *in, struct pp_op *op, char c)
{
    if (c != 'S' && c != 'm') {
        unsigned k = 0;
        while (!(op->vnum_mask & (1u << k)))
            k++;
        return pp_err(p, op->vtok[k], "immediate in a vector operand that is not a source");
    }
    enum ptx_type et = (enum ptx_type)in->type;
    if (in->op == PO_MOV) {
        unsigned w = ptx_type_bits(et) / (op->o.nvec ? op->o.nvec : 1);
        et = w == 8 ? PT_B8 : w == 16 ? PT_B16 : w == 32 ? PT_B32 : PT_B64;
    }
    const uint64_t **v = arena_alloc(p->A, PTX_MAX_VEC * sizeof *v);
    if (!v)
        return pp_err(p, op->tok, "out of memory");
    for (unsigned k = 0; k < op->o.nvec; k++) {
        if (!(op->vnum_mask & (1u << k)))
            continue;
        uint64_t bits;
        if (pp_num_to_type(p, op->vtok[k], &op->vnum[k], et, &bits))
            return -1;
        v[k] = pp_lanes(p, bits);
        if (!v[k])
            return -1;
    }
    op->o.vimm = v;
    return 0;
}

static int pp_check_shape(struct pp *p, const struct ptx_tok *opt, struct ptx_insn *in, struct pp_op *ops,
                          uint32_t n, const struct ptx_tok *semi)
{
    char buf[8];
    enum ptx_opcode op = (enum ptx_opcode)in->op;
    if (in->has_d2 && op != PO_SETP && op != PO_SHFL && !(op == PO_MATCH && in->subop == PV_ALL))
        return pp_err(p, ops[1].tok, "'%.*s' does not take a second destination", (int)opt->len, opt->s);
    const char *pat = pp_shape(in, n, buf);
    uint32_t want = (uint32_t)strlen(pat);
    if (n != want)
        return pp_err(p, n > want ? ops[want].tok : semi, "'%.*s' expects %u operand%s, got %u", (int)opt->len,
                      opt->s, want, want == 1 ? "" : "s", n);
    for (uint32_t i = 0; i < n; i++) {
        struct ptx_opnd *o = &ops[i].o;
        char c = pat[i];
        if (!pp_kind_ok(c, o, op))
            return pp_err(p, ops[i].tok, "operand %u of '%.*s' must be %s", i + 1, (int)opt->len, opt->s,
                          pp_kind_desc(c));
        if (o->neg && c != 'p')
            return pp_err(p, ops[i].tok, "'!' is only allowed on predicate operands");
        if (c == 'p' && o->kind == POK_REG && p->regs[o->reg].type != PT_PRED)
            return pp_err(p, ops[i].tok, "operand %u of '%.*s' must be a predicate", i + 1, (int)opt->len,
                          opt->s);
        /* vector widths must match .v2/.v4 of loads, stores and textures */
        if ((op == PO_LD || op == PO_LDU || op == PO_ST) && (c == 'D' || c == 'S')) {
            if ((in->vec > 1) != (o->kind == POK_VEC) || (o->kind == POK_VEC && o->nvec != in->vec))
                return pp_err(p, ops[i].tok, "operand %u of '%.*s' must be %s", i + 1, (int)opt->len, opt->s,
                              in->vec > 1 ? (in->vec == 2 ? "a 2-element vector" : "a 4-element vector")
                                          : "a scalar");
        }
        /* suld/sust: a scalar or a vector of as many elements as .v2/.v4 says ({%r1} is one) */
        if ((op == PO_SULD || op == PO_SUST) && (c == 'D' || c == 'S')) {
            unsigned ne = o->kind == POK_VEC ? o->nvec : 1u;
            if (ne != in->vec)
                return pp_err(p, ops[i].tok, "operand %u of '%.*s' must have %u element%s", i + 1,
                              (int)opt->len, opt->s, in->vec, in->vec == 1 ? "" : "s");
        }
        if (c == 'V' && in->vec > 1 && o->nvec != in->vec)
            return pp_err(p, ops[i].tok, "operand %u of '%.*s' must be a %u-element vector", i + 1,
                          (int)opt->len, opt->s, in->vec);
        if (o->kind == POK_VEC && ops[i].vnum_mask) {
            if (pp_vec_imms(p, in, &ops[i], c))
                return -1;
        }
        if (o->kind == POK_IMM) {
            uint64_t bits;
            if (pp_num_to_type(p, ops[i].tok, &ops[i].num, pp_pos_type(in, c), &bits))
                return -1;
            o->imm = (int64_t)bits;
            o->lanes = pp_lanes(p, bits);
            if (!o->lanes)
                return -1;
        }
        in->o[i] = *o;
    }
    in->nopnd = (uint8_t)n;
    return 0;
}

/* ---- instruction class -------------------------------------------------------------- */

static uint8_t pp_ld_class(uint8_t space, bool store)
{
    switch (space) {
    case PS_SHARED: return store ? PIC_ST_SHARED : PIC_LD_SHARED;
    case PS_LOCAL: return store ? PIC_ST_LOCAL : PIC_LD_LOCAL;
    case PS_CONST: return PIC_LD_CONST;
    case PS_PARAM: return store ? PIC_ST_PARAM : PIC_LD_PARAM;
    default: return store ? PIC_ST_GLOBAL : PIC_LD_GLOBAL; /* generic is counted as global */
    }
}

/* Classes: float arithmetic by precision (f16/bf16 count as FP32); f32
   division and every transcendental or .approx operation go to the SFU;
   f64 division, rcp.rn.f64 and sqrt.rn.f64 are FP64 sequences. */
static uint8_t pp_iclass(const struct ptx_insn *in)
{
    enum ptx_type t = (enum ptx_type)in->type;
    bool fl = ptx_type_is_float(t);
    switch ((enum ptx_opcode)in->op) {
    case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD: case PO_FMA: case PO_MIN: case PO_MAX:
    case PO_ABS: case PO_NEG: case PO_COPYSIGN:
        return fl ? (t == PT_F64 ? PIC_FP64 : PIC_FP32) : PIC_INT;
    case PO_DIV:
        return fl ? (t == PT_F64 ? PIC_FP64 : PIC_SFU) : PIC_INT;
    case PO_RCP: case PO_SQRT:
        return (in->flags & PF_APPROX) || t != PT_F64 ? PIC_SFU : PIC_FP64;
    case PO_RSQRT: case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2: case PO_TANH:
        return PIC_SFU;
    case PO_AND: case PO_OR: case PO_XOR: case PO_NOT: case PO_CNOT:
        return t == PT_PRED ? PIC_PRED : PIC_INT;
    case PO_TESTP: case PO_SETP: case PO_SELP: case PO_SET: case PO_SLCT:
        return PIC_PRED;
    case PO_CVT:
        return PIC_CONV;
    case PO_CVTA: case PO_MOV:
        return PIC_MOVE;
    case PO_LD: case PO_LDU: case PO_PREFETCH:
        return pp_ld_class(in->space, false);
    case PO_ST:
        return pp_ld_class(in->space, true);
    case PO_ATOM: case PO_RED:
        return in->space == PS_SHARED ? PIC_ATOM_SHARED : PIC_ATOM_GLOBAL;
    case PO_TEX: case PO_TLD4:
        return PIC_TEX;
    case PO_SULD:   /* surfaces: per-lane global addresses, timed like ld/st.global */
        return PIC_LD_GLOBAL;
    case PO_SUST:
        return PIC_ST_GLOBAL;
    case PO_BRA:
        return PIC_BRANCH;
    case PO_CALL:
        return PIC_CALL;
    case PO_RET:
        return PIC_RET;
    case PO_EXIT: case PO_TRAP:
        return PIC_EXIT;
    case PO_BAR: case PO_BARRIER:
        return in->subop == PBM_WARP_SYNC ? PIC_WARP : PIC_BARRIER;
    case PO_MEMBAR: case PO_FENCE:
        return PIC_MEMBAR;
    case PO_SHFL: case PO_VOTE: case PO_ACTIVEMASK: case PO_MATCH:
        return PIC_WARP;
    case PO_NANOSLEEP: case PO_PMEVENT:
        return PIC_NOP;
    default:
        return PIC_INT;
    }
}

/* ---- calls ---------------------------------------------------------------------------- */

/* one call argument or result: a param symbol of the caller or a register */
static int pp_call_arg(struct pp *p, int32_t *v, uint8_t *is_reg)
{
    const struct ptx_tok *t = pp_peek(p);
    if (t->kind != PTK_IDENT)
        return pp_err(p, t, "expected a parameter or register, got '%.*s'", (int)t->len, t->s);
    pp_next(p);
    const struct pp_bind *b = pp_lookup_local(p, t->s, t->len);
    if (b && b->kind == PPB_REG) {
        *v = b->idx;
        *is_reg = 1;
        return 0;
    }
    if (b && b->kind == PPB_SYM) {
        *v = b->idx;
        *is_reg = 0;
        return 0;
    }
    return pp_undefined(p, t);
}

static int pp_call_list(struct pp *p, int32_t *v, uint8_t *is_reg, uint8_t *n)
{
    if (pp_expect(p, '('))
        return -1;
    if (pp_accept(p, ')'))
        return 0;
    for (;;) {
        if (*n == 32)
            return pp_err(p, pp_peek(p), "too many call arguments");
        if (pp_call_arg(p, &v[*n], &is_reg[*n]))
            return -1;
        (*n)++;
        if (pp_accept(p, ')'))
            return 0;
        if (pp_expect(p, ','))
            return -1;
    }
}

/* `call[.uni] [(rets),] target [, (args)] [, prototype];` */
static int pp_call(struct pp *p, const struct ptx_tok *opt, struct ptx_insn *in)
{
    int32_t args[32], rets[32];
    uint8_t args_reg[32], rets_reg[32], nargs = 0, nrets = 0;
    if (pp_is_punct(pp_peek(p), '(')) {
        if (pp_call_list(p, rets, rets_reg, &nrets) || pp_expect(p, ','))
            return -1;
    }
    const struct ptx_tok *tt = pp_peek(p);
    if (tt->kind != PTK_IDENT)
        return pp_err(p, tt, "expected a call target, got '%.*s'", (int)tt->len, tt->s);
    pp_next(p);
    struct ptx_opnd *o = &in->o[0];
    pp_opnd_init(o);
    int32_t callee = pp_lookup_func(p, tt->s, tt->len);
    const struct pp_bind *b = pp_lookup_local(p, tt->s, tt->len);
    bool deferred = false;
    if (b && b->kind == PPB_REG) {
        /* indirect call through a register: decoded, rejected at load */
        o->kind = POK_REG;
        o->reg = b->idx;
        in->flags |= PF_CALL_INDIRECT;
        callee = -1;
    } else {
        o->kind = POK_FUNC;
        o->imm = callee;
        deferred = callee < 0;
        if (deferred && (tt->s[0] == '%' || b || pp_lookup_modsym(p, tt->s, tt->len) >= 0))
            return pp_err(p, tt, "'%.*s' is not a function", (int)tt->len, tt->s);
    }
    if (pp_accept(p, ',')) {
        if (pp_is_punct(pp_peek(p), '(')) {
            if (pp_call_list(p, args, args_reg, &nargs))
                return -1;
            if (pp_accept(p, ',') && pp_next(p)->kind != PTK_IDENT)
                return pp_err(p, &p->t[p->pos - 1], "expected a call prototype");
        } else if (pp_next(p)->kind != PTK_IDENT) {
            return pp_err(p, &p->t[p->pos - 1], "expected '(' for call arguments");
        }
    }
    const struct ptx_tok *semi = pp_peek(p);
    if (!pp_is_punct(semi, ';'))
        return pp_err(p, semi, "expected ';' after call, got '%.*s'", (int)semi->len, semi->s);
    pp_next(p);
    if (callee >= 0) {
        const struct ptx_func *g = &p->funcs[callee];
        if (g->is_entry)
            return pp_err(p, tt, "call to kernel '%.*s'", (int)tt->len, tt->s);
        if (pp_call_counts(p, tt->line, tt->col, tt->s, tt->len, nargs, nrets, g))
            return -1;
    }
    if (PP_RESERVE(p, p->calls, p->capcalls, p->ncalls + 1))
        return -1;
    struct ptx_call *c = &p->calls[p->ncalls];
    memset(c, 0, sizeof *c);
    c->callee = callee;
    c->nargs = nargs;
    c->nrets = nrets;
    size_t na = nargs ? nargs : 1, nr = nrets ? nrets : 1;
    c->args = arena_alloc(p->A, na * sizeof *c->args);
    c->rets = arena_alloc(p->A, nr * sizeof *c->rets);
    c->arg_is_reg = arena_alloc(p->A, na);
    c->ret_is_reg = arena_alloc(p->A, nr);
    if (!c->args || !c->rets || !c->arg_is_reg || !c->ret_is_reg)
        return pp_err(p, opt, "out of memory");
    memcpy(c->args, args, nargs * sizeof *args);
    memcpy(c->rets, rets, nrets * sizeof *rets);
    memcpy(c->arg_is_reg, args_reg, nargs);
    memcpy(c->ret_is_reg, rets_reg, nrets);
    if (deferred) {
        if (PP_RESERVE(p, p->cfix, p->capcfix, p->ncfix + 1))
            return -1;
        p->cfix[p->ncfix++] = (struct pp_cfix){.func = (uint32_t)p->cur, .insn = p->ninsns, .call = p->ncalls,
                                               .name = tt->s, .len = tt->len, .line = tt->line, .col = tt->col};
    }
    in->call = (int32_t)p->ncalls++;
    in->nopnd = 1;
    return 0;
}

/* ---- the statement ---------------------------------------------------------------------- */

static enum ptx_opcode pp_opcode(const char *s, uint32_t n)
{
    static const char *const names[PO_COUNT] = {
#define PTX_X_NAME(e, str) [PO_##e] = str,
        PTX_OPCODES(PTX_X_NAME)
#undef PTX_X_NAME
    };
    for (int i = 1; i < PO_COUNT; i++)
        if (names[i][0] == s[0] && pp_is(s, n, names[i]))
            return (enum ptx_opcode)i;
    return PO_INVALID;
}

int pp_insn(struct pp *p)
{
    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.guard = -1;
    in.call = -1;
    if (pp_accept(p, '@')) {
        if (pp_accept(p, '!'))
            in.guard_neg = 1;
        const struct ptx_tok *g = pp_peek(p);
        if (g->kind != PTK_IDENT)
            return pp_err(p, g, "expected a predicate register after '@', got '%.*s'", (int)g->len, g->s);
        pp_next(p);
        if (pp_reg_ref(p, g, &in.guard))
            return -1;
        if (p->regs[in.guard].type != PT_PRED)
            return pp_err(p, g, "guard '%.*s' is not a predicate register", (int)g->len, g->s);
    }
    const struct ptx_tok *opt = pp_peek(p);
    if (opt->kind != PTK_IDENT)
        return pp_err(p, opt, "expected an instruction, got '%.*s'", (int)opt->len, opt->s);
    pp_next(p);
    uint32_t blen = 0;
    while (blen < opt->len && opt->s[blen] != '.')
        blen++;
    enum ptx_opcode op = pp_opcode(opt->s, blen);
    if (op == PO_INVALID)
        return pp_err(p, opt, "unsupported instruction '%.*s'", (int)opt->len, opt->s);
    in.op = (uint16_t)op;
    in.line = opt->line;
    in.col = opt->col;
    in.src_line = p->loc_line;
    in.src_file = p->loc_file;
    if (pp_decode_mods(p, opt, blen, &in))
        return -1;
    if (op == PO_CALL) {
        if (pp_call(p, opt, &in))
            return -1;
    } else {
        struct pp_op ops[PTX_MAX_OPNDS];
        for (int i = 0; i < PTX_MAX_OPNDS; i++) {
            memset(&ops[i], 0, sizeof ops[i]);
            pp_opnd_init(&ops[i].o);
        }
        for (int i = 0; i < PTX_MAX_OPNDS; i++)
            pp_opnd_init(&in.o[i]);
        uint32_t n = 0;
        if (!pp_is_punct(pp_peek(p), ';')) {
            for (;;) {
                if (pp_operand(p, &in, ops, &n))
                    return -1;
                if (pp_is_punct(pp_peek(p), ';'))
                    break;
                const struct ptx_tok *t = pp_peek(p);
                if (!pp_is_punct(t, ',')) {
                    if (t->kind == PTK_EOF)
                        return pp_err(p, t, "expected ';' at end of file");
                    return pp_err(p, t, "expected ',' or ';' before '%.*s'", (int)t->len, t->s);
                }
                pp_next(p);
            }
        }
        const struct ptx_tok *semi = pp_next(p);
        if (pp_check_shape(p, opt, &in, ops, n, semi))
            return -1;
    }
    if (((op == PO_ADD || op == PO_SUB || op == PO_MAD) && (in.flags & PF_CC)) || op == PO_ADDC ||
        op == PO_SUBC || op == PO_MADC) {
        if (pp_cc_reg(p) < 0)
            return -1;
    }
    in.iclass = pp_iclass(&in);
    if (ptx_alu_handles(op)) {
        char why[256] = "";
        if (ptx_alu_supported(&in, why, sizeof why))
            return pp_err(p, opt, "unsupported instruction '%.*s': %s", (int)opt->len, opt->s,
                          why[0] ? why : "not supported");
    }
    if (PP_RESERVE(p, p->insns, p->capinsns, p->ninsns + 1))
        return -1;
    p->insns[p->ninsns++] = in;
    return 0;
}
