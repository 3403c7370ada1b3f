/* meeplemind: the one pseudo-random generator shared by the C engines and the
 * Python reference (engine/rng.py implements the same stream bit for bit).
 *
 * splitmix64: state += golden gamma, then a 64-bit finaliser.  below(n) maps the
 * high 32 bits into [0, n) by multiply-shift (Lemire, no rejection), so both
 * languages draw identical integers from identical seeds. */
#ifndef MM_RNG_H
#define MM_RNG_H
#include <stdint.h>

typedef struct mm_rng {
    uint64_t s;
} mm_rng;

static inline uint64_t mm_rng_next(mm_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n); n must be >= 1. */
static inline uint32_t mm_rng_below(mm_rng *r, uint32_t n)
{
    return (uint32_t)(((mm_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform double in [0, 1). */
static inline double mm_rng_unit(mm_rng *r)
{
    return (double)(mm_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
#endif
