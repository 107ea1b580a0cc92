/* lru.c - least-recently-used replacement: hits and fills refresh a line's stamp (stamp.h). */
#include "policy/repl/stamp.h"

const struct repl_ops repl_lru_ops = {
    .name = "lru",
    .doc = "least recently used (hit or fill), invalid ways first",
    .state_size = repl_stamp_state_size,
    .init = repl_stamp_init,
    .victim = repl_stamp_victim,
    .on_hit = repl_stamp_touch,
    .on_fill = repl_stamp_touch,
    .on_evict = NULL,
    .victim_pure = 1,
};
