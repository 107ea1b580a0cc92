/* study_json.c - the result files' reader for studies and sweeps (the JSON reader itself: core/json_read.c). */
#include "study.h"
#include "core/file_read.h"

char *sw_read_file(const char *path, size_t *len)
{
    return file_read_all(path, FILE_LIMIT_INPUT, len, NULL, NULL, 0);
}
