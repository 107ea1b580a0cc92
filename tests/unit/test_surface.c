/*
 * test_surface.c - surface objects (ws_create_surface_object) and the PTX
 * surface instructions suld.b / sust.b: 1d and 2d, scalar and .v4 forms,
 * b8/b16/b32 elements, byte x coordinates over a pitched buffer, the
 * .trap / .clamp / .zero out-of-range modes, the checker's report, handle
 * checks, and the parser's operand checks.  Hand-written PTX (no nvcc), run
 * in functional and in timing mode.
 */
#include <string.h>

#include "test.h"
#include "warpsim/warpsim.h"
#include "host/ws_internal.h"

static const char surf_ptx[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    "// (x, y) of an 8x4 b32 surface: v = 100 * y + v + 1\n"
    ".visible .entry s2d(.param .u64 s)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [s];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %tid.y;\n"
    "    shl.b32 %r3, %r1, 2;\n"
    "    suld.b.2d.b32.trap {%r4}, [%rd1, {%r3, %r2}];\n"
    "    mad.lo.s32 %r5, %r2, 100, %r4;\n"
    "    add.s32 %r5, %r5, 1;\n"
    "    sust.b.2d.b32.trap [%rd1, {%r3, %r2}], {%r5};\n"
    "    ret;\n"
    "}\n"
    "\n"
    "// 1d surface of 4 x uchar4: reverse each element's bytes, then read b16 at 2 * tid\n"
    ".visible .entry vec1d(.param .u64 s, .param .u64 out)\n"
    "{\n"
    "    .reg .b16 %rs<6>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [s];\n"
    "    ld.param.u64 %rd2, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    shl.b32 %r2, %r1, 2;\n"
    "    suld.b.1d.v4.b8.trap {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r2}];\n"
    "    sust.b.1d.v4.b8.trap [%rd1, {%r2}], {%rs4, %rs3, %rs2, %rs1};\n"
    "    shl.b32 %r3, %r1, 1;\n"
    "    suld.b.1d.b16.zero %rs5, [%rd1, {%r3}];\n"
    "    cvt.u32.u16 %r4, %rs5;\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    st.global.u32 [%rd4], %r4;\n"
    "    ret;\n"
    "}\n"
    "\n"
    "// element tid-2 of an 8-element b32 surface in clamp and zero modes; a .zero store of tid+1000\n"
    ".visible .entry modes(.param .u64 s, .param .u64 out)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [s];\n"
    "    ld.param.u64 %rd2, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    add.s32 %r2, %r1, -2;\n"
    "    shl.b32 %r3, %r2, 2;\n"
    "    suld.b.1d.b32.clamp {%r4}, [%rd1, {%r3}];\n"
    "    suld.b.1d.b32.zero {%r5}, [%rd1, {%r3}];\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    st.global.u32 [%rd4], %r4;\n"
    "    st.global.u32 [%rd4+64], %r5;\n"
    "    add.s32 %r6, %r1, 1000;\n"
    "    sust.b.1d.b32.zero [%rd1, {%r3}], {%r6};\n"
    "    ret;\n"
    "}\n"
    "\n"
    "// element tid in trap mode (past the end for tid >= width)\n"
    ".visible .entry trapk(.param .u64 s)\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [s];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    shl.b32 %r2, %r1, 2;\n"
    "    suld.b.1d.b32.trap {%r3}, [%rd1, {%r2}];\n"
    "    ret;\n"
    "}\n"
    "\n"
    "// a misaligned byte coordinate\n"
    ".visible .entry misal(.param .u64 s)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [s];\n"
    "    mov.u32 %r1, 2;\n"
    "    sust.b.1d.b32.clamp [%rd1, {%r1}], {%r1};\n"
    "    ret;\n"
    "}\n";

static bool has(const char *s, const char *sub) { return s && strstr(s, sub) != NULL; }

static ws_ctx *open_ctx(ws_mode mode, ws_module **mod)
{
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {mode, 0, NULL};
    if (wsCreate(&ctx, &o) != WS_SUCCESS)
        return NULL;
    if (wsModuleLoadData(ctx, mod, surf_ptx, sizeof surf_ptx - 1, "surf.ptx") != WS_SUCCESS) {
        fprintf(stderr, "  %s\n", wsGetErrorMessage(ctx));
        wsDestroy(ctx);
        return NULL;
    }
    return ctx;
}

static ws_texobj make_surf(ws_ctx *ctx, ws_devptr base, unsigned ch, unsigned bits, size_t w, size_t h,
                           size_t pitch)
{
    ws_tex_desc d = {base, WS_TEX_UNSIGNED, ch, bits, w, h, pitch};
    ws_texobj s = 0;
    if (ws_create_surface_object(ctx, &s, &d) != WS_SUCCESS)
        return 0;
    return s;
}

static void run_surfaces(ws_mode mode)
{
    ws_module *mod = NULL;
    ws_ctx *ctx = open_ctx(mode, &mod);
    REQUIRE(ctx != NULL);

    /* 2d: 8 x 4 b32 elements in rows of 64 bytes; the padding stays untouched */
    uint32_t img[4][16], back[4][16];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 16; x++)
            img[y][x] = x < 8 ? (uint32_t)(x * 3 + y) : 0xdeadbeefu;
    ws_devptr d2;
    REQUIRE(wsMalloc(ctx, &d2, sizeof img) == WS_SUCCESS);
    REQUIRE(wsMemcpyHtoD(ctx, d2, img, sizeof img) == WS_SUCCESS);
    ws_texobj s2 = make_surf(ctx, d2, 1, 32, 8, 4, 64);
    REQUIRE(s2 != 0);
    void *a2[] = {&s2};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "s2d", ws_dim(1, 1, 1), ws_dim(8, 4, 1), 0, a2), WS_SUCCESS);
    REQUIRE(wsMemcpyDtoH(ctx, back, d2, sizeof back) == WS_SUCCESS);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 16; x++)
            CHECK_EQ_U64(back[y][x], x < 8 ? img[y][x] + 100u * (uint32_t)y + 1u : 0xdeadbeefu);
    /* the suld/sust count as global loads/stores */
    const struct ws_launch_info *li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK_EQ_U64(li->iclass_warp[PIC_LD_GLOBAL], 1);
    CHECK_EQ_U64(li->iclass_warp[PIC_ST_GLOBAL], 1);
    CHECK_EQ_U64(li->iclass_thread[PIC_ST_GLOBAL], 32);
    if (mode == WS_MODE_TIMING)
        CHECK(li->cycles > 0);

    /* 1d .v4.b8 and .b16 */
    uint8_t bytes[16], bback[16];
    for (int i = 0; i < 16; i++)
        bytes[i] = (uint8_t)(i * 11 + 1);
    ws_devptr d1, out;
    REQUIRE(wsMalloc(ctx, &d1, sizeof bytes) == WS_SUCCESS);
    REQUIRE(wsMalloc(ctx, &out, 256) == WS_SUCCESS);
    REQUIRE(wsMemcpyHtoD(ctx, d1, bytes, sizeof bytes) == WS_SUCCESS);
    ws_texobj s1 = make_surf(ctx, d1, 4, 8, 4, 0, 0);
    REQUIRE(s1 != 0);
    void *a1[] = {&s1, &out};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "vec1d", ws_dim(1, 1, 1), ws_dim(4, 1, 1), 0, a1), WS_SUCCESS);
    REQUIRE(wsMemcpyDtoH(ctx, bback, d1, sizeof bback) == WS_SUCCESS);
    uint8_t rev[16];
    for (int e = 0; e < 4; e++)
        for (int k = 0; k < 4; k++) {
            rev[4 * e + k] = bytes[4 * e + 3 - k];
            CHECK_EQ_INT(bback[4 * e + k], rev[4 * e + k]);
        }
    uint32_t o[32];
    REQUIRE(wsMemcpyDtoH(ctx, o, out, 4 * sizeof(uint32_t)) == WS_SUCCESS);
    for (int t = 0; t < 4; t++)
        CHECK_EQ_U64(o[t], (uint32_t)rev[2 * t] | (uint32_t)rev[2 * t + 1] << 8);

    /* clamp and zero modes over 8 elements, tid 0..11 reads element tid-2 */
    int32_t v8[8], v8b[8];
    for (int i = 0; i < 8; i++)
        v8[i] = 50 + i;
    ws_devptr d8;
    REQUIRE(wsMalloc(ctx, &d8, sizeof v8) == WS_SUCCESS);
    REQUIRE(wsMemcpyHtoD(ctx, d8, v8, sizeof v8) == WS_SUCCESS);
    ws_texobj s8 = make_surf(ctx, d8, 1, 32, 8, 1, 0);
    REQUIRE(s8 != 0);
    void *a8[] = {&s8, &out};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "modes", ws_dim(1, 1, 1), ws_dim(12, 1, 1), 0, a8), WS_SUCCESS);
    REQUIRE(wsMemcpyDtoH(ctx, o, out, sizeof o) == WS_SUCCESS);
    for (int t = 0; t < 12; t++) {
        int e = t - 2, c = e < 0 ? 0 : e > 7 ? 7 : e;
        CHECK_EQ_INT((int32_t)o[t], v8[c]);
        CHECK_EQ_INT((int32_t)o[16 + t], e == c ? v8[e] : 0);
    }
    REQUIRE(wsMemcpyDtoH(ctx, v8b, d8, sizeof v8b) == WS_SUCCESS);
    for (int i = 0; i < 8; i++)
        CHECK_EQ_INT(v8b[i], 1000 + i + 2);   /* in-range .zero stores landed, the others were dropped */

    /* handles: a texture is not a surface, destroy twice fails, a stale handle faults */
    ws_tex_desc td = {d8, WS_TEX_SIGNED, 1, 32, 8, 1, 0};
    ws_texobj tex = 0;
    REQUIRE(wsCreateTextureObject(ctx, &tex, &td) == WS_SUCCESS);
    CHECK_EQ_INT(ws_destroy_surface_object(ctx, tex), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsDestroyTextureObject(ctx, s8), WS_ERROR_INVALID_VALUE);
    CHECK(make_surf(ctx, d8, 1, 32, 9, 1, 0) == 0);   /* larger than its allocation */
    CHECK(has(wsGetErrorMessage(ctx), "not inside one device allocation"));
    void *at[] = {&tex};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "trapk", ws_dim(1, 1, 1), ws_dim(4, 1, 1), 0, at),
                 WS_ERROR_ILLEGAL_ADDRESS);
    CHECK(has(wsGetErrorMessage(ctx), "Surface object"));
    CHECK(has(wsGetErrorMessage(ctx), "does not exist"));
    wsDestroy(ctx);

    /* trap mode: lane 8 reads past the end of 8 elements; the checker names kernel, line, thread */
    ctx = open_ctx(mode, &mod);
    REQUIRE(ctx != NULL);
    REQUIRE(wsMalloc(ctx, &d8, sizeof v8) == WS_SUCCESS);
    s8 = make_surf(ctx, d8, 1, 32, 8, 1, 0);
    REQUIRE(s8 != 0);
    void *ak[] = {&s8};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "trapk", ws_dim(1, 1, 1), ws_dim(8, 1, 1), 0, ak), WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "trapk", ws_dim(1, 1, 1), ws_dim(12, 1, 1), 0, ak),
                 WS_ERROR_ILLEGAL_ADDRESS);
    const char *msg = wsGetErrorMessage(ctx);
    CHECK(has(msg, "Invalid surface read of size 4 bytes"));
    CHECK(has(msg, "at kernel 'trapk'"));
    CHECK(has(msg, "surf.ptx:71:5 (suld.b.1d.b32)"));
    CHECK(has(msg, "by thread (8,0,0)"));
    CHECK(has(msg, "Coordinate (32 bytes, 0) is out of bounds"));
    if (!has(msg, "surf.ptx:71:"))
        fprintf(stderr, "  %s\n", msg);
    wsDestroy(ctx);

    /* a misaligned x faults whatever the mode */
    ctx = open_ctx(mode, &mod);
    REQUIRE(ctx != NULL);
    REQUIRE(wsMalloc(ctx, &d8, sizeof v8) == WS_SUCCESS);
    s8 = make_surf(ctx, d8, 1, 32, 8, 1, 0);
    REQUIRE(s8 != 0);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "misal", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, ak),
                 WS_ERROR_ILLEGAL_ADDRESS);
    CHECK(has(wsGetErrorMessage(ctx), "Invalid surface write of size 4 bytes"));
    CHECK(has(wsGetErrorMessage(ctx), "not a multiple of the access size"));
    CHECK_EQ_INT(ws_destroy_surface_object(ctx, s8), WS_SUCCESS);
    CHECK_EQ_INT(ws_destroy_surface_object(ctx, s8), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(ws_destroy_surface_object(ctx, 0), WS_SUCCESS);
    wsDestroy(ctx);
}

TEST(surfaces_functional) { run_surfaces(WS_MODE_FUNCTIONAL); }

TEST(surfaces_timing) { run_surfaces(WS_MODE_TIMING); }

/* the parser: forms, classes and operand checks */
static const char *load_err(const char *body)
{
    static char msg[512];
    char text[1024];
    snprintf(text, sizeof text,
             ".version 7.5\n.target sm_75\n.address_size 64\n"
             ".visible .entry k(.param .u64 s)\n{\n .reg .b32 %%r<5>;\n .reg .b64 %%rd<2>;\n"
             " ld.param.u64 %%rd1, [s];\n %s\n ret;\n}\n", body);
    ws_ctx *ctx = NULL;
    msg[0] = '\0';
    if (wsCreate(&ctx, NULL) != WS_SUCCESS)
        return "no context";
    ws_module *mod = NULL;
    if (wsModuleLoadData(ctx, &mod, text, strlen(text), "k.ptx") != WS_SUCCESS)
        snprintf(msg, sizeof msg, "%s", wsGetErrorMessage(ctx));
    wsDestroy(ctx);
    return msg;
}

TEST(surface_parse)
{
    CHECK_EQ_STR(load_err("suld.b.2d.v2.b32.clamp {%r1, %r2}, [%rd1, {%r3, %r4}];"), "");
    CHECK_EQ_STR(load_err("sust.b.1d.v4.b8.zero [%rd1, {%r3}], {%r1, %r2, %r1, 7};"), "");
    CHECK_EQ_STR(load_err("suld.b.1d.b64.trap {%rd1}, [%rd1, {%r3}];"), "");
    CHECK_EQ_STR(load_err("sust.b.1d.b32 [%rd1, {%r3}], %r1;"), "");
    CHECK(has(load_err("sust.b.1d.v2.b32.trap [%rd1, {%r3}], {%r1};"), "must have 2 elements"));
    CHECK(has(load_err("suld.b.1d.b32.trap {%r1, %r2}, [%rd1, {%r3}];"), "must have 1 element"));
    CHECK(has(load_err("suld.b.b32.trap {%r1}, [%rd1, {%r3}];"), "missing operation"));
    CHECK(has(load_err("suld.p.1d.b32.trap {%r1}, [%rd1, {%r3}];"), "unknown modifier '.p'"));
    CHECK(has(load_err("suld.b.1d.b32.wrap {%r1}, [%rd1, {%r3}];"), "unknown modifier '.wrap'"));
}

TEST_MAIN()
