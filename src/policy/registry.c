/* registry.c - lookup of policies by exact name (policy/registry.def). */
#include <stdio.h>
#include <string.h>

#include "policy/cta_sched.h"
#include "policy/bypass.h"
#include "policy/cm.h"
#include "policy/repl.h"
#include "policy/warp_sched.h"

#define X(kind, name) extern const struct kind##_ops kind##_##name##_ops;
#include "policy/registry.def"
#undef X

/* one table per kind: expand the registry, keeping only that kind's lines */
#define X(kind, name) X_##kind##_WS(name)
#define X_warp_sched_WS(name) &warp_sched_##name##_ops,
#define X_cta_sched_WS(name)
#define X_repl_WS(name)
#define X_bypass_WS(name)
#define X_cm_WS(name)
static const struct warp_sched_ops *const warp_sched_table[] = {
#include "policy/registry.def"
};
#undef X_warp_sched_WS
#undef X_cta_sched_WS
#undef X_repl_WS
#undef X_bypass_WS
#undef X_cm_WS
#define X_warp_sched_WS(name)
#define X_cta_sched_WS(name) &cta_sched_##name##_ops,
#define X_repl_WS(name)
#define X_bypass_WS(name)
#define X_cm_WS(name)
static const struct cta_sched_ops *const cta_sched_table[] = {
#include "policy/registry.def"
};
#undef X_warp_sched_WS
#undef X_cta_sched_WS
#undef X_repl_WS
#undef X_bypass_WS
#undef X_cm_WS
#define X_warp_sched_WS(name)
#define X_cta_sched_WS(name)
#define X_repl_WS(name) &repl_##name##_ops,
#define X_bypass_WS(name)
#define X_cm_WS(name)
static const struct repl_ops *const repl_table[] = {
#include "policy/registry.def"
};
#undef X_warp_sched_WS
#undef X_cta_sched_WS
#undef X_repl_WS
#undef X_bypass_WS
#undef X_cm_WS
#define X_warp_sched_WS(name)
#define X_cta_sched_WS(name)
#define X_repl_WS(name)
#define X_bypass_WS(name) &bypass_##name##_ops,
#define X_cm_WS(name)
static const struct bypass_ops *const bypass_table[] = {
#include "policy/registry.def"
};
#undef X_warp_sched_WS
#undef X_cta_sched_WS
#undef X_repl_WS
#undef X_bypass_WS
#undef X_cm_WS
#define X_warp_sched_WS(name)
#define X_cta_sched_WS(name)
#define X_repl_WS(name)
#define X_bypass_WS(name)
#define X_cm_WS(name) &cm_##name##_ops,
static const struct cm_ops *const cm_table[] = {
#include "policy/registry.def"
};
#undef X

#define COUNT(t) (sizeof t / sizeof t[0])

#define FIND(kind)                                                  \
    const struct kind##_ops *kind##_find(const char *name)           \
    {                                                               \
        for (size_t i = 0; name && i < COUNT(kind##_table); i++)     \
            if (strcmp(kind##_table[i]->name, name) == 0)            \
                return kind##_table[i];                              \
        return NULL;                                                \
    }                                                               \
    void kind##_names(char *buf, size_t n)                           \
    {                                                               \
        size_t used = 0;                                            \
        if (n)                                                      \
            buf[0] = '\0';                                          \
        for (size_t i = 0; i < COUNT(kind##_table) && used < n; i++) \
            used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", kind##_table[i]->name); \
    }                                                               \
    const struct kind##_ops *kind##_at(size_t i)                     \
    {                                                               \
        return i < COUNT(kind##_table) ? kind##_table[i] : NULL;     \
    }

FIND(warp_sched)
FIND(cta_sched)
FIND(repl)
FIND(bypass)
FIND(cm)
