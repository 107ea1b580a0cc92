/* cmd_ptx_check.c - `warpsim ptx-check FILE.ptx`: parse, validate, describe. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fe/ptx/ptx_exec.h"
#include "fe/ptx/ptx_ir.h"
#include "fe/ptx/ptx_slice.h"

static void describe_func(const struct ptx_module *m, const struct ptx_func *f)
{
    unsigned counts[PT_COUNT] = {0};
    for (uint32_t r = 0; r < f->nregs; r++)
        if (f->regs[r].type < PT_COUNT)
            counts[f->regs[r].type]++;
    printf("%s %s  (%s:%u)\n", f->is_entry ? ".entry" : ".func", f->name, m->path ? m->path : "?", f->line);
    printf("  instructions: %u\n", f->ninsns);
    printf("  parameters: %u (%u bytes)\n", f->nparams, f->param_bytes);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct ptx_param *p = &f->params[i];
        printf("    [%u] %-28s .%s size %u align %u offset %u\n", i, p->name, ptx_type_name((enum ptx_type)p->type),
               p->size, p->align, p->offset);
    }
    for (uint32_t i = 0; i < f->nrets; i++)
        printf("    ret %-26s .%s size %u\n", f->rets[i].name, ptx_type_name((enum ptx_type)f->rets[i].type),
               f->rets[i].size);
    printf("  registers: %u virtual (", f->nregs);
    int first = 1;
    for (int t = 1; t < PT_COUNT; t++) {
        if (!counts[t])
            continue;
        printf("%s%u .%s", first ? "" : ", ", counts[t], ptx_type_name((enum ptx_type)t));
        first = 0;
    }
    printf(")\n");
    uint32_t *live = NULL, nlive = 0;
    if (f->ninsns && ptx_entry_live_regs(f, &live, &nlive) == 0) {
        /* what a CTA slot clears (ptx_liveness.c): besides the hidden carry flag and shfl's
           sources, a register on some control-flow path read before it is written */
        printf("  registers possibly read before written: %u", nlive);
        for (uint32_t i = 0; i < nlive && i < 16; i++)
            printf("%s%s", i ? ", " : " (", f->regs[live[i]].name ? f->regs[live[i]].name : "%?");
        printf("%s\n", nlive > 16 ? ", ...)" : nlive ? ")" : "");
    }
    free(live);
    if (f->ptxas_regs)
        printf("  ptxas: %u registers, %u bytes smem, %u bytes lmem\n", f->ptxas_regs, f->ptxas_smem, f->ptxas_lmem);
    printf("  local memory per thread: %u bytes\n", f->local_bytes);
    if (f->reqntid[0])
        printf("  .reqntid %u, %u, %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->maxntid[0])
        printf("  .maxntid %u, %u, %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->minnctapersm)
        printf("  .minnctapersm %u\n", f->minnctapersm);
    if (f->maxnreg)
        printf("  .maxnreg %u\n", f->maxnreg);
}

/* --slices: which global loads/stores have an address computable from the
   launch alone (locality-aware scheduling, fe/ptx/ptx_slice.h) and why not */
static void describe_slices(const struct ptx_module *m, int fi)
{
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, fi, 0, msg, sizeof msg);
    /* the same with loop-carried values taken on loop entry (the loop_entry parameter of the las policies) */
    struct ptx_slice_set *le = ptx_slice_build(m, fi, PTX_SLICE_LOOP_ENTRY, msg, sizeof msg);
    if (!s || !le) {
        printf("  address slices: %s\n", msg);
        ptx_slice_free(s);
        ptx_slice_free(le);
        return;
    }
    unsigned ok = 0;
    for (uint32_t k = 0; k < s->naccess; k++)
        ok += s->acc[k].status == PTX_SLICE_OK;
    printf("  address slices: %u global load/store(s), %u sliced, %u not; %u array(s)", s->naccess, ok,
           s->naccess - ok, s->narrays);
    for (uint32_t a = 0; a < s->narrays; a++)
        printf("%s%s", a ? ", " : ": ", s->arrays[a].name);
    printf("\n");
    for (uint32_t k = 0; k < s->naccess; k++) {
        char line[512];
        ptx_slice_describe(s, k, line, sizeof line);
        int first_iter = s->acc[k].status != PTX_SLICE_OK && le->acc[k].status == PTX_SLICE_OK;
        printf("    %s%s\n", line, first_iter ? " (its first iteration is sliceable: loop_entry)" : "");
    }
    if (s->ncalls)
        printf("    (%u call(s): accesses inside called functions are not analysed)\n", s->ncalls);
    ptx_slice_free(s);
    ptx_slice_free(le);
}

/* FILE.ptx -> FILE.ptxas beside it, when `make ptx` recorded one */
static void apply_ptxas_beside(struct ptx_module *m, const char *path)
{
    char p[4096];
    size_t n = strlen(path);
    if (n < 4 || n + 2 >= sizeof p || strcmp(path + n - 4, ".ptx") != 0)
        return;
    snprintf(p, sizeof p, "%sas", path);
    FILE *f = fopen(p, "rb");
    if (!f)
        return;
    char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ptx_ptxas_apply(m, buf, len);
}

int cmd_ptx_check(int argc, char **argv)
{
    const char *path = NULL;
    int slices = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            puts("usage: warpsim ptx-check [--slices] FILE.ptx\n\n"
                 "Parse and validate a PTX file as warpsim would load it. On success print each kernel and\n"
                 "function with its parameters, registers, local and shared memory. On error print one line\n"
                 "FILE:LINE:COLUMN: error: MESSAGE to stderr and exit with status 1 (2 when the file cannot be\n"
                 "read: missing, a directory, or larger than 256 MiB).\n\n"
                 "  --slices   for every kernel, each global load and store: whether its address was sliced\n"
                 "             (computable from block/thread indices, parameters and constants, for the\n"
                 "             locality-aware schedulers), the data array it belongs to, or why not; and\n"
                 "             whether a loop-carried address is sliceable for its first iteration (the\n"
                 "             loop_entry parameter of the las CTA and warp schedulers)");
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--slices") == 0) {
            slices = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "warpsim ptx-check: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
        if (path) {
            fprintf(stderr, "warpsim ptx-check: one file at a time\n");
            return EXIT_USAGE;
        }
        path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "warpsim ptx-check: which file? usage: warpsim ptx-check FILE.ptx\n");
        return EXIT_USAGE;
    }
    struct ptx_error err;
    memset(&err, 0, sizeof err);
    struct ptx_module *m = ptx_parse_file(path, &err);
    if (m && ptx_cfg_analyze(m, &err) != 0) {
        ptx_module_free(m);
        m = NULL;
    }
    if (!m) {
        char line[1024];
        ptx_error_format(&err, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        return err.line ? 1 : EXIT_USAGE;   /* no position: the file could not be read at all */
    }
    apply_ptxas_beside(m, path);
    unsigned kernels = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        kernels += m->funcs[i].is_entry;
    printf("%s: PTX %u.%u, target %s, address size %u: %u kernel(s), %u function(s)\n", path, m->version_major,
           m->version_minor, m->target, m->address_size, kernels, m->nfuncs - kernels);
    printf("module: %" PRIu64 " bytes static shared, %" PRIu64 " bytes global, %" PRIu64 " bytes constant variables\n",
           m->shared_static_bytes, m->global_bytes, m->const_bytes);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!m->funcs[i].is_extern) {
            describe_func(m, &m->funcs[i]);
            if (slices && m->funcs[i].is_entry)
                describe_slices(m, (int)i);
        }
    ptx_module_free(m);
    return 0;
}
