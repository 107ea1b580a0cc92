/* test_cudart12.c - libcudart.so.12, the CUDA 12 build of warpsim's CUDA runtime library (the same
   sources as libcudart.so.13 with WARPSIM_CUDART_ABI=12, docs/cudart.md), checked without nvcc
   (nvcc 13 cannot build a CUDA 12 program):
     - its dynamic symbols are those of libcudart.so.13, under the version node libcudart.so.12, and its
       SONAME is libcudart.so.12 (both read from the ELF files: .dynsym, .dynstr, DT_SONAME);
     - cudaGetDeviceProperties and cudaGetDeviceProperties_v2 fill CUDA 12's cudaDeviceProp (1032 bytes)
       at CUDA 12's offsets (name 0, totalGlobalMem 288, clockRate 348, major 360, minor 364,
       multiProcessorCount 388, l2CacheSize 616), and write nothing past it;
     - libcudart.so.13 still fills CUDA 13's (1008 bytes, multiProcessorCount 384);
     - cudaRuntimeGetVersion reports 12090 and 13000.
   Each library is loaded with dlopen in a child process of its own (both define the same names). */
#include "test.h"

#include <dlfcn.h>
#include <elf.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXSYM 2048

struct elf_syms {
    char *names[MAXSYM];
    unsigned n;
    char soname[64];
    int has_node;   /* the version definition names the library's own node */
};

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = l > 0 ? malloc((size_t)l) : NULL;
    *len = buf ? fread(buf, 1, (size_t)l, f) : 0;
    fclose(f);
    return buf;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The defined global function and object symbols of a shared object's .dynsym, sorted; its DT_SONAME;
   whether a version definition is named `node`. */
static int read_syms(const char *path, const char *node, struct elf_syms *out)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    unsigned char *d = slurp(path, &len);
    if (!d || len < sizeof(Elf64_Ehdr))
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)d;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
        return -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)(d + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *s = &sh[i];
        if (s->sh_link >= eh->e_shnum)
            continue;
        const char *str = (const char *)d + sh[s->sh_link].sh_offset;
        if (s->sh_type == SHT_DYNSYM) {
            const Elf64_Sym *sym = (const Elf64_Sym *)(const void *)(d + s->sh_offset);
            size_t n = s->sh_size / sizeof *sym;
            for (size_t k = 0; k < n && out->n < MAXSYM; k++) {
                unsigned bind = ELF64_ST_BIND(sym[k].st_info), type = ELF64_ST_TYPE(sym[k].st_info);
                if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_shndx == SHN_ABS || bind != STB_GLOBAL || (type != STT_FUNC && type != STT_OBJECT))
                    continue;
                out->names[out->n++] = strdup(str + sym[k].st_name);
            }
        } else if (s->sh_type == SHT_DYNAMIC) {
            const Elf64_Dyn *dyn = (const Elf64_Dyn *)(const void *)(d + s->sh_offset);
            for (size_t k = 0; k < s->sh_size / sizeof *dyn && dyn[k].d_tag != DT_NULL; k++)
                if (dyn[k].d_tag == DT_SONAME)
                    snprintf(out->soname, sizeof out->soname, "%s", str + dyn[k].d_un.d_val);
        } else if (s->sh_type == SHT_GNU_verdef) {
            const unsigned char *p = d + s->sh_offset;
            for (unsigned k = 0; k < s->sh_info; k++) {
                const Elf64_Verdef *vd = (const Elf64_Verdef *)(const void *)p;
                const Elf64_Verdaux *va = (const Elf64_Verdaux *)(const void *)(p + vd->vd_aux);
                if (strcmp(str + va->vda_name, node) == 0)
                    out->has_node = 1;
                if (!vd->vd_next)
                    break;
                p += vd->vd_next;
            }
        }
    }
    free(d);
    qsort(out->names, out->n, sizeof out->names[0], cmp_str);
    return 0;
}

static void free_syms(struct elf_syms *s)
{
    for (unsigned i = 0; i < s->n; i++)
        free(s->names[i]);
}

TEST(cudart12_exports_the_same_symbols)
{
    static struct elf_syms s12, s13;
    REQUIRE(read_syms(CUDART12_PATH, "libcudart.so.12", &s12) == 0);
    REQUIRE(read_syms(CUDART13_PATH, "libcudart.so.13", &s13) == 0);
    CHECK_EQ_STR(s12.soname, "libcudart.so.12");
    CHECK_EQ_STR(s13.soname, "libcudart.so.13");
    CHECK(s12.has_node);
    CHECK(s13.has_node);
    CHECK(s13.n > 100);
    CHECK_EQ_INT(s12.n, s13.n);
    unsigned diff = 0;
    for (unsigned i = 0; i < s12.n && i < s13.n; i++)
        if (strcmp(s12.names[i], s13.names[i]) != 0 && diff++ < 5)
            T_FAIL_("symbol %u: %s in libcudart.so.12, %s in libcudart.so.13", i, s12.names[i], s13.names[i]);
    CHECK_EQ_INT(diff, 0);
    int v2 = 0;
    for (unsigned i = 0; i < s12.n; i++)
        v2 |= strcmp(s12.names[i], "cudaGetDeviceProperties_v2") == 0;
    CHECK(v2);   /* what CUDA 12's headers call cudaGetDeviceProperties */
    free_syms(&s12);
    free_syms(&s13);
}

/* CUDA 12.x's cudaDeviceProp offsets (driver_types.h), and CUDA 13.0's where they differ */
enum { P12_SIZE = 1032, P12_CLOCK = 348, P12_MAJOR = 360, P12_MINOR = 364, P12_SMS = 388, P12_L2 = 616,
       P13_SIZE = 1008, P13_MAJOR = 360, P13_MINOR = 364, P13_SMS = 384, P13_L2 = 596, P_NAME = 0, P_GMEM = 288 };
#define CANARY 0xa5
#define SLACK 64

static int get_int(const unsigned char *b, size_t off)
{
    int v;
    memcpy(&v, b + off, sizeof v);
    return v;
}

/* In a child: dlopen `lib`, fill a property buffer through `fn`, and check the layout; exit status 0 = all
   good, else the number of the first failed check. */
static int child_check(const char *lib, const char *fn, int abi)
{
    setenv("WARPSIM_CUDART_QUIET", "1", 1);
    setenv("WARPSIM_CUDART_FUNCTIONAL", "1", 1);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "  dlopen %s: %s\n", lib, dlerror());
        return 1;
    }
    int (*props)(void *, int) = (int (*)(void *, int))dlsym(h, fn);
    int (*rtver)(int *) = (int (*)(int *))dlsym(h, "cudaRuntimeGetVersion");
    int (*attr)(int *, int, int) = (int (*)(int *, int, int))dlsym(h, "cudaDeviceGetAttribute");
    if (!props || !rtver || !attr)
        return 2;
    size_t size = abi == 12 ? P12_SIZE : P13_SIZE;
    unsigned char buf[P12_SIZE + SLACK];
    memset(buf, CANARY, sizeof buf);
    if (props(buf, 0) != 0)
        return 3;
    for (size_t i = size; i < sizeof buf; i++)
        if (buf[i] != CANARY)
            return 4;   /* wrote past the program's struct */
    if (strncmp((const char *)buf + P_NAME, "warpsim", 7) != 0)
        return 5;
    size_t gmem;
    memcpy(&gmem, buf + P_GMEM, sizeof gmem);
    if (gmem == 0)
        return 6;
    int sms = 0, major = 0, minor = 0, l2 = 0;
    attr(&sms, 16, 0);      /* cudaDevAttrMultiProcessorCount */
    attr(&major, 75, 0);    /* cudaDevAttrComputeCapabilityMajor */
    attr(&minor, 76, 0);
    attr(&l2, 38, 0);       /* cudaDevAttrL2CacheSize */
    if (sms <= 0 || major <= 0)
        return 7;
    if (get_int(buf, abi == 12 ? P12_SMS : P13_SMS) != sms)
        return 8;
    if (get_int(buf, abi == 12 ? P12_MAJOR : P13_MAJOR) != major ||
        get_int(buf, abi == 12 ? P12_MINOR : P13_MINOR) != minor)
        return 9;
    if (get_int(buf, abi == 12 ? P12_L2 : P13_L2) != l2)
        return 10;
    if (abi == 12) {
        int clk = 0;
        attr(&clk, 13, 0);   /* cudaDevAttrClockRate */
        if (get_int(buf, P12_CLOCK) != clk || clk <= 0)
            return 11;
    }
    int v = 0;
    if (rtver(&v) != 0 || v != (abi == 12 ? 12090 : 13000))
        return 12;
    return 0;
}

static int in_child(const char *lib, const char *fn, int abi)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child_check(lib, fn, abi));
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

TEST(cudart12_device_prop_is_cuda12_layout)
{
    CHECK_EQ_INT(in_child(CUDART12_PATH, "cudaGetDeviceProperties_v2", 12), 0);
    CHECK_EQ_INT(in_child(CUDART12_PATH, "cudaGetDeviceProperties", 12), 0);
}

TEST(cudart13_device_prop_is_cuda13_layout)
{
    CHECK_EQ_INT(in_child(CUDART13_PATH, "cudaGetDeviceProperties", 13), 0);
    CHECK_EQ_INT(in_child(CUDART13_PATH, "cudaGetDeviceProperties_v2", 13), 0);
}

TEST_MAIN()
