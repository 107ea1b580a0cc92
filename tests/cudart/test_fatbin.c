/* test_fatbin.c - the fatbinary parser (src/cudart/fatbin.c) on committed nvcc 13.0 output
   (the .fatbin files of tests/cudart, made by make_fatbins.sh): plain, zstd and LZ4 PTX entries, a SASS-only
   container, a multi-architecture one, and damaged input (cases the fuzz harness tests/fuzz/fuzz_fatbin.c found
   among them). */
#include "test.h"

#include "cudart/fatbin.h"
#include "host/ws_internal.h"
#include "warpsim/warpsim.h"

static unsigned char *slurp(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/cudart/%s", WARPSIM_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

static char *ptx_of(const char *name, unsigned max_arch, unsigned *arch, char *msg, size_t n)
{
    size_t len = 0, plen = 0;
    unsigned char *d = slurp(name, &len);
    if (!d)
        return NULL;
    struct fatbin_list *l = calloc(1, sizeof *l);
    char *ptx = NULL;
    if (l && fatbin_list(d, len, l, msg, n) == 0)
        ptx = fatbin_pick_ptx(l, max_arch, &plen, arch, msg, n);
    free(l);
    free(d);
    return ptx;
}

TEST(plain_zstd_lz4_same_ptx)
{
    char msg[512] = "";
    unsigned a1 = 0, a2 = 0, a3 = 0;
    char *plain = ptx_of("ptx75_plain.fatbin", FATBIN_MAX_ARCH, &a1, msg, sizeof msg);
    REQUIRE(plain);
    char *z = ptx_of("ptx75_zstd.fatbin", FATBIN_MAX_ARCH, &a2, msg, sizeof msg);
    char *l = ptx_of("ptx75_lz4.fatbin", FATBIN_MAX_ARCH, &a3, msg, sizeof msg);
    if (!z || !l)
        fprintf(stderr, "  %s\n", msg);
    REQUIRE(z && l);
    CHECK_EQ_INT(a1, 75);
    CHECK_EQ_INT(a2, 75);
    CHECK_EQ_INT(a3, 75);
    CHECK(strstr(plain, ".version 9.0") != NULL);
    CHECK(strstr(plain, ".entry _Z6k_axpyPfPKffi") != NULL);
    CHECK_EQ_STR(z, plain);
    CHECK_EQ_STR(l, plain);
    free(plain);
    free(z);
    free(l);
}

TEST(entries_and_flags)
{
    size_t len = 0;
    unsigned char *d = slurp("ptx75_zstd.fatbin", &len);
    REQUIRE(d);
    CHECK_EQ_U64(fatbin_container_size(d, len), len);
    CHECK_EQ_U64(fatbin_container_size(d, 0), len);
    CHECK_EQ_U64(fatbin_container_size(d, len - 1), 0);
    struct fatbin_list l;
    char msg[256];
    REQUIRE(fatbin_list(d, len, &l, msg, sizeof msg) == 0);
    CHECK_EQ_INT(l.n, 1);
    CHECK_EQ_INT(l.e[0].kind, FATBIN_KIND_PTX);
    CHECK_EQ_INT(l.e[0].ptx_major, 9);
    CHECK_EQ_INT(l.e[0].ptx_minor, 0);
    CHECK((l.e[0].flags & FATBIN_FLAG_ZSTD) != 0);
    CHECK(l.e[0].uncompressed_size > l.e[0].payload_size);
    free(d);
}

TEST(multi_arch_picks_highest_accepted)
{
    size_t len = 0;
    unsigned char *d = slurp("multi.fatbin", &len);
    REQUIRE(d);
    struct fatbin_list l;
    char msg[256];
    REQUIRE(fatbin_list(d, len, &l, msg, sizeof msg) == 0);
    CHECK_EQ_INT(l.n, 3);
    unsigned kinds = 0;
    for (unsigned i = 0; i < l.n; i++)
        kinds |= 1u << l.e[i].kind;
    CHECK_EQ_INT(kinds, (1u << FATBIN_KIND_PTX) | (1u << FATBIN_KIND_ELF));
    unsigned arch = 0;
    size_t plen = 0;
    char *p = fatbin_pick_ptx(&l, FATBIN_MAX_ARCH, &plen, &arch, msg, sizeof msg);
    REQUIRE(p);
    CHECK_EQ_INT(arch, 86);
    CHECK(strstr(p, ".target sm_86") != NULL);
    free(p);
    p = fatbin_pick_ptx(&l, 80, &plen, &arch, msg, sizeof msg);   /* 86 is above the cap: 75 */
    REQUIRE(p);
    CHECK_EQ_INT(arch, 75);
    free(p);
    p = fatbin_pick_ptx(&l, 70, &plen, &arch, msg, sizeof msg);   /* nothing at or below: the lowest */
    REQUIRE(p);
    CHECK_EQ_INT(arch, 75);
    free(p);
    free(d);
}

TEST(sass_only_explains)
{
    char msg[512] = "";
    unsigned arch = 0;
    char *p = ptx_of("sass75_only.fatbin", FATBIN_MAX_ARCH, &arch, msg, sizeof msg);
    CHECK(p == NULL);
    CHECK(strstr(msg, "no PTX") != NULL);
    CHECK(strstr(msg, "sm_75") != NULL);
    CHECK(strstr(msg, "-gencode arch=compute_75,code=compute_75") != NULL);
    free(p);
}

TEST(damaged_input)
{
    size_t len = 0;
    unsigned char *d = slurp("ptx75_zstd.fatbin", &len);
    REQUIRE(d);
    struct fatbin_list l;
    char msg[256] = "";
    CHECK(fatbin_list(d, 100, &l, msg, sizeof msg) == -1);   /* truncated */
    CHECK(strstr(msg, "truncated") != NULL);
    unsigned char junk[64] = {1, 2, 3, 4};
    CHECK(fatbin_list(junk, sizeof junk, &l, msg, sizeof msg) == -1);
    CHECK(strstr(msg, "not a fatbinary") != NULL);
    REQUIRE(fatbin_list(d, len, &l, msg, sizeof msg) == 0);
    ((unsigned char *)l.e[0].payload)[8] ^= 0x5a;   /* corrupt the zstd frame */
    ((unsigned char *)l.e[0].payload)[9] ^= 0xa5;
    size_t plen = 0;
    char *p = fatbin_entry_ptx(&l.e[0], &plen, msg, sizeof msg);
    if (p)   /* zstd frames carry no mandatory checksum: a flip may decode; it must not crash */
        free(p);
    else
        CHECK(strstr(msg, "zstd") != NULL);
    free(d);
    d = slurp("ptx75_lz4.fatbin", &len);
    REQUIRE(d);
    REQUIRE(fatbin_list(d, len, &l, msg, sizeof msg) == 0);
    CHECK((l.e[0].flags & FATBIN_FLAG_LZ4) != 0);
    l.e[0].payload_size = 10;   /* cut short */
    p = fatbin_entry_ptx(&l.e[0], &plen, msg, sizeof msg);
    CHECK(p == NULL);
    CHECK(strstr(msg, "LZ4") != NULL);
    free(p);
    free(d);
}

/* The first entry's header of a one-container fatbin (the committed files: container header 16 bytes). */
#define ENTRY0 16u
static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Found by fuzz_fatbin (tests/fuzz/regressions/fatbin/oom-zstd-claims-4gib): a compressed entry's uncompressed
   size comes from its header and was allocated as claimed, up to 4 GiB, before decompressing.  A claim above
   FATBIN_MAX_PTX, above what an LZ4 block can expand to, or unlike the zstd frame's own content size is refused
   before anything is allocated. */
TEST(uncompressed_size_claims_bounded)
{
    static const struct {
        const char *file;
        uint64_t claim;
    } cases[] = {
        {"ptx75_zstd.fatbin", 0xffffffffull},            /* the fuzzer's input */
        {"ptx75_zstd.fatbin", 1ull << 32},
        {"ptx75_zstd.fatbin", 0x100000ull},               /* under the cap, but not the frame's size */
        {"ptx75_zstd.fatbin", (uint64_t)FATBIN_MAX_PTX + 1},
        {"ptx75_lz4.fatbin", 0xffffffffull},
        {"ptx75_lz4.fatbin", 0x1000000ull},               /* 16 MiB from some 600 bytes of LZ4 */
        {"ptx75_lz4.fatbin", ~0ull},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t len = 0;
        unsigned char *d = slurp(cases[c].file, &len);
        REQUIRE(d);
        put64(d + ENTRY0 + 0x38, cases[c].claim);
        struct fatbin_list l;
        char msg[256] = "";
        REQUIRE(fatbin_list(d, len, &l, msg, sizeof msg) == 0);
        CHECK_EQ_U64(l.e[0].uncompressed_size, cases[c].claim);
        size_t plen = 123;
        unsigned arch = 0;
        char *p = fatbin_pick_ptx(&l, FATBIN_MAX_ARCH, &plen, &arch, msg, sizeof msg);
        CHECK(p == NULL);
        CHECK_EQ_U64(plen, 0);
        if (!strstr(msg, "claims"))
            fprintf(stderr, "  case %zu: %s\n", c, msg);
        CHECK(strstr(msg, "claims") != NULL);
        CHECK(strstr(msg, "compute_75") != NULL);
        free(p);
        free(d);
    }
}

/* A plain entry's text is its payload, whatever the uncompressed size field says (a hand-made entry). */
TEST(plain_entry_uses_payload_size)
{
    static const char text[] = ".version 9.0\n";
    struct fatbin_entry e;
    memset(&e, 0, sizeof e);
    e.kind = FATBIN_KIND_PTX;
    e.arch = 75;
    e.payload = (const uint8_t *)text;
    e.payload_size = sizeof text - 1;
    e.uncompressed_size = 1u << 30;
    size_t plen = 0;
    char msg[128];
    char *p = fatbin_entry_ptx(&e, &plen, msg, sizeof msg);
    REQUIRE(p);
    CHECK_EQ_U64(plen, sizeof text - 1);
    CHECK_EQ_STR(p, text);
    free(p);
}

TEST(ptx_loads_with_constant_initialiser)
{
    char msg[512] = "";
    unsigned arch = 0;
    char *p = ptx_of("ptx75_zstd.fatbin", FATBIN_MAX_ARCH, &arch, msg, sizeof msg);
    REQUIRE(p);
    ws_ctx *ctx = NULL;
    REQUIRE(wsCreate(&ctx, NULL) == WS_SUCCESS);
    ws_module *mod = NULL;
    ws_status st = wsModuleLoadData(ctx, &mod, p, strlen(p), "fatbin");
    if (st != WS_SUCCESS)
        fprintf(stderr, "  %s\n", wsGetErrorMessage(ctx));
    REQUIRE(st == WS_SUCCESS);
    ws_devptr a = 0;
    size_t size = 0;
    int is_const = 0;
    CHECK(ws_module_symbol(mod, "k_scale", &a, &size, &is_const) == WS_SUCCESS);
    CHECK_EQ_INT(size, 4);
    CHECK_EQ_INT(is_const, 1);
    CHECK(ws_module_symbol(mod, "nope", &a, &size, &is_const) == WS_ERROR_NOT_FOUND);
    int v = 0;
    CHECK(wsMemcpyFromSymbol(ctx, mod, "k_scale", &v, sizeof v, 0) == WS_SUCCESS);
    CHECK_EQ_INT(v, 3);
    wsDestroy(ctx);
    free(p);
}

TEST_MAIN()
