/* meeplemind: Puerto Rico in C; see mm_puerto_rico.h.  Function names follow
 * engine/puerto_rico/state.py and expansion.py so they can be read side by side. */
#include <assert.h>
#include <math.h>
#include <string.h>
#include "mm_puerto_rico.h"
#include "evaluation_puerto_rico.h"
#include "mm_eval.h"
#include "schema_puerto_rico.h"
#include "layout_puerto_rico.h"
#include "mm_layout.h"

#define NK MM_PR_KINDS
#define NB MM_PR_BUILDINGS
#define NSLOTS MM_PR_SLOTS
#define SLOT_QUARRY NK
#define SLOT_BUILDING (NK + 1)
#define SLOT_SAN_JUAN NSLOTS /* Black Market: a colonist from San Juan */
#define GIVE_VP NK           /* Black Market: give:vp is A_GIVE + GIVE_VP */
#define ISLAND_SPACES 12
#define CITY_SPACES 12
#define HOUSE_SPACES 4
#define FORESTS 12
#define DRAFT_PICKS 17
#define BIT(b) (1ull << (b))

enum { CORN, INDIGO, SUGAR, TOBACCO, COFFEE };
enum { SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR, PROSPECTOR2 };
enum {
    SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL, INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE,
    COFFEE_ROASTER, SMALL_MARKET, HACIENDA, CONSTRUCTION_HUT, SMALL_WAREHOUSE, HOSPICE,
    OFFICE, LARGE_MARKET, LARGE_WAREHOUSE, FACTORY, UNIVERSITY, HARBOR, WHARF, GUILD_HALL,
    RESIDENCE, FORTRESS, CUSTOMS_HOUSE, CITY_HALL,
    AQUEDUCT, FOREST_HOUSE, BLACK_MARKET, STOREHOUSE, GUEST_HOUSE, TRADING_POST, CHURCH,
    SMALL_WHARF, LIGHTHOUSE, SPECIALTY_FACTORY, LIBRARY, UNION_HALL, CLOISTER, STATUE
};
enum {
    ROLE = MM_PR_PHASE_ROLE, PH_SETTLER, PH_MAYOR, PH_BUILDER, PH_CRAFTSMAN, PH_TRADER,
    PH_CAPTAIN, PH_STORAGE, END, PH_DRAFT, PH_GUESTS
};
/* Black Market give-up categories, in the order they are given (bm_given: the last). */
enum { GIVE_COLONIST = 1, GIVE_BARREL, GIVE_CHIP };

/* ------------------------------------------------------------------ tables (data.py) */

typedef struct building {
    int8_t cost, vp, column, circles, spaces, good; /* good -1: violet; column: quarry cap */
    int8_t count, count_2p;
} building;

static const building BUILDINGS[NB] = {
    {1, 1, 1, 1, 1, INDIGO, 4, 2}, {2, 1, 1, 1, 1, SUGAR, 4, 2}, {3, 2, 2, 3, 1, INDIGO, 3, 2},
    {4, 2, 2, 3, 1, SUGAR, 3, 2}, {5, 3, 3, 3, 1, TOBACCO, 3, 2}, {6, 3, 3, 2, 1, COFFEE, 3, 2},
    {1, 1, 1, 1, 1, -1, 2, 1}, {2, 1, 1, 1, 1, -1, 2, 1}, {2, 1, 1, 1, 1, -1, 2, 1},
    {3, 1, 1, 1, 1, -1, 2, 1}, {4, 2, 2, 1, 1, -1, 2, 1}, {5, 2, 2, 1, 1, -1, 2, 1},
    {5, 2, 2, 1, 1, -1, 2, 1}, {6, 2, 2, 1, 1, -1, 2, 1}, {7, 3, 3, 1, 1, -1, 2, 1},
    {8, 3, 3, 1, 1, -1, 2, 1}, {8, 3, 3, 1, 1, -1, 2, 1}, {9, 3, 3, 1, 1, -1, 2, 1},
    {10, 4, 4, 1, 2, -1, 1, 1}, {10, 4, 4, 1, 2, -1, 1, 1}, {10, 4, 4, 1, 2, -1, 1, 1},
    {10, 4, 4, 1, 2, -1, 1, 1}, {10, 4, 4, 1, 2, -1, 1, 1},
    /* Expansion I */
    {1, 1, 1, 1, 1, -1, 2, 1}, {2, 1, 1, 1, 1, -1, 2, 1}, {2, 1, 1, 1, 1, -1, 2, 1},
    {3, 1, 1, 1, 1, -1, 2, 1}, {4, 2, 2, 2, 1, -1, 2, 1}, {5, 2, 2, 1, 1, -1, 2, 1},
    {5, 2, 2, 1, 1, -1, 2, 1}, {6, 2, 2, 1, 1, -1, 2, 1}, {7, 3, 3, 1, 1, -1, 2, 1},
    {8, 3, 3, 1, 1, -1, 2, 1}, {8, 3, 3, 1, 1, -1, 2, 1}, {9, 3, 3, 1, 1, -1, 2, 1},
    {10, 4, 4, 1, 2, -1, 1, 1}, {10, 8, 4, 0, 2, -1, 1, 1},
};

#define PRODUCTION_MASK (BIT(COFFEE_ROASTER + 1) - 1)
#define VIOLET_MASK ((BIT(NB) - 1) & ~PRODUCTION_MASK)

static const int8_t FACTORY_INCOME[NK + 1] = {0, 0, 1, 2, 3, 5};
/* Church chips by the built building's column; Cloister VP by sets of three tiles. */
static const int8_t CHURCH_VP[5] = {0, 0, 1, 1, 2};
static const int8_t CLOISTER_VP[5] = {0, 1, 3, 6, 10};
/* The draft fills the base game's violet slots: this many of each cost (1..10). */
static const int8_t DRAFT_SLOTS[11] = {0, 1, 2, 1, 1, 2, 1, 1, 2, 1, 5};

typedef struct setup {
    int8_t colonists, ship_colonists; /* supply, ship */
    int16_t vp_chips;
    int8_t ships, capacity[MM_PR_MAX_SHIPS];
    int8_t roles, quarries;
    int8_t plantations[NK], goods[NK];
} setup;

/* SETUPS[players - 2] */
static const setup SETUPS[MM_MAX_PLAYERS - 1] = {
    {40, 2, 65, 2, {4, 6, 0}, 7, 5, {7, 9, 8, 6, 5}, {8, 9, 9, 7, 7}},
    {55, 3, 75, 3, {4, 5, 6}, 6, 8, {10, 12, 11, 9, 8}, {10, 11, 11, 9, 9}},
    {75, 4, 100, 3, {5, 6, 7}, 7, 8, {10, 12, 11, 9, 8}, {10, 11, 11, 9, 9}},
    {95, 5, 122, 3, {6, 7, 8}, 8, 8, {10, 12, 11, 9, 8}, {10, 11, 11, 9, 9}},
};

static const setup *setup_of(int players) { return &SETUPS[players - 2]; }

static int building_count(int b, int players)
{
    return players == 2 ? BUILDINGS[b].count_2p : BUILDINGS[b].count;
}

/* Printed price, with the optional Factory 8 / University 7 swap (options bit 0). */
static int cost_of(int options, int b)
{
    if ((options & 1) && (b == FACTORY || b == UNIVERSITY))
        return b == FACTORY ? 8 : 7;
    return BUILDINGS[b].cost;
}

/* ------------------------------------------------------------------ small helpers */

static int sum5(const int8_t *a) { return a[0] + a[1] + a[2] + a[3] + a[4]; }

static int min_int(int a, int b) { return a < b ? a : b; }

static int max_int(int a, int b) { return a > b ? a : b; }

static int popcount5(int mask) { return mm_popcount((unsigned)mask & 31u); }

static int occupied(const mm_pr_player *p, int b) { return p->buildings[b] > 0; }

static int owns(const mm_pr_player *p, int b) { return p->buildings[b] >= 0; }

/* Index of the lowest set bit of a non-zero mask (loops over owned buildings). */
static int lowest(uint64_t mask) { return __builtin_ctzll(mask); }

/* A game with Expansion I (layout v2); base games have no in_game bits. */
static int expansion(const mm_pr_state *s) { return s->in_game != 0; }

static int colonists(const mm_pr_player *p)
{
    int total = p->san_juan + sum5(p->plantation_colonists) + p->quarry_colonists;
    for (uint64_t m = p->owned; m; m &= m - 1)
        total += p->buildings[lowest(m)];
    return total;
}

/* Empty circles of one Mayor slot (kinds, quarry, buildings by id). */
static int empty_circles(const mm_pr_player *p, int slot)
{
    if (slot < NK)
        return p->plantations[slot] - p->plantation_colonists[slot];
    if (slot == SLOT_QUARRY)
        return p->quarries - p->quarry_colonists;
    int b = slot - SLOT_BUILDING;
    return owns(p, b) ? BUILDINGS[b].circles - p->buildings[b] : 0;
}

static int empty_building_circles(const mm_pr_player *p)
{
    int empty = 0;
    for (uint64_t m = p->owned; m; m &= m - 1) {
        int b = lowest(m);
        empty += BUILDINGS[b].circles - p->buildings[b];
    }
    return empty;
}

/* Barrels of each kind the player can produce (before supply limits). */
static void production(const mm_pr_player *p, int out[NK])
{
    int circles[NK] = {0};
    for (int b = SMALL_INDIGO_PLANT; b <= COFFEE_ROASTER; b++)
        circles[BUILDINGS[b].good] += max_int(p->buildings[b], 0);
    out[CORN] = p->plantation_colonists[CORN];
    for (int k = INDIGO; k < NK; k++)
        out[k] = min_int(p->plantation_colonists[k], circles[k]);
}

static int warehouse_kinds(const mm_pr_player *p)
{
    return occupied(p, SMALL_WAREHOUSE) + 2 * occupied(p, LARGE_WAREHOUSE);
}

/* Free barrels kept after the Captain phase: 1, and 3 more with a Storehouse (data.py). */
enum { FREE_BARRELS = 1, STOREHOUSE_BARRELS = 3 };
static int free_barrels(const mm_pr_player *p)
{
    return FREE_BARRELS + STOREHOUSE_BARRELS * occupied(p, STOREHOUSE);
}

static int held_mask(const mm_pr_player *p)
{
    int mask = 0;
    for (int k = 0; k < NK; k++)
        mask |= (p->goods[k] > 0) << k;
    return mask;
}

static int seat(const mm_pr_state *s, int offset) { return (s->chooser + offset) % s->players; }

/* The size of a seat's privilege in the role being played: 1 for the chooser,
 * 2 with an occupied Library, 0 for everyone else. */
static int privilege_size(const mm_pr_state *s, int player)
{
    return 1 + occupied(&s->p[player], LIBRARY);
}

/* Doubloons count up to LIMIT, on a player or a role card (state.py _cap_money): every
 * gain is capped where it is made, so every position play reaches stays one decode
 * accepts.  (No move gains and then pays, so this is state.py's cap after each move.) */
static void earn(mm_pr_player *p, int amount)
{
    p->doubloons = (int16_t)min_int(p->doubloons + amount, MM_PR_LIMIT);
}

static int privilege(const mm_pr_state *s, int player)
{
    return player == s->chooser ? privilege_size(s, player) : 0;
}

/* state.py _privilege_may_end: a privilege of `gain` could be what triggers the game end
 * (supply lasts after `before` is spent, not after `before + gain` more): the player may
 * decline it by a move. */
static int privilege_may_end(int gain, int before, int supply)
{
    return before < supply && supply <= before + gain;
}

/* state.py _colonist_may_end: one colonist from the supply (Hospice, University) is
 * among those the ship's least refill needs, with `returned` more in the supply by then
 * (a Black Market give-up): the move that brings it comes twice. */
static int colonist_may_end(const mm_pr_state *s, int returned)
{
    return privilege_may_end(1, s->players - 1, s->colonist_supply + returned);
}

/* The move a move declining the Hospice or University colonist varies (moves.py
 * _declined_id); any other move is its own. */
static int undeclined(int a)
{
    if (a >= MM_PR_A_BUILD_DECLINE_V2)
        return MM_PR_A_BUILD + MM_PR_BASE_BUILDINGS + a - MM_PR_A_BUILD_DECLINE_V2;
    if (a >= MM_PR_A_FOREST_DECLINE)
        return MM_PR_A_FOREST + a - MM_PR_A_FOREST_DECLINE;
    if (a >= MM_PR_A_BUILD_DECLINE && a < MM_PR_A_BUILD_DECLINE + MM_PR_BASE_BUILDINGS)
        return MM_PR_A_BUILD + a - MM_PR_A_BUILD_DECLINE;
    if (a >= MM_PR_A_SETTLE_DECLINE && a < MM_PR_A_SETTLE_DECLINE + NK)
        return MM_PR_A_SETTLE + a - MM_PR_A_SETTLE_DECLINE;
    return a == MM_PR_A_SETTLE_DECLINE + SLOT_QUARRY ? MM_PR_A_QUARRY : a;
}

/* The discount that does not depend on the building: the builder's privilege and,
 * with a Forest House, a doubloon for every 2 forests (no column cap). */
static int flat_discount(const mm_pr_state *s, int player)
{
    const mm_pr_player *p = &s->p[player];
    return privilege(s, player) + (occupied(p, FOREST_HOUSE) ? p->forests / 2 : 0);
}

/* The price of b after the flat discount and the occupied quarries up to its column;
 * never below 0. */
static int price_after(const mm_pr_state *s, const mm_pr_player *p, int b, int flat)
{
    int discount = min_int(p->quarry_colonists, BUILDINGS[b].column) + flat;
    return max_int(0, cost_of(s->options, b) - discount);
}

static int price(const mm_pr_state *s, int player, int b)
{
    return price_after(s, &s->p[player], b, flat_discount(s, player));
}

/* Doubloons a trading-house sale of kind k pays (its price is k), with the
 * seller's privilege. */
static int sale_gain(const mm_pr_player *p, int k, int bonus)
{
    return k + bonus + occupied(p, SMALL_MARKET) + 2 * occupied(p, LARGE_MARKET);
}

/* Settler: the settler's extra tile (Library), after every other player has settled. */
static int library_turn(const mm_pr_state *s) { return s->turn == s->players; }

static int may_take_forest(const mm_pr_state *s, const mm_pr_player *p)
{
    return occupied(p, FOREST_HOUSE) && s->forest_supply > 0 && p->island_used < ISLAND_SPACES;
}

/* ------------------------------------------------------------------ legal moves */

static int draft_moves(const mm_pr_state *s, uint16_t *out)
{
    int free[11], n = 0;
    for (int c = 0; c <= 10; c++)
        free[c] = DRAFT_SLOTS[c];
    for (uint64_t m = s->in_game & VIOLET_MASK; m; m &= m - 1)
        free[cost_of(s->options, lowest(m))]--;
    for (uint64_t m = VIOLET_MASK & ~s->in_game; m; m &= m - 1) {
        int b = lowest(m);
        if (free[cost_of(s->options, b)] > 0)
            out[n++] = (uint16_t)(MM_PR_A_DRAFT + b);
    }
    return n;
}

static int role_moves(const mm_pr_state *s, uint16_t *out)
{
    int n = 0, roles = setup_of(s->players)->roles;
    int twin = !s->role_taken[PROSPECTOR] /* the second prospector card, identical to the first */
            && s->role_doubloons[PROSPECTOR] == s->role_doubloons[PROSPECTOR2];
    for (int r = 0; r < roles; r++) { /* written always, counted when open: no branch to mispredict */
        out[n] = (uint16_t)(MM_PR_A_ROLE + r);
        n += !s->role_taken[r] & !(r == PROSPECTOR2 && twin);
    }
    /* the mayor's colonists from those the ship's least refill (one per player) needs */
    if (!s->role_taken[MAYOR]
        && privilege_may_end(privilege_size(s, s->current), s->players - 1, s->colonist_supply))
        out[n++] = MM_PR_A_DECLINE + MAYOR;
    out[n] = 0; /* the cache's entries past the count stay zero */
    return n;
}

/* The settler's Library tile (turn == players) is a face-up plantation or forest,
 * a quarry only through a Construction Hut, never the Hacienda draw. */
static int settler_moves(const mm_pr_state *s, uint16_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int n = 0, extra = library_turn(s);
    if (s->hacienda_tile >= 0) {
        out[0] = MM_PR_A_HACIENDA_PLANT;
        out[1] = MM_PR_A_HACIENDA_FOREST;
        return 2;
    }
    out[n++] = MM_PR_A_PASS;
    if (p->island_used >= ISLAND_SPACES)
        return n;
    for (int k = 0; k < NK; k++) { /* written always, counted when open: no branch to mispredict */
        out[n] = (uint16_t)(MM_PR_A_SETTLE + k);
        n += s->faceup[k] > 0;
    }
    /* never two quarries in one Settler phase: last_slot marks the settler's first one */
    int may_quarry = (s->current == s->chooser && !extra)
                  || (occupied(p, CONSTRUCTION_HUT) && !(extra && s->last_slot == SLOT_QUARRY));
    if (may_quarry && s->quarry_supply > 0)
        out[n++] = MM_PR_A_QUARRY;
    if (!extra && occupied(p, HACIENDA) && !s->hacienda_done
        && sum5(s->deck) + sum5(s->discard) > 0)
        out[n++] = MM_PR_A_HACIENDA;
    /* each tile again without its Hospice colonist when that could end the game */
    int decline = !extra && occupied(p, HOSPICE) && colonist_may_end(s, 0), tiles = n;
    for (int i = 1; decline && i < tiles; i++)
        if (out[i] != MM_PR_A_HACIENDA)
            out[n++] = (uint16_t)(MM_PR_A_SETTLE_DECLINE
                                  + (out[i] == MM_PR_A_QUARRY ? SLOT_QUARRY : out[i] - MM_PR_A_SETTLE));
    if (may_take_forest(s, p))
        for (int k = 0; k < NK; k++)
            if (s->faceup[k] > 0)
                out[n++] = (uint16_t)(MM_PR_A_FOREST + k);
    for (int k = 0; decline && may_take_forest(s, p) && k < NK; k++)
        if (s->faceup[k] > 0)
            out[n++] = (uint16_t)(MM_PR_A_FOREST_DECLINE + k);
    out[n] = 0; /* the cache's entries past the count stay zero */
    return n;
}

/* Mayor placements go in non-decreasing slot order: a slot is open when it has a
 * free circle and the circles from it on can take every colonist still in hand. */
static int mayor_moves(const mm_pr_state *s, uint16_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int first = s->last_slot, room = 0, n = 0;
    uint64_t owned = p->owned & (~0ull << max_int(0, first - SLOT_BUILDING));
    for (int slot = first; slot <= SLOT_QUARRY; slot++)
        room += empty_circles(p, slot);
    for (uint64_t m = owned; m; m &= m - 1) {
        int b = lowest(m);
        room += BUILDINGS[b].circles - p->buildings[b];
    }
    for (int slot = first; slot <= SLOT_QUARRY && room >= s->to_place; slot++) {
        int empty = empty_circles(p, slot);
        out[n] = (uint16_t)(MM_PR_A_PLACE + slot); /* written always, counted when open */
        n += empty > 0;
        room -= empty;
    }
    for (uint64_t m = owned; m && room >= s->to_place; m &= m - 1) {
        int b = lowest(m), empty = BUILDINGS[b].circles - p->buildings[b];
        out[n] = (uint16_t)(MM_PR_A_PLACE + SLOT_BUILDING + b);
        n += empty > 0;
        room -= empty;
    }
    out[n] = 0; /* the cache's entries past the count stay zero */
    return n;
}

/* Black Market: where the builder of b may take a colonist from (a bit per Mayor
 * slot, SLOT_SAN_JUAN for San Juan).  Not the Black Market itself, nor a building
 * or quarry whose builder function this build uses: the University always, the
 * Church when b earns chips, the Library when the builder is its chooser, the
 * Forest House from 2 forests on, a quarry while the discount needs it. */
static uint64_t colonist_sources(const mm_pr_state *s, int b)
{
    const mm_pr_player *p = &s->p[s->current];
    uint64_t sources = p->san_juan ? BIT(SLOT_SAN_JUAN) : 0;
    uint64_t in_use = BIT(BLACK_MARKET) | BIT(UNIVERSITY);
    for (int k = 0; k < NK; k++)
        sources |= (uint64_t)(p->plantation_colonists[k] > 0) << k;
    if (p->quarry_colonists > BUILDINGS[b].column)
        sources |= BIT(SLOT_QUARRY);
    if (CHURCH_VP[BUILDINGS[b].column])
        in_use |= BIT(CHURCH);
    if (s->current == s->chooser)
        in_use |= BIT(LIBRARY);
    if (p->forests >= 2)
        in_use |= BIT(FOREST_HOUSE);
    for (uint64_t m = p->owned & ~in_use; m; m &= m - 1) {
        int x = lowest(m);
        if (p->buildings[x] > 0)
            sources |= BIT(SLOT_BUILDING + x);
    }
    return sources;
}

/* Bitmask of the give-up categories (bit c: GIVE_COLONIST..GIVE_CHIP) open to the
 * builder of b. */
static int give_categories(const mm_pr_state *s, int b)
{
    const mm_pr_player *p = &s->p[s->current];
    return (colonist_sources(s, b) ? 1 << GIVE_COLONIST : 0) | (held_mask(p) ? 1 << GIVE_BARREL : 0)
        | (p->vp_chips > 0 ? 1 << GIVE_CHIP : 0);
}

/* Give-ups one at a time, one of each category at most, categories in order: a
 * category is open while it and the open ones after it can cover what is still due.
 * Ids ascend barrels, chip, colonists. */
static int give_moves(const mm_pr_state *s, uint16_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    unsigned cats = (unsigned)give_categories(s, s->bm_building) & (~0u << (s->bm_given + 1));
    int open = 0, n = 0;
    for (int c = GIVE_COLONIST; c <= GIVE_CHIP; c++)
        if ((cats >> c & 1) && mm_popcount(cats >> c) >= s->bm_due)
            open |= 1 << c;
    if (open >> GIVE_BARREL & 1)
        for (int k = 0; k < NK; k++)
            if (p->goods[k] > 0)
                out[n++] = (uint16_t)(MM_PR_A_GIVE + k);
    if (open >> GIVE_CHIP & 1)
        out[n++] = MM_PR_A_GIVE + GIVE_VP;
    if (open >> GIVE_COLONIST & 1)
        for (uint64_t m = colonist_sources(s, s->bm_building); m; m &= m - 1)
            out[n++] = (uint16_t)(MM_PR_A_GIVE_COLONIST + lowest(m));
    return n;
}

/* Builds the player can pay, and with an occupied Black Market those whose shortfall
 * the give-up categories cover (one doubloon each); then, with an occupied University,
 * those whose colonist could trigger the game end again declining it (a Black Market
 * build's comes after the give-ups, which may return a colonist to the supply first). */
static int builder_moves(const mm_pr_state *s, uint16_t *out)
{
    if (s->bm_due)
        return give_moves(s, out);
    const mm_pr_player *p = &s->p[s->current];
    int n = 0, room = CITY_SPACES - p->city_used, black_market = occupied(p, BLACK_MARKET);
    int flat = flat_discount(s, s->current), nd = 0, university = occupied(p, UNIVERSITY);
    int decline = university && colonist_may_end(s, 0);
    uint16_t declines[NB]; /* builds again without the University colonist */
    out[n++] = MM_PR_A_PASS;
    if (!black_market && !decline) { /* most builds: each affordable one, without branches */
        for (uint64_t m = s->available & ~p->owned; m; m &= m - 1) {
            int b = lowest(m);
            out[n] = (uint16_t)(MM_PR_A_BUILD + b);
            n += (BUILDINGS[b].spaces <= room) & (price_after(s, p, b, flat) <= p->doubloons);
        }
        out[n] = 0; /* the cache's entries past the count stay zero */
        return n;
    }
    for (uint64_t m = s->available & ~p->owned; m; m &= m - 1) {
        int b = lowest(m);
        if (BUILDINGS[b].spaces > room)
            continue;
        int shortfall = price_after(s, p, b, flat) - p->doubloons, may_end = decline;
        if (shortfall > 0) {
            if (!black_market)
                continue;
            int cats = give_categories(s, b);
            if (shortfall > mm_popcount((unsigned)cats))
                continue;
            may_end = decline || (university && (cats >> GIVE_COLONIST & 1) && colonist_may_end(s, 1));
        }
        out[n++] = (uint16_t)(MM_PR_A_BUILD + b);
        if (may_end && BUILDINGS[b].circles)
            declines[nd++] = (uint16_t)(b < MM_PR_BASE_BUILDINGS ? MM_PR_A_BUILD_DECLINE + b
                                        : MM_PR_A_BUILD_DECLINE_V2 + b - MM_PR_BASE_BUILDINGS);
    }
    for (int i = 0; i < nd; i++) /* rarely any: no call to memcpy */
        out[n + i] = declines[i];
    return n + nd;
}

/* Privilege barrels (two with a Library) of kinds produced, in non-decreasing kind
 * order from last_slot, as many as the supply allows.  Base games take one. */
static int craftsman_moves(const mm_pr_state *s, uint16_t *out)
{
    int avail[NK], total = 0, n = 0;
    for (int k = 0; k < NK; k++) {
        avail[k] = (s->produced >> k & 1) && k >= s->last_slot ? s->goods_supply[k] : 0;
        total += avail[k];
    }
    int need = min_int(expansion(s) ? s->privilege_left : 1, total);
    for (int k = 0; k < NK && need; k++) {
        if (avail[k] && total >= need)
            out[n++] = (uint16_t)(MM_PR_A_CRAFT + k);
        total -= avail[k];
    }
    return n;
}

static int trader_moves(const mm_pr_state *s, uint16_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int n = 0;
    out[n++] = MM_PR_A_PASS;
    if (sum5(s->house) < HOUSE_SPACES)
        for (int k = 0; k < NK; k++)
            if (p->goods[k] > 0 && (occupied(p, OFFICE) || s->house[k] == 0))
                out[n++] = (uint16_t)(MM_PR_A_SELL + k);
    if (occupied(p, TRADING_POST))
        for (int k = 0; k < NK; k++)
            if (p->goods[k] > 0)
                out[n++] = (uint16_t)(MM_PR_A_POST + k);
    return n;
}

static int ship_of_kind(const mm_pr_state *s, int k)
{
    for (int i = 0; i < setup_of(s->players)->ships; i++)
        if (s->ship_kind[i] == k)
            return i;
    return -1;
}

static uint16_t load_action(int k, int capacity)
{
    return (uint16_t)(MM_PR_A_LOAD + k * 5 + capacity - MM_PR_MIN_CAPACITY);
}

/* Cargo-ship loads open to a player (rules 3.6: forced maximum per kind), ascending. */
static int ship_loads(const mm_pr_state *s, int player, uint16_t *out)
{
    const mm_pr_player *p = &s->p[player];
    int n = 0, ships = setup_of(s->players)->ships;
    for (int k = 0; k < NK; k++) {
        int have = p->goods[k], on;
        if (!have)
            continue;
        if ((on = ship_of_kind(s, k)) >= 0) {
            if (s->ship_count[on] < s->ship_capacity[on])
                out[n++] = load_action(k, s->ship_capacity[on]);
            continue;
        }
        int best = 0;
        for (int i = 0; i < ships; i++)
            if (s->ship_kind[i] < 0)
                best = max_int(best, min_int(have, s->ship_capacity[i]));
        for (int i = 0; i < ships; i++)
            if (s->ship_kind[i] < 0 && min_int(have, s->ship_capacity[i]) == best)
                out[n++] = load_action(k, s->ship_capacity[i]);
    }
    return n;
}

/* state.py _captain_moves / _first_load_vp: whether the captain's privilege VP on his
 * first load could be what triggers the game end for one of his loading actions
 * options[n], his captain_moves. */
static int captain_may_decline(const mm_pr_state *s, const uint16_t *options, int n)
{
    if (s->current != s->chooser || s->captain_loaded || s->wharf_barrels)
        return 0;
    const mm_pr_player *p = &s->p[s->current];
    int gain = privilege(s, s->current);
    int harbor = occupied(p, HARBOR), small_wharf = 0;
    for (int i = 0; i < n; i++) {
        int a = options[i], vp = -1;
        if (a >= MM_PR_A_LOAD && a < MM_PR_A_WHARF) {
            int k = (a - MM_PR_A_LOAD) / 5, capacity = (a - MM_PR_A_LOAD) % 5 + MM_PR_MIN_CAPACITY;
            for (int j = 0; j < MM_PR_MAX_SHIPS && vp < 0; j++)
                if (s->ship_capacity[j] == capacity)
                    vp = min_int(p->goods[k], capacity - s->ship_count[j]);
        } else if (a >= MM_PR_A_WHARF && a < MM_PR_A_STORE) {
            vp = p->goods[a - MM_PR_A_WHARF];
        }
        small_wharf |= a >= MM_PR_A_SMALL_WHARF && a < MM_PR_A_SMALL_WHARF + NK;
        if (vp >= 0 && privilege_may_end(gain, vp + harbor, s->vp_supply))
            return 1;
    }
    for (int barrels = 1; small_wharf && barrels <= sum5(p->goods); barrels++)
        if (privilege_may_end(gain, barrels / 2 + harbor, s->vp_supply))
            return 1;
    return 0;
}

/* Loads, then the optional instead-of-a-load moves (Wharf, Small Wharf) with a
 * pass when nothing loads.  During a Small Wharf action its mover adds barrels in
 * non-decreasing kind order or passes to complete it. */
static int captain_moves(const mm_pr_state *s, int player, uint16_t *out)
{
    const mm_pr_player *p = &s->p[player];
    int n = 0;
    if (s->wharf_barrels && player == s->current) {
        out[n++] = MM_PR_A_PASS;
        for (int k = s->last_slot; k < NK; k++)
            if (p->goods[k] > 0)
                out[n++] = (uint16_t)(MM_PR_A_SMALL_WHARF + k);
        return n;
    }
    int loads = ship_loads(s, player, out), goods = sum5(p->goods) > 0;
    int wharf = goods && occupied(p, WHARF) && !p->wharf_done;
    int small_wharf = goods && occupied(p, SMALL_WHARF) && !p->small_wharf_done;
    if (!wharf && !small_wharf)
        return loads;
    n = loads;
    if (!loads)
        out[n++] = MM_PR_A_PASS;
    for (int k = 0; k < NK && wharf; k++)
        if (p->goods[k] > 0)
            out[n++] = (uint16_t)(MM_PR_A_WHARF + k);
    for (int k = 0; k < NK && small_wharf; k++)
        if (p->goods[k] > 0)
            out[n++] = (uint16_t)(MM_PR_A_SMALL_WHARF + k);
    return n;
}

/* The captain's moves, with the decline of his privilege (ids ascending: after pass). */
static int captain_legal(const mm_pr_state *s, uint16_t *out)
{
    int n = captain_moves(s, s->current, out);
    if (!captain_may_decline(s, out, n))
        return n;
    int at = n > 0 && out[0] == MM_PR_A_PASS;
    memmove(out + at + 1, out + at, (size_t)(n - at) * sizeof *out);
    out[at] = MM_PR_A_DECLINE + CAPTAIN;
    return n + 1;
}

/* Storage (state.py _storage_sequences), by enumeration: every warehouse mask M of the
 * allowed size gives the outcomes "all of M's kinds, plus min(free, rest) barrels of the
 * other kinds".  An outcome is open while M holds the kinds named so far (store_mask) and
 * none kept so far, and its barrels include the kept ones: those choices may have been
 * made in any order (another client's position).  An open outcome belongs to the smallest
 * open mask giving it; its remaining moves name M's other kinds ascending, then the
 * barrels still to keep one at a time, kinds ascending. */
typedef struct storage_walk {
    const int8_t *goods;
    const int8_t *kept;         /* free barrels kept so far */
    int held, size, free, done; /* done: the warehouse kinds named so far */
    int mask;                   /* the mask being enumerated */
    int o[NK];                  /* the outcome being built */
    int next;                   /* found: bits 0-4 store kind, bits 5-9 keep kind */
} storage_walk;

/* Whether mask m may still be the player's warehouse kinds. */
static int storage_open(const storage_walk *w, int m)
{
    if ((m & ~w->held) || popcount5(m) != w->size || (m & w->done) != w->done)
        return 0;
    for (int k = 0; k < NK; k++)
        if ((m >> k & 1) && w->kept[k])
            return 0;
    return 1;
}

/* Free barrels the outcome of mask m keeps besides m's kinds. */
static int storage_rest(const storage_walk *w, int m)
{
    int rest = 0;
    for (int k = 0; k < NK; k++)
        rest += (m >> k & 1) ? 0 : w->goods[k];
    return min_int(w->free, rest);
}

/* Whether outcome o is one of open mask m's. */
static int storage_gives(const storage_walk *w, int m, const int o[NK])
{
    int others = 0, fits = 1;
    for (int k = 0; k < NK; k++) {
        if (m >> k & 1)
            fits &= o[k] == w->goods[k];
        else {
            others += o[k];
            fits &= o[k] >= w->kept[k];
        }
    }
    return fits && others == storage_rest(w, m);
}

/* Whether open outcome o belongs to an open mask smaller than w->mask.  Open masks hold
 * only held kinds, so the walks visit the subsets of held alone ((m - 1) & held steps
 * through them from held down to 0, then back to held). */
static int storage_taken(const storage_walk *w, const int o[NK])
{
    int m = w->held;
    do {
        if (m < w->mask && storage_open(w, m) && storage_gives(w, m, o))
            return 1;
        m = (m - 1) & w->held;
    } while (m != w->held);
    return 0;
}

/* The next move of outcome w->o of w->mask (-1: none, the choice is complete). */
static int storage_next(const storage_walk *w)
{
    if (w->mask != w->done)
        return lowest((uint64_t)(w->mask & ~w->done));
    for (int k = 0; k < NK; k++)
        if (!(w->mask >> k & 1) && w->o[k] > w->kept[k])
            return NK + k;
    return -1;
}

/* Enumerate the fills of `left` barrels over kinds k.. outside the mask, at least the kept ones. */
static void storage_fill(storage_walk *w, int k, int left)
{
    if (k == NK) {
        int next;
        if (!left && !storage_taken(w, w->o) && (next = storage_next(w)) >= 0)
            w->next |= 1 << next;
        return;
    }
    if (w->mask >> k & 1) {
        w->o[k] = w->goods[k];
        storage_fill(w, k + 1, left);
        return;
    }
    for (int take = min_int(left, w->goods[k]); take >= w->kept[k]; take--) {
        w->o[k] = take;
        storage_fill(w, k + 1, left - take);
    }
}

static storage_walk storage_of(const mm_pr_state *s)
{
    const mm_pr_player *p = &s->p[s->current];
    storage_walk w = {.goods = p->goods, .kept = s->kept, .held = held_mask(p),
                      .free = free_barrels(p), .done = s->store_mask};
    w.size = min_int(warehouse_kinds(p), popcount5(w.held));
    return w;
}

/* Storage without a warehouse (most players): mask 0 is the only open one when no kind
 * is named, and its outcomes are the fills of storage_rest barrels, each kind between its
 * kept barrels and its goods.  An outcome's next move keeps a barrel of its lowest kind
 * above the kept count, so kind k is a move exactly when every kept count is held, k has
 * a barrel more than kept, and the kinds from k on can take the barrels still to keep:
 * the walk's moves without the walk. */
static int storage_moves_free(const storage_walk *w, uint16_t *out)
{
    int n = 0, to_keep = storage_rest(w, 0), room[NK + 1] = {0};
    for (int k = NK - 1; k >= 0; k--) {
        if (w->kept[k] > w->goods[k])
            return 0;
        to_keep -= w->kept[k];
        room[k] = room[k + 1] + w->goods[k] - w->kept[k];
    }
    if (w->done || to_keep <= 0)
        return 0;
    for (int k = 0; k < NK; k++)
        if (w->goods[k] > w->kept[k] && room[k] >= to_keep)
            out[n++] = (uint16_t)(MM_PR_A_KEEP + k);
    return n;
}

static int storage_moves(const mm_pr_state *s, uint16_t *out)
{
    storage_walk w = storage_of(s);
    int n = 0;
    if (w.size == 0)
        return storage_moves_free(&w, out);
    w.mask = w.held;
    do {
        if (storage_open(&w, w.mask))
            storage_fill(&w, 0, storage_rest(&w, w.mask));
        w.mask = (w.mask - 1) & w.held;
    } while (w.mask != w.held);
    for (int i = 0; i < 2 * NK; i++)
        if (w.next >> i & 1)
            out[n++] = (uint16_t)((i < NK ? MM_PR_A_STORE : MM_PR_A_KEEP - NK) + i);
    return n;
}

/* Whether the choices made complete an outcome: every warehouse kind named and every free
 * barrel kept (the player's storage ends). */
static int storage_complete(const mm_pr_state *s)
{
    storage_walk w = storage_of(s);
    return popcount5(w.done) == w.size && sum5(s->kept) == storage_rest(&w, w.done);
}

/* Guest House moves of a seat: a guest to any empty circle of a slot from `first`
 * on (the Guest House's own excluded); returns how many slots. */
static int guest_slots(const mm_pr_state *s, int player, int first, uint16_t *out)
{
    const mm_pr_player *p = &s->p[player];
    int n = 0;
    if (p->buildings[GUEST_HOUSE] <= 0)
        return 0;
    for (int slot = first; slot <= SLOT_QUARRY; slot++)
        if (empty_circles(p, slot) > 0)
            out[n++] = (uint16_t)(MM_PR_A_GUEST + slot);
    uint64_t owned = p->owned & ~BIT(GUEST_HOUSE) & (~0ull << max_int(0, first - SLOT_BUILDING));
    for (uint64_t m = owned; m; m &= m - 1) {
        int b = lowest(m);
        if (BUILDINGS[b].circles > p->buildings[b])
            out[n++] = (uint16_t)(MM_PR_A_GUEST + SLOT_BUILDING + b);
    }
    return n;
}

static int guest_moves(const mm_pr_state *s, uint16_t *out)
{
    out[0] = MM_PR_A_PASS;
    return 1 + guest_slots(s, s->current, s->last_slot, out + 1);
}

static int gen_moves(const mm_pr_state *s, uint16_t *out)
{
    switch (s->phase) {
    case ROLE: return role_moves(s, out);
    case PH_SETTLER: return settler_moves(s, out);
    case PH_MAYOR: return mayor_moves(s, out);
    case PH_BUILDER: return builder_moves(s, out);
    case PH_CRAFTSMAN: return craftsman_moves(s, out);
    case PH_TRADER: return trader_moves(s, out);
    case PH_CAPTAIN: return captain_legal(s, out);
    case PH_STORAGE: return storage_moves(s, out);
    case PH_DRAFT: return draft_moves(s, out);
    case PH_GUESTS: return guest_moves(s, out);
    default: return 0;
    }
}

/* Rebuild the move cache; unused entries are zero so equal positions are equal bytes.
 * GCC and Clang clear it in six 16-byte stores: a memset of it compiles to `rep stos`
 * (slow to start) and a loop over the entries past the new count mispredicts its exit
 * on most moves; either costs 5-10% of a random playout (docs/measurements.md). */
static int refresh_legal(mm_pr_state *s)
{
#if defined(__GNUC__)
    typedef uint16_t block __attribute__((vector_size(16), aligned(2), may_alias));
    _Static_assert(sizeof s->legal % sizeof(block) == 0, "the cache clears in whole blocks");
    for (size_t i = 0; i < sizeof s->legal / sizeof(block); i++)
        ((block *)s->legal)[i] = (block){0};
#else
    memset(s->legal, 0, sizeof s->legal);
#endif
    int n = gen_moves(s, s->legal);
    assert(n <= MM_PR_MAX_LEGAL);
    s->num_legal = (uint8_t)n;
    return n;
}

/* ------------------------------------------------------------------ rules */

static void produce(mm_pr_state *s);
static void captain_income(mm_pr_state *s);
static void next_guest_owner(mm_pr_state *s);

/* Expansion games: a Guest House window before the phase `before`; owners move
 * guests one at a time in turn order from the chooser, then the phase begins. */
static void open_window(mm_pr_state *s, int before)
{
    s->window = (int8_t)before;
    s->turn = 0;
    next_guest_owner(s);
}

static void next_guest_owner(mm_pr_state *s)
{
    uint16_t moves[MM_PR_MAX_LEGAL];
    for (; s->turn < s->players; s->turn++) {
        int at = seat(s, s->turn);
        if (guest_slots(s, at, 0, moves)) {
            s->phase = PH_GUESTS;
            s->current = (int8_t)at;
            s->last_slot = 0;
            return;
        }
    }
    int before = s->window;
    s->window = -1;
    s->turn = s->last_slot = 0;
    switch (before) {
    case PH_CRAFTSMAN: produce(s); break;
    case PH_TRADER: s->phase = PH_TRADER; s->current = s->chooser; break;
    case PH_CAPTAIN: captain_income(s); break;
    default: s->phase = END; s->current = -1; break;
    }
}

static void end_phase(mm_pr_state *s)
{
    int n = s->players, per_round = n == 2 ? 6 : n;
    s->picks++;
    s->turn = 0;
    if (s->picks < per_round) {
        s->phase = ROLE;
        s->current = (int8_t)((s->governor + s->picks) % n);
        return;
    }
    for (int r = 0; r < setup_of(n)->roles; r++) {
        s->role_doubloons[r] = (int16_t)min_int(s->role_doubloons[r] + !s->role_taken[r], MM_PR_LIMIT);
        s->role_taken[r] = 0;
    }
    s->picks = 0;
    s->governor = (int8_t)((s->governor + 1) % n);
    if (!s->end_triggered) {
        s->phase = ROLE;
        s->current = s->governor;
    } else if (expansion(s)) { /* the last window runs from the governor */
        s->chooser = s->governor;
        open_window(s, END);
    } else {
        s->phase = END;
        s->current = -1;
    }
}

/* Give the turn to the next seat of the phase; 1 when every seat has had it. */
static int advance_turn(mm_pr_state *s)
{
    s->turn++;
    if (s->turn >= s->players)
        return 1;
    s->current = (int8_t)seat(s, s->turn);
    return 0;
}

/* One colonist from the supply, else from the ship (Hospice, University). */
static int take_colonist(mm_pr_state *s)
{
    if (s->colonist_supply > 0) {
        s->colonist_supply--;
        return 1;
    }
    if (s->colonist_ship > 0) {
        s->colonist_ship--;
        return 1;
    }
    return 0;
}

/* up to LIMIT chips a player (state.py _give_vp) */
static void give_vp(mm_pr_state *s, mm_pr_player *p, int vp)
{
    vp = min_int(vp, MM_PR_LIMIT - p->vp_chips);
    p->vp_chips = (int16_t)(p->vp_chips + vp);
    s->vp_supply -= vp;
}

/* Draw one face-down plantation (the caller ensures one is left); reshuffles
 * the discards into an empty stack. */
static int draw_plantation(mm_pr_state *s, mm_rng *rng)
{
    if (sum5(s->deck) == 0) {
        memcpy(s->deck, s->discard, sizeof s->deck);
        memset(s->discard, 0, sizeof s->discard);
    }
    assert(sum5(s->deck) > 0);
    uint32_t r = mm_rng_below(rng, (uint32_t)sum5(s->deck));
    int k = 0;
    for (; k < NK - 1 && r >= (uint32_t)s->deck[k]; k++)
        r -= (uint32_t)s->deck[k];
    s->deck[k]--;
    return k;
}

/* -- draft */
static void do_draft(mm_pr_state *s, int a)
{
    int b = a - MM_PR_A_DRAFT;
    s->in_game |= BIT(b);
    s->building_supply[b] = (int8_t)building_count(b, s->players);
    s->available |= BIT(b);
    int picks = mm_popcount(s->in_game & VIOLET_MASK);
    if (picks == DRAFT_PICKS) {
        s->phase = ROLE;
        s->current = s->governor;
    } else {
        s->current = (int8_t)((s->governor + picks) % s->players);
    }
}

/* -- settler */
static void start_settler(mm_pr_state *s)
{
    s->phase = PH_SETTLER;
    s->current = s->chooser;
    s->hacienda_done = 0;
}

/* Face-up row to the discards and a new one drawn; with an occupied Library the
 * settler first takes one more tile (turn == players). */
static void finish_settler(mm_pr_state *s, mm_rng *rng)
{
    if (library_turn(s) && occupied(&s->p[s->chooser], LIBRARY)) {
        s->current = s->chooser;
        return;
    }
    s->last_slot = 0;
    for (int k = 0; k < NK; k++) {
        s->discard[k] += s->faceup[k];
        s->faceup[k] = 0;
    }
    for (int i = 0; i <= s->players && sum5(s->deck) + sum5(s->discard) > 0; i++)
        s->faceup[draw_plantation(s, rng)]++;
    end_phase(s);
}

static void take_forest(mm_pr_state *s, mm_pr_player *p)
{
    s->forest_supply--;
    p->forests++;
    p->island_used++;
}

/* The Hospice colonist for a settled tile (none for the Library tile). */
static int hospice_colonist(mm_pr_state *s, const mm_pr_player *p)
{
    return !library_turn(s) && occupied(p, HOSPICE) && take_colonist(s);
}

static void do_settler(mm_pr_state *s, int a, mm_rng *rng)
{
    mm_pr_player *p = &s->p[s->current];
    int colonist = undeclined(a) == a; /* else the Hospice colonist is declined */
    a = undeclined(a);
    if (a == MM_PR_A_HACIENDA) { /* with a Forest House the tile waits to be seen */
        int forest = may_take_forest(s, p), k = draw_plantation(s, rng);
        s->hacienda_done = 1;
        if (forest) {
            s->hacienda_tile = (int8_t)k;
        } else {
            p->plantations[k]++;
            p->island_used++;
        }
        return;
    }
    if (a == MM_PR_A_HACIENDA_PLANT || a == MM_PR_A_HACIENDA_FOREST) {
        int k = s->hacienda_tile;
        s->hacienda_tile = -1;
        if (a == MM_PR_A_HACIENDA_FOREST) {
            s->discard[k]++;
            take_forest(s, p);
        } else {
            p->plantations[k]++;
            p->island_used++;
        }
        return;
    }
    if (a >= MM_PR_A_SETTLE && a < MM_PR_A_SETTLE + NK) {
        int k = a - MM_PR_A_SETTLE;
        s->faceup[k]--;
        p->plantations[k]++;
        p->island_used++;
        if (colonist && hospice_colonist(s, p))
            p->plantation_colonists[k]++;
    } else if (a == MM_PR_A_QUARRY) {
        if (s->turn == 0 && occupied(p, LIBRARY))
            s->last_slot = SLOT_QUARRY; /* the Library tile will not be a second quarry */
        s->quarry_supply--;
        p->quarries++;
        p->island_used++;
        if (colonist && hospice_colonist(s, p))
            p->quarry_colonists++;
    } else if (a != MM_PR_A_PASS) { /* a forest: the plantation goes to the discards */
        int k = a - MM_PR_A_FOREST;
        s->faceup[k]--;
        s->discard[k]++;
        take_forest(s, p);
        if (colonist && hospice_colonist(s, p))
            p->san_juan++; /* a forest has no circle */
    }
    s->hacienda_done = 0;
    if (advance_turn(s))
        finish_settler(s, rng);
}

/* -- mayor */
static void finish_mayor(mm_pr_state *s)
{
    int need = 0;
    for (int i = 0; i < s->players; i++)
        need += empty_building_circles(&s->p[i]);
    need = max_int(s->players, need);
    if (s->colonist_supply < need) {
        s->end_triggered = 1;
        need = s->colonist_supply;
    }
    s->colonist_supply = (int8_t)(s->colonist_supply - need);
    s->colonist_ship = (int8_t)need;
    s->to_place = s->last_slot = 0;
    end_phase(s);
}

static void fill_all(mm_pr_player *p)
{
    memcpy(p->plantation_colonists, p->plantations, sizeof p->plantations);
    p->quarry_colonists = p->quarries;
    for (uint64_t m = p->owned; m; m &= m - 1) {
        int b = lowest(m);
        p->buildings[b] = BUILDINGS[b].circles;
    }
}

/* Pick up the colonists of the seat `turn` and place what is forced; stop at
 * the first player with a choice. */
static void begin_placement(mm_pr_state *s)
{
    for (; s->turn < s->players; s->turn++) {
        int at = seat(s, s->turn);
        mm_pr_player *p = &s->p[at];
        int hand = colonists(p), circles = p->island_used - p->forests; /* forests have none */
        p->san_juan = 0;
        memset(p->plantation_colonists, 0, sizeof p->plantation_colonists);
        p->quarry_colonists = 0;
        for (uint64_t m = p->owned; m; m &= m - 1) {
            int b = lowest(m);
            p->buildings[b] = 0;
            circles += BUILDINGS[b].circles;
        }
        if (hand < circles) {
            s->current = (int8_t)at;
            s->to_place = (int8_t)hand;
            s->last_slot = 0;
            if (hand > 0)
                return;
        } else {
            fill_all(p);
            p->san_juan = (int8_t)(hand - circles);
        }
    }
    finish_mayor(s);
}

static void start_mayor(mm_pr_state *s, int with_privilege)
{
    int n = s->players, each = s->colonist_ship / n, extra = s->colonist_ship % n;
    s->phase = PH_MAYOR;
    for (int i = with_privilege ? privilege(s, s->chooser) : 0; i > 0 && s->colonist_supply > 0; i--) {
        s->colonist_supply--;
        s->p[s->chooser].san_juan++;
    }
    for (int i = 0; i < n; i++)
        s->p[seat(s, i)].san_juan = (int8_t)(s->p[seat(s, i)].san_juan + each + (i < extra));
    s->colonist_ship = 0;
    begin_placement(s);
}

/* Add delta colonists (negative: remove) on a Mayor slot (Player.staff). */
static void staff(mm_pr_player *p, int slot, int delta)
{
    if (slot < NK)
        p->plantation_colonists[slot] += delta;
    else if (slot == SLOT_QUARRY)
        p->quarry_colonists += delta;
    else
        p->buildings[slot - SLOT_BUILDING] += delta;
}

static void do_mayor(mm_pr_state *s, int a)
{
    int slot = a - MM_PR_A_PLACE;
    staff(&s->p[s->current], slot, 1);
    s->to_place--;
    s->last_slot = (int8_t)slot;
    if (s->to_place == 0) {
        s->turn++;
        begin_placement(s);
    }
}

/* -- builder */

/* The player to move pays `cost` and takes building b, with the University colonist
 * unless `colonist` is 0 (declined); with an occupied Church he earns chips by its
 * column (they never end the game). */
static void build(mm_pr_state *s, int b, int cost, int colonist)
{
    mm_pr_player *p = &s->p[s->current];
    int chips = occupied(p, CHURCH) ? CHURCH_VP[BUILDINGS[b].column] : 0;
    p->doubloons = (int16_t)(p->doubloons - cost);
    if (--s->building_supply[b] == 0)
        s->available &= ~BIT(b);
    p->buildings[b] = 0;
    p->owned |= BIT(b);
    p->city_used = (int8_t)(p->city_used + BUILDINGS[b].spaces);
    if (colonist && BUILDINGS[b].circles && occupied(p, UNIVERSITY) && take_colonist(s))
        p->buildings[b] = 1; /* not on the Statue, which has no circle */
    if (p->city_used >= CITY_SPACES)
        s->end_triggered = 1;
    give_vp(s, p, chips);
}

/* One Black Market give-up, back to its supply. */
static void give(mm_pr_state *s, mm_pr_player *p, int a)
{
    if (a >= MM_PR_A_GIVE_COLONIST) {
        int slot = a - MM_PR_A_GIVE_COLONIST;
        s->bm_given = GIVE_COLONIST;
        s->colonist_supply++;
        if (slot == SLOT_SAN_JUAN)
            p->san_juan--;
        else
            staff(p, slot, -1);
    } else if (a == MM_PR_A_GIVE + GIVE_VP) {
        s->bm_given = GIVE_CHIP;
        give_vp(s, p, -1);
    } else {
        s->bm_given = GIVE_BARREL;
        p->goods[a - MM_PR_A_GIVE]--;
        s->goods_supply[a - MM_PR_A_GIVE]++;
    }
}

/* A build the player cannot pay waits for its Black Market give-ups; the last one
 * builds it for all his doubloons (the Black Market covers a shortfall only). */
static void do_builder(mm_pr_state *s, int a)
{
    mm_pr_player *p = &s->p[s->current];
    if (a >= MM_PR_A_GIVE && undeclined(a) == a) {
        give(s, p, a);
        if (--s->bm_due)
            return;
        int b = s->bm_building, colonist = !s->bm_declined;
        s->bm_building = -1;
        s->bm_given = s->bm_declined = 0;
        build(s, b, p->doubloons, colonist);
    } else if (a != MM_PR_A_PASS) {
        int b = undeclined(a) - MM_PR_A_BUILD, cost = price(s, s->current, b);
        if (cost > p->doubloons) {
            s->bm_building = (int8_t)b;
            s->bm_due = (int8_t)(cost - p->doubloons);
            s->bm_declined = undeclined(a) != a; /* the colonist comes after the give-ups */
            return;
        }
        build(s, b, cost, undeclined(a) == a);
    }
    if (advance_turn(s))
        end_phase(s);
}

/* -- craftsman */
/* Specialty Factory income: the most barrels of one kind (corn excluded), minus 1. */
static int specialty_income(const int made[NK])
{
    int most = max_int(max_int(made[INDIGO], made[SUGAR]), max_int(made[TOBACCO], made[COFFEE]));
    return max_int(0, most - 1);
}

static void finish_craftsman(mm_pr_state *s)
{
    if (expansion(s)) {
        mm_pr_player *p = &s->p[s->chooser];
        int made[NK];
        for (int k = 0; k < NK; k++)
            made[k] = s->made[k];
        if (occupied(p, SPECIALTY_FACTORY))
            earn(p, specialty_income(made));
        memset(s->made, 0, sizeof s->made);
        s->privilege_left = s->last_slot = 0;
    }
    s->produced = 0;
    end_phase(s);
}

/* Production in seat order from the craftsman: barrels as far as the supply lasts,
 * Factory income, then (expansion) the Aqueduct barrels and the Specialty Factory
 * (the craftsman's after his privilege barrels). */
static void produce(mm_pr_state *s)
{
    static const int8_t AQUEDUCT_PLANT[NK] = {-1, INDIGO_PLANT, SUGAR_MILL, -1, -1};
    s->phase = PH_CRAFTSMAN;
    if (expansion(s))
        s->privilege_left = (int8_t)privilege(s, s->chooser);
    for (int i = 0; i < s->players; i++) {
        int at = seat(s, i), got[NK], kinds = 0;
        mm_pr_player *p = &s->p[at];
        production(p, got);
        for (int k = 0; k < NK; k++) {
            got[k] = min_int(got[k], s->goods_supply[k]);
            s->goods_supply[k] = (int8_t)(s->goods_supply[k] - got[k]);
            p->goods[k] = (int8_t)(p->goods[k] + got[k]);
            kinds += got[k] > 0;
            if (got[k] && at == s->chooser)
                s->produced |= (int8_t)(1 << k);
        }
        if (occupied(p, FACTORY))
            earn(p, FACTORY_INCOME[kinds]);
        if (!expansion(s))
            continue;
        for (int k = INDIGO; k <= SUGAR && occupied(p, AQUEDUCT); k++) {
            if (got[k] && occupied(p, AQUEDUCT_PLANT[k]) && s->goods_supply[k] > 0) {
                got[k]++;
                s->goods_supply[k]--;
                p->goods[k]++;
            }
        }
        if (at == s->chooser) {
            for (int k = 0; k < NK; k++)
                s->made[k] = (int8_t)got[k];
        } else if (occupied(p, SPECIALTY_FACTORY)) {
            earn(p, specialty_income(got));
        }
    }
    s->current = s->chooser;
    uint16_t moves[MM_PR_MAX_LEGAL];
    if (!craftsman_moves(s, moves))
        finish_craftsman(s);
}

static void start_craftsman(mm_pr_state *s)
{
    if (expansion(s))
        open_window(s, PH_CRAFTSMAN);
    else
        produce(s);
}

static void do_craftsman(mm_pr_state *s, int a)
{
    int k = a - MM_PR_A_CRAFT;
    uint16_t moves[MM_PR_MAX_LEGAL];
    s->goods_supply[k]--;
    s->p[s->current].goods[k]++;
    if (expansion(s)) {
        s->made[k]++;
        s->privilege_left--;
        s->last_slot = (int8_t)k;
        if (craftsman_moves(s, moves))
            return;
    }
    finish_craftsman(s);
}

/* -- trader */
static void finish_trader(mm_pr_state *s)
{
    if (sum5(s->house) == HOUSE_SPACES) {
        for (int k = 0; k < NK; k++)
            s->goods_supply[k] += s->house[k];
        memset(s->house, 0, sizeof s->house);
    }
    end_phase(s);
}

static void start_trader(mm_pr_state *s)
{
    if (expansion(s)) {
        open_window(s, PH_TRADER);
    } else {
        s->phase = PH_TRADER;
        s->current = s->chooser;
    }
}

/* A sale to the house or (expansion) to one's own Trading Post: the privilege
 * counts for both, the markets only in the house. */
static void do_trader(mm_pr_state *s, int a)
{
    mm_pr_player *p = &s->p[s->current];
    if (a >= MM_PR_A_POST) {
        int k = a - MM_PR_A_POST;
        p->goods[k]--;
        s->goods_supply[k]++;
        earn(p, k + privilege(s, s->current));
    } else if (a != MM_PR_A_PASS) {
        int k = a - MM_PR_A_SELL;
        p->goods[k]--;
        s->house[k]++;
        earn(p, sale_gain(p, k, privilege(s, s->current)));
        /* once the house is full the others can only pass, unless a Trading Post is in the game */
        if (sum5(s->house) == HOUSE_SPACES && !(s->in_game & BIT(TRADING_POST))) {
            finish_trader(s);
            return;
        }
    }
    if (advance_turn(s))
        finish_trader(s);
}

/* -- captain and storage */
static void finish_captain(mm_pr_state *s)
{
    s->captain_loaded = 0;
    for (int i = 0; i < s->players; i++)
        s->p[i].wharf_done = s->p[i].small_wharf_done = 0;
    for (int i = 0; i < setup_of(s->players)->ships; i++) {
        if (s->ship_count[i] == s->ship_capacity[i]) {
            s->goods_supply[s->ship_kind[i]] += s->ship_capacity[i];
            s->ship_kind[i] = -1;
            s->ship_count[i] = 0;
        }
    }
    end_phase(s);
}

/* Keep everything for players who can; stop at the first who must choose. */
static void next_storage_player(mm_pr_state *s)
{
    for (; s->turn < s->players; s->turn++) {
        int at = seat(s, s->turn);
        if (popcount5(held_mask(&s->p[at])) > warehouse_kinds(&s->p[at])) {
            s->current = (int8_t)at;
            return;
        }
    }
    finish_captain(s);
}

static void start_storage(mm_pr_state *s)
{
    s->phase = PH_STORAGE;
    s->turn = 0;
    s->store_mask = 0;
    next_storage_player(s);
}

static void next_captain_turn(mm_pr_state *s, int start)
{
    uint16_t moves[MM_PR_MAX_LEGAL];
    for (int i = 0; i < s->players; i++) {
        int at = (start + i) % s->players;
        if (captain_moves(s, at, moves)) {
            s->current = (int8_t)at;
            return;
        }
    }
    start_storage(s);
}

/* Expansion: Union Hall chips (a chip shortage here ends the game) and the
 * captain's Lighthouse doubloon, then the loading. */
static void captain_income(mm_pr_state *s)
{
    int paid = 0;
    s->phase = PH_CAPTAIN;
    for (int i = 0; i < s->players; i++) {
        mm_pr_player *p = &s->p[i];
        if (occupied(p, UNION_HALL)) {
            int vp = 0;
            for (int k = 0; k < NK; k++)
                vp += p->goods[k] / 2;
            give_vp(s, p, vp);
            paid += vp;
        }
    }
    if (paid && s->vp_supply <= 0)
        s->end_triggered = 1;
    if (occupied(&s->p[s->chooser], LIGHTHOUSE))
        earn(&s->p[s->chooser], 1);
    next_captain_turn(s, s->chooser);
}

static void start_captain(mm_pr_state *s)
{
    if (expansion(s)) {
        open_window(s, PH_CAPTAIN);
    } else {
        s->phase = PH_CAPTAIN;
        next_captain_turn(s, s->chooser);
    }
}

/* A loading action worth `vp` before the Harbor and the captain's privilege (its
 * first load only); a Lighthouse pays a doubloon for it. */
static void loaded(mm_pr_state *s, int at, int vp)
{
    mm_pr_player *p = &s->p[at];
    vp += occupied(p, HARBOR);
    if (at == s->chooser && !s->captain_loaded) {
        s->captain_loaded = 1;
        vp += privilege(s, at);
    }
    give_vp(s, p, vp);
    if (vp && s->vp_supply <= 0)
        s->end_triggered = 1;
    if (occupied(p, LIGHTHOUSE))
        earn(p, 1);
}

static void do_captain(mm_pr_state *s, int a)
{
    int at = s->current;
    mm_pr_player *p = &s->p[at];
    if (a == MM_PR_A_DECLINE + CAPTAIN) { /* the privilege VP given up: he loads without it */
        s->captain_loaded = 1;
        return;
    }
    if (a >= MM_PR_A_SMALL_WHARF) { /* one more barrel; the same player goes on */
        int k = a - MM_PR_A_SMALL_WHARF;
        p->goods[k]--;
        s->goods_supply[k]++;
        p->small_wharf_done = 1;
        s->wharf_barrels++;
        s->last_slot = (int8_t)k;
        return;
    }
    if (a == MM_PR_A_PASS && s->wharf_barrels) { /* the Small Wharf load is complete */
        int barrels = s->wharf_barrels;
        s->wharf_barrels = s->last_slot = 0;
        loaded(s, at, barrels / 2);
    } else if (a == MM_PR_A_PASS) { /* declines the Wharf and Small Wharf for the phase */
        p->wharf_done = 1;
        p->small_wharf_done = expansion(s);
    } else {
        int k, amount;
        if (a < MM_PR_A_WHARF) {
            int i = 0, capacity = (a - MM_PR_A_LOAD) % 5 + MM_PR_MIN_CAPACITY;
            k = (a - MM_PR_A_LOAD) / 5;
            while (i < MM_PR_MAX_SHIPS - 1 && s->ship_capacity[i] != capacity)
                i++;
            amount = min_int(p->goods[k], s->ship_capacity[i] - s->ship_count[i]);
            s->ship_kind[i] = (int8_t)k;
            s->ship_count[i] = (int8_t)(s->ship_count[i] + amount);
        } else {
            k = a - MM_PR_A_WHARF;
            amount = p->goods[k];
            s->goods_supply[k] = (int8_t)(s->goods_supply[k] + amount);
            p->wharf_done = 1;
        }
        p->goods[k] = (int8_t)(p->goods[k] - amount);
        loaded(s, at, amount);
    }
    next_captain_turn(s, (at + 1) % s->players);
}

/* Warehouse kinds first; each free barrel is one keep (several with a Storehouse)
 * until the named barrels complete a canonical outcome. */
static void do_storage(mm_pr_state *s, int a)
{
    mm_pr_player *p = &s->p[s->current];
    if (a < MM_PR_A_KEEP)
        s->store_mask |= (int8_t)(1 << (a - MM_PR_A_STORE));
    else
        s->kept[a - MM_PR_A_KEEP]++;
    if (!storage_complete(s))
        return;
    for (int k = 0; k < NK; k++) {
        int keep = (s->store_mask >> k & 1) ? p->goods[k] : s->kept[k];
        s->goods_supply[k] = (int8_t)(s->goods_supply[k] + p->goods[k] - keep);
        p->goods[k] = (int8_t)keep;
    }
    s->store_mask = 0;
    memset(s->kept, 0, sizeof s->kept);
    s->turn++;
    next_storage_player(s);
}

/* -- guests */
static void do_guests(mm_pr_state *s, int a)
{
    if (a == MM_PR_A_PASS) {
        s->turn++;
        next_guest_owner(s);
        return;
    }
    mm_pr_player *p = &s->p[s->current];
    p->buildings[GUEST_HOUSE]--;
    staff(p, a - MM_PR_A_GUEST, 1);
    s->last_slot = (int8_t)(a - MM_PR_A_GUEST);
}

/* -- roles */
static void do_role(mm_pr_state *s, int a)
{
    int declined = a >= MM_PR_A_DECLINE, r = declined ? a - MM_PR_A_DECLINE : a - MM_PR_A_ROLE;
    mm_pr_player *p = &s->p[s->current];
    earn(p, s->role_doubloons[r]);
    s->role_doubloons[r] = 0;
    s->role_taken[r] = 1;
    s->chooser = s->current;
    s->turn = 0;
    switch (r) {
    case SETTLER: start_settler(s); break;
    case MAYOR: start_mayor(s, !declined); break;
    case BUILDER: s->phase = PH_BUILDER; s->current = s->chooser; break;
    case CRAFTSMAN: start_craftsman(s); break;
    case TRADER: start_trader(s); break;
    case CAPTAIN: start_captain(s); break;
    default: earn(p, privilege(s, s->chooser)); end_phase(s); break;
    }
}

static void do_move(mm_pr_state *s, int a, mm_rng *rng)
{
    switch (s->phase) {
    case ROLE: do_role(s, a); break;
    case PH_SETTLER: do_settler(s, a, rng); break;
    case PH_MAYOR: do_mayor(s, a); break;
    case PH_BUILDER: do_builder(s, a); break;
    case PH_CRAFTSMAN: do_craftsman(s, a); break;
    case PH_TRADER: do_trader(s, a); break;
    case PH_CAPTAIN: do_captain(s, a); break;
    case PH_STORAGE: do_storage(s, a); break;
    case PH_DRAFT: do_draft(s, a); break;
    case PH_GUESTS: do_guests(s, a); break;
    default: break;
    }
}

/* ------------------------------------------------------------------ state vector */

/* Offsets in the state vector, from the schema (native/layout_puerto_rico.h): G() of a
 * global both layouts hold at the same place, G2() of one only v2 holds, P() and P2() of
 * a field in a player's record; the rest differ by layout (struct layout). */
#define G(NAME) MM_PR_O_##NAME
#define G2(NAME) MM_PR_V2_O_##NAME
#define P(NAME) MM_PR_P_##NAME
#define P2(NAME) MM_PR_V2_P_##NAME
#define SHIP MM_PR_STRIDE_SHIP_CAPACITY /* a ship's capacity, good and count interleave */

/* The offsets of one layout version. */
typedef struct layout {
    int version, buildings, slots;
    int goods, house, deck, faceup, discard, bsupply, in_game, role_taken;
    int ship_kind, ship_count, players, p_build, player_len, length;
} layout;

#define LAYOUT(T, VERSION, NBLD)                                                                    \
    {.version = VERSION, .buildings = NBLD, .slots = SLOT_BUILDING + (NBLD), .goods = T##_O_GOODS_SUPPLY, \
     .house = T##_O_HOUSE, .deck = T##_O_DECK, .faceup = T##_O_FACEUP, .discard = T##_O_DISCARD,      \
     .bsupply = T##_O_BUILDING_SUPPLY, .in_game = T##_O_IN_GAME, .role_taken = T##_O_ROLE_TAKEN,       \
     .ship_kind = T##_O_SHIP_KIND, .ship_count = T##_O_SHIP_COUNT, .players = T##_PLAYERS_AT,         \
     .p_build = T##_P_BUILDINGS, .player_len = T##_PLAYER_LEN, .length = T##_LEN}

static const layout V1 = LAYOUT(MM_PR_V1, MM_PR_LAYOUT_VERSION, MM_PR_BASE_BUILDINGS);
static const layout V2 = LAYOUT(MM_PR_V2, MM_PR_LAYOUT_VERSION_V2, NB);
_Static_assert(MM_PR_V1_LEN == MM_PR_VECTOR_LEN && MM_PR_V2_LEN == MM_PR_VECTOR_LEN_V2
                   && MM_PR_STRIDE_SHIP_KIND == SHIP && MM_PR_STRIDE_SHIP_COUNT == SHIP,
               "the layouts are the schema's (engine/puerto_rico/schema.py)");
_Static_assert(sizeof(mm_pr_player) == 72 && sizeof(mm_pr_state) == 616,
               "no padding: equal positions must be equal bytes");
_Static_assert(MM_PR_A_LOAD + NK * 5 == MM_PR_A_WHARF, "load ids");
_Static_assert(MM_PR_A_GIVE_COLONIST + NSLOTS + 1 == MM_PR_A_GUEST
               && MM_PR_A_GUEST + NSLOTS == MM_PR_A_DRAFT
               && MM_PR_A_DRAFT + NB == MM_PR_A_FOREST_DECLINE
               && MM_PR_A_BUILD_DECLINE_V2 + NB - MM_PR_BASE_BUILDINGS == MM_PR_NUM_ACTIONS_V2
               && MM_PR_A_SETTLE_DECLINE + NK + 1 == MM_PR_A_LOAD
               && MM_PR_A_BUILD_DECLINE + MM_PR_BASE_BUILDINGS <= MM_PR_NUM_ACTIONS, "expansion ids");

static const layout *layout_of(const mm_pr_state *s) { return expansion(s) ? &V2 : &V1; }

/* The load/store tables of native/layout_*.h expand into native/mm_layout.h's copies. */

static void encode_player(const layout *L, const mm_pr_player *s, int32_t *v)
{
    if (L->version == 2) {
        MM_PR_V2_PLAYER(STORE_ONE, STORE_MANY)
    } else {
        MM_PR_V1_PLAYER(STORE_ONE, STORE_MANY)
    }
}

static void encode_state(const mm_pr_state *s, int32_t *v)
{
    const layout *L = layout_of(s);
    v[G(VERSION)] = L->version;
    if (L->version == 2) {
        MM_PR_V2_STATE(STORE_ONE, STORE_MANY)
        for (int b = 0; b < L->buildings; b++)
            v[L->in_game + b] = (int32_t)(s->in_game >> b & 1);
    } else {
        MM_PR_V1_STATE(STORE_ONE, STORE_MANY)
    }
    for (int i = 0; i < MM_MAX_PLAYERS; i++)
        encode_player(L, &s->p[i], v + L->players + i * L->player_len);
}

static const int32_t *player_in(const layout *L, const int32_t *v, int i)
{
    return v + L->players + i * L->player_len;
}

/* Island and city space (v2: only buildings in the game), ships, house, face-up row. */
static int32_t check_spaces(const layout *L, const int32_t *v, mm_verdict *out)
{
    static const int8_t ISLAND[] = {P(PLANTATIONS), P(PLANTATIONS) + 1, P(PLANTATIONS) + 2, P(PLANTATIONS) + 3, P(PLANTATIONS) + 4,
                                    P(QUARRIES), P2(FORESTS)};
    int n = v[G(PLAYERS)], v2 = L->version == 2;
    for (int i = 0; i < n; i++) {
        const int32_t *p = player_in(L, v, i);
        int at = (int)(p - v), used = 0;
        for (int f = 0; f < NK + 1 + v2; f++)
            if ((used += p[ISLAND[f]]) > ISLAND_SPACES)
                return mm_reject(out, at + ISLAND[f], "the island has %d spaces, this fills %d", ISLAND_SPACES,
                                 used);
        used = 0;
        for (int b = 0; b < L->buildings; b++) {
            if (p[L->p_build + b] < 0)
                continue;
            if ((used += BUILDINGS[b].spaces) > CITY_SPACES)
                return mm_reject(out, at + L->p_build + b, "the city has %d spaces, this fills %d", CITY_SPACES,
                                 used);
            if (v2 && !v[L->in_game + b])
                return mm_reject(out, at + L->p_build + b, "%s is not in this game", MM_PR_NAMES_BUILDINGS[b]);
        }
    }
    for (int i = 0; i < setup_of(n)->ships; i++) {
        int kind = v[L->ship_kind + SHIP * i], count = v[L->ship_count + SHIP * i], at = L->ship_kind + SHIP * i;
        if ((kind < 0) != (count == 0))
            return mm_reject(out, at, "a ship carries a kind exactly when it holds barrels");
        for (int j = 0; j < i && kind >= 0; j++)
            if (v[L->ship_kind + SHIP * j] == kind)
                return mm_reject(out, at, "carries %s, already carried by ships[%d]", MM_PR_NAMES_GOODS[kind], j);
    }
    int house = 0, faceup = 0;
    for (int k = 0; k < NK; k++)
        if ((house += v[L->house + k]) > HOUSE_SPACES)
            return mm_reject(out, L->house + k, "the trading house holds at most %d barrels", HOUSE_SPACES);
    for (int k = 0; k < NK; k++)
        if ((faceup += v[L->faceup + k]) > n + 1)
            return mm_reject(out, L->faceup + k, "at most %d face-up plantations", n + 1);
    return -1;
}

/* Every component against the setup (v2: the drawn Hacienda tile, the forests, and
 * only the building types in the game). */
static int32_t check_conservation(const layout *L, const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)], v2 = L->version == 2;
    const setup *su = setup_of(n);
    for (int k = 0; k < NK; k++) {
        int total = v[L->goods + k] + v[L->house + k];
        for (int i = 0; i < n; i++)
            total += player_in(L, v, i)[P(GOODS) + k];
        for (int i = 0; i < MM_PR_MAX_SHIPS; i++)
            total += v[L->ship_kind + SHIP * i] == k ? v[L->ship_count + SHIP * i] : 0;
        if (total != su->goods[k])
            return mm_reject(out, L->goods + k, "%d %s barrels in play, the game has %d", total,
                             MM_PR_NAMES_GOODS[k], su->goods[k]);
    }
    for (int k = 0; k < NK; k++) {
        int total = v[L->deck + k] + v[L->faceup + k] + v[L->discard + k]
            + (v2 && v[G2(HACIENDA_TILE)] == k);
        for (int i = 0; i < n; i++)
            total += player_in(L, v, i)[P(PLANTATIONS) + k];
        if (total != su->plantations[k])
            return mm_reject(out, L->deck + k, "%d %s plantations in play, the game has %d", total,
                             MM_PR_NAMES_GOODS[k], su->plantations[k]);
    }
    int quarries = v[G(QUARRY_SUPPLY)], forests = v2 ? v[G2(FOREST_SUPPLY)] : FORESTS;
    for (int i = 0; i < n; i++) {
        quarries += player_in(L, v, i)[P(QUARRIES)];
        forests += v2 ? player_in(L, v, i)[P2(FORESTS)] : 0;
    }
    if (quarries != su->quarries)
        return mm_reject(out, G(QUARRY_SUPPLY), "%d quarries in play, the game has %d", quarries, su->quarries);
    if (forests != FORESTS)
        return mm_reject(out, G2(FOREST_SUPPLY), "%d forests in play, the game has %d", forests, FORESTS);
    for (int b = 0; b < L->buildings; b++) {
        int total = v[L->bsupply + b], count = !v2 || v[L->in_game + b] ? building_count(b, n) : 0;
        for (int i = 0; i < n; i++)
            total += player_in(L, v, i)[L->p_build + b] >= 0;
        if (total != count)
            return mm_reject(out, L->bsupply + b, "%d %s in play, the game has %d", total,
                             MM_PR_NAMES_BUILDINGS[b], count);
    }
    int people = v[G(COLONIST_SUPPLY)] + v[G(COLONIST_SHIP)] + v[G(TO_PLACE)], vp = v[G(VP_SUPPLY)];
    for (int i = 0; i < n; i++) {
        const int32_t *p = player_in(L, v, i);
        people += p[P(QUARRY_COLONISTS)] + p[P(SAN_JUAN)];
        for (int k = 0; k < NK; k++)
            people += p[P(PLANTATION_COLONISTS) + k];
        for (int b = 0; b < L->buildings; b++)
            people += max_int(p[L->p_build + b], 0);
        vp += p[P(VP_CHIPS)];
    }
    if (people != su->colonists + su->ship_colonists)
        return mm_reject(out, G(COLONIST_SUPPLY), "%d colonists in play, the game has %d", people,
                         su->colonists + su->ship_colonists);
    if (vp != su->vp_chips)
        return mm_reject(out, G(VP_SUPPLY), "%d VP in play, the game has %d", vp, su->vp_chips);
    return -1;
}

/* v2: the violet types in the game fill at most their cost's slots, all of them once
 * the draft is over; during the draft the next seat from the governor picks. */
static int32_t check_draft(const layout *L, const int32_t *v, mm_verdict *out)
{
    int taken[11] = {0}, drafted = 0, n = v[G(PLAYERS)];
    for (int b = 0; b < L->buildings; b++) {
        if (BUILDINGS[b].good >= 0 || !v[L->in_game + b])
            continue;
        int cost = cost_of(v[G(OPTIONS)], b);
        if (++taken[cost] > DRAFT_SLOTS[cost])
            return mm_reject(out, L->in_game + b, "%d buildings of cost %d, the game has %d slots", taken[cost],
                             cost, DRAFT_SLOTS[cost]);
        drafted++;
    }
    int drafting = v[G(PHASE)] == PH_DRAFT;
    if (drafting == (drafted == DRAFT_PICKS))
        return mm_reject(out, G(PHASE), "%d of %d violet buildings drafted, the draft is %s", drafted, DRAFT_PICKS,
                         drafting ? "over" : "not over");
    int next = (v[G(GOVERNOR)] + drafted) % n;
    if (drafting && v[G(CURRENT)] != next)
        return mm_reject(out, G(CURRENT), "player %d drafts next, not %d", next, v[G(CURRENT)]);
    return -1;
}

/* The role card whose phase is being played, by phase (-1: none). */
static const int8_t PHASE_CARD[PH_GUESTS + 1] = {-1, SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER,
                                                 CAPTAIN, CAPTAIN, -1, -1, -1};

static int slot_free_in_vector(const layout *L, const int32_t *p, int slot)
{
    if (slot < NK)
        return p[P(PLANTATIONS) + slot] - p[P(PLANTATION_COLONISTS) + slot];
    if (slot == SLOT_QUARRY)
        return p[P(QUARRIES)] - p[P(QUARRY_COLONISTS)];
    int c = p[L->p_build + slot - SLOT_BUILDING];
    return c >= 0 ? BUILDINGS[slot - SLOT_BUILDING].circles - c : 0;
}

/* Settler phase: last_slot is the quarry while the settler with an occupied Library
 * took a quarry as his first tile and is yet to take his Library tile. */
static int library_quarry(const layout *L, const int32_t *v)
{
    const int32_t *chooser = player_in(L, v, v[G(CHOOSER)]);
    return v[G(PHASE)] == PH_SETTLER && v[G(LAST_SLOT)] == SLOT_QUARRY && v[G(TURN)] >= 1
        && chooser[L->p_build + LIBRARY] > 0 && chooser[P(QUARRIES)] > 0;
}

/* The fields only a phase in progress uses must hold their idle value outside it. */
static int32_t check_phase_fields(const layout *L, const int32_t *v, mm_verdict *out)
{
    int phase = v[G(PHASE)], v2 = L->version == 2;
    int last_slot = phase == PH_MAYOR
        || (v2 && (phase == PH_GUESTS || (phase == PH_CAPTAIN && v[G2(WHARF_BARRELS)] > 0)
                   || (phase == PH_CRAFTSMAN && v[G2(PRIVILEGE_LEFT)] > 0) || library_quarry(L, v)));
    const struct { int8_t field, allowed, idle; } fields[] = {
        {G(HACIENDA_DONE), phase == PH_SETTLER, 0}, {G(TO_PLACE), phase == PH_MAYOR, 0},
        {G(LAST_SLOT), (int8_t)last_slot, 0}, {G(PRODUCED), phase == PH_CRAFTSMAN, 0},
        {G(CAPTAIN_LOADED), phase == PH_CAPTAIN || phase == PH_STORAGE, 0},
        {G(STORE_MASK), phase == PH_STORAGE, 0},
        {G2(HACIENDA_TILE), phase == PH_SETTLER, -1}, {G2(PRIVILEGE_LEFT), phase == PH_CRAFTSMAN, 0},
        {G2(BM_BUILDING), phase == PH_BUILDER, -1}, {G2(BM_DUE), phase == PH_BUILDER, 0},
        {G2(BM_GIVEN), phase == PH_BUILDER, 0}, {G2(WHARF_BARRELS), phase == PH_CAPTAIN, 0},
        {G2(BM_DECLINED), phase == PH_BUILDER, 0},
    };
    int count = v2 ? (int)(sizeof fields / sizeof fields[0]) : G(STORE_MASK) - G(HACIENDA_DONE) + 1;
    for (int i = 0; i < count; i++)
        if (v[fields[i].field] != fields[i].idle && !fields[i].allowed)
            return mm_reject(out, fields[i].field, "must be %d outside its phase, is %d", fields[i].idle,
                             v[fields[i].field]);
    for (int k = 0; k < NK && v2; k++)
        if (v[G2(MADE) + k] && phase != PH_CRAFTSMAN)
            return mm_reject(out, G2(MADE) + k, "must be 0 outside its phase, is %d", v[G2(MADE) + k]);
    for (int k = 0; k < NK && v2; k++)
        if (v[G2(KEPT) + k] && phase != PH_STORAGE)
            return mm_reject(out, G2(KEPT) + k, "must be 0 outside its phase, is %d", v[G2(KEPT) + k]);
    for (int i = 0; i < v[G(PLAYERS)]; i++) {
        const int32_t *p = player_in(L, v, i);
        int at = (int)(p - v), captain = phase == PH_CAPTAIN || phase == PH_STORAGE;
        if (p[P(WHARF_DONE)] && !captain)
            return mm_reject(out, at + P(WHARF_DONE), "must be 0 outside the captain phase and storage");
        if (v2 && p[P2(SMALL_WHARF_DONE)] && !captain)
            return mm_reject(out, at + P2(SMALL_WHARF_DONE), "must be 0 outside the captain phase and storage");
    }
    return -1;
}

/* v2: the expansion's progress fields agree with each other and with the position. */
static int32_t check_progress_v2(const layout *L, const int32_t *v, mm_verdict *out)
{
    int phase = v[G(PHASE)], b = v[G2(BM_BUILDING)];
    if (phase == PH_MAYOR && v[G(COLONIST_SHIP)])
        return mm_reject(out, G(COLONIST_SHIP), "the colonist ship is empty while the mayor phase places colonists");
    if (v[G2(HACIENDA_TILE)] >= 0 && !v[G(HACIENDA_DONE)])
        return mm_reject(out, G2(HACIENDA_TILE), "a drawn Hacienda tile waits only after the Hacienda draw");
    if ((b >= 0) != (v[G2(BM_DUE)] > 0))
        return mm_reject(out, G2(BM_DUE), "give-ups are owed exactly while a Black Market build is paid");
    if (v[G2(BM_GIVEN)] && !v[G2(BM_DUE)])
        return mm_reject(out, G2(BM_GIVEN), "must be 0 outside a Black Market build");
    if (v[G2(BM_DUE)] > 3 - v[G2(BM_GIVEN)])
        return mm_reject(out, G2(BM_DUE), "%d give-ups owed, but only %d categories are left", v[G2(BM_DUE)],
                         3 - v[G2(BM_GIVEN)]);
    if (b >= 0) {
        const int32_t *city = player_in(L, v, v[G(CURRENT)]) + L->p_build;
        int room = CITY_SPACES;
        for (int x = 0; x < L->buildings; x++)
            room -= city[x] >= 0 ? BUILDINGS[x].spaces : 0;
        if (!v[L->bsupply + b] || city[b] >= 0 || BUILDINGS[b].spaces > room)
            return mm_reject(out, G2(BM_BUILDING), "the player to move cannot build %s", MM_PR_NAMES_BUILDINGS[b]);
    }
    /* a declined University colonist: a Black Market build of a building with a circle
     * by the owner of an occupied University */
    if (v[G2(BM_DECLINED)] && (b < 0 || !BUILDINGS[b].circles
                             || player_in(L, v, v[G(CURRENT)])[L->p_build + UNIVERSITY] <= 0))
        return mm_reject(out, G2(BM_DECLINED), "a University colonist is declined only in a Black Market build of "
                         "a building with a circle by the owner of an occupied University");
    if (phase == PH_CRAFTSMAN)
        for (int k = 0; k < NK; k++)
            if ((v[G(PRODUCED)] >> k & 1) != (v[G2(MADE) + k] > 0))
                return mm_reject(out, G2(MADE) + k, "the craftsman made barrels of exactly the kinds he produced");
    if (phase == PH_STORAGE) {
        const int32_t *p = player_in(L, v, v[G(CURRENT)]);
        for (int k = 0; k < NK; k++)
            if (v[G2(KEPT) + k] > p[P(GOODS) + k] || (v[G2(KEPT) + k] && (v[G(STORE_MASK)] >> k & 1)))
                return mm_reject(out, G2(KEPT) + k, "kept barrels must be held and not warehoused");
    }
    return -1;
}

/* Whether the storage choices so far, made in any order (another client's position),
 * leave a choice: warehouse kinds of the allowed number holding those named and no kept
 * barrel's kind, with room for the barrels kept, and not all named and kept already (a
 * finished choice is played on, never asked). */
static int storage_open_in_vector(const layout *L, const int32_t *v, const int32_t *cur, int held,
                                  int warehouses)
{
    int v2 = L->version == 2, size = min_int(warehouses, popcount5(held)), named = v[G(STORE_MASK)];
    int free = FREE_BARRELS + (v2 && cur[L->p_build + STOREHOUSE] > 0) * STOREHOUSE_BARRELS, kept = 0;
    for (int k = 0; k < NK; k++)
        kept += v2 ? v[G2(KEPT) + k] : 0;
    for (int m = 0; m < 32; m++) {
        if ((m & ~held) || popcount5(m) != size || (m & named) != named)
            continue;
        int rest = 0, clash = 0;
        for (int k = 0; k < NK; k++) {
            if (m >> k & 1)
                clash |= v2 && v[G2(KEPT) + k];
            else
                rest += cur[P(GOODS) + k];
        }
        int room = min_int(free, rest);
        if (!clash && (kept < room || (m != named && kept == room)))
            return 1;
    }
    return 0;
}

/* Where the turn stands. */
static int32_t check_progress(const layout *L, const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)], phase = v[G(PHASE)], picks = v[G(PICKS)], taken = 0, v2 = L->version == 2;
    int window = v2 ? v[G2(WINDOW)] : -1;
    if (v2 && (phase == PH_GUESTS) != (window >= 0))
        return mm_reject(out, G2(WINDOW), "a Guest House window is open exactly in the guests phase");
    if (v2 && phase == PH_GUESTS && window != PH_CRAFTSMAN && window != PH_TRADER
        && window != PH_CAPTAIN && window != END)
        return mm_reject(out, G2(WINDOW), "%d is not a phase a Guest House window comes before", window);
    int card_phase = phase == PH_GUESTS ? window : phase, card = PHASE_CARD[card_phase];
    for (int r = 0; r < MM_PR_MAX_ROLES; r++)
        taken += v[L->role_taken + r];
    if (card_phase == END && (picks || taken))
        return mm_reject(out, G(PICKS), "a finished game has no roles picked");
    if (taken != picks + (card >= 0))
        return mm_reject(out, G(PICKS), "%d roles picked this round, but %d role cards are taken", picks, taken);
    if (card >= 0 && !v[L->role_taken + card])
        return mm_reject(out, L->role_taken + card, "the %s phase is played, so its card is taken",
                         MM_PR_NAMES_ROLES[card]);
    if (phase != PH_CAPTAIN && phase != END && phase != PH_DRAFT) {
        int want = phase == ROLE ? (v[G(GOVERNOR)] + picks) % n
                 : phase == PH_CRAFTSMAN ? v[G(CHOOSER)]
                 : (v[G(CHOOSER)] + v[G(TURN)]) % n;
        if (v[G(CURRENT)] != want)
            return mm_reject(out, G(CURRENT), "player %d is to move in this phase, not %d", want, v[G(CURRENT)]);
    }
    if (v2 && v[G(TURN)] == n
        && !(phase == PH_SETTLER && player_in(L, v, v[G(CHOOSER)])[L->p_build + LIBRARY] > 0))
        return mm_reject(out, G(TURN), "turn %d is only the settler's Library tile", n);
    int32_t bad = check_phase_fields(L, v, out);
    if (bad < 0 && v2)
        bad = check_progress_v2(L, v, out);
    if (bad >= 0)
        return bad;
    if (phase == PH_MAYOR) {
        const int32_t *cur = player_in(L, v, v[G(CURRENT)]);
        int room = 0;
        for (int slot = v[G(LAST_SLOT)]; slot < L->slots; slot++)
            room += slot_free_in_vector(L, cur, slot);
        if (v[G(TO_PLACE)] == 0)
            return mm_reject(out, G(TO_PLACE), "the mayor phase waits for a player with colonists to place");
        if (room < v[G(TO_PLACE)])
            return mm_reject(out, G(TO_PLACE), "%d colonists to place but only %d free circles", v[G(TO_PLACE)],
                             room);
    }
    if (phase == PH_STORAGE) {
        const int32_t *cur = player_in(L, v, v[G(CURRENT)]);
        int held = 0;
        for (int k = 0; k < NK; k++)
            held |= (cur[P(GOODS) + k] != 0) << k;
        if (v[G(STORE_MASK)] & ~held)
            return mm_reject(out, G(STORE_MASK), "warehoused kinds must be kinds the player holds");
        /* a player who keeps everything is never asked (his stores would never end) */
        const int32_t *city = cur + L->p_build;
        int warehouses = (city[SMALL_WAREHOUSE] > 0) + 2 * (city[LARGE_WAREHOUSE] > 0);
        if (popcount5(held) <= warehouses)
            return mm_reject(out, G(CURRENT), "player %d keeps every barrel, storage waits for one who must choose",
                             v[G(CURRENT)]);
        if (!storage_open_in_vector(L, v, cur, held, warehouses))
            return mm_reject(out, G(STORE_MASK),
                             "the kinds warehoused and barrels kept so far leave no storage choice");
    }
    return -1;
}

/* The consistency rules, in order (schema.py RULES), after every range. */
static int32_t check_invariants(const layout *L, const int32_t *v, mm_verdict *out)
{
    if ((v[G(PHASE)] == END) != (v[G(CURRENT)] < 0)) { /* schema rule game_over */
        if (v[G(CURRENT)] < 0)
            return mm_reject(out, G(CURRENT), "-1 (nobody to move) but the game is not over");
        return mm_reject(out, G(CURRENT), "must be -1 (nobody to move) in a finished game, is %d", v[G(CURRENT)]);
    }
    int32_t bad = check_spaces(L, v, out);
    if (bad < 0)
        bad = check_conservation(L, v, out);
    if (bad < 0 && L->version == 2)
        bad = check_draft(L, v, out);
    if (bad < 0)
        bad = check_progress(L, v, out);
    return bad;
}

static void decode_player(const layout *L, mm_pr_player *s, const int32_t *v)
{
    memset(s->buildings, -1, sizeof s->buildings);
    if (L->version == 2) {
        MM_PR_V2_PLAYER(LOAD_ONE, LOAD_MANY)
    } else {
        MM_PR_V1_PLAYER(LOAD_ONE, LOAD_MANY)
    }
    s->island_used = (int8_t)(sum5(s->plantations) + s->quarries + s->forests);
    for (int b = 0; b < L->buildings; b++)
        if (s->buildings[b] >= 0) {
            s->owned |= BIT(b);
            s->city_used = (int8_t)(s->city_used + BUILDINGS[b].spaces);
        }
}

/* Fill *s from a vector that passed every check. */
static void load_state(const layout *L, mm_pr_state *s, const int32_t *v)
{
    memset(s, 0, sizeof *s);
    s->hacienda_tile = s->window = s->bm_building = -1; /* idle in base games */
    if (L->version == 2) {
        MM_PR_V2_STATE(LOAD_ONE, LOAD_MANY)
        for (int b = 0; b < L->buildings; b++)
            s->in_game |= (uint64_t)(v[L->in_game + b] != 0) << b;
    } else {
        MM_PR_V1_STATE(LOAD_ONE, LOAD_MANY)
    }
    for (int b = 0; b < L->buildings; b++)
        s->available |= (uint64_t)(s->building_supply[b] > 0) << b;
    for (int i = 0; i < MM_MAX_PLAYERS; i++)
        decode_player(L, &s->p[i], player_in(L, v, i));
    refresh_legal(s);
}

/* The layout of a vector: its version field, or for an unknown version its length
 * (codec.py _check). */
static const layout *layout_of_vector(const int32_t *vec, int32_t len)
{
    if (len <= 0)
        return &V1;
    int version = vec[G(VERSION)];
    return version == V2.version || (version != V1.version && len == V2.length) ? &V2 : &V1;
}

/* The one validator of Puerto Rico positions: the length, version, player count and
 * every range (the schema's table), the consistency rules, then "the player to move
 * has a move"; a rejection names the vector index and the rule (*verdict). */
static int pr_decode(void *state, const int32_t *vec, int32_t len, mm_verdict *verdict)
{
    mm_pr_state *s = state;
    const layout *L = layout_of_vector(vec, len);
    int rc = mm_check_layout(L->version == 2 ? &MM_PR_V2_CHECK : &MM_PR_V1_CHECK, vec, len, verdict);
    if (rc != MM_OK)
        return rc;
    if (check_invariants(L, vec, verdict) >= 0)
        return MM_ERR_INVARIANT;
    load_state(L, s, vec);
    if (s->phase != END && s->num_legal == 0) {
        mm_reject(verdict, G(CURRENT), "the player to move has no legal move");
        return MM_ERR_INVARIANT;
    }
    return MM_OK;
}

#ifndef NDEBUG
/* Debug builds: every position apply reaches is one decode accepts, and decoding
 * its vector rebuilds the same bytes (derived fields and move cache included). */
static int consistent(const mm_pr_state *s)
{
    int32_t v[MM_PR_VECTOR_LEN_V2];
    mm_pr_state again;
    mm_verdict verdict;
    encode_state(s, v);
    return pr_decode(&again, v, layout_of(s)->length, &verdict) == MM_OK
        && memcmp(&again, s, sizeof again) == 0 && s->num_legal != 1;
}
#endif

/* ------------------------------------------------------------------ vtable basics */

static void pr_encode(const void *state, int32_t *vec) { encode_state(state, vec); }

static int32_t pr_encoded_len(const void *state) { return layout_of(state)->length; }

static int pr_num_players(const void *state) { return ((const mm_pr_state *)state)->players; }

static int pr_current_player(const void *state)
{
    const mm_pr_state *s = state;
    return s->phase == END ? -1 : s->current;
}

static int pr_legal_moves(const void *state, int32_t *out)
{
    const mm_pr_state *s = state;
    for (int i = 0; i < s->num_legal; i++)
        out[i] = s->legal[i];
    return s->num_legal;
}

/* Apply `action`, then every forced move (state.py _resolve_forced), leaving the
 * legal moves of the result in the cache. */
static void pr_apply(void *state, int32_t action, mm_rng *rng)
{
    mm_pr_state *s = state;
    do_move(s, action, rng);
    while (refresh_legal(s) == 1)
        do_move(s, s->legal[0], rng);
    assert(consistent(s));
}

/* Nothing is hidden: the face-down plantations are counts drawn at each draw. */
static void pr_determinize(void *state, int viewer, mm_rng *rng) {}

static int large_bonus(const mm_pr_player *p, int b)
{
    int bonus = 0;
    switch (b) {
    case GUILD_HALL:
        for (int x = SMALL_INDIGO_PLANT; x <= COFFEE_ROASTER; x++)
            bonus += owns(p, x) ? (BUILDINGS[x].circles > 1 ? 2 : 1) : 0;
        return bonus;
    case RESIDENCE: return max_int(4, p->island_used - 5);
    case FORTRESS: return colonists(p) / 3;
    case CUSTOMS_HOUSE: return p->vp_chips / 4;
    case CITY_HALL: return mm_popcount(p->owned & VIOLET_MASK);
    case CLOISTER: { /* sets of 3 identical island tiles: plantation kinds, quarries, forests */
        int sets = p->quarries / 3 + p->forests / 3;
        for (int k = 0; k < NK; k++)
            sets += p->plantations[k] / 3;
        return CLOISTER_VP[min_int(sets, 4)];
    }
    default: return 0;
    }
}

static int score(const mm_pr_player *p)
{
    int total = p->vp_chips;
    for (uint64_t m = p->owned; m; m &= m - 1) {
        int b = lowest(m);
        total += BUILDINGS[b].vp + (p->buildings[b] > 0 ? large_bonus(p, b) : 0);
    }
    return total;
}

static void pr_scores(const void *state, int32_t *out)
{
    const mm_pr_state *s = state;
    for (int i = 0; i < s->players; i++) {
        out[2 * i] = score(&s->p[i]);
        out[2 * i + 1] = s->p[i].doubloons + sum5(s->p[i].goods);
    }
}

/* ------------------------------------------------------------------ heuristic policy
 *
 * Policy 1 (epsilon-greedy): with probability 1/10 a uniform legal move, else the
 * first legal move of highest value under these rules (all cheap, no allocation):
 *   draft      a fixed preference (Library, Factory, Harbor, Guild Hall first)
 *   role       4 x the doubloons on the card + 3 x what the phase is worth to me:
 *              craftsman when I produce, captain when I hold barrels that can load,
 *              trader when a sale pays 2 or more, builder by the best building I can
 *              afford, settler while my island has room, mayor otherwise
 *   settler    Hacienda draw > quarry (my first two) > coffee > tobacco > sugar >
 *              indigo > corn > pass; a forest that completes a pair (Forest House
 *              discount) ranks with the dear plantations, an odd one with the cheap
 *   mayor      plan where the colonists in hand go (production chains: the kind's
 *              idle plantations or circles first, then plantation + circle pairs,
 *              coffee down to indigo; then large and key violet buildings, corn,
 *              quarries, the rest) and place on the lowest planned slot
 *   builder    printed VP; late in the game large buildings, early the production
 *              building my plantations lack and the strong violet buildings; Black
 *              Market give-ups cheapest first (San Juan, cheap barrels, a chip last)
 *   craftsman  the most valuable kind;  trader  the best-paying sale or post (never
 *              corn for nothing);  captain  the load that ships the most barrels; the
 *              Small Wharf when nothing loads, shipping down to one barrel
 *   storage    warehouse the kind worth most (barrels x price), keep the dearest
 *   guests     every guest moves to work, on a building rather than a tile */

#define EPSILON_TENTHS 1

/* Production buildings of each kind (-1: none). */
static const int8_t PRODUCERS[NK][2] = {
    {-1, -1}, {SMALL_INDIGO_PLANT, INDIGO_PLANT}, {SMALL_SUGAR_MILL, SUGAR_MILL},
    {TOBACCO_STORAGE, -1}, {COFFEE_ROASTER, -1},
};

/* Violet buildings worth more than their VP early in the game. */
#define STRONG_VIOLET                                                                   \
    (BIT(FACTORY) | BIT(HARBOR) | BIT(WHARF) | BIT(LARGE_MARKET) | BIT(HOSPICE) | BIT(LIBRARY) \
     | BIT(LIGHTHOUSE) | BIT(SPECIALTY_FACTORY) | BIT(UNION_HALL) | BIT(TRADING_POST))

/* Draft preference by building (higher first); the others by their VP. */
static int draft_value(int b)
{
    switch (b) {
    case LIBRARY: return 9;
    case FACTORY: case HARBOR: case GUILD_HALL: return 8;
    case RESIDENCE: case WHARF: case LARGE_MARKET: return 7;
    case HOSPICE: case UNIVERSITY: case LIGHTHOUSE: case UNION_HALL: case SPECIALTY_FACTORY:
    case TRADING_POST: return 6;
    case CHURCH: case STATUE: return 5;
    default: return BUILDINGS[b].vp;
    }
}

static int late_game(const mm_pr_state *s, const mm_pr_player *p)
{
    const setup *su = setup_of(s->players);
    return p->city_used >= 8 || s->vp_supply < su->vp_chips / 3
        || s->colonist_supply < su->colonists / 4;
}

/* Plantations of kind k no production circle could serve. */
static int unserved_plantations(const mm_pr_player *p, int k)
{
    int circles = 0;
    for (int i = 0; i < 2; i++)
        if (PRODUCERS[k][i] >= 0 && owns(p, PRODUCERS[k][i]))
            circles += BUILDINGS[PRODUCERS[k][i]].circles;
    return p->plantations[k] - circles;
}

static int build_value(const mm_pr_state *s, const mm_pr_player *p, int b)
{
    const building *d = &BUILDINGS[b];
    int value = 4 * d->vp;
    if (late_game(s, p))
        return value + (d->spaces == 2 ? 12 : 0);
    if (d->good >= 0)
        return value + (unserved_plantations(p, d->good) > 0 ? 6 + 2 * d->good : -4);
    return value + (STRONG_VIOLET >> b & 1 ? 3 : 0);
}

/* Value of the best building the player could build as the builder (0: none). */
static int best_build(const mm_pr_state *s, int player)
{
    const mm_pr_player *p = &s->p[player];
    int best = 0, room = CITY_SPACES - p->city_used;
    int forests = occupied(p, FOREST_HOUSE) ? p->forests / 2 : 0;
    for (uint64_t m = s->available & ~p->owned; m; m &= m - 1) {
        int b = lowest(m);
        int quarries = min_int(p->quarry_colonists, BUILDINGS[b].column);
        int cost = cost_of(s->options, b) - 1 - quarries - forests;
        if (BUILDINGS[b].spaces <= room && cost <= p->doubloons)
            best = max_int(best, build_value(s, p, b));
    }
    return best;
}

/* Barrels a Craftsman phase would give the player now. */
static int craft_yield(const mm_pr_state *s, const mm_pr_player *p)
{
    int amount[NK], made = 0;
    production(p, amount);
    for (int k = 0; k < NK; k++)
        made += min_int(amount[k], s->goods_supply[k]);
    return made;
}

/* What the best sale would pay the player as the trader (-1: nothing to sell). */
static int best_sale(const mm_pr_state *s, const mm_pr_player *p)
{
    int best = -1, house = sum5(s->house) < HOUSE_SPACES;
    for (int k = 0; k < NK; k++) {
        if (p->goods[k] > 0 && house && (occupied(p, OFFICE) || s->house[k] == 0))
            best = max_int(best, sale_gain(p, k, 1));
        if (p->goods[k] > 0 && occupied(p, TRADING_POST))
            best = max_int(best, k + 1);
    }
    return best;
}

static int role_value(const mm_pr_state *s, int player, int r)
{
    const mm_pr_player *p = &s->p[player];
    uint16_t loads[MM_PR_MAX_LEGAL];
    switch (r) {
    case SETTLER: return p->island_used < ISLAND_SPACES ? 3 + (p->quarries < 2) : 0;
    case MAYOR: return 2;
    case BUILDER: return best_build(s, player) / 3;
    case CRAFTSMAN: {
        int made = craft_yield(s, p);
        return made ? 3 + made : 0;
    }
    case TRADER: {
        int gain = best_sale(s, p);
        return gain >= 2 ? 2 + gain : 0;
    }
    case CAPTAIN: return ship_loads(s, player, loads) ? 2 + sum5(p->goods) / 2 : 0;
    default: return 1; /* prospector */
    }
}

/* Mayor: where the colonists still in hand should go (slots before last_slot
 * are closed). */
typedef struct mayor_plan {
    int free[NSLOTS];   /* empty circles left */
    int placed[NSLOTS]; /* colonists planned */
    int hand;
} mayor_plan;

/* Plan up to `count` colonists on a slot; returns how many. */
static int plan_place(mayor_plan *m, int slot, int count)
{
    int n = max_int(0, min_int(count, min_int(m->free[slot], m->hand)));
    m->free[slot] -= n;
    m->placed[slot] += n;
    m->hand -= n;
    return n;
}

static int plan_place_producers(mayor_plan *m, int k, int count)
{
    int n = 0;
    for (int i = 0; i < 2; i++)
        if (PRODUCERS[k][i] >= 0)
            n += plan_place(m, SLOT_BUILDING + PRODUCERS[k][i], count - n);
    return n;
}

static void plan_mayor(const mm_pr_state *s, mayor_plan *m)
{
    static const int8_t next[] = {
        SLOT_BUILDING + GUILD_HALL, SLOT_BUILDING + CITY_HALL, SLOT_BUILDING + RESIDENCE,
        SLOT_BUILDING + FORTRESS, SLOT_BUILDING + CUSTOMS_HOUSE, SLOT_BUILDING + CLOISTER,
        SLOT_BUILDING + LIBRARY, SLOT_BUILDING + WHARF, SLOT_BUILDING + HARBOR,
        SLOT_BUILDING + FACTORY, SLOT_BUILDING + LIGHTHOUSE, SLOT_BUILDING + LARGE_MARKET,
        SLOT_BUILDING + UNIVERSITY, CORN, SLOT_QUARRY,
    };
    const mm_pr_player *p = &s->p[s->current];
    memset(m, 0, sizeof *m);
    m->hand = s->to_place;
    for (int slot = s->last_slot; slot <= SLOT_QUARRY; slot++)
        m->free[slot] = empty_circles(p, slot);
    uint64_t open = p->owned & (~0ull << max_int(0, s->last_slot - SLOT_BUILDING));
    for (uint64_t o = open; o; o &= o - 1) {
        int b = lowest(o);
        m->free[SLOT_BUILDING + b] = BUILDINGS[b].circles - p->buildings[b];
    }
    for (int k = COFFEE; k >= INDIGO; k--) {
        int worked = p->plantation_colonists[k], staffed = 0, circles = 0;
        for (int i = 0; i < 2; i++) {
            if (PRODUCERS[k][i] >= 0) {
                staffed += max_int(p->buildings[PRODUCERS[k][i]], 0);
                circles += m->free[SLOT_BUILDING + PRODUCERS[k][i]];
            }
        }
        circles -= plan_place_producers(m, k, worked - staffed);
        plan_place(m, k, staffed - worked);
        int pairs = min_int(min_int(m->free[k], circles), m->hand / 2);
        plan_place(m, k, pairs);
        plan_place_producers(m, k, pairs);
    }
    for (size_t i = 0; i < sizeof next && m->hand; i++)
        plan_place(m, next[i], m->hand);
    for (int slot = NSLOTS; m->hand && slot-- > 0;)
        plan_place(m, slot, m->hand);
}

static int storage_value(const mm_pr_player *p, int k) { return p->goods[k] * (k + 1); }

static int load_value(const mm_pr_state *s, const mm_pr_player *p, int a)
{
    int k = (a - MM_PR_A_LOAD) / 5, room = (a - MM_PR_A_LOAD) % 5 + MM_PR_MIN_CAPACITY;
    int on = ship_of_kind(s, k);
    if (on >= 0)
        room -= s->ship_count[on];
    return 2 * min_int(p->goods[k], room) + 1; /* a ship load beats an equal Wharf load */
}

static int captain_value(const mm_pr_state *s, const mm_pr_player *p, int a)
{
    if (a >= MM_PR_A_SMALL_WHARF) /* start when nothing loads; then ship down to one barrel */
        return s->wharf_barrels ? sum5(p->goods) > 1 : sum5(p->goods) / 2;
    return a >= MM_PR_A_WHARF ? 2 * p->goods[a - MM_PR_A_WHARF] : load_value(s, p, a);
}

/* Black Market: the cheapest give-up first. */
static int give_value(int a)
{
    if (a < MM_PR_A_GIVE_COLONIST)
        return a == MM_PR_A_GIVE + GIVE_VP ? 1 : 5 - (a - MM_PR_A_GIVE);
    int slot = a - MM_PR_A_GIVE_COLONIST;
    return slot == SLOT_SAN_JUAN ? 6 : slot < SLOT_BUILDING ? 3 : 2;
}

static int forest_value(const mm_pr_player *p) { return p->forests % 2 ? 5 : 3; }

static int settler_value(const mm_pr_state *s, const mm_pr_player *p, int a)
{
    switch (a) {
    case MM_PR_A_HACIENDA: return 20;
    case MM_PR_A_QUARRY: return p->quarries < 2 ? 10 : 1;
    case MM_PR_A_HACIENDA_PLANT: return 2 + s->hacienda_tile;
    case MM_PR_A_HACIENDA_FOREST: return forest_value(p);
    default: return a >= MM_PR_A_FOREST ? forest_value(p) : 2 + a - MM_PR_A_SETTLE;
    }
}

/* Value of one legal move for the player to move (higher is better). */
static int move_value(const mm_pr_state *s, int a, const mayor_plan *plan)
{
    const mm_pr_player *p = &s->p[s->current];
    if (a == MM_PR_A_PASS || (a >= MM_PR_A_DECLINE && a < MM_PR_A_BUILD))
        return 0; /* a privilege declined: as good as a pass to the rollouts */
    if (undeclined(a) != a) /* a colonist declined: a little worse than taking it */
        return move_value(s, undeclined(a), plan) - 1;
    switch (s->phase) {
    case ROLE: {
        int r = a - MM_PR_A_ROLE;
        return 4 * s->role_doubloons[r] + 3 * role_value(s, s->current, r);
    }
    case PH_SETTLER: return settler_value(s, p, a);
    case PH_MAYOR: return plan->placed[a - MM_PR_A_PLACE] > 0 ? NSLOTS - (a - MM_PR_A_PLACE) : 0;
    case PH_BUILDER:
        return a >= MM_PR_A_GIVE ? give_value(a) : build_value(s, p, a - MM_PR_A_BUILD);
    case PH_CRAFTSMAN: return a;
    case PH_TRADER:
        if (a >= MM_PR_A_POST)
            return a - MM_PR_A_POST + privilege(s, s->current);
        return sale_gain(p, a - MM_PR_A_SELL, privilege(s, s->current));
    case PH_CAPTAIN: return captain_value(s, p, a);
    case PH_STORAGE:
        return a < MM_PR_A_KEEP ? storage_value(p, a - MM_PR_A_STORE) : a - MM_PR_A_KEEP;
    case PH_DRAFT: return draft_value(a - MM_PR_A_DRAFT);
    default: /* guests */
        return a - MM_PR_A_GUEST >= SLOT_BUILDING ? 3 : 2;
    }
}

/* The value of every legal move, in legal order: the one measure of the heuristic
 * policy and of the move priors. */
static void move_values(const mm_pr_state *s, int *out)
{
    mayor_plan plan;
    if (s->phase == PH_MAYOR)
        plan_mayor(s, &plan);
    for (int i = 0; i < s->num_legal; i++)
        out[i] = move_value(s, s->legal[i], &plan);
}

/* The first legal move of the highest value. */
static int32_t heuristic_move(const mm_pr_state *s)
{
    int values[MM_PR_MAX_LEGAL];
    move_values(s, values);
    return s->legal[mm_first_max(values, s->num_legal)];
}

/* Move priors: the softmax of the move values, a move PRIOR_TEMPERATURE better (about
 * one VP of a building) e times likelier. */
#define PRIOR_TEMPERATURE 4.0

static void pr_move_priors(const void *state, double *out)
{
    const mm_pr_state *s = state;
    int values[MM_PR_MAX_LEGAL];
    move_values(s, values);
    mm_softmax(values, s->num_legal, PRIOR_TEMPERATURE, out);
}

static int32_t pr_rollout_move(const void *state, mm_rng *rng, int policy)
{
    const mm_pr_state *s = state;
    if (s->num_legal == 0)
        return -1;
    if (policy == MM_PR_POLICY_HEURISTIC && mm_rng_below(rng, 10) >= EPSILON_TENTHS)
        return heuristic_move(s);
    return s->legal[mm_rng_below(rng, s->num_legal)];
}

/* ------------------------------------------------------------------ evaluation
 *
 * The features of the learned evaluation (mm_eval.h), one row per player; the network
 * is native/evaluation_puerto_rico.json's, fitted on them by tools/fit_evaluation.py.  Rounds left:
 * the fewest of the VP chips at 2 a player a round, the colonists at one a player a round
 * and the fullest city's spaces at one a round (0 once the end is triggered). */
enum {
    F_SCORE, F_CHIPS, F_BUILDING_VP, F_LARGE_BONUS, F_LARGE_EMPTY, F_CORN, F_INDIGO, F_SUGAR,
    F_TOBACCO, F_COFFEE, F_BARRELS, F_ROUNDS_BARRELS, F_QUARRIES, F_DOUBLOONS, F_GOODS,
    F_EMPTY_CIRCLES, F_EMPTY_PLANTATIONS, F_SAN_JUAN, F_CITY_FREE, F_ISLAND_FREE, F_VIOLET,
    F_SHIPPING, F_TRADING, F_FORESTS, F_SEAT, F_ROUNDS, F_PLAYERS, F_EXPANSION, PR_FEATURES
};
#define PR_EVAL_VERSION 2
_Static_assert(MM_PR_EVAL_VERSION == PR_EVAL_VERSION && MM_PR_EVAL_FEATURES == PR_FEATURES,
               "native/evaluation_puerto_rico.json is for other features: make fit-evaluation");
_Static_assert(PR_FEATURES <= MM_EVAL_FEATURES_MAX && MM_PR_EVAL_HIDDEN == MM_EVAL_HIDDEN,
               "the puerto-rico model is larger than mm_eval.h allows");

static double rounds_left(const mm_pr_state *s)
{
    if (s->end_triggered)
        return 0.0;
    int fullest = 0;
    for (int i = 0; i < s->players; i++)
        fullest = max_int(fullest, s->p[i].city_used);
    double chips = (double)max_int(s->vp_supply, 0) / (2.0 * s->players);
    double colonists = (double)s->colonist_supply / s->players;
    return fmin(fmin(chips, colonists), (double)(CITY_SPACES - fullest));
}

static void pr_player_features(const mm_pr_state *s, int i, double rounds, float *f)
{
    const mm_pr_player *p = &s->p[i];
    int made[NK], barrels = 0, printed = 0, bonus = 0, large_empty = 0, violet = 0, plantations = 0;
    production(p, made);
    for (int k = 0; k < NK; k++) {
        f[F_CORN + k] = (float)made[k];
        barrels += made[k];
        plantations += p->plantations[k] - p->plantation_colonists[k];
    }
    for (uint64_t m = p->owned; m; m &= m - 1) {
        int b = lowest(m);
        printed += BUILDINGS[b].vp;
        if (BUILDINGS[b].spaces == 2) {
            bonus += occupied(p, b) ? large_bonus(p, b) : 0;
            large_empty += !occupied(p, b);
        }
        violet += occupied(p, b) && (BIT(b) & VIOLET_MASK);
    }
    f[F_SCORE] = (float)score(p);
    f[F_CHIPS] = p->vp_chips;
    f[F_BUILDING_VP] = (float)printed;
    f[F_LARGE_BONUS] = (float)bonus;
    f[F_LARGE_EMPTY] = (float)large_empty;
    f[F_BARRELS] = (float)barrels;
    f[F_ROUNDS_BARRELS] = (float)(rounds * barrels);
    f[F_QUARRIES] = p->quarry_colonists;
    f[F_DOUBLOONS] = p->doubloons;
    f[F_GOODS] = (float)sum5(p->goods);
    f[F_EMPTY_CIRCLES] = (float)empty_building_circles(p);
    f[F_EMPTY_PLANTATIONS] = (float)(plantations + p->quarries - p->quarry_colonists);
    f[F_SAN_JUAN] = p->san_juan;
    f[F_CITY_FREE] = (float)(CITY_SPACES - p->city_used);
    f[F_ISLAND_FREE] = (float)(ISLAND_SPACES - p->island_used);
    f[F_VIOLET] = (float)violet;
    f[F_SHIPPING] = (float)(occupied(p, HARBOR) + occupied(p, WHARF) + occupied(p, SMALL_WHARF));
    f[F_TRADING] = (float)(occupied(p, FACTORY) + occupied(p, SMALL_MARKET) + 2 * occupied(p, LARGE_MARKET)
                           + occupied(p, OFFICE));
    f[F_FORESTS] = p->forests;
    f[F_SEAT] = (float)((i - s->governor + s->players) % s->players);
    f[F_ROUNDS] = (float)rounds;
    f[F_PLAYERS] = s->players;
    f[F_EXPANSION] = (float)expansion(s);
}

static double pr_eval_features(const void *state, float *rows)
{
    const mm_pr_state *s = state;
    double rounds = rounds_left(s);
    for (int i = 0; i < s->players; i++)
        pr_player_features(s, i, rounds, rows + i * PR_FEATURES);
    return rounds;
}

const mm_game mm_puerto_rico_game = {
    .name = "puerto-rico",
    .layout_version = MM_PR_LAYOUT_VERSION_V2,
    .state_bytes = sizeof(mm_pr_state),
    .vector_len = MM_PR_VECTOR_LEN_V2,
    .num_actions = MM_PR_NUM_ACTIONS_V2,
    .max_legal = MM_PR_MAX_LEGAL,
    .decode = pr_decode,
    .encode = pr_encode,
    .num_players = pr_num_players,
    .current_player = pr_current_player,
    .legal_moves = pr_legal_moves,
    .apply = pr_apply,
    .determinize = pr_determinize,
    .scores = pr_scores,
    .rollout_move = pr_rollout_move,
    .encoded_len = pr_encoded_len,
    .eval_features = pr_eval_features,
    .eval_model = &MM_PR_EVAL_MODEL,
    .move_priors = pr_move_priors,
};
