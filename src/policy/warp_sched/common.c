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
