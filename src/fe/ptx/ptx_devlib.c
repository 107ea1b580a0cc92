/* ptx_devlib.c - device printf's formatter and the device heap's blocks (see ptx_devlib.h). */
#include "ptx_devlib.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT_MAX (64u * 1024u)      /* longest format string read */
#define STR_MAX (1u << 20)         /* longest %s string read */

void ptx_devlib_init(struct ptx_devlib *d)
{
    memset(d, 0, sizeof *d);
    d->fifo_size = PTX_DEVLIB_FIFO_DEFAULT;
    d->heap_size = PTX_DEVLIB_HEAP_DEFAULT;
}

void ptx_devlib_destroy(struct ptx_devlib *d)
{
    free(d->out.p);
    free(d->err.p);
    free(d->blks);
    memset(d, 0, sizeof *d);
}

int ptx_devbuf_put(struct ptx_devbuf *b, const char *s, size_t n)
{
    if (n == 0)
        return 0;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *q = realloc(b->p, nc);
        if (!q)
            return -1;
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static int buf_printf(struct ptx_devbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int buf_printf(struct ptx_devbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return 0;   /* nothing printable (an encoding error): print nothing, as the host would */
    if ((size_t)n < sizeof small)
        return ptx_devbuf_put(b, small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big)
        return -1;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int r = ptx_devbuf_put(b, big, (size_t)n);
    free(big);
    return r;
}

/* a NUL-terminated string of simulated memory, at most max bytes (malloc'ed; NULL when unreadable) */
static char *read_cstr(ptx_devmem_read rd, void *user, uint64_t addr, size_t max)
{
    if (addr == 0)
        return NULL;
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    for (;;) {
        char chunk[256];
        size_t got = rd(user, addr + len, chunk, sizeof chunk);
        if (got == 0)
            break;
        size_t i = 0;
        while (i < got && chunk[i] && len + i < max)
            i++;
        if (len + i + 1 > cap) {
            while (len + i + 1 > cap)
                cap *= 2;
            char *q = realloc(s, cap);
            if (!q) {
                free(s);
                return NULL;
            }
            s = q;
        }
        memcpy(s + len, chunk, i);
        len += i;
        if (i < got || len >= max)
            break;
    }
    if (len == 0) {
        /* an empty string is fine if its terminator is readable */
        char c = 1;
        if (rd(user, addr, &c, 1) == 0) {
            free(s);
            return NULL;
        }
    }
    s[len] = '\0';
    return s;
}

/* the next argument of `size` bytes: aligned to its size; unreadable bytes are 0 */
static uint64_t next_arg(ptx_devmem_read rd, void *user, uint64_t args, uint64_t *off, unsigned size)
{
    *off = (*off + size - 1) & ~(uint64_t)(size - 1);
    uint8_t b[8] = {0};
    if (args)
        (void)rd(user, args + *off, b, size);
    *off += size;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

int ptx_devprintf_format(struct ptx_devbuf *out, ptx_devmem_read rd, void *user, uint64_t fmt, uint64_t args)
{
    char *f = read_cstr(rd, user, fmt, FMT_MAX);
    if (!f)
        return -1;
    int nargs = 0, rc = 0;
    uint64_t off = 0;
    const char *p = f;
    while (*p && rc == 0) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            rc = ptx_devbuf_put(out, p, n);
            p += n;
            continue;
        }
        const char *start = p++;
        if (*p == '%') {
            rc = ptx_devbuf_put(out, "%", 1);
            p++;
            continue;
        }
        /* %[flags][width][.precision][length]conversion; the host format is rebuilt from the parts */
        char spec[64];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*p && strchr("-+ #0'", *p)) {
            if (sl < 16)
                spec[sl++] = *p;
            p++;
        }
        int width = -1, prec = -1;
        bool star_w = false, star_p = false;
        if (*p == '*') {
            star_w = true;
            p++;
        } else if (*p >= '0' && *p <= '9') {
            width = 0;
            while (*p >= '0' && *p <= '9') {
                width = width < 100000 ? width * 10 + (*p - '0') : width;
                p++;
            }
        }
        if (*p == '.') {
            p++;
            prec = 0;
            if (*p == '*') {
                star_p = true;
                p++;
            } else {
                while (*p >= '0' && *p <= '9') {
                    prec = prec < 100000 ? prec * 10 + (*p - '0') : prec;
                    p++;
                }
            }
        }
        /* length modifiers: l, ll, j, z, t, q make an integer 8 bytes; h, hh narrow it */
        int lng = 0, shrt = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'h')
                shrt++;
            else
                lng = 1;
            p++;
        }
        char conv = *p;
        if (!conv || !strchr("diouxXcsfFeEgGaAp", conv)) {
            /* not a conversion CUDA knows (%n among them): printed as written */
            size_t n = (size_t)(p - start) + (conv ? 1u : 0u);
            rc = ptx_devbuf_put(out, start, n);
            p += conv ? 1 : 0;
            continue;
        }
        p++;
        if (star_w) {
            width = (int)(int32_t)next_arg(rd, user, args, &off, 4);
            nargs++;
            if (width < 0) {   /* a negative width is the '-' flag */
                if (sl < 20)
                    spec[sl++] = '-';
                width = -width;
            }
        }
        if (star_p) {
            prec = (int)(int32_t)next_arg(rd, user, args, &off, 4);
            nargs++;
        }
        if (width > 100000)
            width = 100000;
        if (prec > 100000)
            prec = 100000;
        if (width >= 0)
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", width);
        if (prec >= 0)
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%d", prec);
        nargs++;
        switch (conv) {
        case 'd': case 'i': {
            uint64_t v = next_arg(rd, user, args, &off, lng ? 8u : 4u);
            long long x = lng ? (long long)(int64_t)v : (long long)(int32_t)(uint32_t)v;
            if (!lng && shrt == 1)
                x = (short)x;
            else if (!lng && shrt >= 2)
                x = (signed char)x;
            snprintf(spec + sl, sizeof spec - sl, "ll%c", conv);
            rc = buf_printf(out, spec, x);
            break;
        }
        case 'o': case 'u': case 'x': case 'X': {
            uint64_t v = next_arg(rd, user, args, &off, lng ? 8u : 4u);
            unsigned long long x = lng ? v : (uint32_t)v;
            if (!lng && shrt == 1)
                x = (unsigned short)x;
            else if (!lng && shrt >= 2)
                x = (unsigned char)x;
            snprintf(spec + sl, sizeof spec - sl, "ll%c", conv);
            rc = buf_printf(out, spec, x);
            break;
        }
        case 'c': {
            uint64_t v = next_arg(rd, user, args, &off, 4);
            snprintf(spec + sl, sizeof spec - sl, "c");
            rc = buf_printf(out, spec, (int)(unsigned char)v);
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            uint64_t v = next_arg(rd, user, args, &off, 8);
            double x;
            memcpy(&x, &v, sizeof x);
            snprintf(spec + sl, sizeof spec - sl, "%c", conv);
            rc = buf_printf(out, spec, x);
            break;
        }
        case 'p': {
            uint64_t v = next_arg(rd, user, args, &off, 8);
            snprintf(spec + sl, sizeof spec - sl, "p");
            rc = buf_printf(out, spec, (void *)(uintptr_t)v);
            break;
        }
        case 's': {
            uint64_t v = next_arg(rd, user, args, &off, 8);
            char *s = read_cstr(rd, user, v, STR_MAX);
            snprintf(spec + sl, sizeof spec - sl, "s");
            rc = buf_printf(out, spec, s ? s : "(null)");
            free(s);
            break;
        }
        default: break;
        }
    }
    free(f);
    return rc ? -2 : nargs;
}

/* ---- the heap's blocks ---------------------------------------------------------------- */

int ptx_devheap_alloc(struct ptx_devlib *d, uint64_t size, uint64_t *off)
{
    if (size == 0 || size > d->heap_size)
        return -1;
    uint64_t need = (size + PTX_DEVLIB_HEAP_ALIGN - 1) & ~(uint64_t)(PTX_DEVLIB_HEAP_ALIGN - 1);
    /* first fit: the lowest gap between live blocks that holds `need` bytes */
    uint64_t at = 0;
    size_t i = 0;
    for (; i < d->nblks; i++) {
        if (d->blks[i].off >= at && d->blks[i].off - at >= need)
            break;
        at = d->blks[i].off + d->blks[i].size;
    }
    if (at > d->heap_size || d->heap_size - at < need)
        return -1;
    if (d->nblks == d->cap_blks) {
        size_t nc = d->cap_blks ? d->cap_blks * 2 : 64;
        struct ptx_heap_blk *nb = realloc(d->blks, nc * sizeof *nb);
        if (!nb)
            return -1;
        d->blks = nb;
        d->cap_blks = nc;
    }
    memmove(&d->blks[i + 1], &d->blks[i], (d->nblks - i) * sizeof d->blks[0]);
    d->blks[i] = (struct ptx_heap_blk){at, need};
    d->nblks++;
    d->heap_in_use += need;
    *off = at;
    return 0;
}

int ptx_devheap_free(struct ptx_devlib *d, uint64_t off)
{
    size_t lo = 0, hi = d->nblks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->blks[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == d->nblks || d->blks[lo].off != off)
        return -1;
    d->heap_in_use -= d->blks[lo].size;
    memmove(&d->blks[lo], &d->blks[lo + 1], (d->nblks - lo - 1) * sizeof d->blks[0]);
    d->nblks--;
    return 0;
}
