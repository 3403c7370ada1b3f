/* meeplemind: Puerto Rico in C; see mm_puerto_rico.h.  Function names follow
 * engine/puerto_rico/state.py so the two can be read side by side. */
#include <assert.h>
#include <string.h>
#include "mm_puerto_rico.h"

#define NK MM_PR_KINDS
#define NB MM_PR_BUILDINGS
#define NSLOTS MM_PR_SLOTS
#define SLOT_QUARRY NK
#define SLOT_BUILDING (NK + 1)
#define ISLAND_SPACES 12
#define CITY_SPACES 12
#define HOUSE_SPACES 4
#define LIMIT 1000 /* doubloons, VP chips and role-card doubloons in a valid vector */

enum { CORN, INDIGO, SUGAR, TOBACCO, COFFEE };
enum { SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR, PROSPECTOR2 };
enum {
    SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL, INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE,
    COFFEE_ROASTER, SMALL_MARKET, HACIENDA, CONSTRUCTION_HUT, SMALL_WAREHOUSE, HOSPICE,
    OFFICE, LARGE_MARKET, LARGE_WAREHOUSE, FACTORY, UNIVERSITY, HARBOR, WHARF, GUILD_HALL,
    RESIDENCE, FORTRESS, CUSTOMS_HOUSE, CITY_HALL
};
enum {
    ROLE = MM_PR_PHASE_ROLE, PH_SETTLER, PH_MAYOR, PH_BUILDER, PH_CRAFTSMAN, PH_TRADER,
    PH_CAPTAIN, PH_STORAGE, END
};

/* ------------------------------------------------------------------ tables (data.py) */

typedef struct building {
    int8_t cost, vp, circles, spaces, good; /* good -1: violet; quarry column = vp */
    int8_t count, count_2p;
} building;

static const building BUILDINGS[NB] = {
    {1, 1, 1, 1, INDIGO, 4, 2}, {2, 1, 1, 1, SUGAR, 4, 2}, {3, 2, 3, 1, INDIGO, 3, 2},
    {4, 2, 3, 1, SUGAR, 3, 2}, {5, 3, 3, 1, TOBACCO, 3, 2}, {6, 3, 2, 1, COFFEE, 3, 2},
    {1, 1, 1, 1, -1, 2, 1}, {2, 1, 1, 1, -1, 2, 1}, {2, 1, 1, 1, -1, 2, 1},
    {3, 1, 1, 1, -1, 2, 1}, {4, 2, 1, 1, -1, 2, 1}, {5, 2, 1, 1, -1, 2, 1},
    {5, 2, 1, 1, -1, 2, 1}, {6, 2, 1, 1, -1, 2, 1}, {7, 3, 1, 1, -1, 2, 1},
    {8, 3, 1, 1, -1, 2, 1}, {8, 3, 1, 1, -1, 2, 1}, {9, 3, 1, 1, -1, 2, 1},
    {10, 4, 1, 2, -1, 1, 1}, {10, 4, 1, 2, -1, 1, 1}, {10, 4, 1, 2, -1, 1, 1},
    {10, 4, 1, 2, -1, 1, 1}, {10, 4, 1, 2, -1, 1, 1},
};

static const int8_t FACTORY_INCOME[NK + 1] = {0, 0, 1, 2, 3, 5};

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

/* ------------------------------------------------------------------ small helpers */

static int sum5(const int8_t *a) { return a[0] + a[1] + a[2] + a[3] + a[4]; }

static int min_int(int a, int b) { return a < b ? a : b; }

static int max_int(int a, int b) { return a > b ? a : b; }

static int popcount5(int mask) { return __builtin_popcount((unsigned)mask & 31u); }

static int occupied(const mm_pr_player *p, int b) { return p->buildings[b] > 0; }

static int owns(const mm_pr_player *p, int b) { return p->buildings[b] >= 0; }

/* Index of the lowest set bit of a non-zero mask (loops over owned buildings). */
static int lowest(uint32_t mask) { return __builtin_ctz(mask); }

static int colonists(const mm_pr_player *p)
{
    int total = p->san_juan + sum5(p->plantation_colonists) + p->quarry_colonists;
    for (uint32_t m = p->owned; m; m &= m - 1) {
        int b = lowest(m);
        total += p->buildings[b];
    }
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
    for (uint32_t m = p->owned; m; m &= m - 1) {
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

static int held_mask(const mm_pr_player *p)
{
    int mask = 0;
    for (int k = 0; k < NK; k++)
        mask |= (p->goods[k] > 0) << k;
    return mask;
}

static int seat(const mm_pr_state *s, int offset) { return (s->chooser + offset) % s->players; }

static int building_cost(const mm_pr_state *s, int b)
{
    if ((s->options & 1) && (b == FACTORY || b == UNIVERSITY))
        return b == FACTORY ? 8 : 7;
    return BUILDINGS[b].cost;
}

static int price(const mm_pr_state *s, int player, int b)
{
    int discount = min_int(s->p[player].quarry_colonists, BUILDINGS[b].vp) + (player == s->chooser);
    return max_int(0, building_cost(s, b) - discount);
}

/* Doubloons a sale of kind k pays (its price is k), with or without the privilege. */
static int sale_gain(const mm_pr_player *p, int k, int privilege)
{
    return k + privilege + occupied(p, SMALL_MARKET) + 2 * occupied(p, LARGE_MARKET);
}

/* ------------------------------------------------------------------ legal moves */

static int role_moves(const mm_pr_state *s, uint8_t *out)
{
    int n = 0, roles = setup_of(s->players)->roles;
    for (int r = 0; r < roles; r++) {
        if (s->role_taken[r])
            continue;
        if (r == PROSPECTOR2 && !s->role_taken[PROSPECTOR]
            && s->role_doubloons[PROSPECTOR] == s->role_doubloons[PROSPECTOR2])
            continue; /* identical to the first prospector card */
        out[n++] = (uint8_t)(MM_PR_A_ROLE + r);
    }
    return n;
}

static int settler_moves(const mm_pr_state *s, uint8_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int n = 0;
    out[n++] = MM_PR_A_PASS;
    if (p->island_used >= ISLAND_SPACES)
        return n;
    for (int k = 0; k < NK; k++)
        if (s->faceup[k] > 0)
            out[n++] = (uint8_t)(MM_PR_A_SETTLE + k);
    if ((s->current == s->chooser || occupied(p, CONSTRUCTION_HUT)) && s->quarry_supply > 0)
        out[n++] = MM_PR_A_QUARRY;
    if (occupied(p, HACIENDA) && !s->hacienda_done && sum5(s->deck) + sum5(s->discard) > 0)
        out[n++] = MM_PR_A_HACIENDA;
    return n;
}

/* Mayor placements go in non-decreasing slot order: a slot is open when it has a
 * free circle and the circles from it on can take every colonist still in hand. */
static int mayor_moves(const mm_pr_state *s, uint8_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int first = s->last_slot, room = 0, n = 0;
    uint32_t owned = p->owned & (~0u << max_int(0, first - SLOT_BUILDING));
    for (int slot = first; slot <= SLOT_QUARRY; slot++)
        room += empty_circles(p, slot);
    for (uint32_t m = owned; m; m &= m - 1) {
        int b = lowest(m);
        room += BUILDINGS[b].circles - p->buildings[b];
    }
    for (int slot = first; slot <= SLOT_QUARRY && room >= s->to_place; slot++) {
        int empty = empty_circles(p, slot);
        if (empty > 0)
            out[n++] = (uint8_t)(MM_PR_A_PLACE + slot);
        room -= empty;
    }
    for (uint32_t m = owned; m && room >= s->to_place; m &= m - 1) {
        int b = lowest(m), empty = BUILDINGS[b].circles - p->buildings[b];
        if (empty > 0)
            out[n++] = (uint8_t)(MM_PR_A_PLACE + SLOT_BUILDING + b);
        room -= empty;
    }
    return n;
}

static int builder_moves(const mm_pr_state *s, uint8_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int n = 0, room = CITY_SPACES - p->city_used;
    out[n++] = MM_PR_A_PASS;
    for (uint32_t m = s->available & ~p->owned; m; m &= m - 1) {
        int b = lowest(m);
        if (BUILDINGS[b].spaces <= room && price(s, s->current, b) <= p->doubloons)
            out[n++] = (uint8_t)(MM_PR_A_BUILD + b);
    }
    return n;
}

static int craftsman_moves(const mm_pr_state *s, uint8_t *out)
{
    int n = 0;
    for (int k = 0; k < NK; k++)
        if ((s->produced >> k & 1) && s->goods_supply[k] > 0)
            out[n++] = (uint8_t)(MM_PR_A_CRAFT + k);
    return n;
}

static int trader_moves(const mm_pr_state *s, uint8_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int n = 0;
    out[n++] = MM_PR_A_PASS;
    if (sum5(s->house) >= HOUSE_SPACES)
        return n;
    for (int k = 0; k < NK; k++)
        if (p->goods[k] > 0 && (occupied(p, OFFICE) || s->house[k] == 0))
            out[n++] = (uint8_t)(MM_PR_A_SELL + k);
    return n;
}

static int ship_of_kind(const mm_pr_state *s, int k)
{
    for (int i = 0; i < setup_of(s->players)->ships; i++)
        if (s->ship_kind[i] == k)
            return i;
    return -1;
}

static uint8_t load_action(int k, int capacity)
{
    return (uint8_t)(MM_PR_A_LOAD + k * 5 + capacity - MM_PR_MIN_CAPACITY);
}

/* Cargo-ship loads open to a player (rules 3.6: forced maximum per kind), ascending. */
static int ship_loads(const mm_pr_state *s, int player, uint8_t *out)
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

static int captain_moves(const mm_pr_state *s, int player, uint8_t *out)
{
    const mm_pr_player *p = &s->p[player];
    int loads = ship_loads(s, player, out);
    if (!occupied(p, WHARF) || p->wharf_done || sum5(p->goods) == 0)
        return loads;
    int n = loads;
    if (!loads)
        out[n++] = MM_PR_A_PASS; /* the Wharf is optional when nothing else loads */
    for (int k = 0; k < NK; k++)
        if (p->goods[k] > 0)
            out[n++] = (uint8_t)(MM_PR_A_WHARF + k);
    return n;
}

/* Canonical storage (state.py _storage_choices/_storage_moves): choices are
 * (warehouse mask, free-barrel kind); a 1-barrel free kind x is dropped when the
 * mask holds a larger 1-barrel kind (same outcome), and warehouse kinds are
 * named in ascending order after the ones already stored. */
static int storage_moves(const mm_pr_state *s, uint8_t *out)
{
    const mm_pr_player *p = &s->p[s->current];
    int held = held_mask(p), w = warehouse_kinds(p), done = s->store_mask;
    int top = done ? 31 - __builtin_clz((unsigned)done) : -1; /* highest stored kind */
    int store = 0, keep = 0, n = 0;
    for (int mask = 0; mask < 32; mask++) {
        if ((mask & ~held) || popcount5(mask) != w || (mask & done) != done)
            continue;
        int ones = 0;
        for (int k = 0; k < NK; k++)
            ones |= ((mask >> k & 1) && p->goods[k] == 1) << k;
        for (int x = 0; x < NK; x++) {
            if (!(held >> x & 1) || (mask >> x & 1) || (p->goods[x] == 1 && ones >> (x + 1)))
                continue;
            int rest = mask & ~done;
            if (!rest)
                keep |= 1 << x;
            else if (lowest((uint32_t)rest) >= top)
                store |= 1 << lowest((uint32_t)rest);
        }
    }
    for (int k = 0; k < NK; k++)
        if (store >> k & 1)
            out[n++] = (uint8_t)(MM_PR_A_STORE + k);
    for (int k = 0; k < NK; k++)
        if (keep >> k & 1)
            out[n++] = (uint8_t)(MM_PR_A_KEEP + k);
    return n;
}

static int gen_moves(const mm_pr_state *s, uint8_t *out)
{
    switch (s->phase) {
    case ROLE: return role_moves(s, out);
    case PH_SETTLER: return settler_moves(s, out);
    case PH_MAYOR: return mayor_moves(s, out);
    case PH_BUILDER: return builder_moves(s, out);
    case PH_CRAFTSMAN: return craftsman_moves(s, out);
    case PH_TRADER: return trader_moves(s, out);
    case PH_CAPTAIN: return captain_moves(s, s->current, out);
    case PH_STORAGE: return storage_moves(s, out);
    default: return 0;
    }
}

/* Rebuild the move cache; unused entries are zero so equal positions are equal bytes. */
static int refresh_legal(mm_pr_state *s)
{
    memset(s->legal, 0, sizeof s->legal);
    return s->num_legal = (uint8_t)gen_moves(s, s->legal);
}

/* ------------------------------------------------------------------ rules */

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
        s->role_doubloons[r] += !s->role_taken[r];
        s->role_taken[r] = 0;
    }
    s->picks = 0;
    s->governor = (int8_t)((s->governor + 1) % n);
    s->phase = s->end_triggered ? END : ROLE;
    s->current = s->end_triggered ? -1 : s->governor;
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

/* -- settler */
static void start_settler(mm_pr_state *s)
{
    s->phase = PH_SETTLER;
    s->current = s->chooser;
    s->hacienda_done = 0;
}

static void finish_settler(mm_pr_state *s, mm_rng *rng)
{
    for (int k = 0; k < NK; k++) {
        s->discard[k] += s->faceup[k];
        s->faceup[k] = 0;
    }
    for (int i = 0; i <= s->players && sum5(s->deck) + sum5(s->discard) > 0; i++)
        s->faceup[draw_plantation(s, rng)]++;
    end_phase(s);
}

static void do_settler(mm_pr_state *s, int a, mm_rng *rng)
{
    mm_pr_player *p = &s->p[s->current];
    if (a == MM_PR_A_HACIENDA) {
        p->plantations[draw_plantation(s, rng)]++;
        p->island_used++;
        s->hacienda_done = 1;
        return;
    }
    if (a >= MM_PR_A_SETTLE && a < MM_PR_A_SETTLE + NK) {
        int k = a - MM_PR_A_SETTLE;
        s->faceup[k]--;
        p->plantations[k]++;
        p->island_used++;
        if (occupied(p, HOSPICE) && take_colonist(s))
            p->plantation_colonists[k]++;
    } else if (a == MM_PR_A_QUARRY) {
        s->quarry_supply--;
        p->quarries++;
        p->island_used++;
        if (occupied(p, HOSPICE) && take_colonist(s))
            p->quarry_colonists++;
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
    for (uint32_t m = p->owned; m; m &= m - 1) {
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
        int hand = colonists(p), circles = p->island_used;
        p->san_juan = 0;
        memset(p->plantation_colonists, 0, sizeof p->plantation_colonists);
        p->quarry_colonists = 0;
        for (uint32_t m = p->owned; m; m &= m - 1) {
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

static void start_mayor(mm_pr_state *s)
{
    int n = s->players, each = s->colonist_ship / n, extra = s->colonist_ship % n;
    s->phase = PH_MAYOR;
    if (s->colonist_supply > 0) {
        s->colonist_supply--;
        s->p[s->chooser].san_juan++;
    }
    for (int i = 0; i < n; i++)
        s->p[seat(s, i)].san_juan = (int8_t)(s->p[seat(s, i)].san_juan + each + (i < extra));
    s->colonist_ship = 0;
    begin_placement(s);
}

static void do_mayor(mm_pr_state *s, int a)
{
    mm_pr_player *p = &s->p[s->current];
    int slot = a - MM_PR_A_PLACE;
    if (slot < NK)
        p->plantation_colonists[slot]++;
    else if (slot == SLOT_QUARRY)
        p->quarry_colonists++;
    else
        p->buildings[slot - SLOT_BUILDING]++;
    s->to_place--;
    s->last_slot = (int8_t)slot;
    if (s->to_place == 0) {
        s->turn++;
        begin_placement(s);
    }
}

/* -- builder */
static void do_builder(mm_pr_state *s, int a)
{
    if (a != MM_PR_A_PASS) {
        int b = a - MM_PR_A_BUILD;
        mm_pr_player *p = &s->p[s->current];
        p->doubloons = (int16_t)(p->doubloons - price(s, s->current, b));
        if (--s->building_supply[b] == 0)
            s->available &= ~(1u << b);
        p->buildings[b] = 0;
        p->owned |= 1u << b;
        p->city_used = (int8_t)(p->city_used + BUILDINGS[b].spaces);
        if (occupied(p, UNIVERSITY) && take_colonist(s))
            p->buildings[b] = 1;
        if (p->city_used >= CITY_SPACES)
            s->end_triggered = 1;
    }
    if (advance_turn(s))
        end_phase(s);
}

/* -- craftsman */
static void finish_craftsman(mm_pr_state *s)
{
    s->produced = 0;
    end_phase(s);
}

static void start_craftsman(mm_pr_state *s)
{
    s->phase = PH_CRAFTSMAN;
    for (int i = 0; i < s->players; i++) {
        int at = seat(s, i), amount[NK], kinds = 0;
        mm_pr_player *p = &s->p[at];
        production(p, amount);
        for (int k = 0; k < NK; k++) {
            int got = min_int(amount[k], s->goods_supply[k]);
            s->goods_supply[k] = (int8_t)(s->goods_supply[k] - got);
            p->goods[k] = (int8_t)(p->goods[k] + got);
            if (got) {
                kinds++;
                if (at == s->chooser)
                    s->produced |= (int8_t)(1 << k);
            }
        }
        if (occupied(p, FACTORY))
            p->doubloons += FACTORY_INCOME[kinds];
    }
    s->current = s->chooser;
    uint8_t moves[NK];
    if (!craftsman_moves(s, moves))
        finish_craftsman(s);
}

static void do_craftsman(mm_pr_state *s, int a)
{
    int k = a - MM_PR_A_CRAFT;
    s->goods_supply[k]--;
    s->p[s->current].goods[k]++;
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

static void do_trader(mm_pr_state *s, int a)
{
    if (a != MM_PR_A_PASS) {
        int k = a - MM_PR_A_SELL;
        mm_pr_player *p = &s->p[s->current];
        p->goods[k]--;
        s->house[k]++;
        p->doubloons += sale_gain(p, k, s->current == s->chooser);
        if (sum5(s->house) == HOUSE_SPACES) {
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
        s->p[i].wharf_done = 0;
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
    uint8_t moves[MM_PR_MAX_LEGAL];
    for (int i = 0; i < s->players; i++) {
        int at = (start + i) % s->players;
        if (captain_moves(s, at, moves)) {
            s->current = (int8_t)at;
            return;
        }
    }
    start_storage(s);
}

static void start_captain(mm_pr_state *s)
{
    s->phase = PH_CAPTAIN;
    next_captain_turn(s, s->chooser);
}

static void do_captain(mm_pr_state *s, int a)
{
    int at = s->current;
    mm_pr_player *p = &s->p[at];
    if (a == MM_PR_A_PASS) {
        p->wharf_done = 1;
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
        int vp = amount + occupied(p, HARBOR);
        if (at == s->chooser && !s->captain_loaded) {
            s->captain_loaded = 1;
            vp++;
        }
        p->vp = (int16_t)(p->vp + vp);
        s->vp_supply -= vp;
        if (s->vp_supply <= 0)
            s->end_triggered = 1;
    }
    next_captain_turn(s, (at + 1) % s->players);
}

static void do_storage(mm_pr_state *s, int a)
{
    if (a < MM_PR_A_KEEP) {
        s->store_mask |= (int8_t)(1 << (a - MM_PR_A_STORE));
        return;
    }
    mm_pr_player *p = &s->p[s->current];
    for (int k = 0; k < NK; k++) {
        int keep = (s->store_mask >> k & 1) ? p->goods[k] : k == a - MM_PR_A_KEEP;
        s->goods_supply[k] = (int8_t)(s->goods_supply[k] + p->goods[k] - keep);
        p->goods[k] = (int8_t)keep;
    }
    s->store_mask = 0;
    s->turn++;
    next_storage_player(s);
}

/* -- roles */
static void do_role(mm_pr_state *s, int a)
{
    int r = a - MM_PR_A_ROLE;
    mm_pr_player *p = &s->p[s->current];
    p->doubloons += s->role_doubloons[r];
    s->role_doubloons[r] = 0;
    s->role_taken[r] = 1;
    s->chooser = s->current;
    s->turn = 0;
    switch (r) {
    case SETTLER: start_settler(s); break;
    case MAYOR: start_mayor(s); break;
    case BUILDER: s->phase = PH_BUILDER; s->current = s->chooser; break;
    case CRAFTSMAN: start_craftsman(s); break;
    case TRADER: s->phase = PH_TRADER; s->current = s->chooser; break;
    case CAPTAIN: start_captain(s); break;
    default: p->doubloons++; end_phase(s); break; /* prospector */
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
    default: break;
    }
}

/* ------------------------------------------------------------------ state vector */

enum {
    G_VERSION, G_PLAYERS, G_OPTIONS, G_GOVERNOR, G_PHASE, G_CURRENT, G_CHOOSER, G_TURN, G_PICKS,
    G_END_TRIGGERED, G_COLONIST_SUPPLY, G_COLONIST_SHIP, G_VP_SUPPLY, G_HACIENDA_DONE,
    G_TO_PLACE, G_LAST_SLOT, G_PRODUCED, G_CAPTAIN_LOADED, G_STORE_MASK, G_QUARRY_SUPPLY,
    O_GOODS, O_HOUSE = O_GOODS + NK, O_DECK = O_HOUSE + NK, O_FACEUP = O_DECK + NK,
    O_DISCARD = O_FACEUP + NK, O_BSUPPLY = O_DISCARD + NK, O_ROLE_DOUBLOONS = O_BSUPPLY + NB,
    O_ROLE_TAKEN = O_ROLE_DOUBLOONS + MM_PR_MAX_ROLES, O_SHIPS = O_ROLE_TAKEN + MM_PR_MAX_ROLES,
    O_PLAYERS = O_SHIPS + 3 * MM_PR_MAX_SHIPS
};
enum {
    P_DOUBLOONS, P_VP, P_GOODS, P_PLANT = P_GOODS + NK, P_PCOL = P_PLANT + NK,
    P_QUARRIES = P_PCOL + NK, P_QCOL, P_SANJUAN, P_WHARF, P_BUILD, PLAYER_LEN = P_BUILD + NB
};
_Static_assert(O_PLAYERS + MM_MAX_PLAYERS * PLAYER_LEN == MM_PR_VECTOR_LEN, "codec.py layout");
_Static_assert(sizeof(mm_pr_player) == 52 && sizeof(mm_pr_state) == 400,
               "no padding: equal positions must be equal bytes");
_Static_assert(MM_PR_A_LOAD + NK * 5 == MM_PR_A_WHARF, "load ids");

static void encode_player(const mm_pr_player *p, int32_t *v)
{
    v[P_DOUBLOONS] = p->doubloons;
    v[P_VP] = p->vp;
    for (int k = 0; k < NK; k++) {
        v[P_GOODS + k] = p->goods[k];
        v[P_PLANT + k] = p->plantations[k];
        v[P_PCOL + k] = p->plantation_colonists[k];
    }
    v[P_QUARRIES] = p->quarries;
    v[P_QCOL] = p->quarry_colonists;
    v[P_SANJUAN] = p->san_juan;
    v[P_WHARF] = p->wharf_done;
    for (int b = 0; b < NB; b++)
        v[P_BUILD + b] = p->buildings[b];
}

static void encode_state(const mm_pr_state *s, int32_t *v)
{
    const int8_t globals[] = {
        MM_PR_LAYOUT_VERSION, s->players, s->options, s->governor, s->phase, s->current,
        s->chooser, s->turn, s->picks, s->end_triggered, s->colonist_supply, s->colonist_ship,
        0, s->hacienda_done, s->to_place, s->last_slot, s->produced, s->captain_loaded,
        s->store_mask, s->quarry_supply,
    };
    _Static_assert(sizeof globals == O_GOODS, "globals");
    for (int i = 0; i < O_GOODS; i++)
        v[i] = globals[i];
    v[G_VP_SUPPLY] = s->vp_supply;
    for (int k = 0; k < NK; k++) {
        v[O_GOODS + k] = s->goods_supply[k];
        v[O_HOUSE + k] = s->house[k];
        v[O_DECK + k] = s->deck[k];
        v[O_FACEUP + k] = s->faceup[k];
        v[O_DISCARD + k] = s->discard[k];
    }
    for (int b = 0; b < NB; b++)
        v[O_BSUPPLY + b] = s->building_supply[b];
    for (int r = 0; r < MM_PR_MAX_ROLES; r++) {
        v[O_ROLE_DOUBLOONS + r] = s->role_doubloons[r];
        v[O_ROLE_TAKEN + r] = s->role_taken[r];
    }
    for (int i = 0; i < MM_PR_MAX_SHIPS; i++) {
        v[O_SHIPS + 3 * i] = s->ship_capacity[i];
        v[O_SHIPS + 3 * i + 1] = s->ship_kind[i];
        v[O_SHIPS + 3 * i + 2] = s->ship_count[i];
    }
    for (int i = 0; i < MM_MAX_PLAYERS; i++)
        encode_player(&s->p[i], v + O_PLAYERS + i * PLAYER_LEN);
}

/* The range of field i (i >= 2) of a vector whose fields before i are valid
 * (validate.py _check_ranges, in vector order). */
static void global_range(const int32_t *v, int i, int32_t *lo, int32_t *hi)
{
    int n = v[G_PLAYERS];
    const setup *su = setup_of(n);
    int32_t col = su->colonists + su->ship_colonists;
    const int32_t top[O_GOODS] = {
        [G_OPTIONS] = 1, [G_GOVERNOR] = n - 1, [G_PHASE] = END, [G_CURRENT] = n - 1,
        [G_CHOOSER] = n - 1, [G_TURN] = n - 1, [G_PICKS] = (n == 2 ? 6 : n) - 1,
        [G_END_TRIGGERED] = 1, [G_COLONIST_SUPPLY] = col, [G_COLONIST_SHIP] = col,
        [G_VP_SUPPLY] = su->vp_chips, [G_HACIENDA_DONE] = 1, [G_TO_PLACE] = col,
        [G_LAST_SLOT] = NSLOTS - 1, [G_PRODUCED] = 31, [G_CAPTAIN_LOADED] = 1,
        [G_STORE_MASK] = 31, [G_QUARRY_SUPPLY] = su->quarries,
    };
    *lo = i == G_VP_SUPPLY ? -LIMIT : 0;
    *hi = top[i];
    if (i == G_CURRENT && v[G_PHASE] == END)
        *lo = *hi = -1;
}

static void player_range(const int32_t *v, int i, int32_t *lo, int32_t *hi)
{
    int n = v[G_PLAYERS], seat_index = (i - O_PLAYERS) / PLAYER_LEN;
    int j = (i - O_PLAYERS) % PLAYER_LEN, base = i - j;
    const setup *su = setup_of(n);
    *lo = 0;
    if (seat_index >= n) {
        *lo = *hi = j >= P_BUILD ? -1 : 0;
        return;
    }
    if (j <= P_VP)
        *hi = LIMIT;
    else if (j < P_PLANT)
        *hi = su->goods[j - P_GOODS];
    else if (j < P_PCOL)
        *hi = ISLAND_SPACES;
    else if (j < P_QUARRIES)
        *hi = v[base + P_PLANT + j - P_PCOL];
    else if (j == P_QUARRIES)
        *hi = su->quarries;
    else if (j == P_QCOL)
        *hi = v[base + P_QUARRIES];
    else if (j == P_SANJUAN)
        *hi = su->colonists + su->ship_colonists;
    else if (j == P_WHARF)
        *hi = 1;
    else {
        *lo = -1;
        *hi = BUILDINGS[j - P_BUILD].circles;
    }
}

static void field_range(const int32_t *v, int i, int32_t *lo, int32_t *hi)
{
    int n = v[G_PLAYERS];
    const setup *su = setup_of(n);
    *lo = 0;
    if (i < O_GOODS)
        global_range(v, i, lo, hi);
    else if (i < O_HOUSE)
        *hi = su->goods[i - O_GOODS];
    else if (i < O_DECK)
        *hi = HOUSE_SPACES;
    else if (i < O_BSUPPLY)
        *hi = su->plantations[(i - O_DECK) % NK];
    else if (i < O_ROLE_DOUBLOONS)
        *hi = building_count(i - O_BSUPPLY, n);
    else if (i < O_ROLE_TAKEN) {
        int in_play = i - O_ROLE_DOUBLOONS < su->roles;
        *lo = in_play ? 0 : -1;
        *hi = in_play ? LIMIT : -1;
    }
    else if (i < O_SHIPS)
        *hi = i - O_ROLE_TAKEN < su->roles;
    else if (i < O_PLAYERS) {
        int ship = (i - O_SHIPS) / 3, f = (i - O_SHIPS) % 3;
        int cap = ship < su->ships ? su->capacity[ship] : 0;
        *lo = f == 0 ? cap : f == 1 ? -1 : 0;
        *hi = f == 1 ? (cap ? NK - 1 : -1) : cap;
    } else
        player_range(v, i, lo, hi);
}

static int32_t check_ranges(const int32_t *v)
{
    if (v[G_PLAYERS] < 2 || v[G_PLAYERS] > MM_MAX_PLAYERS)
        return G_PLAYERS;
    for (int i = G_OPTIONS; i < MM_PR_VECTOR_LEN; i++) {
        int32_t lo, hi;
        field_range(v, i, &lo, &hi);
        if (v[i] < lo || v[i] > hi)
            return i;
    }
    return -1;
}

/* validate.py _check_invariants: island and city space, ships, house, face-up row. */
static int32_t check_spaces(const int32_t *v)
{
    int n = v[G_PLAYERS];
    for (int i = 0; i < n; i++) {
        const int32_t *p = v + O_PLAYERS + i * PLAYER_LEN;
        int used = 0;
        for (int k = 0; k <= NK; k++) {
            int j = k < NK ? P_PLANT + k : P_QUARRIES;
            if ((used += p[j]) > ISLAND_SPACES)
                return (int32_t)(p - v) + j;
        }
        used = 0;
        for (int b = 0; b < NB; b++)
            if ((used += p[P_BUILD + b] >= 0 ? BUILDINGS[b].spaces : 0) > CITY_SPACES)
                return (int32_t)(p - v) + P_BUILD + b;
    }
    int seen = 0;
    for (int i = 0; i < setup_of(n)->ships; i++) {
        int kind = v[O_SHIPS + 3 * i + 1], count = v[O_SHIPS + 3 * i + 2];
        if ((kind < 0) != (count == 0) || (kind >= 0 && (seen >> kind & 1)))
            return O_SHIPS + 3 * i + 1;
        seen |= kind >= 0 ? 1 << kind : 0;
    }
    int house = 0, faceup = 0;
    for (int k = 0; k < NK; k++)
        if ((house += v[O_HOUSE + k]) > HOUSE_SPACES)
            return O_HOUSE + k;
    for (int k = 0; k < NK; k++)
        if ((faceup += v[O_FACEUP + k]) > n + 1)
            return O_FACEUP + k;
    return -1;
}

/* validate.py _check_conservation: every component against the setup. */
static int32_t check_conservation(const int32_t *v)
{
    int n = v[G_PLAYERS];
    const setup *su = setup_of(n);
    const int32_t *p0 = v + O_PLAYERS;
    for (int k = 0; k < NK; k++) {
        int total = v[O_GOODS + k] + v[O_HOUSE + k];
        for (int i = 0; i < n; i++)
            total += p0[i * PLAYER_LEN + P_GOODS + k];
        for (int i = 0; i < MM_PR_MAX_SHIPS; i++)
            total += v[O_SHIPS + 3 * i + 1] == k ? v[O_SHIPS + 3 * i + 2] : 0;
        if (total != su->goods[k])
            return O_GOODS + k;
    }
    for (int k = 0; k < NK; k++) {
        int total = v[O_DECK + k] + v[O_FACEUP + k] + v[O_DISCARD + k];
        for (int i = 0; i < n; i++)
            total += p0[i * PLAYER_LEN + P_PLANT + k];
        if (total != su->plantations[k])
            return O_DECK + k;
    }
    int quarries = v[G_QUARRY_SUPPLY];
    for (int i = 0; i < n; i++)
        quarries += p0[i * PLAYER_LEN + P_QUARRIES];
    if (quarries != su->quarries)
        return G_QUARRY_SUPPLY;
    for (int b = 0; b < NB; b++) {
        int total = v[O_BSUPPLY + b];
        for (int i = 0; i < n; i++)
            total += p0[i * PLAYER_LEN + P_BUILD + b] >= 0;
        if (total != building_count(b, n))
            return O_BSUPPLY + b;
    }
    int people = v[G_COLONIST_SUPPLY] + v[G_COLONIST_SHIP] + v[G_TO_PLACE], vp = v[G_VP_SUPPLY];
    for (int i = 0; i < n; i++) {
        const int32_t *p = p0 + i * PLAYER_LEN;
        people += p[P_QCOL] + p[P_SANJUAN];
        for (int k = 0; k < NK; k++)
            people += p[P_PCOL + k];
        for (int b = 0; b < NB; b++)
            people += max_int(p[P_BUILD + b], 0);
        vp += p[P_VP];
    }
    if (people != su->colonists + su->ship_colonists)
        return G_COLONIST_SUPPLY;
    if (vp != su->vp_chips)
        return G_VP_SUPPLY;
    return -1;
}

/* The role card whose phase is being played, by phase (-1: none). */
static const int8_t PHASE_CARD[END + 1] = {-1, SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER,
                                           CAPTAIN, CAPTAIN, -1};

static int slot_free_in_vector(const int32_t *p, int slot)
{
    if (slot < NK)
        return p[P_PLANT + slot] - p[P_PCOL + slot];
    if (slot == SLOT_QUARRY)
        return p[P_QUARRIES] - p[P_QCOL];
    int c = p[P_BUILD + slot - SLOT_BUILDING];
    return c >= 0 ? BUILDINGS[slot - SLOT_BUILDING].circles - c : 0;
}

/* validate.py _check_progress: where the turn stands. */
static int32_t check_progress(const int32_t *v)
{
    int n = v[G_PLAYERS], phase = v[G_PHASE], picks = v[G_PICKS], taken = 0;
    int card = PHASE_CARD[phase], playing = card >= 0;
    for (int r = 0; r < MM_PR_MAX_ROLES; r++)
        taken += v[O_ROLE_TAKEN + r];
    if (phase == END && (picks || taken))
        return G_PICKS;
    if (taken != picks + playing)
        return G_PICKS;
    if (playing && !v[O_ROLE_TAKEN + card])
        return O_ROLE_TAKEN + card;
    if (phase != PH_CAPTAIN && phase != END) {
        int want = phase == ROLE ? (v[G_GOVERNOR] + picks) % n
                 : phase == PH_CRAFTSMAN ? v[G_CHOOSER]
                 : (v[G_CHOOSER] + v[G_TURN]) % n;
        if (v[G_CURRENT] != want)
            return G_CURRENT;
    }
    const struct { int8_t field, phase_a, phase_b; } owned[] = {
        {G_HACIENDA_DONE, PH_SETTLER, PH_SETTLER}, {G_TO_PLACE, PH_MAYOR, PH_MAYOR},
        {G_LAST_SLOT, PH_MAYOR, PH_MAYOR}, {G_PRODUCED, PH_CRAFTSMAN, PH_CRAFTSMAN},
        {G_CAPTAIN_LOADED, PH_CAPTAIN, PH_STORAGE}, {G_STORE_MASK, PH_STORAGE, PH_STORAGE},
    };
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
        if (v[owned[i].field] && phase != owned[i].phase_a && phase != owned[i].phase_b)
            return owned[i].field;
    for (int i = 0; i < n; i++)
        if (v[O_PLAYERS + i * PLAYER_LEN + P_WHARF] && phase != PH_CAPTAIN && phase != PH_STORAGE)
            return O_PLAYERS + i * PLAYER_LEN + P_WHARF;
    const int32_t *cur = v + O_PLAYERS + (phase == END ? 0 : v[G_CURRENT]) * PLAYER_LEN;
    if (phase == PH_MAYOR) {
        int room = 0;
        for (int slot = v[G_LAST_SLOT]; slot < NSLOTS; slot++)
            room += slot_free_in_vector(cur, slot);
        if (v[G_TO_PLACE] == 0 || room < v[G_TO_PLACE])
            return G_TO_PLACE;
    }
    if (phase == PH_STORAGE) {
        int held = 0;
        for (int k = 0; k < NK; k++)
            held |= (cur[P_GOODS + k] != 0) << k;
        if (v[G_STORE_MASK] & ~held)
            return G_STORE_MASK;
    }
    return -1;
}

static int32_t check_invariants(const int32_t *v)
{
    int32_t bad = check_spaces(v);
    if (bad < 0)
        bad = check_conservation(v);
    if (bad < 0)
        bad = check_progress(v);
    return bad;
}

static void decode_player(mm_pr_player *p, const int32_t *v)
{
    p->doubloons = (int16_t)v[P_DOUBLOONS];
    p->vp = (int16_t)v[P_VP];
    for (int k = 0; k < NK; k++) {
        p->goods[k] = (int8_t)v[P_GOODS + k];
        p->plantations[k] = (int8_t)v[P_PLANT + k];
        p->plantation_colonists[k] = (int8_t)v[P_PCOL + k];
    }
    p->quarries = (int8_t)v[P_QUARRIES];
    p->quarry_colonists = (int8_t)v[P_QCOL];
    p->san_juan = (int8_t)v[P_SANJUAN];
    p->wharf_done = (int8_t)v[P_WHARF];
    p->island_used = (int8_t)(sum5(p->plantations) + p->quarries);
    for (int b = 0; b < NB; b++) {
        p->buildings[b] = (int8_t)v[P_BUILD + b];
        if (p->buildings[b] >= 0) {
            p->owned |= 1u << b;
            p->city_used = (int8_t)(p->city_used + BUILDINGS[b].spaces);
        }
    }
}

/* Fill *s from a vector that passed every check. */
static void load_state(mm_pr_state *s, const int32_t *v)
{
    int8_t *globals[O_GOODS] = {
        NULL, &s->players, &s->options, &s->governor, &s->phase, &s->current, &s->chooser,
        &s->turn, &s->picks, &s->end_triggered, &s->colonist_supply, &s->colonist_ship, NULL,
        &s->hacienda_done, &s->to_place, &s->last_slot, &s->produced, &s->captain_loaded,
        &s->store_mask, &s->quarry_supply,
    };
    memset(s, 0, sizeof *s);
    for (int i = 0; i < O_GOODS; i++)
        if (globals[i])
            *globals[i] = (int8_t)v[i];
    s->vp_supply = v[G_VP_SUPPLY];
    for (int k = 0; k < NK; k++) {
        s->goods_supply[k] = (int8_t)v[O_GOODS + k];
        s->house[k] = (int8_t)v[O_HOUSE + k];
        s->deck[k] = (int8_t)v[O_DECK + k];
        s->faceup[k] = (int8_t)v[O_FACEUP + k];
        s->discard[k] = (int8_t)v[O_DISCARD + k];
    }
    for (int b = 0; b < NB; b++) {
        s->building_supply[b] = (int8_t)v[O_BSUPPLY + b];
        s->available |= (uint32_t)(s->building_supply[b] > 0) << b;
    }
    for (int r = 0; r < MM_PR_MAX_ROLES; r++) {
        s->role_doubloons[r] = (int16_t)v[O_ROLE_DOUBLOONS + r];
        s->role_taken[r] = (int8_t)v[O_ROLE_TAKEN + r];
    }
    for (int i = 0; i < MM_PR_MAX_SHIPS; i++) {
        s->ship_capacity[i] = (int8_t)v[O_SHIPS + 3 * i];
        s->ship_kind[i] = (int8_t)v[O_SHIPS + 3 * i + 1];
        s->ship_count[i] = (int8_t)v[O_SHIPS + 3 * i + 2];
    }
    for (int i = 0; i < MM_MAX_PLAYERS; i++)
        decode_player(&s->p[i], v + O_PLAYERS + i * PLAYER_LEN);
    refresh_legal(s);
}

/* validate.py check_vector, then codec.validate's "the player to move has a move". */
static int pr_decode(void *state, const int32_t *vec, int32_t len, int32_t *bad_field)
{
    mm_pr_state *s = state;
    int32_t bad;
    *bad_field = -1;
    if (len != MM_PR_VECTOR_LEN)
        return MM_ERR_LENGTH;
    *bad_field = 0;
    if (vec[G_VERSION] != MM_PR_LAYOUT_VERSION)
        return MM_ERR_VERSION;
    if ((bad = check_ranges(vec)) >= 0) {
        *bad_field = bad;
        return MM_ERR_RANGE;
    }
    if ((bad = check_invariants(vec)) >= 0) {
        *bad_field = bad;
        return MM_ERR_INVARIANT;
    }
    load_state(s, vec);
    if (s->phase != END && s->num_legal == 0) {
        *bad_field = G_CURRENT;
        return MM_ERR_INVARIANT;
    }
    *bad_field = -1;
    return MM_OK;
}

#ifndef NDEBUG
/* Debug builds: every position apply reaches is one decode accepts, and decoding
 * its vector rebuilds the same bytes (derived fields and move cache included). */
static int consistent(const mm_pr_state *s)
{
    int32_t v[MM_PR_VECTOR_LEN], bad;
    mm_pr_state again;
    encode_state(s, v);
    return pr_decode(&again, v, MM_PR_VECTOR_LEN, &bad) == MM_OK
        && memcmp(&again, s, sizeof again) == 0 && s->num_legal != 1;
}
#endif

/* ------------------------------------------------------------------ vtable basics */

static void pr_encode(const void *state, int32_t *vec) { encode_state(state, vec); }

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
    case CUSTOMS_HOUSE: return p->vp / 4;
    case CITY_HALL:
        for (int x = SMALL_MARKET; x < NB; x++)
            bonus += owns(p, x);
        return bonus;
    default: return 0;
    }
}

static int score(const mm_pr_player *p)
{
    int total = p->vp;
    for (int b = 0; b < NB; b++)
        if (p->buildings[b] >= 0)
            total += BUILDINGS[b].vp + (p->buildings[b] > 0 ? large_bonus(p, b) : 0);
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
 *   role       4 x the doubloons on the card + 3 x what the phase is worth to me:
 *              craftsman when I produce, captain when I hold barrels that can load,
 *              trader when a sale pays 2 or more, builder by the best building I can
 *              afford, settler while my island has room, mayor otherwise
 *   settler    Hacienda draw > quarry (my first two) > coffee > tobacco > sugar >
 *              indigo > corn > pass
 *   mayor      plan where the colonists in hand go (production chains: the kind's
 *              idle plantations or circles first, then plantation + circle pairs,
 *              coffee down to indigo; then large and key violet buildings, corn,
 *              quarries, the rest) and place on the lowest planned slot
 *   builder    printed VP; late in the game large buildings, early the production
 *              building my plantations lack and the strong violet buildings
 *   craftsman  the most valuable kind;  trader  the best-paying sale (never corn
 *              for nothing);  captain  the load that ships the most barrels
 *   storage    warehouse the kind worth most (barrels x price), keep the dearest */

#define EPSILON_TENTHS 1

/* Production buildings of each kind (-1: none). */
static const int8_t PRODUCERS[NK][2] = {
    {-1, -1}, {SMALL_INDIGO_PLANT, INDIGO_PLANT}, {SMALL_SUGAR_MILL, SUGAR_MILL},
    {TOBACCO_STORAGE, -1}, {COFFEE_ROASTER, -1},
};

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
    if (b == FACTORY || b == HARBOR || b == WHARF || b == LARGE_MARKET || b == HOSPICE)
        return value + 3;
    return value;
}

/* Value of the best building the player could build as the builder (0: none). */
static int best_build(const mm_pr_state *s, int player)
{
    const mm_pr_player *p = &s->p[player];
    int best = 0, room = CITY_SPACES - p->city_used;
    for (uint32_t m = s->available & ~p->owned; m; m &= m - 1) {
        int b = lowest(m);
        int cost = building_cost(s, b) - 1 - min_int(p->quarry_colonists, BUILDINGS[b].vp);
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
    int best = -1;
    if (sum5(s->house) >= HOUSE_SPACES)
        return best;
    for (int k = 0; k < NK; k++)
        if (p->goods[k] > 0 && (occupied(p, OFFICE) || s->house[k] == 0))
            best = max_int(best, sale_gain(p, k, 1));
    return best;
}

static int role_value(const mm_pr_state *s, int player, int r)
{
    const mm_pr_player *p = &s->p[player];
    uint8_t loads[MM_PR_MAX_LEGAL];
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
        SLOT_BUILDING + FORTRESS, SLOT_BUILDING + CUSTOMS_HOUSE, SLOT_BUILDING + WHARF,
        SLOT_BUILDING + HARBOR, SLOT_BUILDING + FACTORY, SLOT_BUILDING + LARGE_MARKET,
        SLOT_BUILDING + UNIVERSITY, CORN, SLOT_QUARRY,
    };
    const mm_pr_player *p = &s->p[s->current];
    memset(m, 0, sizeof *m);
    m->hand = s->to_place;
    for (int slot = s->last_slot; slot < NSLOTS; slot++)
        m->free[slot] = empty_circles(p, slot);
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
    for (size_t i = 0; i < sizeof next; i++)
        plan_place(m, next[i], m->hand);
    for (int slot = NSLOTS; slot-- > 0;)
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

/* Value of one legal move for the player to move (higher is better). */
static int move_value(const mm_pr_state *s, int a, const mayor_plan *plan)
{
    const mm_pr_player *p = &s->p[s->current];
    if (a == MM_PR_A_PASS)
        return 0;
    switch (s->phase) {
    case ROLE: {
        int r = a - MM_PR_A_ROLE;
        return 4 * s->role_doubloons[r] + 3 * role_value(s, s->current, r);
    }
    case PH_SETTLER:
        if (a == MM_PR_A_HACIENDA)
            return 20;
        if (a == MM_PR_A_QUARRY)
            return p->quarries < 2 ? 10 : 1;
        return 2 + a - MM_PR_A_SETTLE;
    case PH_MAYOR: return plan->placed[a - MM_PR_A_PLACE] > 0 ? NSLOTS - (a - MM_PR_A_PLACE) : 0;
    case PH_BUILDER: return build_value(s, p, a - MM_PR_A_BUILD);
    case PH_CRAFTSMAN: return a;
    case PH_TRADER: return sale_gain(p, a - MM_PR_A_SELL, s->current == s->chooser);
    case PH_CAPTAIN:
        return a >= MM_PR_A_WHARF ? 2 * p->goods[a - MM_PR_A_WHARF] : load_value(s, p, a);
    default: /* storage */
        return a < MM_PR_A_KEEP ? storage_value(p, a - MM_PR_A_STORE) : a - MM_PR_A_KEEP;
    }
}

static int32_t heuristic_move(const mm_pr_state *s)
{
    mayor_plan plan;
    if (s->phase == PH_MAYOR)
        plan_mayor(s, &plan);
    int best = s->legal[0], best_value = move_value(s, best, &plan);
    for (int i = 1; i < s->num_legal; i++) {
        int value = move_value(s, s->legal[i], &plan);
        if (value > best_value) {
            best_value = value;
            best = s->legal[i];
        }
    }
    return best;
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

const mm_game mm_puerto_rico_game = {
    .name = "puerto-rico",
    .layout_version = MM_PR_LAYOUT_VERSION,
    .state_bytes = sizeof(mm_pr_state),
    .vector_len = MM_PR_VECTOR_LEN,
    .num_actions = MM_PR_NUM_ACTIONS,
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
};
