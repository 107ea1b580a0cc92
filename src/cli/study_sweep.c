/*
 * study_sweep.c - the run machinery under `warpsim sweep` and `warpsim study`:
 * run lists with stable names, child `warpsim run` processes (-j at a time)
 * with a progress line, resume by result-file completeness, the combined CSV,
 * and job lists for GNU parallel or a Slurm job array.
 *
 * A run's files are DIR/NAME.json (the result, written by the child at its
 * end), NAME.config and NAME.timeseries.csv (beside it, written by run),
 * NAME.warps.csv (when asked) and NAME.log (the child's stdout and stderr).
 * A run is done when NAME.json is complete JSON with a "status": a run killed
 * half-way leaves no file or a truncated one, and is run again next time.
 * A run missing here but complete under the same NAME in a sibling study's
 * or sweep's directory is copied from there instead of being run (sw_reuse).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "study.h"

/* ---------------------------------------------------------------- lists */

void sw_list_free(struct sw_list *l)
{
    for (size_t i = 0; i < l->nstrs; i++)
        free(l->strs[i]);
    free(l->strs);
    free(l->r);
    free(l->slot);
    memset(l, 0, sizeof *l);
}

const char *sw_str(struct sw_list *l, const char *s)
{
    if (!s)
        return NULL;
    for (size_t i = 0; i < l->nstrs; i++)   /* small lists: share equal strings */
        if (strcmp(l->strs[i], s) == 0)
            return l->strs[i];
    if (l->nstrs == l->capstrs) {
        size_t cap = l->capstrs ? l->capstrs * 2 : 64;
        char **ns = realloc(l->strs, cap * sizeof *ns);
        if (!ns)
            return NULL;
        l->strs = ns;
        l->capstrs = cap;
    }
    char *c = strdup(s);
    if (!c)
        return NULL;
    l->strs[l->nstrs++] = c;
    return c;
}

static uint32_t sw_fnv(uint32_t h, const char *s)
{
    for (; s && *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    h ^= 0x1f;   /* field separator */
    h *= 16777619u;
    return h;
}

/* Append "_" prefix value to buf, replacing characters a file name should not
   carry; *lossy when anything was replaced. */
static void sw_name_part(char *buf, size_t n, const char *prefix, const char *v, int *lossy)
{
    size_t used = strlen(buf);
    if (used + 2 >= n) {
        *lossy = 1;
        return;
    }
    if (used)
        buf[used++] = '_';
    for (const char *p = prefix; *p && used + 1 < n; p++)
        buf[used++] = *p;
    for (const char *p = v; *p; p++) {
        if (used + 1 >= n) {
            *lossy = 1;
            break;
        }
        char c = *p;
        int okc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '-' || c == '+' || c == '_' || c == '=';
        if (!okc) {
            c = '-';
            *lossy = 1;
        }
        buf[used++] = c;
    }
    buf[used] = '\0';
}

/* "dyncta-30core" for a preset, the file's base name without ".config" for a
   path (lossy: two directories may hold files of the same name) */
static const char *sw_config_label(const char *config, char *tmp, size_t n, int *lossy)
{
    const char *slash = strrchr(config, '/');
    if (!slash)
        return config;
    *lossy = 1;
    snprintf(tmp, n, "%s", slash + 1);
    size_t l = strlen(tmp);
    if (l > 7 && strcmp(tmp + l - 7, ".config") == 0)
        tmp[l - 7] = '\0';
    return tmp;
}

void sw_name(const struct sw_run *r, char *buf, size_t n)
{
    /* readable part: workload_size[_c-CONFIG][_w-WARP][_t-CTA][_sSEED][_SET=VALUE]...
       The prefixes keep the fields apart; a value that could be read as
       another field (contains "=" or "_x-") makes the name lossy, and a lossy
       name gets the hash of the full parameter text. */
    char name[SW_NAME_MAX * 2] = "";
    char tmp[256];
    int lossy = 0;
    uint32_t h = 2166136261u;
    h = sw_fnv(h, r->workload);
    h = sw_fnv(h, r->size);
    h = sw_fnv(h, r->config);
    h = sw_fnv(h, r->warp_sched);
    h = sw_fnv(h, r->cta_sched);
    snprintf(tmp, sizeof tmp, "%" PRIu64, r->seed);
    h = sw_fnv(h, tmp);
    h = sw_fnv(h, r->warps ? "warps" : "");
    if (r->no_alone)
        h = sw_fnv(h, "noalone");   /* only when set: the names of older runs stay as they were */
    char gs[32] = "";
    if (r->grid_scale > 0 && r->grid_scale != 1.0) {
        snprintf(gs, sizeof gs, "%g", r->grid_scale);
        h = sw_fnv(h, gs);   /* likewise */
    }
    for (unsigned i = 0; i < r->nset; i++) {
        h = sw_fnv(h, r->set_name[i]);
        h = sw_fnv(h, r->set_value[i]);
    }
    const char *plain[4] = {r->workload, r->config, r->warp_sched, r->cta_sched};
    for (int i = 0; i < 4; i++)
        if (plain[i] && (strchr(plain[i], '=') || strstr(plain[i], "_c-") || strstr(plain[i], "_w-") ||
                         strstr(plain[i], "_t-")))
            lossy = 1;
    for (unsigned i = 0; i < r->nset; i++)
        if (strchr(r->set_name[i], '=') || strchr(r->set_value[i], '_'))
            lossy = 1;
    sw_name_part(name, sizeof name, "", r->workload, &lossy);
    sw_name_part(name, sizeof name, "", r->size ? r->size : "small", &lossy);
    if (r->config)
        sw_name_part(name, sizeof name, "c-", sw_config_label(r->config, tmp, sizeof tmp, &lossy), &lossy);
    if (r->warp_sched)
        sw_name_part(name, sizeof name, "w-", r->warp_sched, &lossy);
    if (r->cta_sched)
        sw_name_part(name, sizeof name, "t-", r->cta_sched, &lossy);
    if (r->seed && r->seed != 1) {
        snprintf(tmp, sizeof tmp, "%" PRIu64, r->seed);
        sw_name_part(name, sizeof name, "s", tmp, &lossy);
    }
    for (unsigned i = 0; i < r->nset; i++) {
        snprintf(tmp, sizeof tmp, "%s=%s", r->set_name[i], r->set_value[i]);
        sw_name_part(name, sizeof name, "", tmp, &lossy);
    }
    if (r->warps)
        sw_name_part(name, sizeof name, "", "warps", &lossy);
    if (r->no_alone)
        sw_name_part(name, sizeof name, "", "noalone", &lossy);
    if (gs[0])
        sw_name_part(name, sizeof name, "g", gs, &lossy);
    if (strlen(name) > 150) {
        name[150] = '\0';
        lossy = 1;
    }
    if (lossy)
        snprintf(buf, n, "%s_h%08" PRIx32, name, h);
    else
        snprintf(buf, n, "%s", name);
}

/* slot of name in the index: where it is, or the empty slot where it goes */
static size_t sw_slot(const struct sw_list *l, const char *name)
{
    size_t i = sw_fnv(2166136261u, name) & (l->nslot - 1);
    while (l->slot[i] && strcmp(l->r[l->slot[i] - 1].name, name) != 0)
        i = (i + 1) & (l->nslot - 1);
    return i;
}

/* keep the index at most half full */
static int sw_index_grow(struct sw_list *l)
{
    if (l->nslot && 2 * (l->n + 1) <= l->nslot)
        return 0;
    size_t n = l->nslot ? l->nslot * 2 : 64;
    size_t *ns = calloc(n, sizeof *ns);
    if (!ns)
        return -1;
    free(l->slot);
    l->slot = ns;
    l->nslot = n;
    for (size_t k = 0; k < l->n; k++)
        l->slot[sw_slot(l, l->r[k].name)] = k + 1;
    return 0;
}

long sw_add(struct sw_list *l, const struct sw_run *proto)
{
    if (!proto->workload || !*proto->workload) {
        fprintf(stderr, "warpsim: a run needs a workload\n");
        return -1;
    }
    struct sw_run r;
    memset(&r, 0, sizeof r);
    r.workload = sw_str(l, proto->workload);
    r.size = sw_str(l, proto->size ? proto->size : "small");
    r.config = sw_str(l, proto->config);
    r.warp_sched = sw_str(l, proto->warp_sched);
    r.cta_sched = sw_str(l, proto->cta_sched);
    r.seed = proto->seed;
    r.warps = proto->warps;
    r.no_alone = proto->no_alone;
    r.grid_scale = proto->grid_scale;
    r.nset = proto->nset;
    for (unsigned i = 0; i < proto->nset; i++) {
        r.set_name[i] = sw_str(l, proto->set_name[i]);
        r.set_value[i] = sw_str(l, proto->set_value[i]);
    }
    if (l->max_cycles) {   /* the list's window (study --max-cycles) */
        if (r.nset >= SW_MAX_SETS) {
            fprintf(stderr, "warpsim: too many options for a run\n");
            return -1;
        }
        char v[24];
        snprintf(v, sizeof v, "%" PRIu64, l->max_cycles);
        r.set_name[r.nset] = sw_str(l, "gpgpu_max_cycle");
        r.set_value[r.nset++] = sw_str(l, v);
    }
    r.exit_code = -1;
    sw_name(&r, r.name, sizeof r.name);
    if (sw_index_grow(l) != 0) {
        fprintf(stderr, "warpsim: out of memory\n");
        return -1;
    }
    size_t at = sw_slot(l, r.name);
    if (l->slot[at])
        return (long)(l->slot[at] - 1);   /* the same run again */
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        struct sw_run *nr = realloc(l->r, cap * sizeof *nr);
        if (!nr) {
            fprintf(stderr, "warpsim: out of memory\n");
            return -1;
        }
        l->r = nr;
        l->cap = cap;
    }
    l->r[l->n] = r;
    l->slot[at] = l->n + 1;
    return (long)l->n++;
}

/* ---------------------------------------------------------------- files */

int sw_mkdirs(const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

void sw_path(const struct sw_exec *x, const struct sw_run *r, const char *suffix, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s%s", x->dir, r->name, suffix);
}

static void sw_read_metrics(const char *text, struct sw_metrics *m)
{
    memset(m, 0, sizeof *m);
    static const struct { const char *path; size_t off; } nums[] = {
        {"timing.totals.gpu_sim_cycle", offsetof(struct sw_metrics, cycles)},
        {"timing.totals.gpu_sim_insn", offsetof(struct sw_metrics, thread_insns)},
        {"timing.totals.gpu_sim_warp_insn", offsetof(struct sw_metrics, warp_insns)},
        {"timing.totals.gpu_ipc", offsetof(struct sw_metrics, ipc)},
        {"timing.totals.gpu_warp_ipc", offsetof(struct sw_metrics, warp_ipc)},
        {"timing.totals.L1D_total_cache_miss_rate", offsetof(struct sw_metrics, l1d_miss_rate)},
        {"timing.totals.L2_total_cache_miss_rate", offsetof(struct sw_metrics, l2_miss_rate)},
        {"timing.totals.lat_rt_avg", offsetof(struct sw_metrics, lat_rt)},
        {"timing.totals.util", offsetof(struct sw_metrics, util)},
        {"timing.totals.RACT", offsetof(struct sw_metrics, ract)},
        {"timing.totals.C_idle", offsetof(struct sw_metrics, c_idle)},
        {"timing.totals.C_mem", offsetof(struct sw_metrics, c_mem)},
        {"timing.totals.idle_ratio", offsetof(struct sw_metrics, idle_ratio)},
        {"timing.totals.dram_bw_util", offsetof(struct sw_metrics, dram_bw_util)},
        {"timing.totals.gpu_occupancy", offsetof(struct sw_metrics, occupancy)},
        {"host.seconds", offsetof(struct sw_metrics, host_seconds)},
        {"timing.totals.warpsim_paused_cta_warp_insn", offsetof(struct sw_metrics, paused_warp_insns)},
        {"timing.totals.per_partition.hottest_over_mean_per_launch", offsetof(struct sw_metrics, slice_conc)},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        double *d = (double *)(void *)((char *)m + nums[i].off);
        if (jr_number(text, nums[i].path, d) != 0)
            *d = NAN;
    }
    if (jr_string(text, "status", m->status, sizeof m->status) != 0)
        snprintf(m->status, sizeof m->status, "?");
    if (jr_bool(text, "verified", &m->verified) != 0)
        m->verified = 0;
    if (jr_string(text, "timing.totals.type_hint", m->type_hint, sizeof m->type_hint) != 0)
        m->type_hint[0] = '\0';
    m->ok = 1;
}

void sw_probe(const struct sw_exec *x, struct sw_run *r)
{
    char path[1024];
    sw_path(x, r, ".json", path, sizeof path);
    char *text = sw_read_file(path, NULL);
    int complete = text && jr_valid(text) && jr_lookup(text, "status") != NULL;
    if (complete) {
        sw_read_metrics(text, &r->m);
        if (r->state == SW_PENDING)
            r->state = SW_CACHED;
    } else {
        memset(&r->m, 0, sizeof r->m);
        if (r->state == SW_RAN)
            r->state = SW_NORESULT;
    }
    free(text);
}

static int sw_good(const struct sw_run *r)
{
    return r->m.ok && r->m.verified && strcmp(r->m.status, "WS_SUCCESS") == 0;
}

int sw_result_ok(const struct sw_list *l, const struct sw_run *r)
{
    return sw_good(r) || (l->max_cycles && r->m.ok && strcmp(r->m.status, "stopped at limit") == 0);
}

/* ---------------------------------------------------------------- reuse */

/* The directory above dir, from the text of the path ("." for a bare name),
   so that -o results/study-x looks in results/ even when study-x is a link. */
static void sw_parent(const char *dir, char *buf, size_t n)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", dir);
    size_t len = strlen(tmp);
    while (len > 1 && tmp[len - 1] == '/')
        tmp[--len] = '\0';
    char *slash = strrchr(tmp, '/');
    const char *last = slash ? slash + 1 : tmp;
    if (!*last || strcmp(last, ".") == 0 || strcmp(last, "..") == 0)
        snprintf(buf, n, "%s/..", tmp);
    else if (!slash)
        snprintf(buf, n, ".");
    else if (slash == tmp)
        snprintf(buf, n, "/");
    else {
        *slash = '\0';
        snprintf(buf, n, "%s", tmp);
    }
}

static int sw_strcmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The runs directories beside home, in name order: PARENT/study-X/runs and
   PARENT/sweep-X, home's own and x->dir left out.  Paths malloc'ed. */
static size_t sw_siblings(const struct sw_exec *x, const char *home, char ***out)
{
    char parent[1024];
    sw_parent(home, parent, sizeof parent);
    *out = NULL;
    DIR *d = opendir(parent);
    if (!d)
        return 0;
    struct stat hs, xs;
    int have_h = stat(home, &hs) == 0, have_x = stat(x->dir, &xs) == 0;
    char **v = NULL;
    size_t nv = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int study = strncmp(e->d_name, "study-", 6) == 0;
        if ((!study && strncmp(e->d_name, "sweep-", 6) != 0) || !e->d_name[6])
            continue;
        char top[1400], runs[1500];
        if (strcmp(parent, ".") == 0)
            snprintf(top, sizeof top, "%s", e->d_name);
        else
            snprintf(top, sizeof top, "%s%s%s", parent, parent[strlen(parent) - 1] == '/' ? "" : "/", e->d_name);
        snprintf(runs, sizeof runs, study ? "%s/runs" : "%s", top);
        struct stat ts, rs;
        if (stat(top, &ts) != 0 || !S_ISDIR(ts.st_mode) || stat(runs, &rs) != 0 || !S_ISDIR(rs.st_mode))
            continue;
        if ((have_h && ts.st_dev == hs.st_dev && ts.st_ino == hs.st_ino) ||
            (have_x && rs.st_dev == xs.st_dev && rs.st_ino == xs.st_ino))
            continue;   /* this study's or sweep's own directory */
        if (nv == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **nvv = realloc(v, nc * sizeof *nvv);
            if (!nvv)
                break;
            v = nvv;
            cap = nc;
        }
        if ((v[nv] = strdup(runs)) != NULL)
            nv++;
    }
    closedir(d);
    if (nv)
        qsort(v, nv, sizeof *v, sw_strcmp);
    *out = v;
    return nv;
}

static int sw_write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* src copied to dst (created or truncated): 1, 0 when there is no src, -1 on error */
static int sw_copy_file(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY);
    if (in < 0)
        return errno == ENOENT ? 0 : -1;
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buf[65536];
    int rc = 1;
    for (;;) {
        ssize_t k = read(in, buf, sizeof buf);
        if (k == 0)
            break;
        if (k < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        if (sw_write_all(out, buf, (size_t)k) != 0) {
            rc = -1;
            break;
        }
    }
    close(in);
    if (close(out) != 0)
        rc = -1;
    return rc;
}

/* Copy run r's files from the directory src into x->dir: the others first
   (an own file that src lacks is removed, so nothing of an earlier attempt
   stays beside the copy), then NAME.json from json (the text that was found
   complete).  Until that last write the run has no complete result here. */
static int sw_copy_run(const struct sw_exec *x, const struct sw_run *r, const char *src, const char *json,
                       size_t len)
{
    static const char *const sfx[] = {".config", ".log", ".timeseries.csv", ".warps.csv"};
    char from[1400], to[1400];
    sw_path(x, r, ".json", to, sizeof to);
    if (unlink(to) != 0 && errno != ENOENT)
        return -1;
    for (size_t k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
        snprintf(from, sizeof from, "%s/%s%s", src, r->name, sfx[k]);
        sw_path(x, r, sfx[k], to, sizeof to);
        int c = sw_copy_file(from, to);
        if (c < 0 || (c == 0 && unlink(to) != 0 && errno != ENOENT))
            return -1;
    }
    sw_path(x, r, ".json", to, sizeof to);
    int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return -1;
    int rc = sw_write_all(fd, json, len);
    if (close(fd) != 0)
        rc = -1;
    if (rc != 0)
        unlink(to);
    return rc;
}

size_t sw_reuse(const struct sw_exec *x, const char *home, struct sw_list *l, size_t first, size_t count,
                int flags)
{
    size_t end = first + count > l->n ? l->n : first + count, pending = 0;
    for (size_t i = first; i < end; i++)
        pending += l->r[i].state == SW_PENDING;
    if (!pending || !home)
        return 0;
    char **src;
    size_t ns = sw_siblings(x, home, &src), found = 0;
    int made = 0;
    for (size_t i = first; i < end && ns; i++) {
        struct sw_run *r = &l->r[i];
        if (r->state != SW_PENDING)
            continue;
        for (size_t s = 0; s < ns; s++) {
            char path[1400];
            size_t len = 0;
            snprintf(path, sizeof path, "%s/%s.json", src[s], r->name);
            char *text = sw_read_file(path, &len);
            int complete = text && jr_valid(text) && jr_lookup(text, "status") != NULL;   /* as sw_probe */
            if (complete && (flags & SW_REUSE_GOOD)) {
                struct sw_run t;
                sw_read_metrics(text, &t.m);
                complete = sw_result_ok(l, &t);
            }
            if (!complete) {
                free(text);
                continue;
            }
            if (!(flags & SW_REUSE_COPY)) {   /* --list: only say where it would come from */
                r->reused_from = sw_str(l, src[s]);
                found++;
                free(text);
                break;
            }
            if (!made) {   /* once: 1 made, -1 failed (then every run runs, and fails to write there) */
                made = sw_mkdirs(x->dir) == 0 ? 1 : -1;
                if (made < 0)
                    fprintf(stderr, "warpsim: cannot create %s: %s\n", x->dir, strerror(errno));
            }
            if (made > 0 && sw_copy_run(x, r, src[s], text, len) != 0) {
                fprintf(stderr, "warpsim: cannot copy run %s from %s/ into %s/ (%s); it runs instead\n", r->name,
                        src[s], x->dir, strerror(errno));
            } else if (made > 0) {
                sw_probe(x, r);   /* the copy's metrics, read back as for a cached run */
                if (r->state == SW_CACHED) {
                    r->state = SW_REUSED;
                    r->reused_from = sw_str(l, src[s]);
                    found++;
                }
            }
            free(text);
            break;
        }
    }
    for (size_t s = 0; s < ns; s++)
        free(src[s]);
    free(src);
    return found;
}

size_t sw_reuse_sources(const struct sw_list *l, size_t first, size_t count, char *buf, size_t n)
{
    size_t end = first + count > l->n ? l->n : first + count;
    const char *src[32];
    size_t cnt[32], ns = 0, total = 0;
    for (size_t i = first; i < end; i++) {
        const char *f = l->r[i].reused_from;
        if (!f)
            continue;
        total++;
        size_t k = 0;
        while (k < ns && strcmp(src[k], f) != 0)
            k++;
        if (k == ns && ns < 32) {
            src[ns] = f;
            cnt[ns++] = 0;
        }
        if (k < ns)
            cnt[k]++;
    }
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (size_t k = 0; k < ns; k++) {
        int w = ns == 1 ? snprintf(used < n ? buf + used : NULL, used < n ? n - used : 0, "%s", src[k])
                        : snprintf(used < n ? buf + used : NULL, used < n ? n - used : 0, "%s%s (%zu)",
                                   k ? ", " : "", src[k], cnt[k]);
        if (w > 0)
            used += (size_t)w;
    }
    return total;
}

/* ---------------------------------------------------------------- children */

int sw_argv(const struct sw_exec *x, const struct sw_run *r, char **argv, int max, char *buf, size_t n)
{
    int argc = 0;
    size_t used = 0;
#define ARG(s)                                                          \
    do {                                                                \
        const char *s_ = (s);                                           \
        size_t l_ = strlen(s_) + 1;                                     \
        if (argc + 1 >= max || used + l_ > n)                           \
            return -1;                                                  \
        memcpy(buf + used, s_, l_);                                     \
        argv[argc++] = buf + used;                                      \
        used += l_;                                                     \
    } while (0)
    char tmp[1024];
    ARG("warpsim");
    ARG("run");
    ARG(r->workload);
    ARG("--size");
    ARG(r->size);
    if (r->seed) {
        snprintf(tmp, sizeof tmp, "%" PRIu64, r->seed);
        ARG("--seed");
        ARG(tmp);
    }
    if (r->config) {
        ARG("--config");
        ARG(r->config);
    }
    if (r->warp_sched) {
        ARG("--warp-sched");
        ARG(r->warp_sched);
    }
    if (r->cta_sched) {
        ARG("--cta-sched");
        ARG(r->cta_sched);
    }
    for (unsigned i = 0; i < r->nset; i++) {
        snprintf(tmp, sizeof tmp, "%s=%s", r->set_name[i], r->set_value[i]);
        ARG("--set");
        ARG(tmp);
    }
    if (r->no_alone)
        ARG("--no-alone");
    if (r->grid_scale > 0 && r->grid_scale != 1.0) {
        snprintf(tmp, sizeof tmp, "%g", r->grid_scale);   /* as the name says it */
        ARG("--grid-scale");
        ARG(tmp);
    }
    ARG("-o");
    sw_path(x, r, ".json", tmp, sizeof tmp);
    ARG(tmp);
    if (r->warps) {
        ARG("--warps");
        sw_path(x, r, ".warps.csv", tmp, sizeof tmp);
        ARG(tmp);
    }
#undef ARG
    argv[argc] = NULL;
    return argc;
}

static pid_t sw_spawn(const struct sw_exec *x, const struct sw_run *r)
{
    char *argv[64 + 2 * SW_MAX_SETS];
    char buf[16384];
    if (sw_argv(x, r, argv, (int)(sizeof argv / sizeof argv[0]), buf, sizeof buf) < 0) {
        fprintf(stderr, "warpsim: run %s: command line too long\n", r->name);
        return -1;
    }
    char json[1024], log[1024];
    sw_path(x, r, ".json", json, sizeof json);
    sw_path(x, r, ".log", log, sizeof log);
    unlink(json);   /* an old result must not outlive a run that fails early */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) {
            dup2(nul, 0);
            close(nul);
        }
        execv("/proc/self/exe", argv);
        fprintf(stderr, "warpsim sweep: cannot run /proc/self/exe: %s\n", strerror(errno));
        _exit(127);
    }
    return pid;
}

static void sw_fmt_time(double s, char *buf, size_t n)
{
    if (!(s >= 0) || s > 1e7) {
        snprintf(buf, n, "--:--");
        return;
    }
    unsigned long t = (unsigned long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%lu:%02lu", t / 60, t % 60);
}

/* sw_execute's children (cli_pool_run): the pending runs of l from `first` */
struct sw_pool {
    const struct sw_exec *x;
    struct sw_list *l;
    size_t first, todo, done, failed;
    double t_start;
    int tty;
    const char *label;
};

static pid_t sw_pool_start(size_t idx, void *u)
{
    struct sw_pool *p = u;
    struct sw_run *r = &p->l->r[p->first + idx];
    if (r->state != SW_PENDING)
        return 0;
    pid_t pid = sw_spawn(p->x, r);
    if (pid < 0) {
        r->state = SW_NORESULT;
        r->exit_code = -1;
        p->done++, p->failed++;
        return 0;
    }
    return pid;
}

static void sw_pool_finished(size_t idx, int ws, double secs, unsigned running, void *u)
{
    struct sw_pool *p = u;
    const struct sw_exec *x = p->x;
    const char *label = p->label;
    int tty = p->tty;
    size_t done, todo = p->todo;
    struct sw_run *r = &p->l->r[p->first + idx];
    r->seconds = secs;
    r->exit_code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    r->state = SW_RAN;
    sw_probe(x, r);
    done = ++p->done;
    int good = sw_result_ok(p->l, r);
    if (!good)
        p->failed++;
    if (x->quiet)
        return;
    double el = cli_now() - p->t_start;
    char eta[32], elapsed[32];
    sw_fmt_time(el, elapsed, sizeof elapsed);
    sw_fmt_time(done < todo ? el / (double)done * (double)(todo - done) : 0, eta, sizeof eta);
    if (tty)
        fputs("\r\033[K", stderr);
    if (!tty || !good) {
        char why[1200] = "ok";
        if (!good) {
            char log[1024];
            sw_path(x, r, ".log", log, sizeof log);
            if (r->m.ok)
                snprintf(why, sizeof why, "FAILED (%s, %s; see %s)", r->m.status,
                         r->m.verified ? "verified" : "not verified", log);
            else
                snprintf(why, sizeof why, "FAILED (exit %d, no result; see %s)", r->exit_code, log);
        }
        fprintf(stderr, "[%s] %zu/%zu %s %s %.1fs, elapsed %s, ETA %s\n", label, done, todo, r->name, why,
                r->seconds, elapsed, eta);
    }
    if (tty && done < todo)
        fprintf(stderr, "[%s] %zu/%zu done, %u running, %zu failed, elapsed %s, ETA %s", label, done, todo,
                running, p->failed, elapsed, eta);
}

int sw_execute(const struct sw_exec *x, struct sw_list *l, size_t first, size_t count)
{
    if (sw_mkdirs(x->dir) != 0) {
        fprintf(stderr, "warpsim: cannot create %s: %s\n", x->dir, strerror(errno));
        return -1;
    }
    size_t end = first + count > l->n ? l->n : first + count;
    size_t todo = 0, cached = 0, reused = 0;
    for (size_t i = first; i < end; i++) {
        if (l->r[i].state == SW_PENDING)
            todo++;
        else if (l->r[i].state == SW_REUSED)
            reused++;
        else
            cached++;
    }
    unsigned jobs = x->jobs ? x->jobs : 1;
    const char *label = x->label ? x->label : "sweep";
    int tty = isatty(2);
    if (!x->quiet && reused) {
        char from[2048];
        sw_reuse_sources(l, first, end - first, from, sizeof from);
        fprintf(stderr, "[%s] %zu runs: %zu done before, %zu reused from %s, %zu to run, %u at a time, results in "
                        "%s/\n",
                label, end - first, cached, reused, from, todo, jobs, x->dir);
        for (size_t i = first; i < end && !tty; i++)
            if (l->r[i].state == SW_REUSED)
                fprintf(stderr, "[%s] %s reused from %s/\n", label, l->r[i].name,
                        l->r[i].reused_from ? l->r[i].reused_from : "?");
    } else if (!x->quiet) {
        fprintf(stderr, "[%s] %zu runs: %zu done before, %zu to run, %u at a time, results in %s/\n", label,
                end - first, cached, todo, jobs, x->dir);
    }
    struct sw_pool p = {x, l, first, todo, 0, 0, cli_now(), tty, label};
    if (cli_pool_run(end - first, jobs, sw_pool_start, sw_pool_finished, &p) != 0) {
        fprintf(stderr, "warpsim: waitpid: %s\n", strerror(errno));
        return -1;
    }
    size_t failed = p.failed;
    double t_start = p.t_start;
    if (tty && !x->quiet)
        fputs("\r\033[K", stderr);
    int bad = 0;
    for (size_t i = first; i < end; i++)
        if (!sw_result_ok(l, &l->r[i]))
            bad++;
    if (!x->quiet && todo)
        fprintf(stderr, "[%s] finished %zu runs in %.1fs (%zu failed)\n", label, todo, cli_now() - t_start, failed);
    return bad;
}

/* ---------------------------------------------------------------- CSV */

static void csv_field(FILE *f, const char *s, int first)
{
    if (!first)
        fputc(',', f);
    if (!s)
        return;
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputc(',', f);
    else
        fprintf(f, ",%.10g", v);
}

static const char *sw_state_name(const struct sw_run *r)
{
    switch (r->state) {
    case SW_PENDING: return "pending";
    case SW_CACHED: return "cached";
    case SW_RAN: return "ran";
    case SW_NORESULT: return "no_result";
    case SW_REUSED: return "reused";
    }
    return "?";
}

int sw_write_csv(const struct sw_exec *x, const struct sw_list *l, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warpsim: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    /* one column per option set anywhere in the list, in order of appearance */
    const char *setcols[64];
    size_t nsetcols = 0;
    for (size_t i = 0; i < l->n; i++)
        for (unsigned s = 0; s < l->r[i].nset; s++) {
            size_t k = 0;
            while (k < nsetcols && strcmp(setcols[k], l->r[i].set_name[s]) != 0)
                k++;
            if (k == nsetcols && nsetcols < 64)
                setcols[nsetcols++] = l->r[i].set_name[s];
        }
    fputs("name,workload,size,config,warp_sched,cta_sched,seed", f);
    for (size_t k = 0; k < nsetcols; k++)
        csv_field(f, setcols[k], 0);
    fputs(",state,exit_code,status,verified,type_hint,gpu_sim_cycle,gpu_sim_insn,gpu_sim_warp_insn,gpu_ipc,"
          "gpu_warp_ipc,L1D_miss_rate,L2_miss_rate,lat_rt_avg,util,RACT,C_idle,C_mem,idle_ratio,dram_bw_util,"
          "gpu_occupancy,host_seconds,result\n",
          f);
    for (size_t i = 0; i < l->n; i++) {
        const struct sw_run *r = &l->r[i];
        const struct sw_metrics *m = &r->m;
        char tmp[1024];
        csv_field(f, r->name, 1);
        csv_field(f, r->workload, 0);
        csv_field(f, r->size, 0);
        csv_field(f, r->config ? r->config : "default", 0);
        csv_field(f, r->warp_sched ? r->warp_sched : "default", 0);
        csv_field(f, r->cta_sched ? r->cta_sched : "default", 0);
        fprintf(f, ",%" PRIu64, r->seed ? r->seed : 1);
        for (size_t k = 0; k < nsetcols; k++) {
            const char *v = NULL;
            for (unsigned s = 0; s < r->nset; s++)
                if (strcmp(r->set_name[s], setcols[k]) == 0)
                    v = r->set_value[s];   /* the last one wins, as in run */
            csv_field(f, v, 0);
        }
        csv_field(f, sw_state_name(r), 0);
        if (r->state == SW_RAN || r->state == SW_NORESULT)
            fprintf(f, ",%d", r->exit_code);
        else
            fputc(',', f);
        csv_field(f, m->ok ? m->status : "", 0);
        csv_field(f, m->ok ? (m->verified ? "1" : "0") : "", 0);
        csv_field(f, m->ok ? m->type_hint : "", 0);
        double nums[] = {m->cycles, m->thread_insns, m->warp_insns, m->ipc, m->warp_ipc, m->l1d_miss_rate,
                         m->l2_miss_rate, m->lat_rt, m->util, m->ract, m->c_idle, m->c_mem, m->idle_ratio,
                         m->dram_bw_util, m->occupancy, m->host_seconds};
        for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
            csv_num(f, m->ok ? nums[k] : NAN);
        sw_path(x, r, ".json", tmp, sizeof tmp);
        csv_field(f, m->ok ? tmp : "", 0);
        fputc('\n', f);
    }
    int err = ferror(f);
    if (fclose(f) != 0 || err) {
        fprintf(stderr, "warpsim: error writing %s\n", path);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- emit */

/* s as one shell word */
static void sh_quote(FILE *f, const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+=/:,@%", *p))
            plain = 0;
    if (plain) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* one job: the run's command, output to its log */
static int sw_emit_cmd(FILE *f, const struct sw_exec *x, const struct sw_run *r, const char *exe, int exe_raw)
{
    char *argv[64 + 2 * SW_MAX_SETS];
    char buf[16384], log[1024];
    int argc = sw_argv(x, r, argv, (int)(sizeof argv / sizeof argv[0]), buf, sizeof buf);
    if (argc < 0)
        return -1;
    if (exe_raw)
        fputs(exe, f);   /* "$WARPSIM": expanded by the script */
    else
        sh_quote(f, exe);
    for (int i = 1; i < argc; i++) {
        fputc(' ', f);
        sh_quote(f, argv[i]);
    }
    sw_path(x, r, ".log", log, sizeof log);
    fputs(" >", f);
    sh_quote(f, log);
    fputs(" 2>&1", f);
    return 0;
}

int sw_emit(const struct sw_exec *x, const struct sw_list *l, const char *format, const char *path, const char *exe)
{
    int slurm = strcmp(format, "slurm") == 0;
    if (!slurm && strcmp(format, "parallel") != 0) {
        fprintf(stderr, "warpsim: --emit takes parallel or slurm, got '%s'\n", format);
        return -1;
    }
    if (sw_mkdirs(x->dir) != 0) {
        fprintf(stderr, "warpsim: cannot create %s: %s\n", x->dir, strerror(errno));
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warpsim: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t todo = 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->r[i].state == SW_PENDING)
            todo++;
    /* the jobs run from this directory, so that relative paths (the output
       directory, config files, oracle files) mean what they mean here */
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) {
        fclose(f);
        fprintf(stderr, "warpsim: cannot get the current directory: %s\n", strerror(errno));
        return -1;
    }
    if (slurm) {
        fprintf(f, "#!/bin/bash\n"
                   "# warpsim: %zu runs as a Slurm job array (one run per task).  Submit with: sbatch %s\n"
                   "# Each task writes its result into %s/; when all are done, the same\n"
                   "# `warpsim sweep` / `warpsim study` command skips the finished runs and writes the tables.\n"
                   "# The binary can be overridden: WARPSIM=/path/to/warpsim sbatch %s\n",
                todo, path, x->dir, path);
        if (todo)
            fprintf(f, "#SBATCH --array=0-%zu\n", todo - 1);
        fputs("#SBATCH --job-name=warpsim\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
        fputs("#SBATCH --output=", f);
        char so[1100];
        snprintf(so, sizeof so, "%s/slurm-%%A_%%a.out", x->dir);
        sh_quote(f, so);
        fputs("\nset -u\nWARPSIM=${WARPSIM:-", f);
        sh_quote(f, exe);
        fputs("}\ncd ", f);
        sh_quote(f, cwd);
        fputs(" || exit 2\ncase \"${SLURM_ARRAY_TASK_ID:?not inside a Slurm array task}\" in\n", f);
    }
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->r[i].state != SW_PENDING)
            continue;
        if (slurm) {
            fprintf(f, "%zu) ", k);
        } else {
            fputs("cd ", f);
            sh_quote(f, cwd);
            fputs(" && ", f);
        }
        if (sw_emit_cmd(f, x, &l->r[i], slurm ? "\"$WARPSIM\"" : exe, slurm) != 0) {
            fclose(f);
            fprintf(stderr, "warpsim: run %s: command line too long\n", l->r[i].name);
            return -1;
        }
        fputs(slurm ? " ;;\n" : "\n", f);
        k++;
    }
    if (slurm)
        fputs("*) echo \"warpsim: no task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n", f);
    int err = ferror(f);
    if (fclose(f) != 0 || err) {
        fprintf(stderr, "warpsim: error writing %s\n", path);
        return -1;
    }
    if (slurm)
        chmod(path, 0755);
    return (int)k;
}
