/* test_devprintf.c - the device library without a GPU compiler: device printf's formatter over a
   fake memory (CUDA's packed argument buffer), the device heap's blocks, and printf / malloc /
   free / assert in PTX kernels through the host API (fe/ptx/ptx_devlib.h). */
#include "test.h"

#include "fe/ptx/ptx_devlib.h"
#include "host/ws_internal.h"
#include "warpsim/warpsim.h"

/* ---- a fake device memory: one window of bytes at BASE ------------------------------ */
#define BASE 0x1000u
struct fake { uint8_t b[4096]; size_t used; };

static size_t fake_read(void *user, uint64_t addr, void *buf, size_t n)
{
    struct fake *f = user;
    if (addr < BASE || addr >= BASE + f->used)
        return 0;
    size_t off = (size_t)(addr - BASE), k = f->used - off < n ? f->used - off : n;
    memcpy(buf, f->b + off, k);
    return k;
}

/* place bytes, aligned; returns their address */
static uint64_t put(struct fake *f, const void *p, size_t n, size_t align)
{
    f->used = (f->used + align - 1) / align * align;
    memcpy(f->b + f->used, p, n);
    f->used += n;
    return BASE + f->used - n;
}
static uint64_t put_str(struct fake *f, const char *s) { return put(f, s, strlen(s) + 1, 1); }

/* an argument buffer as nvcc packs it: each value at the next multiple of its size */
struct args { uint8_t b[256]; size_t n; };
static void arg(struct args *a, const void *p, size_t size)
{
    a->n = (a->n + size - 1) / size * size;
    memcpy(a->b + a->n, p, size);
    a->n += size;
}
static void arg_i32(struct args *a, int32_t v) { arg(a, &v, 4); }
static void arg_u32(struct args *a, uint32_t v) { arg(a, &v, 4); }
static void arg_i64(struct args *a, int64_t v) { arg(a, &v, 8); }
static void arg_f64(struct args *a, double v) { arg(a, &v, 8); }
static void arg_ptr(struct args *a, uint64_t v) { arg(a, &v, 8); }

static char got[4096];
static int fmt(struct fake *f, const char *format, const struct args *a)
{
    struct ptx_devbuf out = {0};
    uint64_t fa = put_str(f, format);
    uint64_t aa = a && a->n ? put(f, a->b, a->n, 16) : 0;
    int r = ptx_devprintf_format(&out, fake_read, f, fa, aa);
    snprintf(got, sizeof got, "%s", out.p ? out.p : "");
    free(out.p);
    return r;
}

TEST(devprintf_integers)
{
    struct fake f = {{0}, 0};
    struct args a = {{0}, 0};
    arg_i32(&a, -42);
    arg_i32(&a, 7);
    arg_u32(&a, 3000000000u);
    arg_u32(&a, 255);
    arg_u32(&a, 255);
    arg_u32(&a, 8);
    CHECK_EQ_INT(fmt(&f, "%d %i %u %x %X %o\n", &a), 6);
    CHECK_EQ_STR(got, "-42 7 3000000000 ff FF 10\n");

    a.n = 0;
    arg_i32(&a, 5);
    arg_i32(&a, -5);
    arg_i32(&a, 42);
    arg_i64(&a, -1234567890123LL);
    arg_i64(&a, (int64_t)18446744073709551615ULL);
    arg_i32(&a, 65537);
    CHECK_EQ_INT(fmt(&f, "[%5d|%-5d|%05d] %lld %llu %hd\n", &a), 6);
    CHECK_EQ_STR(got, "[    5|-5   |00042] -1234567890123 18446744073709551615 1\n");

    a.n = 0;
    arg_i64(&a, -7);
    arg_i64(&a, 0x1234567890abcdefLL);
    CHECK_EQ_INT(fmt(&f, "%ld %lx %%\n", &a), 2);
    CHECK_EQ_STR(got, "-7 1234567890abcdef %\n");

    a.n = 0;
    arg_i32(&a, 8);
    arg_i32(&a, 42);
    arg_i32(&a, -6);
    arg_i32(&a, 3);
    CHECK_EQ_INT(fmt(&f, "%*d|%*d|\n", &a), 4);
    CHECK_EQ_STR(got, "      42|3     |\n");
    a.n = 0;
    arg_u32(&a, 255);
    CHECK_EQ_INT(fmt(&f, "%#x %+d", &a), 2);   /* the second conversion reads past the buffer: 0 */
    CHECK_EQ_STR(got, "0xff +0");
}

TEST(devprintf_floats_chars_strings)
{
    struct fake f = {{0}, 0};
    struct args a = {{0}, 0};
    uint64_t s = put_str(&f, "hello");
    arg_i32(&a, 'A');          /* char is promoted to int: 4 bytes */
    arg_f64(&a, 1.5);          /* float is promoted to double: 8 bytes at offset 8 */
    arg_ptr(&a, s);
    arg_f64(&a, 12345.678);
    arg_f64(&a, 0.0001234);
    arg_f64(&a, -2.0);
    CHECK_EQ_INT(fmt(&f, "%c %f %s %e %g %5.2f|\n", &a), 6);
    CHECK_EQ_STR(got, "A 1.500000 hello 1.234568e+04 0.0001234 -2.00|\n");

    a.n = 0;
    arg_ptr(&a, s);
    arg_ptr(&a, 0);
    arg_ptr(&a, s);
    CHECK_EQ_INT(fmt(&f, "[%-8s][%s][%.3s]\n", &a), 3);
    CHECK_EQ_STR(got, "[hello   ][(null)][hel]\n");

    a.n = 0;
    arg_ptr(&a, 0x10000000100ull);
    arg_ptr(&a, 0);
    CHECK_EQ_INT(fmt(&f, "%p %p", &a), 2);
    char want[64];
    snprintf(want, sizeof want, "%p %p", (void *)(uintptr_t)0x10000000100ull, (void *)0);
    CHECK_EQ_STR(got, want);
}

TEST(devprintf_no_args_and_errors)
{
    struct fake f = {{0}, 0};
    CHECK_EQ_INT(fmt(&f, "plain text, 100%% sure\n", NULL), 0);
    CHECK_EQ_STR(got, "plain text, 100% sure\n");
    CHECK_EQ_INT(fmt(&f, "", NULL), 0);
    CHECK_EQ_STR(got, "");
    /* an unknown conversion is printed as written and consumes nothing */
    struct args a = {{0}, 0};
    arg_i32(&a, 9);
    CHECK_EQ_INT(fmt(&f, "%k %d", &a), 1);
    CHECK_EQ_STR(got, "%k 9");
    /* a NULL or unmapped format: -1, nothing printed */
    struct ptx_devbuf out = {0};
    CHECK_EQ_INT(ptx_devprintf_format(&out, fake_read, &f, 0, 0), -1);
    CHECK_EQ_INT(ptx_devprintf_format(&out, fake_read, &f, 0x999999, 0), -1);
    CHECK_EQ_U64(out.len, 0);
    free(out.p);
}

TEST(devheap_first_fit)
{
    struct ptx_devlib d;
    ptx_devlib_init(&d);
    CHECK_EQ_U64(d.heap_size, 8ull << 20);
    CHECK_EQ_U64(d.fifo_size, 1ull << 20);
    d.heap_size = 256;
    uint64_t a, b, c, x;
    REQUIRE(ptx_devheap_alloc(&d, 10, &a) == 0);
    REQUIRE(ptx_devheap_alloc(&d, 100, &b) == 0);
    REQUIRE(ptx_devheap_alloc(&d, 16, &c) == 0);
    CHECK_EQ_U64(a, 0);
    CHECK_EQ_U64(b, 16);       /* 16-byte aligned blocks */
    CHECK_EQ_U64(c, 128);
    CHECK(ptx_devheap_alloc(&d, 200, &x) != 0);   /* exhausted: NULL */
    CHECK(ptx_devheap_alloc(&d, 0, &x) != 0);
    CHECK_EQ_INT(ptx_devheap_free(&d, b), 0);
    CHECK(ptx_devheap_free(&d, b) != 0);           /* double free */
    CHECK(ptx_devheap_free(&d, 3) != 0);           /* not a block start */
    REQUIRE(ptx_devheap_alloc(&d, 64, &x) == 0);   /* first fit: the freed gap */
    CHECK_EQ_U64(x, 16);
    REQUIRE(ptx_devheap_alloc(&d, 112, &x) == 0);  /* the tail: 144..256 */
    CHECK_EQ_U64(x, 144);
    CHECK_EQ_U64(d.heap_in_use, 16 + 64 + 16 + 112);
    ptx_devlib_destroy(&d);
}

/* ---- through the host API: a PTX kernel as nvcc writes it ------------------------------ */
static const char *dev_ptx =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
    ".extern .func (.param .b64 func_retval0) malloc (.param .b64 malloc_param_0);\n"
    ".extern .func free (.param .b64 free_param_0);\n"
    ".extern .func __assertfail (.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);\n"
    ".global .align 1 .b8 $fmt[22] = {116,105,100,32,37,100,32,115,113,32,37,100,32,37,46,49,102,124,37,115,10,0};\n"
    ".global .align 1 .b8 $odd[4] = {111,100,100,0};\n"
    ".global .align 1 .b8 $expr[6] = {105,32,60,32,110,0};\n"
    ".global .align 1 .b8 $file[5] = {116,46,99,117,0};\n"
    ".global .align 1 .b8 $func[7] = {118,111,105,100,32,107,0};\n"
    /* k(int *out, int n): thread i prints "tid i sq i*i i/2.0|odd" (odd lanes only), mallocs 16 bytes,
       writes i there, stores the pointer's offset from lane 0's and the printf result, frees */
    ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
    "  .local .align 16 .b8 depot[32];\n  .reg .b64 %SP;\n  .reg .b64 %SPL;\n  .reg .b64 %rd<12>;\n  .reg .b32 %r<8>;\n"
    "  .reg .f64 %fd<3>;\n  .reg .pred %p<3>;\n"
    "  mov.u64 %SPL, depot;\n  cvta.local.u64 %SP, %SPL;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r7, [n];\n  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n  setp.eq.b32 %p1, %r2, 1;\n  @!%p1 bra SKIP;\n"
    "  mul.lo.s32 %r3, %r1, %r1;\n  cvt.rn.f64.s32 %fd1, %r1;\n  mul.f64 %fd2, %fd1, 0d3FE0000000000000;\n"
    "  mov.u64 %rd2, $odd;\n  cvta.global.u64 %rd3, %rd2;\n"
    "  st.local.v2.u32 [%SPL], {%r1, %r3};\n  st.local.f64 [%SPL+8], %fd2;\n  st.local.u64 [%SPL+16], %rd3;\n"
    "  mov.u64 %rd4, $fmt;\n  cvta.global.u64 %rd5, %rd4;\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0], %rd5;\n  .param .b64 param1;\n  st.param.b64 [param1], %SP;\n"
    "  .param .b32 retval0;\n  call.uni (retval0), vprintf, (param0, param1);\n  ld.param.b32 %r4, [retval0];\n  }\n"
    "  mul.wide.u32 %rd6, %r1, 8;\n  add.s64 %rd7, %rd1, %rd6;\n  cvt.s64.s32 %rd8, %r4;\n  st.global.u64 [%rd7+256], %rd8;\n"
    "SKIP:\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0], 16;\n  .param .b64 retval0;\n"
    "  call.uni (retval0), malloc, (param0);\n  ld.param.b64 %rd9, [retval0];\n  }\n"
    "  st.u32 [%rd9], %r1;\n  ld.u32 %r5, [%rd9];\n"
    "  mul.wide.u32 %rd6, %r1, 8;\n  add.s64 %rd7, %rd1, %rd6;\n  st.global.u64 [%rd7], %rd9;\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0], %rd9;\n  call.uni free, (param0);\n  }\n"
    "  setp.lt.s32 %p2, %r1, %r7;\n  @%p2 bra DONE;\n"
    "  mov.u64 %rd2, $expr;\n  cvta.global.u64 %rd3, %rd2;\n  mov.u64 %rd4, $file;\n  cvta.global.u64 %rd5, %rd4;\n"
    "  mov.u64 %rd10, $func;\n  cvta.global.u64 %rd11, %rd10;\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0], %rd3;\n  .param .b64 param1;\n  st.param.b64 [param1], %rd5;\n"
    "  .param .b32 param2;\n  st.param.b32 [param2], 10;\n  .param .b64 param3;\n  st.param.b64 [param3], %rd11;\n"
    "  .param .b64 param4;\n  st.param.b64 [param4], 1;\n"
    "  call.uni __assertfail, (param0, param1, param2, param3, param4);\n  }\n"
    "DONE:\n  ret;\n}\n";

static ws_status run_dev(ws_ctx *ctx, int n, uint64_t res[64])
{
    ws_module *mod = NULL;
    ws_status st = wsModuleLoadData(ctx, &mod, dev_ptx, strlen(dev_ptx), "devlib.ptx");
    if (st != WS_SUCCESS) {
        fprintf(stderr, "  %s\n", wsGetErrorMessage(ctx));
        return st;
    }
    ws_devptr out = 0;
    if (wsMalloc(ctx, &out, 64 * 8) != WS_SUCCESS)
        return WS_ERROR_OUT_OF_MEMORY;
    void *args[] = {&out, &n};
    st = wsLaunchKernel(ctx, mod, "k", ws_dim(1, 1, 1), ws_dim(8, 1, 1), 0, args);
    wsMemcpyDtoH(ctx, res, out, 64 * 8);
    return st;
}

TEST(devlib_kernel_printf_malloc)
{
    ws_ctx *ctx = NULL;
    REQUIRE(wsCreate(&ctx, NULL) == WS_SUCCESS);
    ws_device_output_defer(ctx, 1);
    uint64_t res[64];
    memset(res, 0, sizeof res);
    ws_status st = run_dev(ctx, 8, res);
    CHECK_EQ_INT(st, WS_SUCCESS);
    /* divergent lanes print in lane order, one record each */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ws_device_output_flush(ctx, m, NULL);
    fclose(m);
    CHECK_EQ_STR(buf, "tid 1 sq 1 0.5|odd\ntid 3 sq 9 1.5|odd\ntid 5 sq 25 2.5|odd\ntid 7 sq 49 3.5|odd\n");
    free(buf);
    /* vprintf returns the number of arguments */
    CHECK_EQ_U64(res[32 + 1], 4);
    CHECK_EQ_U64(res[32 + 7], 4);
    /* malloc: lane order, 16-byte blocks, inside the heap; all freed again */
    REQUIRE(res[0] != 0);
    for (int i = 1; i < 8; i++)
        CHECK_EQ_U64(res[i] - res[0], (uint64_t)i * 16);
    CHECK_EQ_U64(ws_device_heap_size(ctx), 8ull << 20);
    CHECK(ws_device_set_heap_size(ctx, 1 << 20) != WS_SUCCESS);   /* fixed once the heap exists */
    CHECK_EQ_U64(ws_device_asserts(ctx), 0);
    wsDestroy(ctx);
}

TEST(devlib_kernel_printf_fifo_full)
{
    ws_ctx *ctx = NULL;
    REQUIRE(wsCreate(&ctx, NULL) == WS_SUCCESS);
    ws_device_output_defer(ctx, 1);
    REQUIRE(ws_device_set_printf_fifo(ctx, 30) == WS_SUCCESS);   /* room for one 19-byte record */
    CHECK_EQ_U64(ws_device_printf_fifo(ctx), 30);
    uint64_t res[64];
    CHECK_EQ_INT(run_dev(ctx, 8, res), WS_SUCCESS);
    char *ob = NULL, *eb = NULL;
    size_t ol = 0, el = 0;
    FILE *o = open_memstream(&ob, &ol), *e = open_memstream(&eb, &el);
    ws_device_output_flush(ctx, o, e);
    fclose(o);
    fclose(e);
    CHECK_EQ_STR(ob, "tid 1 sq 1 0.5|odd\n");
    CHECK(strstr(eb, "3 device printf records lost") != NULL);
    CHECK_EQ_U64(res[32 + 3], 4);   /* a lost record still returns its argument count */
    free(ob);
    free(eb);
    wsDestroy(ctx);
}

TEST(devlib_kernel_assert)
{
    ws_ctx *ctx = NULL;
    REQUIRE(wsCreate(&ctx, NULL) == WS_SUCCESS);
    ws_device_output_defer(ctx, 1);
    REQUIRE(ws_device_set_heap_size(ctx, 64) == WS_SUCCESS);   /* 4 blocks of 16: lanes 4-7 get NULL... */
    uint64_t res[64];
    memset(res, 0, sizeof res);
    ws_status st = run_dev(ctx, 6, res);
    /* ... and their store through NULL faults before the assert is reached */
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    CHECK_EQ_U64(ws_device_asserts(ctx), 0);
    ws_device_output_flush(ctx, NULL, NULL);   /* the odd lanes' lines: not this test's subject */
    wsDestroy(ctx);

    REQUIRE(wsCreate(&ctx, NULL) == WS_SUCCESS);
    ws_device_output_defer(ctx, 1);
    memset(res, 0, sizeof res);
    st = run_dev(ctx, 6, res);
    CHECK_EQ_INT(st, WS_ERROR_LAUNCH_FAILED);
    CHECK_EQ_U64(ws_device_asserts(ctx), 2);
    CHECK(strstr(wsGetErrorMessage(ctx), "Device-side assertion failed") != NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ws_device_output_flush(ctx, NULL, m);
    fclose(m);
    CHECK_EQ_STR(buf, "t.cu:10: void k: block: [0,0,0], thread: [6,0,0] Assertion `i < n` failed.\n"
                      "t.cu:10: void k: block: [0,0,0], thread: [7,0,0] Assertion `i < n` failed.\n");
    free(buf);
    wsDestroy(ctx);
}

TEST_MAIN()
