/* meeplemind: the range check every decoder runs, over a table the build generates
 * from the game's schema (engine/<game>/schema.py -> native/schema_<game>.h). */
#ifndef MM_SCHEMA_H
#define MM_SCHEMA_H
#include <stdint.h>

/* One cell's range: lo..hi, or lo..vec[bound] when bound >= 0 (an earlier cell). */
typedef struct mm_range {
    int32_t lo, hi, bound;
} mm_range;

/* The first index in [from, len) whose value is out of its range, or -1. */
static inline int32_t mm_check_ranges(const mm_range *table, const int32_t *vec, int32_t from, int32_t len)
{
    for (int32_t i = from; i < len; i++) {
        int32_t hi = table[i].bound >= 0 ? vec[table[i].bound] : table[i].hi;
        if (vec[i] < table[i].lo || vec[i] > hi)
            return i;
    }
    return -1;
}
#endif
