/*
 * ptx_ptxas.c - read the resource use that `ptxas -v` reported for each kernel
 * (workloads/NAME/NAME.ptxas, written by `make ptx`) into ptx_func.ptxas_*.
 * The timing model sizes CTA residency from these real register counts rather
 * than from PTX virtual registers.
 *
 * Lines used (order as ptxas prints them):
 *   Compiling entry function 'NAME' for 'sm_75'
 *   Function properties for NAME
 *   N bytes stack frame, N bytes spill stores, N bytes spill loads
 *   Used N registers, used N barriers, N bytes smem, N bytes cmem[0]
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_ir.h"

/* value of the number right before `key` in line, or 0 */
static uint32_t number_before(const char *line, const char *key)
{
    const char *k = strstr(line, key);
    if (!k)
        return 0;
    const char *p = k;
    while (p > line && p[-1] == ' ')
        p--;
    while (p > line && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return (uint32_t)strtoul(p, NULL, 10);
}

int ptx_ptxas_apply(struct ptx_module *m, const char *text, size_t len)
{
    int applied = 0;
    struct ptx_func *cur = NULL;
    const char *end = text + len;
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        char buf[512];
        if (n >= sizeof buf)
            n = sizeof buf - 1;
        memcpy(buf, line, n);
        buf[n] = '\0';
        const char *q;
        if ((q = strstr(buf, "Function properties for ")) != NULL) {
            const char *name = q + strlen("Function properties for ");
            int idx = ptx_find_func(m, name);
            cur = idx >= 0 ? &m->funcs[idx] : NULL;
        } else if ((q = strstr(buf, "Compiling entry function '")) != NULL) {
            const char *name = q + strlen("Compiling entry function '");
            const char *e = strchr(name, '\'');
            if (e) {
                char fn[256];
                size_t fl = (size_t)(e - name) < sizeof fn - 1 ? (size_t)(e - name) : sizeof fn - 1;
                memcpy(fn, name, fl);
                fn[fl] = '\0';
                int idx = ptx_find_func(m, fn);
                cur = idx >= 0 ? &m->funcs[idx] : NULL;
            }
        } else if (cur && strstr(buf, "stack frame")) {
            cur->ptxas_lmem = number_before(buf, "bytes stack frame");
        } else if (cur && strstr(buf, "Used ")) {
            cur->ptxas_regs = number_before(buf, "registers");
            cur->ptxas_smem = number_before(buf, "bytes smem");
            cur->ptxas_cmem = number_before(buf, "bytes cmem[0]");
            applied++;
        }
        line = nl ? nl + 1 : end;
    }
    return applied;
}
