/* meeplemind: the bench's reference workload; see mm_reference.h.  Keep it unchanged. */
#include <string.h>
#include "mm_reference.h"

#define REF_CELLS 256 /* a power of 2 */
#define REF_SEATS 4
#define REF_SCAN 40
#define REF_STEPS 300
#define REF_MONEY 1000

typedef struct ref_state {
    int8_t cell[REF_CELLS];
    int16_t money[REF_SEATS];
    uint16_t legal[REF_SCAN];
    int32_t turn;
} ref_state;

static const int8_t REF_GAIN[64] = {
    -6, 7, 9, 0, 3, -5, -1, -8, -3, -9, -3, -8, -1, -5, 3, 0, 9, 7, -6, -7, 4, 4,
    -7, -6, 7, 9, 0, 3, -5, -1, -8, -3, -9, -3, -8, -1, -5, 3, 0, 9, 7, -6, -7, 4,
    4, -7, -6, 7, 9, 0, 3, -5, -1, -8, -3, -9, -3, -8, -1, -5, 3, 0, 9, 7,
};

static uint64_t ref_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int ref_below(uint64_t *s, int n) { return (int)(((ref_next(s) >> 32) * (uint64_t)n) >> 32); }

static int ref_clamp(int v) { return v < -REF_MONEY ? -REF_MONEY : v > REF_MONEY ? REF_MONEY : v; }

/* The open cells of a step: those of its stretch below the mover's threshold (the
 * cells hold drawn values, so the branch is as unpredictable as a rule's). */
static int ref_moves(ref_state *s, int step)
{
    int n = 0, base = (step * 13) & (REF_CELLS - 1), limit = 2 + (int)((unsigned)s->money[s->turn] & 3u);
    for (int i = 0; i < REF_SCAN; i++) {
        int c = (base + i * 5) & (REF_CELLS - 1);
        if (s->cell[c] < limit)
            s->legal[n++] = (uint16_t)c;
    }
    return n;
}

/* Four kinds of move, reached through a table of functions as a game's are. */
static void ref_take(ref_state *s, int c, int gain)
{
    s->money[s->turn] = (int16_t)ref_clamp(s->money[s->turn] + gain);
    s->cell[c] = (int8_t)((s->cell[c] + 8 + REF_GAIN[c & 63]) & 7);
}

static void ref_pass(ref_state *s, int c, int gain)
{
    for (int p = 0; p < REF_SEATS; p++)
        if (s->money[p] > s->money[s->turn])
            s->money[p] = (int16_t)ref_clamp(s->money[p] - 1);
}

static void ref_swap(ref_state *s, int c, int gain)
{
    int d = (c + 1 + (gain & 7)) & (REF_CELLS - 1);
    int8_t t = s->cell[c];
    s->cell[c] = s->cell[d];
    s->cell[d] = t;
}

static void ref_spread(ref_state *s, int c, int gain)
{
    for (int i = 1; i <= 3; i++) {
        int d = (c + i * 17) & (REF_CELLS - 1);
        if (s->cell[d] > s->cell[c])
            s->cell[d] = (int8_t)(s->cell[d] - 1);
    }
}

static void (*const REF_MOVES[4])(ref_state *, int, int) = {ref_take, ref_pass, ref_swap, ref_spread};

int64_t mm_reference_work(int64_t units, uint64_t seed)
{
    if (units < 0)
        return -1;
    ref_state start, s;
    uint64_t rng = 0x5EEDULL, check = 0;
    memset(&start, 0, sizeof start);
    for (int i = 0; i < REF_CELLS; i++)
        start.cell[i] = (int8_t)ref_below(&rng, 8);
    for (int p = 0; p < REF_SEATS; p++)
        start.money[p] = (int16_t)(3 + p);
    rng = seed;
    for (int64_t u = 0; u < units; u++) {
        memcpy(&s, &start, sizeof s);
        for (int step = 0; step < REF_STEPS; step++) {
            int n = ref_moves(&s, step);
            if (n) {
                int c = s.legal[ref_below(&rng, n)];
                REF_MOVES[c & 3](&s, c, REF_GAIN[(c + step) & 63]);
            }
            s.turn = (s.turn + 1) % REF_SEATS;
        }
        for (int p = 0; p < REF_SEATS; p++)
            check = check * 31 + (uint64_t)(s.money[p] + REF_MONEY);
        check = check * 31 + (uint64_t)s.cell[(int)(check & (REF_CELLS - 1))];
    }
    return (int64_t)(check >> 1);
}
