/* ptx_names.c - names and properties of PTX IR enums, error formatting. */
#include <stdio.h>

#include "ptx_ir.h"

static const char *const ptx_type_names[PT_COUNT] = {
    [PT_NONE] = "none", [PT_B8] = "b8", [PT_B16] = "b16", [PT_B32] = "b32", [PT_B64] = "b64",
    [PT_U8] = "u8", [PT_U16] = "u16", [PT_U32] = "u32", [PT_U64] = "u64",
    [PT_S8] = "s8", [PT_S16] = "s16", [PT_S32] = "s32", [PT_S64] = "s64",
    [PT_F16] = "f16", [PT_F16X2] = "f16x2", [PT_BF16] = "bf16", [PT_F32] = "f32", [PT_F64] = "f64",
    [PT_PRED] = "pred",
};

unsigned ptx_type_bits(enum ptx_type t)
{
    switch (t) {
    case PT_B8: case PT_U8: case PT_S8:
        return 8;
    case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16:
        return 16;
    case PT_B32: case PT_U32: case PT_S32: case PT_F32: case PT_F16X2:
        return 32;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64:
        return 64;
    case PT_PRED:
        return 1;
    default:
        return 0;
    }
}

bool ptx_type_is_float(enum ptx_type t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_F32 || t == PT_F64;
}

bool ptx_type_is_signed(enum ptx_type t)
{
    return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}

const char *ptx_type_name(enum ptx_type t)
{
    return (unsigned)t < PT_COUNT && ptx_type_names[t] ? ptx_type_names[t] : "?";
}

static const char *const ptx_opcode_names[PO_COUNT] = {
    [PO_INVALID] = "invalid",
#define PTX_X_NAME(e, s) [PO_##e] = s,
    PTX_OPCODES(PTX_X_NAME)
#undef PTX_X_NAME
};

const char *ptx_opcode_name(enum ptx_opcode op)
{
    return (unsigned)op < PO_COUNT ? ptx_opcode_names[op] : "?";
}

static const char *const ptx_iclass_names[PIC_COUNT] = {
    [PIC_INT] = "int", [PIC_FP32] = "fp32", [PIC_FP64] = "fp64", [PIC_SFU] = "sfu",
    [PIC_CONV] = "conv", [PIC_MOVE] = "move", [PIC_PRED] = "pred",
    [PIC_LD_GLOBAL] = "ld_global", [PIC_ST_GLOBAL] = "st_global",
    [PIC_LD_SHARED] = "ld_shared", [PIC_ST_SHARED] = "st_shared",
    [PIC_LD_LOCAL] = "ld_local", [PIC_ST_LOCAL] = "st_local",
    [PIC_LD_CONST] = "ld_const", [PIC_LD_PARAM] = "ld_param", [PIC_ST_PARAM] = "st_param",
    [PIC_TEX] = "tex", [PIC_ATOM_GLOBAL] = "atom_global", [PIC_ATOM_SHARED] = "atom_shared",
    [PIC_BRANCH] = "branch", [PIC_CALL] = "call", [PIC_RET] = "ret", [PIC_EXIT] = "exit",
    [PIC_BARRIER] = "barrier", [PIC_MEMBAR] = "membar", [PIC_WARP] = "warp", [PIC_NOP] = "nop",
};

const char *ptx_iclass_name(enum ptx_iclass c)
{
    return (unsigned)c < PIC_COUNT ? ptx_iclass_names[c] : "?";
}

int ptx_error_format(const struct ptx_error *e, char *buf, size_t n)
{
    /* without a position (e.g. a file that cannot be opened) the location is
       the file alone, like compilers print it */
    if (e->line)
        return snprintf(buf, n, "%s:%u:%u: error: %s", e->file, e->line, e->col, e->msg);
    return snprintf(buf, n, "%s: error: %s", e->file, e->msg);
}
