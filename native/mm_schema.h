/* meeplemind: the checks every decoder runs first, over a range table the build
 * generates from the game's schema (engine/<game>/schema.py -> native/schema_<game>.h).
 * The rejection's words are written here, once, for every game. */
#ifndef MM_SCHEMA_H
#define MM_SCHEMA_H
#include <stdint.h>
#include "mm_game.h"

/* One cell's range: lo..hi, or lo..vec[bound] when bound >= 0 (an earlier cell);
 * seat >= 0 when the cell is a seat's beyond the player count (it holds its empty value). */
typedef struct mm_range {
    int32_t lo, hi, bound, seat;
} mm_range;

/* One layout of a game's state vector, from its generated header. */
typedef struct mm_layout_check {
    int32_t len, version, min_players, max_players;
    const mm_range *ranges; /* [players - min_players][len] */
} mm_layout_check;

/* The first cell of [from, len) out of its range: the verdict, or -1. */
static inline int32_t mm_check_ranges(const mm_range *table, const int32_t *vec, int32_t from, int32_t len,
                                      mm_verdict *out)
{
    for (int32_t i = from; i < len; i++) {
        int32_t hi = table[i].bound >= 0 ? vec[table[i].bound] : table[i].hi;
        if (vec[i] >= table[i].lo && vec[i] <= hi)
            continue;
        int below = vec[i] < table[i].lo;
        if (table[i].seat >= 0)
            return mm_reject(out, i, "%d is %s %d (seat %d is not in a %d-player game)", vec[i],
                             below ? "below" : "above", below ? table[i].lo : hi, table[i].seat, vec[1]);
        return mm_reject(out, i, "%d is %s %d", vec[i], below ? "below" : "above", below ? table[i].lo : hi);
    }
    return -1;
}

/* The length (cell -1), the layout version (cell 0), the player count (cell 1), then
 * every cell's range in vector order: MM_OK or the MM_ERR_* code, with the verdict. */
static inline int mm_check_layout(const mm_layout_check *L, const int32_t *vec, int32_t len, mm_verdict *out)
{
    if (!vec || len != L->len) {
        mm_reject(out, -1, "vector has %d entries, expected %d", len, L->len);
        return MM_ERR_LENGTH;
    }
    if (vec[0] != L->version) {
        mm_reject(out, 0, "layout version %d is not %d", vec[0], L->version);
        return MM_ERR_VERSION;
    }
    if (vec[1] < L->min_players || vec[1] > L->max_players) {
        mm_reject(out, 1, "%d players is not supported (%d-%d)", vec[1], L->min_players, L->max_players);
        return MM_ERR_RANGE;
    }
    if (mm_check_ranges(L->ranges + (vec[1] - L->min_players) * L->len, vec, 2, len, out) >= 0)
        return MM_ERR_RANGE;
    return MM_OK;
}
#endif
