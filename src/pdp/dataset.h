/*
 * dataset.h - HeteroPDP training data: rows of features (features.h) with the measured
 * execution times of the four scenarios, read from and written to CSV.
 *
 * CSV (docs/heteropdp.md): '#' lines and blank lines are skipped; the first other line is
 * the header.  Columns are named:
 *   the feature names of features.h (threads, buffer_bytes, cpu_salu, ..., dram_util),
 *   time_cpu_alone, time_gpu_alone, time_cpu_coloc, time_gpu_coloc (measured times, > 0;
 *     an empty cell = not measured for that row),
 *   kernel (optional: the kernel a row belongs to; training-set selection drops whole kernels).
 * Any other column is ignored (and listed in `ignored`).  Fields may be double-quoted ("" is a
 * quote inside).  Every row has the header's field count.  A malformed file is an error
 * "FILE:LINE: error: ..." naming the line (and the column where one is at fault).
 *
 * Ownership: a dataset owns its arrays (malloc); pdp_dataset_free releases them.
 */
#ifndef WARPSIM_PDP_DATASET_H
#define WARPSIM_PDP_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pdp/features.h"

enum pdp_target { PDP_CPU = 0, PDP_GPU = 1, PDP_NTARGETS };
enum pdp_scen { PDP_ALONE = 0, PDP_COLOC = 1, PDP_NSCENS };

const char *pdp_target_name(enum pdp_target t);             /* "cpu", "gpu" */
const char *pdp_scen_name(enum pdp_scen s);                 /* "alone", "coloc" */
const char *pdp_time_column(enum pdp_target t, enum pdp_scen s);   /* "time_cpu_alone" */

struct pdp_dataset {
    size_t n, cap;
    struct pdp_features *x;                        /* n rows */
    double (*y)[PDP_NTARGETS][PDP_NSCENS];         /* measured times; NaN = not measured */
    uint32_t *group;                               /* kernel index of each row (into group_names) */
    uint32_t *line;                                /* source line of each row (0 = added in memory) */
    char **group_names;
    size_t ngroups, group_cap;
    bool has_feat[PDP_F_COUNT];                    /* columns present */
    bool has_time[PDP_NTARGETS][PDP_NSCENS];
    bool has_group;
    char path[256];
    char ignored[512];                             /* "a, b" columns read past */
};

void pdp_dataset_init(struct pdp_dataset *d);
void pdp_dataset_free(struct pdp_dataset *d);

/* Append a row (for a training campaign that measures in memory).  group may be NULL (then
   each row is its own group "rowN").  y entries may be NaN.  Marks every feature and the
   measured times' columns present.  Returns 0, or -1 with a message. */
int pdp_dataset_add(struct pdp_dataset *d, const struct pdp_features *x,
                    const double y[PDP_NTARGETS][PDP_NSCENS], const char *group, char *msg, size_t n);

/* Parse CSV text (path for messages) into an empty dataset.  0, or -1 with
   "PATH:LINE: error: ..." in msg. */
int pdp_dataset_parse_csv(struct pdp_dataset *d, const char *text, size_t len, const char *path, char *msg,
                          size_t n);
/* Read a CSV file (file_read_all's limits apply). */
int pdp_dataset_load_csv(struct pdp_dataset *d, const char *path, char *msg, size_t n);
/* Write every column (kernel, the features, the four times) and row; 0 or -1 on a write error. */
int pdp_dataset_write_csv(const struct pdp_dataset *d, FILE *f);

#endif
