/* meeplemind: Puerto Rico positions read from their protobuf wire format
 * (meeplemind.v1.PuertoRicoState, proto/meeplemind/v1/puerto_rico.proto) straight
 * into the state vector (codec.py's layouts): a search request's fast path.
 *
 * It does the structural checks of codec.from_dict that the vector cannot express
 * (names, fields present, a building listed once, colonists not negative, list
 * lengths that fit the layout); the decoder checks every value afterwards, and its
 * ranges are as strict as from_dict's or stricter.  Anything else unusual (a field
 * repeated on the wire, an unexpected wire type) is left to the general path too:
 * the reader answers 0 and Python reads the message, naming what is wrong. */
#include "mm_puerto_rico.h"
#include "mm_wire.h"

#define NK MM_PR_KINDS
#define NB MM_PR_BUILDINGS
#define FIRST_VIOLET 6 /* buildings from this id on are violet (data.py VIOLET) */
#define BIT(n) (1ULL << (n))

/* Names as the position messages spell them (data.py, state.py, expansion.py). */
const char *const mm_pr_good_names[NK] = {"corn", "indigo", "sugar", "tobacco", "coffee"};
const char *const mm_pr_phase_names[11] = {"role", "settler", "mayor", "builder", "craftsman", "trader",
                                           "captain", "storage", "end", "draft", "guests"};
const char *const mm_pr_role_names[MM_PR_MAX_ROLES] = {"settler", "mayor", "builder", "craftsman",
                                                       "trader", "captain", "prospector", "prospector2"};
const char *const mm_pr_building_names[NB] = {
    "small_indigo_plant", "small_sugar_mill", "indigo_plant", "sugar_mill", "tobacco_storage",
    "coffee_roaster", "small_market", "hacienda", "construction_hut", "small_warehouse", "hospice",
    "office", "large_market", "large_warehouse", "factory", "university", "harbor", "wharf",
    "guild_hall", "residence", "fortress", "customs_house", "city_hall",
    "aqueduct", "forest_house", "black_market", "storehouse", "guest_house", "trading_post", "church",
    "small_wharf", "lighthouse", "specialty_factory", "library", "union_hall", "cloister", "statue"};
/* Guest House windows: the phase each comes before (expansion.py WINDOWS). */
static const int8_t WINDOW_PHASES[4] = {MM_PR_PHASE_CRAFTSMAN, MM_PR_PHASE_TRADER, MM_PR_PHASE_CAPTAIN,
                                        MM_PR_PHASE_END};
const char *const mm_pr_given_names[4] = {"", "colonist", "barrel", "vp"};
/* The goods piles of PuertoRicoState by field number: goods_supply, trading_house,
 * plantation_stack, faceup_plantations, discarded_plantations (pr_wire.piles). */
static const int8_t PILE_FIELDS[18] = {[12] = 0, [13] = 1, [15] = 2, [16] = 3, [17] = 4};

typedef struct pr_player_wire {
    uint32_t seen;        /* bit n: field n was read */
    int32_t scalar[13];   /* int32 and bool fields by number (doubloons 1, vp_chips 2, ...) */
    int32_t goods[3][NK]; /* goods, plantations, plantation_colonists */
    int8_t buildings[NB]; /* -1: not listed, else colonists */
} pr_player_wire;

typedef struct pr_wire {
    uint32_t seen, progress_seen, options_seen, black_market_seen, new_buildings_seen;
    uint64_t supply_seen; /* bit b: building_supply of building b read */
    int32_t scalar[24];   /* top-level int32 and bool fields by number */
    int32_t swap, expansion;
    int32_t piles[5][NK]; /* goods_supply, trading_house, plantation_stack, faceup, discarded */
    int32_t supply[NB];
    int32_t roles, role_doubloons[MM_PR_MAX_ROLES], role_taken[MM_PR_MAX_ROLES];
    int32_t ships, ship[MM_PR_MAX_SHIPS][3];
    int32_t progress[14]; /* Progress int32 and bool fields by number; names as indexes */
    int32_t made[NK], kept[NK];
    int32_t bm[4];        /* BlackMarket: building index (-1 ""), due, given index */
    int32_t forest_supply;
    uint64_t violet;      /* bit b: building b listed in new_buildings.violet_buildings */
    int32_t players;
    pr_player_wire p[MM_MAX_PLAYERS];
} pr_wire;

/* A Mayor slot's index (moves.py SLOT_NAMES: the kinds, "quarry", the buildings), or -1. */
static int slot_of(const mm_wire_field *f)
{
    int k;
    if ((k = mm_wire_name(f, mm_pr_good_names, NK, 0)) >= 0)
        return k;
    if (f->type == MM_WIRE_LEN && f->bytes.end - f->bytes.p == 6 && memcmp(f->bytes.p, "quarry", 6) == 0)
        return NK;
    return (k = mm_wire_name(f, mm_pr_building_names, NB, 0)) >= 0 ? NK + 1 + k : -1;
}

/* The phase a Guest House window comes before, by its name (-1 for "": no window), or -2. */
static int window_of(const mm_wire_field *f)
{
    int phase = mm_wire_name(f, mm_pr_phase_names, 11, 1);
    for (int i = 0; i < 4; i++)
        if (phase == WINDOW_PHASES[i])
            return phase;
    return phase == -1 ? -1 : -2;
}

static int read_goods(mm_wire w, int32_t *out)
{
    mm_wire_field f;
    uint32_t seen = 0;
    int rc;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > NK)
            continue;
        if (!mm_wire_expect(&seen, &f, MM_WIRE_VARINT))
            return 0;
        out[f.number - 1] = mm_wire_int32(&f);
    }
    return rc == 0;
}

static int read_options(mm_wire w, pr_wire *s)
{
    static const char *const EXPANSIONS[2] = {"none", "new-buildings"};
    mm_wire_field f;
    int rc;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 2)
            continue;
        if (!mm_wire_first(&s->options_seen, f.number))
            return 0;
        if (f.number == 1 && f.type == MM_WIRE_VARINT)
            s->swap = f.varint != 0;
        else if (f.number != 2 || (s->expansion = mm_wire_name(&f, EXPANSIONS, 2, 0)) < 0)
            return 0;
    }
    return rc == 0;
}

static int read_supply(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    int rc;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > NB)
            continue;
        uint64_t bit = BIT(f.number - 1);
        if (f.type != MM_WIRE_VARINT || (s->supply_seen & bit))
            return 0;
        s->supply_seen |= bit;
        s->supply[f.number - 1] = mm_wire_int32(&f);
    }
    return rc == 0;
}

static int read_role(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    uint32_t seen = 0;
    int rc, i = s->roles;
    if (i >= MM_PR_MAX_ROLES)
        return 0;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 3)
            continue;
        if (!mm_wire_first(&seen, f.number))
            return 0;
        if (f.number == 1 && mm_wire_name(&f, mm_pr_role_names, MM_PR_MAX_ROLES, 0) != i)
            return 0; /* roles are listed in card order */
        if (f.number == 1)
            continue;
        if (f.type != MM_WIRE_VARINT)
            return 0;
        if (f.number == 2)
            s->role_doubloons[i] = mm_wire_int32(&f);
        else
            s->role_taken[i] = f.varint != 0;
    }
    s->roles++;
    return rc == 0 && (seen & BIT(1)); /* the role's name is there */
}

static int read_ship(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    uint32_t seen = 0;
    int rc, i = s->ships;
    if (i >= MM_PR_MAX_SHIPS)
        return 0;
    int32_t *ship = s->ship[i];
    ship[0] = 0, ship[1] = -1, ship[2] = 0; /* capacity, kind ("" empty), count */
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 3)
            continue;
        if (!mm_wire_first(&seen, f.number))
            return 0;
        if (f.number == 2) {
            if ((ship[1] = mm_wire_name(&f, mm_pr_good_names, NK, 1)) < -1)
                return 0;
        } else if (f.type != MM_WIRE_VARINT) {
            return 0;
        } else {
            ship[f.number - 1] = mm_wire_int32(&f);
        }
    }
    s->ships++;
    return rc == 0 && ship[0] >= 1 && ship[2] >= 0;
}

static int read_black_market(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    int rc;
    s->bm[1] = -1, s->bm[3] = 0;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 3)
            continue;
        if (!mm_wire_first(&s->black_market_seen, f.number))
            return 0;
        if (f.number == 1)
            s->bm[1] = mm_wire_name(&f, mm_pr_building_names, NB, 1);
        else if (f.number == 3)
            s->bm[3] = mm_wire_name(&f, mm_pr_given_names + 1, 3, 1) + 1;
        else if (f.type == MM_WIRE_VARINT)
            s->bm[2] = mm_wire_int32(&f);
        else
            return 0;
        if (s->bm[1] < -1 || s->bm[3] < 0)
            return 0;
    }
    return rc == 0;
}

/* Progress: bools and int32s by number; last_slot (3), hacienda_tile (7) and window (8)
 * as indexes; produced (4) and warehoused (6) as masks of kinds. */
static int read_progress(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    int rc, k;
    int32_t *out = s->progress;
    out[7] = -1, out[8] = -1;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        switch (f.number) {
        case 4:
        case 6: /* repeated names of kinds */
            if ((k = mm_wire_name(&f, mm_pr_good_names, NK, 0)) < 0)
                return 0;
            out[f.number] |= 1 << k;
            s->progress_seen |= 1U << f.number;
            break;
        case 3:
            if (!mm_wire_first(&s->progress_seen, 3) || (out[3] = slot_of(&f)) < 0)
                return 0;
            break;
        case 7:
            if (!mm_wire_first(&s->progress_seen, 7) || (out[7] = mm_wire_name(&f, mm_pr_good_names, NK, 1)) < -1)
                return 0;
            break;
        case 8:
            if (!mm_wire_first(&s->progress_seen, 8) || (out[8] = window_of(&f)) < -1)
                return 0;
            break;
        case 10:
            if (!mm_wire_expect(&s->progress_seen, &f, MM_WIRE_LEN) || !read_black_market(f.bytes, s))
                return 0;
            break;
        case 12:
        case 13:
            if (!mm_wire_expect(&s->progress_seen, &f, MM_WIRE_LEN) || !read_goods(f.bytes, f.number == 12 ? s->made : s->kept))
                return 0;
            break;
        default:
            if (f.number > 13)
                break;
            if (!mm_wire_expect(&s->progress_seen, &f, MM_WIRE_VARINT))
                return 0;
            out[f.number] = mm_wire_int32(&f);
        }
    }
    return rc == 0;
}

static int read_new_buildings(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    int rc, b;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number == 1) {
            if (!mm_wire_expect(&s->new_buildings_seen, &f, MM_WIRE_VARINT))
                return 0;
            s->forest_supply = mm_wire_int32(&f);
        } else if (f.number == 2) { /* a violet building in the game, listed once */
            b = mm_wire_name(&f, mm_pr_building_names, NB, 0);
            if (b < FIRST_VIOLET || (s->violet & BIT(b)))
                return 0;
            s->violet |= BIT(b);
        }
    }
    return rc == 0;
}

static int read_building(mm_wire w, pr_player_wire *p)
{
    mm_wire_field f;
    uint32_t seen = 0;
    int rc, b = -2;
    int32_t colonists = 0;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 2)
            continue;
        if (!mm_wire_first(&seen, f.number))
            return 0;
        if (f.number == 1)
            b = mm_wire_name(&f, mm_pr_building_names, NB, 0);
        else if (f.type == MM_WIRE_VARINT)
            colonists = mm_wire_int32(&f);
        else
            return 0;
    }
    if (rc != 0 || b < 0 || p->buildings[b] >= 0 || colonists < 0 || colonists > 127)
        return 0;
    p->buildings[b] = (int8_t)colonists; /* above its circles: the decoder refuses it */
    return 1;
}

static int read_player(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    int rc;
    if (s->players >= MM_MAX_PLAYERS)
        return 0;
    pr_player_wire *p = &s->p[s->players++];
    memset(p->buildings, -1, sizeof p->buildings);
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 12)
            continue;
        if (f.number == 8) {
            if (f.type != MM_WIRE_LEN || !read_building(f.bytes, p))
                return 0;
        } else if (f.number >= 3 && f.number <= 5) {
            if (!mm_wire_expect(&p->seen, &f, MM_WIRE_LEN) || !read_goods(f.bytes, p->goods[f.number - 3]))
                return 0;
        } else if (mm_wire_expect(&p->seen, &f, MM_WIRE_VARINT)) {
            p->scalar[f.number] = mm_wire_int32(&f);
        } else {
            return 0;
        }
    }
    return rc == 0 && (p->seen & (BIT(3) | BIT(4) | BIT(5))) == (BIT(3) | BIT(4) | BIT(5));
}

static int read_state(mm_wire w, pr_wire *s)
{
    mm_wire_field f;
    int rc, k;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 23)
            continue;
        int ok;
        switch (f.number) {
        case 1:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_options(f.bytes, s);
            break;
        case 3: /* phase */
            ok = mm_wire_first(&s->seen, 3) && (k = mm_wire_name(&f, mm_pr_phase_names, 11, 0)) >= 0;
            if (ok)
                s->scalar[3] = k;
            break;
        case 12: case 13: case 15: case 16: case 17:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_goods(f.bytes, s->piles[PILE_FIELDS[f.number]]);
            break;
        case 14:
            ok = f.type == MM_WIRE_LEN && read_ship(f.bytes, s);
            break;
        case 19:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_supply(f.bytes, s);
            break;
        case 20:
            ok = f.type == MM_WIRE_LEN && read_role(f.bytes, s);
            break;
        case 21:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_progress(f.bytes, s);
            break;
        case 22:
            ok = f.type == MM_WIRE_LEN && read_player(f.bytes, s);
            break;
        case 23:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_new_buildings(f.bytes, s);
            break;
        default: /* int32 and bool fields */
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_VARINT);
            if (ok)
                s->scalar[f.number] = mm_wire_int32(&f);
        }
        if (!ok)
            return 0;
    }
    return rc == 0;
}

#define ALL_SEEN(seen, mask) (((seen) & (mask)) == (mask))

/* The fields from_dict requires, and the buildings of the layout; a base game has
 * none of Expansion I's fields. */
static int complete(const pr_wire *s, int v2)
{
    const uint32_t state = BIT(1) | BIT(3) | BIT(12) | BIT(13) | BIT(15) | BIT(16) | BIT(17) | BIT(19) | BIT(21);
    const uint32_t expansion_progress = BIT(7) | BIT(8) | BIT(9) | BIT(10) | BIT(11) | BIT(12) | BIT(13);
    const uint64_t expansion_supply = (BIT(NB) - 1) & ~(BIT(MM_PR_BASE_BUILDINGS) - 1);
    const uint32_t expansion_player = BIT(11) | BIT(12);
    int nb = v2 ? NB : MM_PR_BASE_BUILDINGS;
    if (s->players < 2 || !ALL_SEEN(s->seen, state) || !ALL_SEEN(s->progress_seen, BIT(3)))
        return 0;
    if ((s->seen & BIT(23)) != (v2 ? BIT(23) : 0)
        || (s->progress_seen & expansion_progress) != (v2 ? expansion_progress : 0)
        || (s->supply_seen & expansion_supply) != (v2 ? expansion_supply : 0))
        return 0;
    for (int i = 0; i < s->players; i++) {
        if ((s->p[i].seen & expansion_player) != (v2 ? expansion_player : 0))
            return 0;
        for (int b = nb; b < NB; b++)
            if (s->p[i].buildings[b] >= 0)
                return 0;
    }
    return 1;
}

static int32_t write_vector(const pr_wire *s, int v2, int32_t *v)
{
    int32_t i = 0, n = s->players, nb = v2 ? NB : MM_PR_BASE_BUILDINGS;
    const int32_t *g = s->scalar, *pr = s->progress;
    int32_t globals[20] = {v2 ? MM_PR_LAYOUT_VERSION_V2 : MM_PR_LAYOUT_VERSION, n, s->swap, g[2], g[3], g[4], g[5],
                           g[6], g[7], g[8] != 0, g[9], g[10], g[11], pr[1] != 0, pr[2], pr[3], pr[4],
                           pr[5] != 0, pr[6], g[18]};
    for (int k = 0; k < 20; k++)
        v[i++] = globals[k];
    if (v2) {
        int32_t more[8] = {s->forest_supply, pr[7], pr[8], pr[9], s->bm[1], s->bm[2], s->bm[3], pr[11]};
        for (int k = 0; k < 8; k++)
            v[i++] = more[k];
        for (int k = 0; k < NK; k++)
            v[i++] = s->made[k];
        for (int k = 0; k < NK; k++)
            v[i++] = s->kept[k];
    }
    for (int pile = 0; pile < 5; pile++)
        for (int k = 0; k < NK; k++)
            v[i++] = s->piles[pile][k];
    for (int b = 0; b < nb; b++)
        v[i++] = s->supply[b];
    for (int b = 0; v2 && b < nb; b++)
        v[i++] = b < FIRST_VIOLET || (s->violet & BIT(b));
    for (int r = 0; r < MM_PR_MAX_ROLES; r++)
        v[i++] = r < s->roles ? s->role_doubloons[r] : -1;
    for (int r = 0; r < MM_PR_MAX_ROLES; r++)
        v[i++] = r < s->roles ? s->role_taken[r] : 0;
    for (int k = 0; k < MM_PR_MAX_SHIPS; k++) {
        v[i++] = k < s->ships ? s->ship[k][0] : 0;
        v[i++] = k < s->ships ? s->ship[k][1] : -1;
        v[i++] = k < s->ships ? s->ship[k][2] : 0;
    }
    for (int p = 0; p < MM_MAX_PLAYERS; p++) {
        const pr_player_wire *q = &s->p[p];
        int here = p < n;
        const int32_t *ps = q->scalar;
        int32_t counts[4] = {ps[1], ps[2]}, tail[6] = {ps[6], ps[7], ps[9], ps[10] != 0, ps[11], ps[12] != 0};
        for (int k = 0; k < 2; k++)
            v[i++] = here ? counts[k] : 0;
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < NK; k++)
                v[i++] = here ? q->goods[j][k] : 0;
        for (int k = 0; k < (v2 ? 6 : 4); k++)
            v[i++] = here ? tail[k] : 0;
        for (int b = 0; b < nb; b++)
            v[i++] = here ? q->buildings[b] : -1;
    }
    return i;
}

int32_t mm_pr_read_wire(const uint8_t *buf, int32_t len, int32_t *vec)
{
    pr_wire s;
    memset(&s, 0, sizeof s);
    for (int p = 0; p < MM_MAX_PLAYERS; p++)
        memset(s.p[p].buildings, -1, sizeof s.p[p].buildings);
    if (buf == NULL || vec == NULL || len < 0 || !read_state(mm_wire_of(buf, len), &s))
        return 0;
    int v2 = s.expansion == 1;
    return complete(&s, v2) ? write_vector(&s, v2, vec) : 0;
}
