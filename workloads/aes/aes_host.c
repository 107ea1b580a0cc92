/*
 * aes_host.c - driver for AES-128 ECB encryption (workloads/aes/aes.cu).
 *
 * The host builds the S-box from its definition (multiplicative inverse in
 * GF(2^8) followed by the affine map), the T-table T0 from it, and expands a
 * random 128-bit key; the kernel gets them in constant memory.  Input:
 * random plaintext blocks.
 *
 * Check: a byte-oriented textbook AES on the CPU (SubBytes, ShiftRows,
 * MixColumns with xtime, AddRoundKey; no tables but the S-box), first checked
 * against the FIPS-197 appendix C.1 example, encrypts the same blocks.
 * Exact.
 */
#include <string.h>

#include "common/wl_util.h"

#define AES_BLOCK 256

static uint8_t aes_xtime(uint8_t a) { return (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0)); }

static uint8_t aes_gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            p ^= a;
        a = aes_xtime(a);
        b >>= 1;
    }
    return p;
}

static uint8_t aes_rotl8(uint8_t x, int n) { return (uint8_t)((x << n) | (x >> (8 - n))); }

static void aes_make_sbox(uint8_t *sbox)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x != 0; y++)
            if (aes_gmul((uint8_t)x, (uint8_t)y) == 1) {
                inv = (uint8_t)y;
                break;
            }
        sbox[x] = (uint8_t)(inv ^ aes_rotl8(inv, 1) ^ aes_rotl8(inv, 2) ^ aes_rotl8(inv, 3) ^ aes_rotl8(inv, 4) ^
                            0x63);
    }
}

/* FIPS-197 key expansion, bytes: rk[16 * round + 4 * column + row] */
static void aes_expand_key(const uint8_t *sbox, const uint8_t key[16], uint8_t rk[176])
{
    memcpy(rk, key, 16);
    uint8_t rcon = 1;
    for (int i = 4; i < 44; i++) {
        uint8_t t[4];
        memcpy(t, rk + 4 * (i - 1), 4);
        if (i % 4 == 0) {
            uint8_t t0 = t[0];
            t[0] = (uint8_t)(sbox[t[1]] ^ rcon);
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = aes_xtime(rcon);
        }
        for (int j = 0; j < 4; j++)
            rk[4 * i + j] = (uint8_t)(rk[4 * (i - 4) + j] ^ t[j]);
    }
}

/* textbook AES-128 on one block: state byte s[4c + r] is row r, column c */
static void aes_encrypt_ref(const uint8_t *sbox, const uint8_t rk[176], const uint8_t in[16], uint8_t out[16])
{
    uint8_t s[16], t[16];
    for (int i = 0; i < 16; i++)
        s[i] = (uint8_t)(in[i] ^ rk[i]);
    for (int round = 1; round <= 10; round++) {
        for (int i = 0; i < 16; i++)
            s[i] = sbox[s[i]];
        for (int c = 0; c < 4; c++)   /* ShiftRows: row r rotates left by r */
            for (int r = 0; r < 4; r++)
                t[4 * c + r] = s[4 * ((c + r) % 4) + r];
        if (round < 10) {
            for (int c = 0; c < 4; c++) {   /* MixColumns */
                uint8_t *a = t + 4 * c;
                uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
                s[4 * c + 0] = (uint8_t)(aes_xtime(a0) ^ aes_xtime(a1) ^ a1 ^ a2 ^ a3);
                s[4 * c + 1] = (uint8_t)(a0 ^ aes_xtime(a1) ^ aes_xtime(a2) ^ a2 ^ a3);
                s[4 * c + 2] = (uint8_t)(a0 ^ a1 ^ aes_xtime(a2) ^ aes_xtime(a3) ^ a3);
                s[4 * c + 3] = (uint8_t)(aes_xtime(a0) ^ a0 ^ a1 ^ a2 ^ aes_xtime(a3));
            }
        } else {
            memcpy(s, t, 16);
        }
        for (int i = 0; i < 16; i++)
            s[i] ^= rk[16 * round + i];
    }
    memcpy(out, s, 16);
}

static int aes_self_test(const uint8_t *sbox)
{
    static const uint8_t ct[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                   0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    uint8_t key[16], pt[16], rk[176], out[16];
    for (int i = 0; i < 16; i++) {
        key[i] = (uint8_t)i;
        pt[i] = (uint8_t)(i * 0x11);
    }
    aes_expand_key(sbox, key, rk);
    aes_encrypt_ref(sbox, rk, pt, out);
    return memcmp(out, ct, 16) == 0;
}

static uint32_t aes_le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

struct aes_dev {
    ws_devptr in, out;
};

static ws_status aes_device(ws_ctx *ctx, ws_module *mod, struct aes_dev *d, const uint8_t *sbox, const uint8_t *rk,
                            const uint8_t *pt, uint8_t *ct, int n_blocks, unsigned *launches)
{
    uint32_t te0[256], rkw[44];
    for (int x = 0; x < 256; x++) {
        /* column contributed by a row-0 byte: (2S, S, S, 3S), row 0 in the low byte */
        uint8_t s = sbox[x];
        te0[x] = (uint32_t)aes_gmul(s, 2) | (uint32_t)s << 8 | (uint32_t)s << 16 | (uint32_t)aes_gmul(s, 3) << 24;
    }
    for (int i = 0; i < 44; i++)
        rkw[i] = aes_le32(rk + 4 * i);
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "aes_te0", te0, sizeof te0, 0));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "aes_sbox", sbox, 256, 0));
    WL_TRY(wsMemcpyToSymbol(ctx, mod, "aes_rk", rkw, sizeof rkw, 0));
    size_t bytes = (size_t)n_blocks * 16;
    WL_TRY(wl_upload(ctx, &d->in, pt, bytes));
    WL_TRY(wl_upload(ctx, &d->out, NULL, bytes));
    void *args[] = {&d->in, &d->out, &n_blocks};
    unsigned ctas = (unsigned)((n_blocks + AES_BLOCK - 1) / AES_BLOCK);
    WL_TRY(wsLaunchKernel(ctx, mod, "aes_encrypt_ecb", ws_dim(ctas, 1, 1), ws_dim(AES_BLOCK, 1, 1), 0, args));
    (*launches)++;
    return wsMemcpyDtoH(ctx, ct, d->out, bytes);
}

static ws_status aes_run(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r)
{
    /* paper: 64 MiB of plaintext */
    int n_blocks = WL_BY_SIZE(o, 4096, 262144, 4194304);
    size_t bytes = (size_t)n_blocks * 16;
    uint8_t sbox[256], key[16], rk[176];
    aes_make_sbox(sbox);
    if (!aes_self_test(sbox)) {
        snprintf(r->detail, sizeof r->detail, "CPU reference AES fails the FIPS-197 C.1 example");
        r->verified = 0;
        return WS_SUCCESS;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, o->seed);
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)wl_rng_u32(&rng);
    aes_expand_key(sbox, key, rk);
    uint8_t *pt = wl_alloc(bytes), *ct = wl_alloc(bytes), *want = wl_alloc(bytes);
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t v = wl_rng_u64(&rng);
        memcpy(pt + i, &v, 8);
    }

    struct aes_dev d = {0, 0};
    ws_status st = aes_device(ctx, mod, &d, sbox, rk, pt, ct, n_blocks, &r->launches);
    if (st == WS_SUCCESS) {
        for (int b = 0; b < n_blocks; b++)
            aes_encrypt_ref(sbox, rk, pt + 16 * (size_t)b, want + 16 * (size_t)b);
        /* compare as words (the u32 checker); the byte order is the same on both sides */
        uint32_t *gw = wl_alloc(bytes), *ww = wl_alloc(bytes);
        memcpy(gw, ct, bytes);
        memcpy(ww, want, bytes);
        wl_check_u32(r, "ciphertext words", gw, ww, bytes / 4);
        free(gw);
        free(ww);
        if (o->verbose)
            fprintf(o->log, "aes: %d blocks (%zu bytes), reference passes FIPS-197 C.1\n", n_blocks, bytes);
    }
    if (d.in) wsFree(ctx, d.in);
    if (d.out) wsFree(ctx, d.out);
    free(pt);
    free(ct);
    free(want);
    return st;
}

const struct workload wl_aes = {
    .name = "aes",
    .summary = "AES-128 ECB encryption (001 AES, Type-M there; expected Type-C with the tables on chip): T-table "
               "lookups in shared memory with bank conflicts, round keys broadcast from constant memory",
    .tolerance = "exact",
    .run = aes_run,
};
