/* common.c - helpers shared by every warp scheduling policy. */
#include "policy/warp_sched.h"

const char *stall_reason_name(enum stall_reason r)
{
    static const char *const names[STALL_COUNT] = {
        [STALL_NONE] = "exec",
        [STALL_SYNC] = "sync",
        [STALL_FETCH] = "fetch",
        [STALL_CTRL] = "ctrl_hazard",
        [STALL_DATA] = "data_hazard",
        [STALL_DATA_CACHE_MISS] = "data_cache_miss",
        [STALL_STRUCT] = "struct_hazard",
        [STALL_MSHR] = "mshr",
    };
    return (unsigned)r < STALL_COUNT ? names[r] : "?";
}

int warp_view_lower_bound(const struct warp_view *w, int n, int slot, uintptr_t hint)
{
    uintptr_t off = hint - (uintptr_t)w;
    if (hint && off % sizeof *w == 0 && off / sizeof *w < (uintptr_t)n && (int)w[off / sizeof *w].slot == slot)
        return (int)(off / sizeof *w);
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((int)w[mid].slot < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
