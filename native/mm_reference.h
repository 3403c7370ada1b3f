/* meeplemind: the bench's reference workload (search/bench.py, engine_over_reference).
 *
 * A fixed C routine shaped like a random playout: copy a start state, then at each
 * step list the open moves by scanning small arrays, draw one with its own splitmix64
 * generator and apply it through table lookups.  Built with the engines' flags into
 * the same module, it is the yardstick the bench divides an engine's playouts per
 * CPU-second by in the same run: a ratio that neither the machine nor its load moves,
 * and that falls when an engine gets slower (docs/measurements.md keeps its history).
 *
 * Keep it unchanged: the history compares ratios across commits, and
 * tests/search/test_engine_speed.py pins its checksum. */
#ifndef MM_REFERENCE_H
#define MM_REFERENCE_H
#include <stdint.h>

/* Play `units` reference playouts from `seed`; returns their checksum, or -1 when
 * units is negative. */
int64_t mm_reference_work(int64_t units, uint64_t seed);
#endif
