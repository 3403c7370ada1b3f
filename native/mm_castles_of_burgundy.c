/* meeplemind: The Castles of Burgundy in C; see mm_castles_of_burgundy.h.  Function
 * names follow engine/castles_of_burgundy (state.py, estate.py, scoring.py) so the
 * two can be read side by side; decode is the one validator of positions. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "mm_castles_of_burgundy.h"
#include "evaluation_castles_of_burgundy.h"
#include "mm_eval.h"
#include "schema_castles_of_burgundy.h"
#include "layout_castles_of_burgundy.h"
#include "mm_layout.h"

typedef mm_cob_state state;
typedef mm_cob_player player;

#define NP MM_COB_MAX_PLAYERS
#define NC MM_COB_CELLS
#define NT MM_COB_TILES
#define NG MM_COB_GOODS
#define ND MM_COB_DEPOTS
#define DS MM_COB_DEPOT_SLOTS
#define SPACES (ND * DS)
#define BS MM_COB_BLACK_SLOTS
#define STORAGE MM_COB_STORAGE
#define ROUNDS MM_COB_ROUNDS
#define MAX_LEGAL MM_COB_MAX_LEGAL
#define PHASES 5
#define COLOURS 6
#define REGIONS 13
#define GOODS_SPACES 3
#define GOODS_PER_COLOUR 7
#define BUY_PRICE 2
#define START_CELL 18 /* space 19: the start castle */
#define POSITION_BYTES offsetof(state, num_legal)

enum { CASTLE, MINE, SHIP, BUILDING, ANIMAL, KNOWLEDGE };
enum {
    T_CASTLE, T_MINE, T_SHIP, T_WAREHOUSE, T_CARPENTER, T_CHURCH, T_MARKET, T_BOARDING_HOUSE,
    T_BANK, T_CITY_HALL, T_WATCHTOWER, T_ANIMAL, T_KNOWLEDGE = T_ANIMAL + 12
};
/* Knowledge tiles by their printed number (rules §8). */
enum {
    K_DUPLICATE_BUILDINGS = 1, K_MINE_WORKER, K_SALE_SILVERLING, K_SALE_WORKER, K_TWO_DEPOT_SHIP,
    K_BUY_ANY_DEPOT, K_ANIMAL_BONUS, K_WORKER_TWO_STEPS, K_FREE_BUILDING, K_FREE_SHIP_ANIMAL,
    K_FREE_CASTLE_MINE_KNOWLEDGE, K_FREE_TAKE, K_WORKERS_SILVERLING, K_FOUR_WORKERS,
    K_SOLD_COLOURS, K_WAREHOUSE_VP, K_WATCHTOWER_VP, K_CARPENTER_VP, K_CHURCH_VP, K_MARKET_VP,
    K_BOARDING_HOUSE_VP, K_BANK_VP, K_CITY_HALL_VP, K_ANIMAL_TYPES, K_SOLD_TILES, K_BONUS_TILES
};
enum {
    ST_TURN, ST_DISCARD, ST_TILE, ST_CASTLE, ST_CITY_HALL, ST_CARPENTER, ST_CHURCH, ST_MARKET,
    ST_WAREHOUSE, ST_SHIP, ST_GOODS, ST_END
};
#define BIT(x) (1u << (x))
#define ALL_COLOURS 0x3F

/* ------------------------------------------------------------------ tables (data.py, board.py) */

/* Tiles per kind with a colour back (start castles included) and with a black back. */
static const int8_t COLOUR_BACKED[NT] = {
    14, 10, 20,                                     /* castle, mine, ship */
    5, 5, 5, 5, 5, 5, 5, 5,                         /* the 8 buildings */
    2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1,             /* cows, pigs, sheep, chickens x 2-4 */
    1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1, /* knowledge #1-#16 */
    1, 1, 1, 1, 1, 1, 1, 0, 0, 1,                   /* knowledge #17-#26 */
};
static const int8_t BLACK_BACKED[NT] = {
    2, 2, 6,
    2, 2, 2, 2, 2, 2, 2, 2,
    0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1,
    0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 1, 1, 0,
};
/* The kinds of colour c are KINDS_FROM[c] .. KINDS_FROM[c + 1] - 1. */
static const int8_t KINDS_FROM[COLOURS + 1] = {T_CASTLE, T_MINE, T_SHIP, T_WAREHOUSE, T_ANIMAL,
                                               T_KNOWLEDGE, NT};
/* Printed colour of every slot of depots 1-6 (slot 2 from 3 players, slot 3 with 4). */
static const int8_t DEPOT_LAYOUT[ND][DS] = {
    {BUILDING, SHIP, KNOWLEDGE, ANIMAL},  {KNOWLEDGE, CASTLE, BUILDING, BUILDING},
    {ANIMAL, BUILDING, SHIP, KNOWLEDGE},  {SHIP, BUILDING, ANIMAL, MINE},
    {MINE, KNOWLEDGE, BUILDING, BUILDING}, {BUILDING, ANIMAL, CASTLE, SHIP},
};
/* 3 players (2011 rulebook, page 3): the castle space of depot 6 (slot 2) takes a
 * mine in phases B and D (data.py depot_colour). */
static int depot_colour(int players, int phase, int d, int slot)
{
    if (players == 3 && d == 5 && slot == 2 && (phase == 1 || phase == 3))
        return MINE;
    return DEPOT_LAYOUT[d][slot];
}
static const int8_t PHASE_BONUS[PHASES] = {10, 8, 6, 4, 2};
static const int8_t REGION_VP[9] = {0, 1, 3, 6, 10, 15, 21, 28, 36};
/* Bonus tiles: large (first) and small (second) by player count. */
static const int8_t BONUS_VP[NP + 1][2] = {[2] = {5, 2}, [3] = {6, 3}, [4] = {7, 4}};
#define WATCHTOWER_VP 4
#define BOARDING_HOUSE_WORKERS 4
#define BANK_SILVERLINGS 2
#define KNOWLEDGE_END_VP 4 /* per building (#16-#23) and per animal type (#24) */
#define SOLD_COLOUR_VP 3   /* knowledge #15 */
#define BONUS_TILE_VP 2    /* knowledge #26 */

/* Estate board No. 1: colour, die number, region and neighbours of every cell. */
typedef struct cell {
    int8_t colour, die, region, neighbours[6]; /* -1 ends the list */
} cell;

static const cell CELLS[NC] = {
    {ANIMAL, 6, 0, {1, 4, 5, -1, -1, -1}},          /* 1 */
    {CASTLE, 5, 1, {0, 2, 5, 6, -1, -1}},           /* 2 */
    {CASTLE, 4, 1, {1, 3, 6, 7, -1, -1}},           /* 3 */
    {KNOWLEDGE, 3, 2, {2, 7, 8, -1, -1, -1}},       /* 4 */
    {ANIMAL, 2, 0, {0, 5, 9, 10, -1, -1}},          /* 5 */
    {ANIMAL, 1, 0, {0, 1, 4, 6, 10, 11}},           /* 6 */
    {CASTLE, 6, 1, {1, 2, 5, 7, 11, 12}},           /* 7 */
    {KNOWLEDGE, 5, 2, {2, 3, 6, 8, 12, 13}},        /* 8 */
    {BUILDING, 4, 3, {3, 7, 13, 14, -1, -1}},       /* 9 */
    {ANIMAL, 5, 0, {4, 10, 15, 16, -1, -1}},        /* 10 */
    {ANIMAL, 4, 0, {4, 5, 9, 11, 16, 17}},          /* 11 */
    {BUILDING, 3, 4, {5, 6, 10, 12, 17, 18}},       /* 12 */
    {KNOWLEDGE, 1, 2, {6, 7, 11, 13, 18, 19}},      /* 13 */
    {BUILDING, 2, 3, {7, 8, 12, 14, 19, 20}},       /* 14 */
    {BUILDING, 3, 3, {8, 13, 20, 21, -1, -1}},      /* 15 */
    {SHIP, 6, 5, {9, 16, 22, -1, -1, -1}},          /* 16 */
    {SHIP, 1, 5, {9, 10, 15, 17, 22, 23}},          /* 17 */
    {SHIP, 2, 5, {10, 11, 16, 18, 23, 24}},         /* 18 */
    {CASTLE, 6, 6, {11, 12, 17, 19, 24, 25}},       /* 19 */
    {SHIP, 5, 7, {12, 13, 18, 20, 25, 26}},         /* 20 */
    {SHIP, 4, 7, {13, 14, 19, 21, 26, 27}},         /* 21 */
    {SHIP, 1, 7, {14, 20, 27, -1, -1, -1}},         /* 22 */
    {BUILDING, 2, 8, {15, 16, 23, 28, -1, -1}},     /* 23 */
    {BUILDING, 5, 8, {16, 17, 22, 24, 28, 29}},     /* 24 */
    {MINE, 4, 9, {17, 18, 23, 25, 29, 30}},         /* 25 */
    {BUILDING, 3, 10, {18, 19, 24, 26, 30, 31}},    /* 26 */
    {BUILDING, 1, 10, {19, 20, 25, 27, 31, 32}},    /* 27 */
    {ANIMAL, 2, 11, {20, 21, 26, 32, -1, -1}},      /* 28 */
    {BUILDING, 6, 8, {22, 23, 29, 33, -1, -1}},     /* 29 */
    {MINE, 1, 9, {23, 24, 28, 30, 33, 34}},         /* 30 */
    {KNOWLEDGE, 2, 12, {24, 25, 29, 31, 34, 35}},   /* 31 */
    {BUILDING, 5, 10, {25, 26, 30, 32, 35, 36}},    /* 32 */
    {BUILDING, 6, 10, {26, 27, 31, 36, -1, -1}},    /* 33 */
    {MINE, 3, 9, {28, 29, 34, -1, -1, -1}},         /* 34 */
    {KNOWLEDGE, 4, 12, {29, 30, 33, 35, -1, -1}},   /* 35 */
    {KNOWLEDGE, 1, 12, {30, 31, 34, 36, -1, -1}},   /* 36 */
    {BUILDING, 3, 10, {31, 32, 35, -1, -1, -1}},    /* 37 */
};
/* The cells of every region (R01-R13: in order of their lowest cell), -1 ends a list. */
static const int8_t REGION_CELLS[REGIONS][6] = {
    {0, 4, 5, 9, 10, -1}, {1, 2, 6, -1}, {3, 7, 12, -1}, {8, 13, 14, -1}, {11, -1},
    {15, 16, 17, -1}, {18, -1}, {19, 20, 21, -1}, {22, 23, 28, -1}, {24, 29, 33, -1},
    {25, 26, 31, 32, 36, -1}, {27, -1}, {30, 34, 35, -1},
};
/* The cells of every colour, as bitmasks (from CELLS). */
static const uint64_t COLOUR_CELLS[COLOURS] = {
    0x40046, 0x221000000, 0x3b8000, 0x1196c06900, 0x8000631, 0xc40001088,
};

/* ------------------------------------------------------------------ small helpers */

static const int8_t TILE_COLOUR[NT] = {
    CASTLE, MINE, SHIP,
    BUILDING, BUILDING, BUILDING, BUILDING, BUILDING, BUILDING, BUILDING, BUILDING,
    ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL, ANIMAL,
    KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE,
    KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE,
    KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE, KNOWLEDGE,
    KNOWLEDGE, KNOWLEDGE,
};

static int tile_colour(int t) { return TILE_COLOUR[t]; }

static int tile_total(int t) { return COLOUR_BACKED[t] + BLACK_BACKED[t]; }

static int animal_type(int t) { return (t - T_ANIMAL) / 3; }

static int animal_count(int t) { return (t - T_ANIMAL) % 3 + 2; }

static int min_int(int a, int b) { return a < b ? a : b; }


static int lowest(uint64_t x) { return __builtin_ctzll(x); }

static uint64_t neighbour_mask(int c)
{
    uint64_t m = 0;
    for (int i = 0; i < 6 && CELLS[c].neighbours[i] >= 0; i++)
        m |= 1ull << CELLS[c].neighbours[i];
    return m;
}

static uint64_t region_mask(int r)
{
    uint64_t m = 0;
    for (int i = 0; i < 6 && REGION_CELLS[r][i] >= 0; i++)
        m |= 1ull << REGION_CELLS[r][i];
    return m;
}

static int knows(const player *p, int k) { return p->knows >> (k - 1) & 1; }

static int current(const state *s) { return s->round_order[s->turn]; }

static int held_mask(const player *p)
{
    int m = 0;
    for (int g = 0; g < NG; g++)
        m |= (p->goods[g] > 0) << g;
    return m;
}

/* state.py worker_cost as a table, COST[step - 1][free][die][number]: the workers
 * that turn a die into a number (6 and 1 are neighbours), each changing it by up
 * to `step` (1, or 2 with knowledge #8) after `free` (0 or 1) steps of a
 * knowledge tile (#9-#12).  Row and column 0 are unused. */
static const int8_t COST[2][2][7][7] = {
    {
        /* one step per worker, 0 free steps: die 1-6 by number 1-6 */
        {{0}, {0, 0, 1, 2, 3, 2, 1}, {0, 1, 0, 1, 2, 3, 2}, {0, 2, 1, 0, 1, 2, 3},
         {0, 3, 2, 1, 0, 1, 2}, {0, 2, 3, 2, 1, 0, 1}, {0, 1, 2, 3, 2, 1, 0}},
        /* one step per worker, 1 free step: die 1-6 by number 1-6 */
        {{0}, {0, 0, 0, 1, 2, 1, 0}, {0, 0, 0, 0, 1, 2, 1}, {0, 1, 0, 0, 0, 1, 2},
         {0, 2, 1, 0, 0, 0, 1}, {0, 1, 2, 1, 0, 0, 0}, {0, 0, 1, 2, 1, 0, 0}},
    },
    {
        /* two steps per worker, 0 free steps: die 1-6 by number 1-6 */
        {{0}, {0, 0, 1, 1, 2, 1, 1}, {0, 1, 0, 1, 1, 2, 1}, {0, 1, 1, 0, 1, 1, 2},
         {0, 2, 1, 1, 0, 1, 1}, {0, 1, 2, 1, 1, 0, 1}, {0, 1, 1, 2, 1, 1, 0}},
        /* two steps per worker, 1 free step: die 1-6 by number 1-6 */
        {{0}, {0, 0, 0, 1, 1, 1, 0}, {0, 0, 0, 0, 1, 1, 1}, {0, 1, 0, 0, 0, 1, 1},
         {0, 1, 1, 0, 0, 0, 1}, {0, 1, 1, 1, 0, 0, 0}, {0, 0, 1, 1, 1, 0, 0}},
    },
};

static int worker_cost(int die, int target, int free, int step)
{
    return COST[step - 1][free][die][target];
}

static int step_of(const player *p) { return knows(p, K_WORKER_TWO_STEPS) ? 2 : 1; }

/* Knowledge #9-#11: the free step for placing on a cell of this colour. */
static int free_place(const player *p, int colour)
{
    static const int8_t FREE_PLACE_KNOWLEDGE[COLOURS] = {
        K_FREE_CASTLE_MINE_KNOWLEDGE, K_FREE_CASTLE_MINE_KNOWLEDGE, K_FREE_SHIP_ANIMAL,
        K_FREE_BUILDING, K_FREE_SHIP_ANIMAL, K_FREE_CASTLE_MINE_KNOWLEDGE,
    };
    return knows(p, FREE_PLACE_KNOWLEDGE[colour]);
}

static int take_cost(const player *p, int source, int space)
{
    return worker_cost(source, space / DS + 1, knows(p, K_FREE_TAKE), step_of(p));
}

static int place_cost(const player *p, int source, int c)
{
    return worker_cost(source, CELLS[c].die, free_place(p, CELLS[c].colour), step_of(p));
}

/* Storage ascending with empty spaces (-1) last. */
static void sort_storage(int8_t *st)
{
    for (int i = 1; i < STORAGE; i++)
        for (int j = i; j > 0 && (uint8_t)st[j - 1] > (uint8_t)st[j]; j--) {
            int8_t t = st[j];
            st[j] = st[j - 1];
            st[j - 1] = t;
        }
}

static void remove_from_storage(player *p, int tile)
{
    for (int i = 0; i < STORAGE; i++)
        if (p->storage[i] == tile) {
            p->storage[i] = -1;
            break;
        }
    sort_storage(p->storage);
}

/* Put a tile on an empty cell and update the derived fields. */
static void put_tile(player *p, int c, int tile)
{
    p->estate[c] = (int8_t)tile;
    p->filled |= 1ull << c;
    p->frontier = (p->frontier | neighbour_mask(c)) & ~p->filled;
    if (tile >= T_KNOWLEDGE)
        p->knows |= BIT(tile - T_KNOWLEDGE);
    p->ships += tile == T_SHIP;
    p->mines += tile == T_MINE;
}

/* ------------------------------------------------------------------ estate (estate.py) */

/* Whether `tile` may go onto the empty frontier `cell` (colour, one building of each
 * kind per city unless knowledge #1). */
static int fits(const player *p, int c, int tile)
{
    int colour = CELLS[c].colour;
    if (tile_colour(tile) != colour)
        return 0;
    if (colour == BUILDING && !knows(p, K_DUPLICATE_BUILDINGS)) {
        const int8_t *r = REGION_CELLS[CELLS[c].region];
        for (int i = 0; i < 6 && r[i] >= 0; i++)
            if (p->estate[r[i]] == tile)
                return 0;
    }
    return 1;
}

/* The buildings in the city of cell c, as a mask of building kinds. */
static int city_buildings(const player *p, int c)
{
    const int8_t *r = REGION_CELLS[CELLS[c].region];
    int kinds = 0;
    for (int i = 0; i < 6 && r[i] >= 0; i++)
        if (p->estate[r[i]] >= 0)
            kinds |= 1 << (p->estate[r[i]] - T_WAREHOUSE);
    return kinds;
}

/* The cells some stored tile may be added to, as a bitmask (storage is ascending
 * with empty spaces last). */
static uint64_t placements(const player *p)
{
    int t0 = p->storage[0], t1 = p->storage[1], t2 = p->storage[2];
    if (t0 < 0)
        return 0;
    uint64_t colours = COLOUR_CELLS[tile_colour(t0)];
    int stored_buildings = tile_colour(t0) == BUILDING ? 1 << (t0 - T_WAREHOUSE) : 0;
    if (t1 >= 0) {
        colours |= COLOUR_CELLS[tile_colour(t1)];
        stored_buildings |= tile_colour(t1) == BUILDING ? 1 << (t1 - T_WAREHOUSE) : 0;
    }
    if (t2 >= 0) {
        colours |= COLOUR_CELLS[tile_colour(t2)];
        stored_buildings |= tile_colour(t2) == BUILDING ? 1 << (t2 - T_WAREHOUSE) : 0;
    }
    uint64_t cells = p->frontier & colours;
    uint64_t cities = cells & COLOUR_CELLS[BUILDING];
    if (cities && !knows(p, K_DUPLICATE_BUILDINGS))
        for (; cities; cities &= cities - 1) { /* one building of each kind per city */
            int c = lowest(cities);
            if (!(stored_buildings & ~city_buildings(p, c)))
                cells &= ~(1ull << c);
        }
    return cells;
}

/* VP for the tile just placed on `c` completing its region (0 if it does not). */
static int region_points(const player *p, int c, int phase)
{
    uint64_t r = region_mask(CELLS[c].region);
    return (p->filled & r) == r ? REGION_VP[mm_popcount(r)] + PHASE_BONUS[phase] : 0;
}

/* VP of the animal tile just placed on `c`: the animals of its type on every tile
 * of its pasture (this one included), plus 1 per such tile with knowledge #7. */
static int animal_points(const player *p, int c)
{
    const int8_t *r = REGION_CELLS[CELLS[c].region];
    int kind = animal_type(p->estate[c]), bonus = knows(p, K_ANIMAL_BONUS), points = 0;
    for (int i = 0; i < 6 && r[i] >= 0; i++) {
        int t = p->estate[r[i]];
        if (t >= 0 && animal_type(t) == kind)
            points += animal_count(t) + bonus;
    }
    return points;
}

/* ------------------------------------------------------------------ legal moves */

static int legal_ids(const state *s, uint16_t *out);
static void do_move(state *s, int a, mm_rng *rng);
static void clear_depots(state *s);

static int wanted(int t, int colours) { return t >= 0 && (colours >> tile_colour(t) & 1); }

/* The slots of depot d to take from, as a 4-bit mask: the first of equal tiles, of
 * the colours in the mask. */
static int depot_firsts(const state *s, int d, int colours)
{
    const int8_t *slot = s->depots + d * DS;
    int t0 = slot[0], t1 = slot[1], t2 = slot[2], t3 = slot[3];
    return wanted(t0, colours) | (wanted(t1, colours) && t1 != t0) << 1
         | (wanted(t2, colours) && t2 != t0 && t2 != t1) << 2
         | (wanted(t3, colours) && t3 != t0 && t3 != t1 && t3 != t2) << 3;
}

/* Rebuild the derived s->takes after a change to depot d. */
static void refresh_takes(state *s, int d)
{
    s->takes = (s->takes & ~(0xFu << d * DS)) | (uint32_t)depot_firsts(s, d, ALL_COLOURS) << d * DS;
}

static void refresh_all_takes(state *s)
{
    for (int d = 0; d < ND; d++)
        refresh_takes(s, d);
}

/* Depot spaces (depot * 4 + slot) to take from, of the colours in the mask,
 * ascending. */
static int depot_choices(const state *s, int colours, int8_t *out)
{
    int n = 0;
    for (uint32_t m = s->takes; m; m &= m - 1) {
        int a = lowest(m);
        if (colours >> tile_colour(s->depots[a]) & 1)
            out[n++] = (int8_t)a;
    }
    return n;
}

static int can_buy(const state *s, const player *p)
{
    if (s->bought || p->silverlings < BUY_PRICE)
        return 0;
    for (int i = 0; i < BS; i++)
        if (s->black[i] >= 0)
            return 1;
    return knows(p, K_BUY_ANY_DEPOT) && s->takes;
}

static int buy_moves(const state *s, const player *p, uint16_t *out)
{
    int n = 0;
    if (s->bought || p->silverlings < BUY_PRICE)
        return 0;
    for (int i = 0; i < BS; i++) {
        int t = s->black[i], first = t >= 0;
        for (int j = 0; j < i && first; j++)
            first = s->black[j] != t;
        if (first)
            out[n++] = (uint16_t)(MM_COB_A_BUY_BLACK + i);
    }
    if (knows(p, K_BUY_ANY_DEPOT)) {
        int8_t spaces[SPACES];
        int count = depot_choices(s, ALL_COLOURS, spaces);
        for (int i = 0; i < count; i++)
            out[n++] = (uint16_t)(MM_COB_A_BUY + spaces[i]);
    }
    return n;
}

/* Whether the player to move has used his dice and cannot buy any more. */
static int turn_over(const state *s)
{
    const player *p = &s->p[current(s)];
    return s->stage == ST_TURN && p->dice[1] == 0 && !can_buy(s, p);
}

static int last_turn_of_phase(const state *s)
{
    return s->round == ROUNDS - 1 && s->turn == s->players - 1;
}

/* state.py _outcome: the position after `action` and every forced move of the same
 * turn; when that ends the last turn of a phase, with the depots cleared as the
 * phase end clears them.  A turn never draws, so no rng is needed. */
static void outcome(const state *s, int action, state *out)
{
    uint16_t ids[MAX_LEGAL];
    mm_rng none = {0};
    memcpy(out, s, POSITION_BYTES);
    do_move(out, action, &none);
    while (!turn_over(out)) {
        if (legal_ids(out, ids) != 1)
            return;
        do_move(out, ids[0], &none);
    }
    if (last_turn_of_phase(out))
        clear_depots(out);
}

static int same_outcome(const state *s, int a, int b)
{
    state x, y;
    outcome(s, a, &x);
    outcome(s, b, &y);
    return memcmp(&x, &y, POSITION_BYTES) == 0;
}

/* A die action offered with either die: the higher-die id, the lower-die id, the
 * workers both cost and the depot space taken (-1: none). */
typedef struct twin {
    uint16_t high, low;
    int8_t cost, space;
} twin;

/* The die actions of a turn being generated: each kind of action (sell, take,
 * place) is offered with the lower die at once and with the higher die into
 * `high`, appended when the kind is complete, so the ids ascend. */
typedef struct turn_offers {
    int dice[2], nd, workers, ntwins, nh;
    const int8_t *cost[2][2]; /* per die, free step (0/1): workers by number */
    uint16_t high[NC];
    twin twins[1 + NG + SPACES + NC];
} turn_offers;

/* state.py offer(): the action `arg` of a kind (ids base + die * stride + arg)
 * with every die that can pay its cost, noting twins (space: the depot space
 * taken, -1 for none). */
static inline int offer(turn_offers *t, uint16_t *out, int n, int base, int stride, int arg,
                        int low_cost, int high_cost, int space)
{
    /* written always, counted when payable: no branch to mispredict (an entry past the
     * count is within the buffers, since each iteration adds at most one) */
    int low = base + t->dice[0] * stride + arg;
    out[n] = (uint16_t)low;
    n += low_cost <= t->workers;
    if (t->nd == 2) {
        int high = base + t->dice[1] * stride + arg, paid = high_cost <= t->workers;
        t->high[t->nh] = (uint16_t)high;
        t->nh += paid;
        if (paid && low_cost == high_cost)
            t->twins[t->ntwins++] = (twin){(uint16_t)high, (uint16_t)low, (int8_t)low_cost,
                                           (int8_t)space};
    }
    return n;
}

/* The higher die's ids of the kind just offered. */
static int offer_high(turn_offers *t, uint16_t *out, int n)
{
    for (int i = 0; i < t->nh; i++)
        out[n++] = t->high[i];
    t->nh = 0;
    return n;
}

/* state.py _may_take: whether a die can still take a depot tile (other than the one
 * in space `used`) with `workers`.  Then the die left over after one of two twin
 * actions is a real choice, and the twins differ. */
static int may_take(const state *s, const turn_offers *t, int free_take, int workers, int used)
{
    for (int a = 0; a < SPACES; a++)
        if (s->depots[a] >= 0 && a != used)
            for (int i = 0; i < t->nd; i++)
                if (t->cost[i][free_take][a / DS + 1] <= workers)
                    return 1;
    return 0;
}

static int remove_id(uint16_t *ids, int n, int id)
{
    int j = 0;
    for (int i = 0; i < n; i++)
        if (ids[i] != id)
            ids[j++] = ids[i];
    return j;
}

/* The four die actions with each distinct die, the purchases, and pass when the
 * dice are used.  The same action with either of two dice at the same cost is
 * offered once (lower die) when the die left over would then be forced, since
 * both reach one position. */
static int turn_moves(const state *s, const player *p, uint16_t *out)
{
    turn_offers t; /* not zeroed: every field is written before it is read */
    int n = 0, step = step_of(p), free_take = knows(p, K_FREE_TAKE);
    t.nd = t.ntwins = t.nh = 0;
    t.workers = p->workers;
    for (int i = 0; i < 2; i++)
        if (p->dice[i] && (t.nd == 0 || t.dice[t.nd - 1] != p->dice[i]))
            t.dice[t.nd++] = p->dice[i];
    if (!t.nd) {
        int buys = buy_moves(s, p, out + 1);
        out[0] = MM_COB_A_PASS;
        return buys ? buys + 1 : 0;
    }
    for (int i = 0; i < t.nd; i++) {
        out[n++] = (uint16_t)(MM_COB_A_WORKERS + t.dice[i]);
        t.cost[i][0] = COST[step - 1][0][t.dice[i]];
        t.cost[i][1] = COST[step - 1][1][t.dice[i]];
    }
    if (t.nd == 2)
        t.twins[t.ntwins++] = (twin){out[1], out[0], 0, -1};
    /* the cost tables of both dice (the same die twice when there is one) */
    const int8_t *low[2] = {t.cost[0][0], t.cost[0][1]};
    const int8_t *high[2] = {t.cost[t.nd - 1][0], t.cost[t.nd - 1][1]};
    for (int g = 0; g < NG; g++)
        if (p->goods[g])
            n = offer(&t, out, n, MM_COB_A_SELL, NG, g, low[0][g + 1], high[0][g + 1], -1);
    n = offer_high(&t, out, n);
    for (uint32_t m = s->takes; m; m &= m - 1) {
        int a = lowest(m), number = a / DS + 1;
        n = offer(&t, out, n, MM_COB_A_TAKE, SPACES, a, low[free_take][number],
                  high[free_take][number], a);
    }
    n = offer_high(&t, out, n);
    int8_t free[COLOURS];
    for (int colour = 0; colour < COLOURS; colour++)
        free[colour] = (int8_t)free_place(p, colour);
    for (uint64_t m = placements(p); m; m &= m - 1) {
        int c = lowest(m), f = free[CELLS[c].colour], number = CELLS[c].die;
        n = offer(&t, out, n, MM_COB_A_PLACE, NC, c, low[f][number], high[f][number], -1);
    }
    n = offer_high(&t, out, n);
    for (int i = 0; i < t.ntwins; i++) {
        const twin *w = &t.twins[i];
        if (!may_take(s, &t, free_take, t.workers - w->cost, w->space)
            && same_outcome(s, w->high, w->low))
            n = remove_id(out, n, w->high);
    }
    return n + buy_moves(s, p, out + n);
}

/* The castle's extra action: any of the four actions as with a die of any number. */
static int castle_moves(const state *s, const player *p, uint16_t *out)
{
    int8_t spaces[SPACES];
    int n = 0, count = depot_choices(s, ALL_COLOURS, spaces);
    out[n++] = MM_COB_A_WORKERS;
    for (int g = 0; g < NG; g++)
        if (p->goods[g])
            out[n++] = (uint16_t)(MM_COB_A_SELL + g);
    for (int i = 0; i < count; i++)
        out[n++] = (uint16_t)(MM_COB_A_TAKE + spaces[i]);
    for (uint64_t m = placements(p); m; m &= m - 1)
        out[n++] = (uint16_t)(MM_COB_A_PLACE + lowest(m));
    return n;
}

static int city_hall_moves(const player *p, uint16_t *out)
{
    int n = 0;
    out[n++] = MM_COB_A_PASS;
    for (uint64_t m = placements(p); m; m &= m - 1)
        out[n++] = (uint16_t)(MM_COB_A_PLACE + lowest(m));
    return n;
}

/* Carpenter's Workshop, Church, Market: the colours they take from the depots. */
static int free_take_colours(int stage)
{
    return stage == ST_CARPENTER ? BIT(BUILDING)
         : stage == ST_CHURCH ? BIT(CASTLE) | BIT(MINE) | BIT(KNOWLEDGE)
         : BIT(SHIP) | BIT(ANIMAL);
}

static int free_take_moves(const state *s, uint16_t *out)
{
    int8_t spaces[SPACES];
    int n = 0, count = depot_choices(s, free_take_colours(s->stage), spaces);
    out[n++] = MM_COB_A_PASS;
    for (int i = 0; i < count; i++)
        out[n++] = (uint16_t)(MM_COB_A_TAKE + spaces[i]);
    return n;
}

static int warehouse_moves(const player *p, uint16_t *out)
{
    int n = 0;
    for (int g = 0; g < NG; g++)
        if (p->goods[g])
            out[n++] = (uint16_t)(MM_COB_A_SELL + g);
    return n;
}

/* Storage is full: each distinct stored kind (storage is ascending). */
static int discard_moves(const player *p, uint16_t *out)
{
    int n = 0;
    for (int i = 0; i < STORAGE; i++)
        if (p->storage[i] >= 0 && (i == 0 || p->storage[i] != p->storage[i - 1]))
            out[n++] = (uint16_t)(MM_COB_A_DISCARD + p->storage[i]);
    return n;
}

/* The distinct stored kinds that fit the chosen cell, ascending. */
static int tile_moves(const state *s, const player *p, uint16_t *out)
{
    int n = 0;
    for (int i = 0; i < STORAGE; i++) {
        int t = p->storage[i];
        if (t >= 0 && (i == 0 || t != p->storage[i - 1]) && fits(p, s->pending_cell, t))
            out[n++] = (uint16_t)(MM_COB_A_TILE + t);
    }
    return n;
}

static int depot_pair(int i) { return (int)(BIT(i) | BIT((i + 1) % ND)); }

/* state.py _ship_choices: writes the goods colour sets a ship may take from the
 * depots in `mask` and returns their number; *kept gets the colours taken anyway
 * because the player already stores them.  Every set takes something from every
 * depot of the mask; no set is listed when nothing can be taken. */
static int ship_choices(const state *s, const player *p, int mask, uint8_t *sets, int *kept)
{
    int present[ND], np = 0, all = 0, held = held_mask(p);
    for (int d = 0; d < ND; d++)
        if (mask >> d & 1) {
            int bits = 0;
            for (int g = 0; g < NG; g++)
                bits |= (s->depot_goods[d * NG + g] > 0) << g;
            present[np++] = bits;
            all |= bits;
        }
    int fresh = all & ~held, n = 0, sub = 0;
    int size = min_int(GOODS_SPACES - mm_popcount((uint64_t)held), mm_popcount((uint64_t)fresh));
    do { /* the subsets of `fresh`, ascending */
        int ok = mm_popcount((uint64_t)sub) == size;
        for (int i = 0; i < np && ok; i++)
            ok = (present[i] & (held | sub)) != 0;
        if (ok)
            sets[n++] = (uint8_t)sub;
        sub = (sub - fresh) & fresh;
    } while (sub);
    *kept = all & held;
    return n;
}

/* Whether a ship takes something from the depots in `mask`.  From one depot: when
 * it holds a stored colour, or any goods while a goods space is free. */
static int ship_takes(const state *s, const player *p, int mask)
{
    uint8_t sets[64];
    int kept;
    if (mask & (mask - 1))
        return ship_choices(s, p, mask, sets, &kept) > 0;
    int d = lowest((uint64_t)mask), held = held_mask(p), bits = 0;
    for (int g = 0; g < NG; g++)
        bits |= (s->depot_goods[d * NG + g] > 0) << g;
    return (bits & held) || (bits && mm_popcount((uint64_t)held) < GOODS_SPACES);
}

/* Depots the ship takes goods from; those that take nothing are one choice (the
 * lowest); pairs of neighbours with knowledge #5. */
static int ship_moves(const state *s, const player *p, uint16_t *out)
{
    int n = 0, nothing = 0;
    for (int d = 0; d < ND; d++) {
        if (ship_takes(s, p, (int)BIT(d)))
            out[n++] = (uint16_t)(MM_COB_A_SHIP + d);
        else if (!nothing) {
            nothing = 1;
            out[n++] = (uint16_t)(MM_COB_A_SHIP + d);
        }
    }
    if (knows(p, K_TWO_DEPOT_SHIP))
        for (int i = 0; i < ND; i++)
            if (ship_takes(s, p, depot_pair(i)))
                out[n++] = (uint16_t)(MM_COB_A_SHIP_PAIR + i);
    return n;
}

/* New goods colours are chosen in ascending order: the next colour of some set
 * that contains every colour chosen so far and nothing below it. */
static int goods_moves(const state *s, const player *p, uint16_t *out)
{
    uint8_t sets[64];
    int kept, goods = 0, n = 0, chosen = s->goods_chosen;
    int count = ship_choices(s, p, s->ship_mask, sets, &kept);
    for (int i = 0; i < count; i++) {
        int rest = sets[i] & ~chosen;
        if ((sets[i] & chosen) == chosen && rest && (chosen >> lowest((uint64_t)rest)) == 0)
            goods |= 1 << lowest((uint64_t)rest);
    }
    for (int g = 0; g < NG; g++)
        if (goods >> g & 1)
            out[n++] = (uint16_t)(MM_COB_A_GOODS + g);
    return n;
}

/* The key grouping take and buy moves in the last turn of a phase: (take or buy,
 * die, tile, workers); -1 for other moves. */
static int take_key(const state *s, const player *p, int a)
{
    int take = 0, source = 0, tile, cost = 0;
    if (a >= MM_COB_A_TAKE && a < MM_COB_A_PLACE) {
        int space = (a - MM_COB_A_TAKE) % SPACES;
        take = 1;
        source = (a - MM_COB_A_TAKE) / SPACES;
        tile = s->depots[space];
        cost = source ? take_cost(p, source, space) : 0;
    } else if (a >= MM_COB_A_BUY_BLACK && a < MM_COB_A_BUY)
        tile = s->black[a - MM_COB_A_BUY_BLACK];
    else if (a >= MM_COB_A_BUY && a < MM_COB_A_SHIP)
        tile = s->depots[a - MM_COB_A_BUY];
    else
        return -1;
    return ((take * MM_COB_SOURCES + source) * NT + tile) * 8 + cost;
}

/* state.py _without_equal_takes: in the last turn of a phase the depots are
 * cleared after the turn, so equal tiles taken or bought from different places at
 * the same cost may reach one outcome: only the first such move is kept. */
static int without_equal_takes(const state *s, const player *p, uint16_t *ids, int n)
{
    int keys[MAX_LEGAL], kept = 0;
    for (int i = 0; i < n; i++) {
        int a = ids[i], key = take_key(s, p, a), have = 0, equal = 0;
        state mine, other;
        for (int j = 0; j < kept && key >= 0 && !equal; j++) {
            if (keys[j] != key)
                continue;
            if (!have++)
                outcome(s, a, &mine);
            outcome(s, ids[j], &other);
            equal = memcmp(&mine, &other, POSITION_BYTES) == 0;
        }
        if (equal)
            continue;
        keys[kept] = key;
        ids[kept++] = (uint16_t)a;
    }
    return kept;
}

/* state.py legal_action_ids: ascending, empty only when the game is over. */
static int legal_ids(const state *s, uint16_t *out)
{
    if (s->stage == ST_END)
        return 0;
    const player *p = &s->p[current(s)];
    int n;
    switch (s->stage) {
    case ST_TURN: n = turn_moves(s, p, out); break;
    case ST_DISCARD: n = discard_moves(p, out); break;
    case ST_TILE: n = tile_moves(s, p, out); break;
    case ST_CASTLE: n = castle_moves(s, p, out); break;
    case ST_CITY_HALL: n = city_hall_moves(p, out); break;
    case ST_WAREHOUSE: n = warehouse_moves(p, out); break;
    case ST_SHIP: n = ship_moves(s, p, out); break;
    case ST_GOODS: n = goods_moves(s, p, out); break;
    default: n = free_take_moves(s, out); break; /* carpenter, church, market */
    }
    return last_turn_of_phase(s) ? without_equal_takes(s, p, out, n) : n;
}

/* ------------------------------------------------------------------ rules */

/* Use the die showing `source` and the workers the action needs. */
static void spend_die(player *p, int source, int cost)
{
    p->workers = (int16_t)(p->workers - cost);
    if (p->dice[0] == source) /* the dice stay ascending, a used die is 0 */
        p->dice[0] = 0;
    else {
        p->dice[1] = p->dice[0];
        p->dice[0] = 0;
    }
}

static void take_workers(player *p)
{
    p->workers = (int16_t)(p->workers + (knows(p, K_FOUR_WORKERS) ? 4 : 2));
    p->silverlings = (int16_t)(p->silverlings + knows(p, K_WORKERS_SILVERLING));
}

static void sell(const state *s, player *p, int g)
{
    int count = p->goods[g];
    p->goods[g] = 0;
    p->sold[g] = (int8_t)(p->sold[g] + count);
    p->silverlings = (int16_t)(p->silverlings + (knows(p, K_SALE_SILVERLING) ? 2 : 1));
    p->workers = (int16_t)(p->workers + knows(p, K_SALE_WORKER));
    p->vp = (int16_t)(p->vp + count * s->players); /* 2/3/4 VP per tile */
}

/* A tile into storage; a full storage first asks which stored tile to discard. */
static void receive(state *s, player *p, int tile)
{
    if (p->storage[STORAGE - 1] < 0) {
        p->storage[STORAGE - 1] = (int8_t)tile;
        sort_storage(p->storage);
    } else {
        s->stage = ST_DISCARD;
        s->pending_tile = (int8_t)tile;
    }
}

static void discard(state *s, player *p, int tile)
{
    for (int i = 0; i < STORAGE; i++)
        if (p->storage[i] == tile) {
            p->storage[i] = s->pending_tile;
            break;
        }
    sort_storage(p->storage);
    s->discarded[tile]++;
    s->pending_tile = -1;
}

/* A ship moves the player one space forward, on top of the pieces there; the new
 * order counts from the next round. */
static void advance_on_track(state *s, int seat)
{
    int8_t rest[NP];
    int n = s->players, at = 0, ships = s->p[seat].ships;
    for (int i = 0, j = 0; i < n; i++)
        if (s->ranking[i] != seat)
            rest[j++] = s->ranking[i];
    while (at < n - 1 && s->p[rest[at]].ships > ships)
        at++;
    for (int i = n - 1; i > at; i--)
        s->ranking[i] = rest[i - 1];
    s->ranking[at] = (int8_t)seat;
    for (int i = 0; i < at; i++)
        s->ranking[i] = rest[i];
}

/* Take the ship's goods, or ask for the new colours when not all of them fit. */
static void ship(state *s, player *p, int mask)
{
    uint8_t sets[64];
    int kept, n = ship_choices(s, p, mask, sets, &kept), chosen = 0;
    for (int i = 0; i < n && !chosen; i++)
        chosen = sets[i] == s->goods_chosen;
    if (n > 1 && !chosen) {
        s->stage = ST_GOODS;
        s->ship_mask = (int8_t)mask;
        return;
    }
    int take = n ? kept | (n > 1 ? s->goods_chosen : sets[0]) : 0;
    for (int d = 0; d < ND; d++)
        if (mask >> d & 1)
            for (int g = 0; g < NG; g++)
                if (take >> g & 1) {
                    p->goods[g] = (int8_t)(p->goods[g] + s->depot_goods[d * NG + g]);
                    s->depot_goods[d * NG + g] = 0;
                }
    s->ship_mask = s->goods_chosen = 0;
}

static int depot_choices_exist(const state *s, int colours)
{
    int8_t spaces[SPACES];
    return depot_choices(s, colours, spaces) > 0;
}

/* Add a stored tile to the estate, score it and start its effect (rules §7, §9). */
static void place(state *s, player *p, int c, int tile)
{
    int colour = CELLS[c].colour;
    remove_from_storage(p, tile);
    put_tile(p, c, tile);
    s->pending_cell = -1;
    p->vp = (int16_t)(p->vp + region_points(p, c, s->phase));
    if ((p->filled & COLOUR_CELLS[colour]) == COLOUR_CELLS[colour]) {
        int taken = 0;
        for (int q = 0; q < s->players; q++)
            taken += s->p[q].bonus[colour] != 0;
        if (taken < 2) {
            p->bonus[colour] = (int8_t)(taken + 1);
            p->vp = (int16_t)(p->vp + BONUS_VP[s->players][taken]);
        }
    }
    if (tile == T_CASTLE)
        s->stage = ST_CASTLE;
    else if (tile == T_SHIP) {
        advance_on_track(s, current(s));
        s->stage = ST_SHIP;
    } else if (colour == ANIMAL)
        p->vp = (int16_t)(p->vp + animal_points(p, c));
    else if (tile == T_WAREHOUSE) {
        if (held_mask(p))
            s->stage = ST_WAREHOUSE;
    } else if (tile == T_CARPENTER || tile == T_CHURCH || tile == T_MARKET) {
        int stage = ST_CARPENTER + tile - T_CARPENTER;
        if (depot_choices_exist(s, free_take_colours(stage)))
            s->stage = (int8_t)stage;
    } else if (tile == T_BOARDING_HOUSE)
        p->workers = (int16_t)(p->workers + BOARDING_HOUSE_WORKERS);
    else if (tile == T_BANK)
        p->silverlings = (int16_t)(p->silverlings + BANK_SILVERLINGS);
    else if (tile == T_CITY_HALL) {
        if (placements(p))
            s->stage = ST_CITY_HALL;
    } else if (tile == T_WATCHTOWER)
        p->vp = (int16_t)(p->vp + WATCHTOWER_VP);
}

/* Draw one item of kinds lo..hi-1 from a multiset (-1 and no draw if none is left). */
static int draw(int8_t *counts, int lo, int hi, mm_rng *rng)
{
    int total = 0;
    for (int k = lo; k < hi; k++)
        total += counts[k];
    if (total == 0)
        return -1;
    uint32_t r = mm_rng_below(rng, (uint32_t)total);
    int k = lo;
    for (; r >= (uint32_t)counts[k]; k++)
        r -= (uint32_t)counts[k];
    counts[k]--;
    return k;
}

/* The tiles left in the depots go out of the game. */
static void clear_depots(state *s)
{
    for (int a = 0; a < SPACES; a++)
        if (s->depots[a] >= 0) {
            s->discarded[s->depots[a]]++;
            s->depots[a] = -1;
        }
    for (int i = 0; i < BS; i++)
        if (s->black[i] >= 0) {
            s->discarded[s->black[i]]++;
            s->black[i] = -1;
        }
    s->takes = 0;
}

/* Clear the depots, refill them and lay out the phase's goods. */
static void start_phase(state *s, mm_rng *rng)
{
    clear_depots(s);
    for (int d = 0; d < ND; d++)
        for (int slot = 0; slot < s->players; slot++) {
            int colour = depot_colour(s->players, s->phase, d, slot);
            s->depots[d * DS + slot] =
                (int8_t)draw(s->stack, KINDS_FROM[colour], KINDS_FROM[colour + 1], rng);
        }
    for (int i = 0; i < 2 * s->players; i++) /* 4/6/8 black-depot tiles */
        s->black[i] = (int8_t)draw(s->black_stack, 0, NT, rng);
    for (int r = 0; r < ROUNDS; r++)
        s->round_goods[r] = (int8_t)draw(s->goods_pool, 0, NG, rng);
    refresh_all_takes(s);
}

/* The white die moves this round's goods (if any are left) to its depot; every
 * player rolls two dice (in seat order); the turn order is the track's. */
static void start_round(state *s, mm_rng *rng)
{
    int white = (int)mm_rng_below(rng, ND), g = s->round_goods[s->round];
    if (g >= 0)
        s->depot_goods[white * NG + g]++;
    s->round_goods[s->round] = -1;
    for (int q = 0; q < s->players; q++) {
        int8_t a = (int8_t)(mm_rng_below(rng, 6) + 1), b = (int8_t)(mm_rng_below(rng, 6) + 1);
        s->p[q].dice[0] = a < b ? a : b;
        s->p[q].dice[1] = a < b ? b : a;
    }
    memcpy(s->round_order, s->ranking, sizeof s->round_order);
    s->turn = 0;
}

static void end_turn(state *s, mm_rng *rng)
{
    s->bought = 0;
    if (++s->turn < s->players)
        return;
    if (s->round + 1 < ROUNDS) {
        s->round++;
        start_round(s, rng);
        return;
    }
    for (int q = 0; q < s->players; q++) { /* phase end: the mines pay */
        player *p = &s->p[q];
        p->silverlings = (int16_t)(p->silverlings + p->mines);
        if (knows(p, K_MINE_WORKER))
            p->workers = (int16_t)(p->workers + p->mines);
    }
    if (s->phase + 1 < PHASES) {
        s->phase++;
        s->round = 0;
        start_phase(s, rng);
        start_round(s, rng);
    } else {
        s->stage = ST_END;
        s->turn = 0;
    }
}

/* state.py _do: one move, without the forced moves that follow it. */
static void do_move(state *s, int a, mm_rng *rng)
{
    player *p = &s->p[current(s)];
    int stage = s->stage;
    s->stage = ST_TURN;
    if (a == MM_COB_A_PASS) {
        if (stage == ST_TURN)
            end_turn(s, rng);
    } else if (a < MM_COB_A_SELL) {
        if (a > MM_COB_A_WORKERS)
            spend_die(p, a - MM_COB_A_WORKERS, 0);
        take_workers(p);
    } else if (a < MM_COB_A_TAKE) {
        int source = (a - MM_COB_A_SELL) / NG, g = (a - MM_COB_A_SELL) % NG;
        if (source)
            spend_die(p, source, worker_cost(source, g + 1, 0, step_of(p)));
        sell(s, p, g);
    } else if (a < MM_COB_A_PLACE) {
        int source = (a - MM_COB_A_TAKE) / SPACES, space = (a - MM_COB_A_TAKE) % SPACES;
        if (source)
            spend_die(p, source, take_cost(p, source, space));
        receive(s, p, s->depots[space]);
        s->depots[space] = -1;
        refresh_takes(s, space / DS);
    } else if (a < MM_COB_A_TILE) {
        int source = (a - MM_COB_A_PLACE) / NC, c = (a - MM_COB_A_PLACE) % NC;
        if (source)
            spend_die(p, source, place_cost(p, source, c));
        s->stage = ST_TILE;
        s->pending_cell = (int8_t)c;
    } else if (a < MM_COB_A_DISCARD)
        place(s, p, s->pending_cell, a - MM_COB_A_TILE);
    else if (a < MM_COB_A_BUY_BLACK)
        discard(s, p, a - MM_COB_A_DISCARD);
    else if (a < MM_COB_A_SHIP) {
        int8_t *pile = a < MM_COB_A_BUY ? &s->black[a - MM_COB_A_BUY_BLACK]
                                        : &s->depots[a - MM_COB_A_BUY];
        p->silverlings = (int16_t)(p->silverlings - BUY_PRICE);
        s->bought = 1;
        receive(s, p, *pile);
        *pile = -1;
        if (a >= MM_COB_A_BUY)
            refresh_takes(s, (a - MM_COB_A_BUY) / DS);
    } else if (a < MM_COB_A_SHIP_PAIR)
        ship(s, p, (int)BIT(a - MM_COB_A_SHIP));
    else if (a < MM_COB_A_GOODS)
        ship(s, p, depot_pair(a - MM_COB_A_SHIP_PAIR));
    else {
        s->goods_chosen = (int8_t)(s->goods_chosen | BIT(a - MM_COB_A_GOODS));
        ship(s, p, s->ship_mask);
    }
}

/* Store the legal moves in the cache; unused entries stay zero so equal positions
 * are equal bytes. */
static void set_legal(state *s, const uint16_t *ids, int n)
{
    memcpy(s->legal, ids, (size_t)n * sizeof ids[0]);
    if (n < s->num_legal)
        memset(s->legal + n, 0, (size_t)(s->num_legal - n) * sizeof ids[0]);
    s->num_legal = (uint16_t)n;
}

/* ------------------------------------------------------------------ state vector (engine/layout.py) */

/* Offsets in the state vector, from the schema (native/layout_castles_of_burgundy.h):
 * G() of a global or the first cell of a table, P() of a field in a player's record. */
#define G(NAME) MM_COB_O_##NAME
#define P(NAME) MM_COB_P_##NAME
#define PLAYERS_AT MM_COB_V1_PLAYERS_AT
#define PLAYER_LEN MM_COB_V1_PLAYER_LEN
_Static_assert(MM_COB_V1_LEN == MM_COB_VECTOR_LEN, "the layout is the schema's (engine/castles_of_burgundy/schema.py)");
_Static_assert(sizeof(mm_cob_player) == 88 && sizeof(mm_cob_state) == 928
                   && POSITION_BYTES == 600,
               "no padding: equal positions must be equal bytes");
_Static_assert(MM_COB_A_GOODS + NG == MM_COB_NUM_ACTIONS, "action ids");

/* The load/store tables of native/layout_*.h expand into native/mm_layout.h's copies. */

static void encode_player(const player *s, int32_t *v) { MM_COB_V1_PLAYER(STORE_ONE, STORE_MANY) }

static void decode_player(player *s, const int32_t *v) { MM_COB_V1_PLAYER(LOAD_ONE, LOAD_MANY) }

static void encode_state(const state *s, int32_t *v)
{
    v[G(VERSION)] = MM_COB_LAYOUT_VERSION;
    v[G(CURRENT)] = s->stage == ST_END ? -1 : current(s);
    MM_COB_V1_STATE(STORE_ONE, STORE_MANY)
    for (int q = 0; q < NP; q++)
        encode_player(&s->p[q], v + PLAYERS_AT + q * PLAYER_LEN);
}

#define TILE_NAME(t) MM_COB_NAMES_TILES[t]
#define COLOUR_NAME(c) MM_COB_NAMES_COLOURS[c]

static int32_t check_board(const int32_t *v, int n, mm_verdict *out)
{
    for (int base = G(RANKING); base <= G(ROUND_ORDER); base += NP) {
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (seen >> v[base + i] & 1)
                return mm_reject(out, base + i, "player %d appears twice in the %s", v[base + i],
                                 base == G(RANKING) ? "turn_order" : "round_order");
            seen |= 1 << v[base + i];
        }
    }
    for (int a = 0; a < SPACES; a++) {
        int t = v[G(DEPOTS) + a], printed = depot_colour(n, v[G(PHASE)], a / DS, a % DS);
        if (t >= 0 && tile_colour(t) != printed)
            return mm_reject(out, G(DEPOTS) + a, "a %s tile on a %s space", TILE_NAME(t), COLOUR_NAME(printed));
        if (t >= 0 && !COLOUR_BACKED[t])
            return mm_reject(out, G(DEPOTS) + a, "%s has a black back, it belongs to the black depot", TILE_NAME(t));
    }
    for (int i = 0; i < BS; i++)
        if (v[G(BLACK) + i] >= 0 && !BLACK_BACKED[v[G(BLACK) + i]])
            return mm_reject(out, G(BLACK) + i, "no %s tile has a black back", TILE_NAME(v[G(BLACK) + i]));
    for (int r = 0; r < ROUNDS; r++)
        if ((v[G(ROUND_GOODS) + r] < 0) != (r <= v[G(ROUND)]))
            return mm_reject(out, G(ROUND_GOODS) + r, r <= v[G(ROUND)]
                             ? "the goods of this and earlier rounds are on the depots"
                             : "the goods of a later round of the phase must be shown");
    return -1;
}

/* Whether every tile of an estate is joined to the start castle. */
static int connected(const int32_t *estate)
{
    uint64_t filled = 0, seen = 1ull << START_CELL, todo = seen;
    for (int c = 0; c < NC; c++)
        filled |= (uint64_t)(estate[c] >= 0) << c;
    while (todo) {
        int c = lowest(todo);
        uint64_t next = neighbour_mask(c) & filled & ~seen;
        todo = (todo & (todo - 1)) | next;
        seen |= next;
    }
    return mm_popcount(seen) == mm_popcount(filled);
}

static int estate_has(const int32_t *estate, int tile)
{
    for (int c = 0; c < NC; c++)
        if (estate[c] == tile)
            return 1;
    return 0;
}

static int colour_filled(const int32_t *estate, int colour)
{
    for (uint64_t m = COLOUR_CELLS[colour]; m; m &= m - 1)
        if (estate[lowest(m)] < 0)
            return 0;
    return 1;
}

static int32_t check_player(const int32_t *v, int base, mm_verdict *out)
{
    const int32_t *e = v + base + P(ESTATE), *st = v + base + P(STORAGE);
    if (v[base + P(DICE)] > v[base + P(DICE) + 1])
        return mm_reject(out, base + P(DICE), "dice are listed in ascending order (0: used)");
    for (int i = 1; i < STORAGE; i++)
        if (st[i] >= 0 && (st[i - 1] < 0 || st[i - 1] > st[i]))
            return mm_reject(out, base + P(STORAGE) + i, "storage is listed in ascending order, empty spaces last");
    if (e[START_CELL] != T_CASTLE)
        return mm_reject(out, base + P(ESTATE) + START_CELL, "the start castle stands on space %d", START_CELL + 1);
    for (int c = 0; c < NC; c++)
        if (e[c] >= 0 && tile_colour(e[c]) != CELLS[c].colour)
            return mm_reject(out, base + P(ESTATE) + c, "a %s tile on a %s space", TILE_NAME(e[c]),
                             COLOUR_NAME(CELLS[c].colour));
    if (!connected(e))
        return mm_reject(out, base + P(ESTATE), "every tile of the estate is joined to the start castle");
    if (!estate_has(e, T_KNOWLEDGE + K_DUPLICATE_BUILDINGS - 1))
        for (int c = 0; c < NC; c++) {
            const int8_t *r = REGION_CELLS[CELLS[c].region];
            if (e[c] < 0 || CELLS[c].colour != BUILDING)
                continue;
            for (int i = 0; i < 6 && r[i] >= 0 && r[i] < c; i++)
                if (e[r[i]] == e[c])
                    return mm_reject(out, base + P(ESTATE) + c, "a second %s in one city needs knowledge #1",
                                     TILE_NAME(e[c]));
        }
    int held = 0;
    for (int g = 0; g < NG; g++)
        if ((held += v[base + P(GOODS) + g] > 0) > GOODS_SPACES)
            return mm_reject(out, base + P(GOODS) + g, "goods of more than %d colours are stored", GOODS_SPACES);
    for (int colour = 0; colour < COLOURS; colour++)
        if (v[base + P(BONUS) + colour] && !colour_filled(e, colour))
            return mm_reject(out, base + P(BONUS) + colour, "a bonus tile needs every space of its colour filled");
    return -1;
}

static int32_t check_players(const int32_t *v, int n, mm_verdict *out)
{
    int ships[NP] = {0};
    for (int q = 0; q < n; q++) {
        int base = PLAYERS_AT + q * PLAYER_LEN;
        int32_t bad = check_player(v, base, out);
        if (bad >= 0)
            return bad;
        for (int c = 0; c < NC; c++)
            ships[q] += v[base + P(ESTATE) + c] == T_SHIP;
    }
    for (int i = 1; i < n; i++)
        if (ships[v[G(RANKING) + i]] > ships[v[G(RANKING) + i - 1]])
            return mm_reject(out, G(RANKING) + i, "the turn-order track is ordered by ships placed");
    return -1;
}

/* Count the tiles of a list (-1: none) into counts. */
static void count_tiles(int *counts, const int32_t *tiles, int n)
{
    for (int i = 0; i < n; i++)
        if (tiles[i] >= 0)
            counts[tiles[i]]++;
}

static int32_t check_conservation(const int32_t *v, int n, mm_verdict *out)
{
    int counts[NT];
    for (int k = 0; k < NT; k++)
        counts[k] = v[G(STACK) + k] + v[G(BLACK_STACK) + k] + v[G(DISCARDED) + k];
    count_tiles(counts, v + G(DEPOTS), SPACES);
    count_tiles(counts, v + G(BLACK), BS);
    count_tiles(counts, v + G(PENDING_TILE), 1);
    for (int q = 0; q < n; q++)
        count_tiles(counts, v + PLAYERS_AT + q * PLAYER_LEN + P(STORAGE), STORAGE + NC);
    for (int k = 0; k < NT; k++)
        if (counts[k] != tile_total(k))
            return mm_reject(out, G(STACK) + k, "%d %s tiles in play, the game has %d", counts[k], TILE_NAME(k),
                             tile_total(k));
    for (int g = 0; g < NG; g++) {
        int total = v[G(GOODS_POOL) + g];
        for (int d = 0; d < ND; d++)
            total += v[G(DEPOT_GOODS) + d * NG + g];
        for (int r = 0; r < ROUNDS; r++)
            total += v[G(ROUND_GOODS) + r] == g;
        for (int q = 0; q < n; q++)
            total += v[PLAYERS_AT + q * PLAYER_LEN + P(GOODS) + g]
                   + v[PLAYERS_AT + q * PLAYER_LEN + P(SOLD) + g];
        if (total != GOODS_PER_COLOUR)
            return mm_reject(out, G(GOODS_POOL) + g, "%d goods %d tiles in play, the game has %d", total, g + 1,
                             GOODS_PER_COLOUR);
    }
    int hidden = 0, need = ROUNDS * (PHASES - 1 - v[G(PHASE)]); /* the phases to come show ROUNDS goods each */
    for (int g = 0; g < NG; g++)
        hidden += v[G(GOODS_POOL) + g];
    if (hidden < need)
        return mm_reject(out, G(GOODS_POOL), "%d goods tiles hidden, the phases to come show %d", hidden, need);
    return -1;
}

static int32_t check_bonus_tiles(const int32_t *v, int n, mm_verdict *out)
{
    for (int colour = 0; colour < COLOURS; colour++) {
        int holders[3] = {0}, first_of[3] = {-1, -1, -1};
        for (int q = 0; q < n; q++) {
            int b = PLAYERS_AT + q * PLAYER_LEN + P(BONUS) + colour;
            if (first_of[v[b]] < 0)
                first_of[v[b]] = b;
            holders[v[b]]++;
        }
        for (int rank = 1; rank <= 2; rank++)
            if (holders[rank] > 1)
                return mm_reject(out, first_of[rank], "%d players hold the same bonus tile", holders[rank]);
        if (holders[2] && !holders[1])
            return mm_reject(out, first_of[2], "the second bonus tile goes after the first");
        for (int q = 0; q < n; q++) {
            const int32_t *f = v + PLAYERS_AT + q * PLAYER_LEN;
            if (colour_filled(f + P(ESTATE), colour) && !f[P(BONUS) + colour]
                && holders[1] + holders[2] < 2)
                return mm_reject(out, PLAYERS_AT + q * PLAYER_LEN + P(BONUS) + colour,
                                 "a completed colour takes a bonus tile while one is left");
        }
    }
    return -1;
}

/* Where the turn stands. */
static int32_t check_progress(const int32_t *v, int n, mm_verdict *out)
{
    int stage = v[G(STAGE)], turn = v[G(TURN)];
    if (stage == ST_END) {
        static const int8_t fields[4] = {G(PHASE), G(ROUND), G(TURN), G(CURRENT)};
        const int8_t want[4] = {PHASES - 1, ROUNDS - 1, 0, -1};
        for (int i = 0; i < 4; i++)
            if (v[fields[i]] != want[i])
                return mm_reject(out, fields[i], "must be %d once the game is over", want[i]);
        for (int q = 0; q < n; q++)
            if (v[PLAYERS_AT + q * PLAYER_LEN + P(DICE) + 1])
                return mm_reject(out, PLAYERS_AT + q * PLAYER_LEN + P(DICE) + 1,
                                 "every die is used once the game is over");
    } else {
        if (v[G(CURRENT)] != v[G(ROUND_ORDER) + turn])
            return mm_reject(out, G(CURRENT), "player %d is to move, not %d", v[G(ROUND_ORDER) + turn], v[G(CURRENT)]);
        for (int i = 0; i < n; i++) {
            int b = PLAYERS_AT + v[G(ROUND_ORDER) + i] * PLAYER_LEN;
            if (i < turn && v[b + P(DICE) + 1])
                return mm_reject(out, b + P(DICE) + 1, "a player who has had his turn this round has used his dice");
            if (i > turn && !v[b + P(DICE)])
                return mm_reject(out, b + P(DICE), "a player still to move this round has both dice");
        }
    }
    const struct { int8_t field, unset, allowed, needed; } owned[] = {
        {G(BOUGHT), 0, stage != ST_END, 0},
        {G(PENDING_TILE), -1, stage == ST_DISCARD, 1},
        {G(PENDING_CELL), -1, stage == ST_TILE, 1},
        {G(SHIP_MASK), 0, stage == ST_GOODS, 1},
        {G(GOODS_CHOSEN), 0, stage == ST_GOODS, 0},
    };
    for (int i = 0; i < 5; i++) {
        int value = v[owned[i].field];
        if (value != owned[i].unset && !owned[i].allowed)
            return mm_reject(out, owned[i].field, "must be %d at this stage, is %d", owned[i].unset, value);
        if (value == owned[i].unset && owned[i].allowed && owned[i].needed)
            return mm_reject(out, owned[i].field, "must be set at this stage");
    }
    const int32_t *me = v + PLAYERS_AT + (stage == ST_END ? 0 : v[G(CURRENT)]) * PLAYER_LEN;
    if (stage == ST_DISCARD && me[P(STORAGE) + STORAGE - 1] < 0)
        return mm_reject(out, G(PENDING_TILE), "a tile waits for a storage space only when storage is full");
    if (stage == ST_TILE) {
        int c = v[G(PENDING_CELL)], next = 0;
        for (int i = 0; i < 6 && CELLS[c].neighbours[i] >= 0; i++)
            next |= me[P(ESTATE) + CELLS[c].neighbours[i]] >= 0;
        if (me[P(ESTATE) + c] >= 0 || !next)
            return mm_reject(out, G(PENDING_CELL), "the chosen space must be empty and next to a placed tile");
    }
    if (stage == ST_GOODS) {
        int mask = v[G(SHIP_MASK)], pair = 0;
        for (int i = 0; i < ND; i++)
            pair |= mask == depot_pair(i);
        if (mm_popcount((uint64_t)mask) != 1
            && !(pair && estate_has(me + P(ESTATE), T_KNOWLEDGE + K_TWO_DEPOT_SHIP - 1)))
            return mm_reject(out, G(SHIP_MASK),
                             "a ship takes goods from one depot, or two neighbours with knowledge #5");
    }
    return -1;
}

/* The consistency rules, in order (schema.py RULES), after every range. */
static int32_t check_invariants(const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)];
    int32_t bad = check_board(v, n, out);
    if (bad < 0)
        bad = check_players(v, n, out);
    if (bad < 0)
        bad = check_conservation(v, n, out);
    if (bad < 0)
        bad = check_bonus_tiles(v, n, out);
    if (bad < 0)
        bad = check_progress(v, n, out);
    return bad;
}

/* Fill *s from a vector that passed every check, derived fields and the move cache
 * included. */
static void load_state(state *s, const int32_t *v)
{
    uint16_t ids[MAX_LEGAL];
    memset(s, 0, sizeof *s);
    MM_COB_V1_STATE(LOAD_ONE, LOAD_MANY)
    refresh_all_takes(s);
    for (int q = 0; q < NP; q++) {
        player *p = &s->p[q];
        decode_player(p, v + PLAYERS_AT + q * PLAYER_LEN);
        for (int c = 0; c < NC; c++)
            if (p->estate[c] >= 0)
                put_tile(p, c, p->estate[c]);
    }
    set_legal(s, ids, legal_ids(s, ids));
}

/* The one validator of Castles of Burgundy positions: the length, version, player
 * count and every range (the schema's table), the consistency rules, then "the player
 * to move has a move"; a rejection names the vector index and the rule (*verdict). */
static int cob_decode(void *out, const int32_t *vec, int32_t len, mm_verdict *verdict)
{
    state *s = out;
    int rc = mm_check_layout(&MM_COB_V1_CHECK, vec, len, verdict);
    if (rc != MM_OK)
        return rc;
    if (check_invariants(vec, verdict) >= 0)
        return MM_ERR_INVARIANT;
    load_state(s, vec);
    if (s->stage != ST_END && s->num_legal == 0) {
        mm_reject(verdict, G(CURRENT), "the player to move has no legal move");
        return MM_ERR_INVARIANT;
    }
    return MM_OK;
}

#ifndef NDEBUG
/* Debug builds: every position apply reaches is one decode accepts, and decoding
 * its vector rebuilds the same bytes (derived fields and move cache included). */
static int consistent(const state *s)
{
    int32_t v[MM_COB_VECTOR_LEN];
    state again;
    mm_verdict verdict;
    encode_state(s, v);
    return cob_decode(&again, v, MM_COB_VECTOR_LEN, &verdict) == MM_OK
        && memcmp(&again, s, sizeof again) == 0 && s->num_legal != 1;
}
#endif

/* ------------------------------------------------------------------ vtable basics */

static void cob_encode(const void *s, int32_t *vec) { encode_state(s, vec); }

static int cob_num_players(const void *s) { return ((const state *)s)->players; }

static int cob_current_player(const void *st)
{
    const state *s = st;
    return s->stage == ST_END ? -1 : current(s);
}

static int cob_legal_moves(const void *st, int32_t *out)
{
    const state *s = st;
    for (int i = 0; i < s->num_legal; i++)
        out[i] = s->legal[i];
    return s->num_legal;
}

/* Apply `action`, then end finished turns and play every decision that has a
 * single move (state.py _resolve_forced), leaving the legal moves in the cache. */
/* silverlings, workers and VP count up to LIMIT (state.py _cap) */
static void cap(state *s)
{
    for (int i = 0; i < s->players; i++) {
        player *p = &s->p[i];
        p->silverlings = (int16_t)(p->silverlings < MM_COB_LIMIT ? p->silverlings : MM_COB_LIMIT);
        p->workers = (int16_t)(p->workers < MM_COB_LIMIT ? p->workers : MM_COB_LIMIT);
        p->vp = (int16_t)(p->vp < MM_COB_LIMIT ? p->vp : MM_COB_LIMIT);
    }
}

static void cob_apply(void *st, int32_t action, mm_rng *rng)
{
    state *s = st;
    uint16_t ids[MAX_LEGAL];
    int n = 0;
    do_move(s, action, rng);
    cap(s);
    while (s->stage != ST_END) {
        if (turn_over(s)) {
            end_turn(s, rng);
            cap(s);
            continue;
        }
        if ((n = legal_ids(s, ids)) != 1)
            break;
        do_move(s, ids[0], rng);
        cap(s);
    }
    set_legal(s, ids, s->stage == ST_END ? 0 : n);
    assert(consistent(s));
}

/* Nothing to sample: a position holds the hidden parts (tile stacks, unseen goods)
 * as counts drawn at each chance event, and no future dice. */
static void cob_determinize(void *s, int viewer, mm_rng *rng) {}

/* scoring.py end_points: unsold goods, silverlings, pairs of workers, knowledge
 * #15-#26. */
static int end_points(const player *p)
{
    static const int8_t BUILDING_OF[8] = {T_WAREHOUSE, T_WATCHTOWER, T_CARPENTER, T_CHURCH,
                                          T_MARKET, T_BOARDING_HOUSE, T_BANK, T_CITY_HALL};
    int points = p->silverlings + p->workers / 2, sold_colours = 0, sold = 0, bonus = 0;
    int kinds[NT] = {0}, animals = 0;
    for (int g = 0; g < NG; g++) {
        points += p->goods[g];
        sold_colours += p->sold[g] > 0;
        sold += p->sold[g];
    }
    for (int colour = 0; colour < COLOURS; colour++)
        bonus += p->bonus[colour] > 0;
    for (int c = 0; c < NC; c++)
        if (p->estate[c] >= 0)
            kinds[p->estate[c]]++;
    for (int t = T_ANIMAL; t < T_KNOWLEDGE; t++)
        animals |= (kinds[t] > 0) << animal_type(t);
    if (knows(p, K_SOLD_COLOURS))
        points += SOLD_COLOUR_VP * sold_colours;
    for (int k = K_WAREHOUSE_VP; k <= K_CITY_HALL_VP; k++)
        if (knows(p, k))
            points += KNOWLEDGE_END_VP * kinds[BUILDING_OF[k - K_WAREHOUSE_VP]];
    if (knows(p, K_ANIMAL_TYPES))
        points += KNOWLEDGE_END_VP * mm_popcount((uint64_t)animals);
    if (knows(p, K_SOLD_TILES))
        points += sold;
    if (knows(p, K_BONUS_TILES))
        points += BONUS_TILE_VP * bonus;
    return points;
}

/* Score, then the tie-break (scoring.py tiebreak): fewer empty estate spaces, then
 * further back on the turn-order track. */
static void cob_scores(const void *st, int32_t *out)
{
    const state *s = st;
    for (int i = 0; i < s->players; i++) {
        const player *p = &s->p[i];
        int position = 0;
        while (s->ranking[position] != i)
            position++;
        out[2 * i] = p->vp + end_points(p);
        out[2 * i + 1] = -NP * (NC - mm_popcount(p->filled)) + position;
    }
}

/* ------------------------------------------------------------------ heuristic policy
 *
 * Policy 1 (epsilon-greedy, after heuristic.py): with probability 1/10 a uniform
 * legal move, else the first legal move of highest value, in tenths of a VP:
 *   place      the tile's worth (3 + its colour's, more for rich knowledge and
 *              buildings, mines early, more animals) plus the region it completes
 *              (or half a VP per tile already in it) and a colour bonus it takes
 *   take, buy  0.7 x the tile's worth if an empty space of its colour exists (half
 *              while none touches the estate), minus the stored tile a full storage
 *              loses; buying costs 2.5 more
 *   sell       1 + the VP;  workers  2.5 when short, less when stocked
 *   ship       the goods it brings;  discard  the least worth;  pass  0.5
 * and 1.2 per worker a die action spends. */

#define EPSILON_TENTHS 1
#define WORKER_VALUE 12

static int effect_value(const state *s, int t)
{
    static const int8_t COLOUR_VALUE[COLOURS] = {50, 20, 30, 25, 10, 30};
    static const int8_t BUILDING_VALUE[8] = {30, 0, 0, 0, 20, 20, 35, 40};
    static const int8_t KNOWLEDGE_VALUE[26] = {
        35, 0, 0, 0, 0, 40, 40, 40, 0, 0, 0, 40, 0, 40, 50, 0, 0, 0, 0, 0, 0, 0, 0, 50, 45, 40,
    };
    int colour = tile_colour(t), value = 30 + COLOUR_VALUE[colour];
    switch (colour) {
    case MINE: return value + 10 * (PHASES - 1 - s->phase);
    case BUILDING: return value + BUILDING_VALUE[t - T_WAREHOUSE];
    case KNOWLEDGE: return value + KNOWLEDGE_VALUE[t - T_KNOWLEDGE];
    case ANIMAL: return value + 10 * animal_count(t);
    default: return value;
    }
}

static int tile_value(const state *s, const player *p, int t)
{
    uint64_t empty = COLOUR_CELLS[tile_colour(t)] & ~p->filled;
    if (!empty)
        return 2;
    return (empty & p->frontier) ? effect_value(s, t) : effect_value(s, t) / 2;
}

static int place_value(const state *s, const player *p, int c, int t)
{
    uint64_t region = region_mask(CELLS[c].region);
    int colour = CELLS[c].colour, value = effect_value(s, t);
    int empty = mm_popcount(region & ~p->filled), size = mm_popcount(region);
    value += empty == 1 ? 10 * (REGION_VP[size] + PHASE_BONUS[s->phase]) : 5 * (size - empty);
    if (mm_popcount(COLOUR_CELLS[colour] & ~p->filled) == 1) {
        int taken = 0;
        for (int q = 0; q < s->players; q++)
            taken += s->p[q].bonus[colour] != 0;
        if (taken < 2)
            value += 10 * BONUS_VP[s->players][taken];
    }
    return value;
}

static int storage_pressure(const state *s, const player *p)
{
    int least = 1 << 20;
    if (p->storage[STORAGE - 1] < 0)
        return 0;
    for (int i = 0; i < STORAGE; i++)
        least = min_int(least, tile_value(s, p, p->storage[i]));
    return least;
}

static int best_place(const state *s, const player *p, int c)
{
    int best = -(1 << 20);
    for (int i = 0; i < STORAGE && p->storage[i] >= 0; i++)
        if (fits(p, c, p->storage[i])) {
            int value = place_value(s, p, c, p->storage[i]);
            best = value > best ? value : best;
        }
    return best;
}

static int ship_value(const state *s, const player *p, int mask)
{
    int value = 0, colours = mm_popcount((uint64_t)held_mask(p));
    for (int d = 0; d < ND; d++)
        if (mask >> d & 1)
            for (int g = 0; g < NG; g++)
                if (p->goods[g] || colours < GOODS_SPACES)
                    value += 10 * s->depot_goods[d * NG + g];
    return value;
}

/* What one decision's moves share: the storage pressure and, per cell, the best
 * placement (both dice may place on a cell), computed once. */
typedef struct policy {
    const state *s;
    const player *p;
    int pressure;
    uint64_t known; /* cells whose best placement is in place[] */
    int place[NC];
} policy;

static int place_once(policy *k, int c)
{
    if (!(k->known >> c & 1)) {
        k->place[c] = best_place(k->s, k->p, c);
        k->known |= 1ull << c;
    }
    return k->place[c];
}

/* Value of one legal move for the player to move (higher is better). */
static int move_value(policy *k, int a)
{
    const state *s = k->s;
    const player *p = k->p;
    if (a == MM_COB_A_PASS)
        return 5;
    if (a < MM_COB_A_SELL)
        return p->workers < 2 ? 25 : p->workers < 6 ? 10 : 3;
    if (a < MM_COB_A_TAKE) {
        int source = (a - MM_COB_A_SELL) / NG, g = (a - MM_COB_A_SELL) % NG;
        int cost = source ? worker_cost(source, g + 1, 0, step_of(p)) : 0;
        return 10 + 10 * p->goods[g] * s->players - WORKER_VALUE * cost;
    }
    if (a < MM_COB_A_PLACE) {
        int source = (a - MM_COB_A_TAKE) / SPACES, space = (a - MM_COB_A_TAKE) % SPACES;
        int cost = source ? take_cost(p, source, space) : 0;
        return 7 * tile_value(s, p, s->depots[space]) / 10 - k->pressure - WORKER_VALUE * cost;
    }
    if (a < MM_COB_A_TILE) {
        int source = (a - MM_COB_A_PLACE) / NC, c = (a - MM_COB_A_PLACE) % NC;
        int cost = source ? place_cost(p, source, c) : 0;
        return place_once(k, c) - WORKER_VALUE * cost;
    }
    if (a < MM_COB_A_DISCARD)
        return place_value(s, p, s->pending_cell, a - MM_COB_A_TILE);
    if (a < MM_COB_A_BUY_BLACK)
        return -tile_value(s, p, a - MM_COB_A_DISCARD);
    if (a < MM_COB_A_SHIP) {
        int tile = a < MM_COB_A_BUY ? s->black[a - MM_COB_A_BUY_BLACK]
                                    : s->depots[a - MM_COB_A_BUY];
        return 7 * tile_value(s, p, tile) / 10 - 25 - k->pressure;
    }
    if (a < MM_COB_A_SHIP_PAIR)
        return ship_value(s, p, (int)BIT(a - MM_COB_A_SHIP));
    if (a < MM_COB_A_GOODS)
        return ship_value(s, p, depot_pair(a - MM_COB_A_SHIP_PAIR));
    int g = a - MM_COB_A_GOODS, value = 0;
    for (int d = 0; d < ND; d++)
        if (s->ship_mask >> d & 1)
            value += 10 * s->depot_goods[d * NG + g];
    return value;
}

/* The value of every legal move, in legal order: the one measure of the heuristic
 * policy and of the move priors. */
static void move_values(const state *s, int *out)
{
    policy k = {.s = s, .p = &s->p[current(s)], .known = 0};
    k.pressure = storage_pressure(s, k.p);
    for (int i = 0; i < s->num_legal; i++)
        out[i] = move_value(&k, s->legal[i]);
}

/* The first legal move of the highest value. */
static int32_t heuristic_move(const state *s)
{
    int values[MAX_LEGAL];
    move_values(s, values);
    return s->legal[mm_first_max(values, s->num_legal)];
}

/* Move priors: the softmax of the move values, a move PRIOR_TEMPERATURE better (two VP)
 * e times likelier. */
#define PRIOR_TEMPERATURE 20.0

static void cob_move_priors(const void *st, double *out)
{
    const state *s = st;
    int values[MAX_LEGAL];
    move_values(s, values);
    mm_softmax(values, s->num_legal, PRIOR_TEMPERATURE, out);
}

static int32_t cob_rollout_move(const void *st, mm_rng *rng, int policy)
{
    const state *s = st;
    if (s->num_legal == 0)
        return -1;
    if (policy == MM_COB_POLICY_HEURISTIC && mm_rng_below(rng, 10) >= EPSILON_TENTHS)
        return heuristic_move(s);
    return s->legal[mm_rng_below(rng, s->num_legal)];
}

/* ------------------------------------------------------------------ evaluation
 *
 * The features of the learned evaluation (mm_eval.h), one row per player; the network
 * is native/evaluation_castles_of_burgundy.json's, fitted on them by tools/fit_evaluation.py.  Rounds left:
 * the rounds of the phases to come, this one included. */
enum {
    F_SCORE, F_VP, F_END_POINTS, F_SILVERLINGS, F_WORKERS, F_GOODS, F_GOOD_KINDS, F_SOLD, F_BONUS,
    F_STORED, F_FILLED, F_FRONTIER, F_CASTLES, F_MINES, F_ROUNDS_MINES, F_SHIPS, F_BUILDINGS,
    F_ANIMALS, F_KNOWLEDGE, F_DICE, F_TRACK, F_ROUNDS, F_PLAYERS, COB_FEATURES
};
#define COB_EVAL_VERSION 2
_Static_assert(MM_COB_EVAL_VERSION == COB_EVAL_VERSION && MM_COB_EVAL_FEATURES == COB_FEATURES,
               "native/evaluation_castles_of_burgundy.json is for other features: make fit-evaluation");
_Static_assert(COB_FEATURES <= MM_EVAL_FEATURES_MAX && MM_COB_EVAL_HIDDEN == MM_EVAL_HIDDEN,
               "the castles-of-burgundy model is larger than mm_eval.h allows");

static void cob_player_features(const state *s, int i, int left, float *f)
{
    const player *p = &s->p[i];
    int goods = 0, kinds = 0, sold = 0, bonus = 0, stored = 0, track = 0, of[KNOWLEDGE + 1] = {0};
    for (int g = 0; g < NG; g++) {
        goods += p->goods[g];
        kinds += p->goods[g] > 0;
        sold += p->sold[g];
    }
    for (int colour = 0; colour < COLOURS; colour++)
        bonus += p->bonus[colour] > 0;
    for (int k = 0; k < STORAGE && p->storage[k] >= 0; k++)
        stored++;
    for (int c = 0; c < NC; c++)
        for (int colour = 0; p->estate[c] >= 0 && colour < COLOURS; colour++)
            of[colour] += p->estate[c] >= KINDS_FROM[colour] && p->estate[c] < KINDS_FROM[colour + 1];
    while (s->ranking[track] != i)
        track++;
    f[F_SCORE] = (float)(p->vp + end_points(p));
    f[F_VP] = p->vp;
    f[F_END_POINTS] = (float)end_points(p);
    f[F_SILVERLINGS] = p->silverlings;
    f[F_WORKERS] = p->workers;
    f[F_GOODS] = (float)goods;
    f[F_GOOD_KINDS] = (float)kinds;
    f[F_SOLD] = (float)sold;
    f[F_BONUS] = (float)bonus;
    f[F_STORED] = (float)stored;
    f[F_FILLED] = (float)mm_popcount(p->filled);
    f[F_FRONTIER] = (float)mm_popcount(p->frontier);
    f[F_CASTLES] = (float)of[CASTLE];
    f[F_MINES] = p->mines;
    f[F_ROUNDS_MINES] = (float)(left * p->mines);
    f[F_SHIPS] = p->ships;
    f[F_BUILDINGS] = (float)of[BUILDING];
    f[F_ANIMALS] = (float)of[ANIMAL];
    f[F_KNOWLEDGE] = (float)mm_popcount(p->knows);
    f[F_DICE] = (float)((p->dice[0] > 0) + (p->dice[1] > 0));
    f[F_TRACK] = (float)track;
    f[F_ROUNDS] = (float)left;
    f[F_PLAYERS] = s->players;
}

static double cob_eval_features(const void *st, float *rows)
{
    const state *s = st;
    int left = (PHASES - s->phase) * ROUNDS - s->round;
    for (int i = 0; i < s->players; i++)
        cob_player_features(s, i, left, rows + i * COB_FEATURES);
    return left;
}

const mm_game mm_castles_of_burgundy_game = {
    .name = "castles-of-burgundy",
    .layout_version = MM_COB_LAYOUT_VERSION,
    .state_bytes = sizeof(mm_cob_state),
    .vector_len = MM_COB_VECTOR_LEN,
    .num_actions = MM_COB_NUM_ACTIONS,
    .max_legal = MM_COB_MAX_LEGAL,
    .decode = cob_decode,
    .encode = cob_encode,
    .num_players = cob_num_players,
    .current_player = cob_current_player,
    .legal_moves = cob_legal_moves,
    .apply = cob_apply,
    .determinize = cob_determinize,
    .scores = cob_scores,
    .rollout_move = cob_rollout_move,
    .eval_features = cob_eval_features,
    .eval_model = &MM_COB_EVAL_MODEL,
    .move_priors = cob_move_priors,
};
