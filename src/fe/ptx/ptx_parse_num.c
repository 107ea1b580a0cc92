/*
 * ptx_parse_num.c - numeric literals of PTX: integers (decimal, 0x hex, 0
 * octal, 0b binary, U suffix), 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX float bit
 * patterns and decimal floats, and their conversion to the bit pattern of an
 * operand type.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse_int.h"

static int pp_hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int pp_num_text(struct pp *p, const struct ptx_tok *t, bool neg, struct pp_num *out)
{
    const char *s = t->s;
    uint32_t n = t->len;
    memset(out, 0, sizeof *out);
    char c1 = n > 1 ? s[1] : 0;
    if (s[0] == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        uint32_t digits = (c1 == 'f' || c1 == 'F') ? 8 : 16;
        if (n != digits + 2)
            goto bad;
        uint64_t v = 0;
        for (uint32_t i = 2; i < n; i++) {
            int d = pp_hexval(s[i]);
            if (d < 0)
                goto bad;
            v = v << 4 | (uint64_t)d;
        }
        out->kind = digits == 8 ? PPN_F32 : PPN_F64;
        if (neg)
            v ^= digits == 8 ? 0x80000000ull : 0x8000000000000000ull;
        out->bits = v;
        return 0;
    }
    uint32_t end = n;
    if (end > 1 && (s[end - 1] == 'U' || s[end - 1] == 'u'))
        end--;
    uint64_t v = 0;
    if (s[0] == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
        unsigned shift = (c1 == 'x' || c1 == 'X') ? 4 : 1;
        if (end <= 2)
            goto bad;
        for (uint32_t i = 2; i < end; i++) {
            int d = pp_hexval(s[i]);
            if (d < 0 || (shift == 1 && d > 1) || (v >> (64 - shift)) != 0)
                goto bad;
            v = v << shift | (uint64_t)d;
        }
    } else if (memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n)) {
        char buf[72];
        if (n >= sizeof buf)
            goto bad;
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *ep;
        errno = 0;
        double d = strtod(buf, &ep);
        if (*ep != '\0' || buf[0] < '0' || buf[0] > '9')
            goto bad;
        out->kind = PPN_DEC;
        out->fval = neg ? -d : d;
        return 0;
    } else {
        unsigned base = (s[0] == '0' && end > 1) ? 8 : 10;
        for (uint32_t i = 0; i < end; i++) {
            int d = s[i] - '0';
            if (d < 0 || d >= (int)base || v > (UINT64_MAX - (uint64_t)d) / base)
                goto bad;
            v = v * base + (uint64_t)d;
        }
    }
    out->kind = PPN_INT;
    out->bits = neg ? (uint64_t)0 - v : v;
    return 0;
bad:
    return pp_err(p, t, "bad number '%s%.*s'", neg ? "-" : "", (int)n, s);
}

int pp_number(struct pp *p, struct pp_num *out)
{
    bool neg = false;
    const struct ptx_tok *t = pp_peek(p);
    if (pp_is_punct(t, '-') || pp_is_punct(t, '+')) {
        neg = t->ch == '-';
        pp_next(p);
        t = pp_peek(p);
    }
    if (t->kind != PTK_NUMBER) {
        if (t->kind == PTK_EOF)
            return pp_err(p, t, "expected a number at end of file");
        return pp_err(p, t, "expected a number, got '%.*s'", (int)t->len, t->s);
    }
    pp_next(p);
    return pp_num_text(p, t, neg, out);
}

/* round-to-nearest-even float -> IEEE half */
static uint16_t pp_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xffu);
    uint32_t mant = x & 0x7fffffu;
    if (exp == 255)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int32_t e = exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* a carry into the exponent is the correct rounding, up to inf */
    return (uint16_t)(sign | h);
}

static uint16_t pp_f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

static double pp_num_as_double(const struct pp_num *n)
{
    switch (n->kind) {
    case PPN_F32: {
        uint32_t b = (uint32_t)n->bits;
        float f;
        memcpy(&f, &b, sizeof f);
        return (double)f;
    }
    case PPN_F64: {
        double d;
        memcpy(&d, &n->bits, sizeof d);
        return d;
    }
    case PPN_DEC:
        return n->fval;
    default:
        return (double)(int64_t)n->bits;
    }
}

int pp_num_to_type(struct pp *p, const struct ptx_tok *at, const struct pp_num *n, enum ptx_type type,
                   uint64_t *bits)
{
    unsigned w = ptx_type_bits(type);
    if (type == PT_PRED) {
        if (n->kind != PPN_INT)
            return pp_err(p, at, "floating-point literal '%.*s' for a predicate", (int)at->len, at->s);
        *bits = n->bits != 0;
        return 0;
    }
    if (type == PT_F32 || type == PT_F64 || type == PT_F16 || type == PT_BF16) {
        if (type == PT_F32 && n->kind == PPN_F32) {
            *bits = n->bits;
        } else if (type == PT_F64 && n->kind == PPN_F64) {
            *bits = n->bits;
        } else if (type == PT_F64) {
            double d = pp_num_as_double(n);
            memcpy(bits, &d, sizeof d);
        } else {
            float f = (float)pp_num_as_double(n);
            uint32_t b;
            memcpy(&b, &f, sizeof b);
            if (type == PT_F32)
                *bits = b;
            else if (type == PT_F16)
                *bits = pp_f32_to_f16(f);
            else
                *bits = pp_f32_to_bf16(f);
        }
        return 0;
    }
    /* integer, bit and packed types: integer literals keep their two's
       complement bits; 0f/0d literals give their raw bits (mov.b32 %r, 0f...) */
    if (n->kind == PPN_DEC)
        return pp_err(p, at, "floating-point literal '%.*s' for type .%s", (int)at->len, at->s,
                      ptx_type_name(type));
    uint64_t v = n->bits;
    if (w && w < 64)
        v &= ((uint64_t)1 << w) - 1;
    *bits = v;
    return 0;
}

