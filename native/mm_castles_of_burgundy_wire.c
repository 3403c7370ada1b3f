/* meeplemind: The Castles of Burgundy positions read from their protobuf wire format
 * (meeplemind.v1.CastlesOfBurgundyState, proto/meeplemind/v1/castles_of_burgundy.proto)
 * straight into the state vector (codec.py's layout): a search request's fast path.
 *
 * It does every check of codec.from_dict that reads the message (names, list lengths,
 * the reader's ranges, distinct numbers, a map key once, the start castle present); the
 * decoder then checks the position as a whole, the player to move included.  Anything
 * else unusual (a field repeated on the wire, an unexpected wire type) is left to the
 * general path: the reader answers 0 and Python reads the message, naming what is wrong. */
#include "mm_castles_of_burgundy.h"
#include "mm_wire.h"

#define NT MM_COB_TILES
#define NG MM_COB_GOODS
#define NCOL 6
#define LIMIT 1000 /* the readers' bound on counts (codec.py) */
#define START_CELL 18
#define BIT(n) (1ULL << (n))

/* Names as the position messages spell them (data.py, state.py). */
const char *const mm_cob_tile_names[NT] = {
    "castle", "mine", "ship", "warehouse", "carpenter", "church", "market", "boarding_house", "bank",
    "city_hall", "watchtower", "cows2", "cows3", "cows4", "pigs2", "pigs3", "pigs4", "sheep2", "sheep3",
    "sheep4", "chickens2", "chickens3", "chickens4", "knowledge1", "knowledge2", "knowledge3", "knowledge4",
    "knowledge5", "knowledge6", "knowledge7", "knowledge8", "knowledge9", "knowledge10", "knowledge11",
    "knowledge12", "knowledge13", "knowledge14", "knowledge15", "knowledge16", "knowledge17", "knowledge18",
    "knowledge19", "knowledge20", "knowledge21", "knowledge22", "knowledge23", "knowledge24", "knowledge25",
    "knowledge26"};
const char *const mm_cob_phase_names[MM_COB_ROUNDS] = {"A", "B", "C", "D", "E"};
const char *const mm_cob_stage_names[12] = {"turn", "discard", "tile", "castle", "city_hall", "carpenter",
                                            "church", "market", "warehouse", "ship", "goods", "end"};
const char *const mm_cob_colour_names[NCOL] = {"castle", "mine", "ship", "building", "animal", "knowledge"};
static const char *const BONUS_NAMES[2] = {"first", "second"};

/* A repeated field's values (at most cap), as they arrive: packed or one by one. */
typedef struct ints {
    int32_t n, v[NT];
} ints;

typedef struct cob_player_wire {
    uint32_t seen;
    int32_t scalar[4]; /* silverlings 1, workers 2, vp 3 */
    ints dice, goods, sold, storage;
    int32_t bonus[NCOL];        /* 0 none, 1 first, 2 second */
    int32_t estate[MM_COB_CELLS]; /* tile per cell, -1 empty */
} cob_player_wire;

typedef struct cob_wire {
    uint32_t seen, pending_seen, hidden_seen;
    int32_t scalar[9]; /* phase 1, round 2, stage 3, turn 6, current_player 7, bought 8 (names as indexes) */
    ints turn_order, round_order, black_depot, round_goods, hidden_goods;
    int32_t pending_tile, pending_cell, ship_mask, goods_chosen;
    int32_t depots;
    ints depot_tiles[MM_COB_DEPOTS], depot_goods[MM_COB_DEPOTS];
    int32_t stack[NT], black_stack[NT], discarded[NT];
    int32_t players;
    cob_player_wire p[MM_COB_MAX_PLAYERS];
} cob_wire;

static int add_int(ints *out, int cap, uint64_t x, int32_t lo, int32_t hi)
{
    int32_t value = (int32_t)(uint32_t)x;
    if (out->n >= cap || value < lo || value > hi)
        return 0;
    out->v[out->n++] = value;
    return 1;
}

/* Append a repeated int32 field's values to *out (packed or not), each in lo..hi. */
static int add_ints(const mm_wire_field *f, ints *out, int cap, int32_t lo, int32_t hi)
{
    mm_wire w = f->bytes;
    uint64_t x;
    if (f->type == MM_WIRE_VARINT)
        return add_int(out, cap, f->varint, lo, hi);
    if (f->type != MM_WIRE_LEN)
        return 0;
    while (w.p < w.end)
        if (!mm_wire_varint(&w, &x) || !add_int(out, cap, x, lo, hi))
            return 0;
    return 1;
}

/* Append a repeated string field's tile (or "" as -1 when empty_ok) to *out. */
static int add_tile(const mm_wire_field *f, ints *out, int cap, int empty_ok)
{
    int t = mm_wire_name(f, mm_cob_tile_names, NT, empty_ok);
    if (t < -1 || out->n >= cap)
        return 0;
    out->v[out->n++] = t;
    return 1;
}

/* A map entry's key and value (absent ones keep the type's default: "" or 0). */
static int read_entry(mm_wire w, mm_wire_field *key, mm_wire_field *value, uint32_t key_type, uint32_t value_type)
{
    mm_wire_field f;
    uint32_t seen = 0;
    int rc;
    static const uint8_t EMPTY[1] = {0};
    key->type = key_type, value->type = value_type;
    key->varint = value->varint = 0;
    key->bytes.p = key->bytes.end = value->bytes.p = value->bytes.end = EMPTY;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number > 2)
            continue;
        if (!mm_wire_first(&seen, f.number) || f.type != (f.number == 1 ? key_type : value_type))
            return 0;
        *(f.number == 1 ? key : value) = f;
    }
    return rc == 0;
}

/* A map<string, int32> entry of tile counts (0..LIMIT), each tile once: counts[tile]. */
static int add_count(const mm_wire_field *f, int32_t *counts, uint64_t *seen)
{
    mm_wire_field key, value;
    if (f->type != MM_WIRE_LEN || !read_entry(f->bytes, &key, &value, MM_WIRE_LEN, MM_WIRE_VARINT))
        return 0;
    int t = mm_wire_name(&key, mm_cob_tile_names, NT, 0);
    int32_t n = mm_wire_int32(&value);
    if (t < 0 || (*seen & BIT(t)) || n < 0 || n > LIMIT)
        return 0;
    *seen |= BIT(t);
    counts[t] = n;
    return 1;
}

/* Distinct printed numbers 1..count, as a bitmask (pending.ship_depots, goods_chosen). */
static int add_numbers(const mm_wire_field *f, int32_t *mask, int count)
{
    ints got = {0};
    if (!add_ints(f, &got, count, 1, count))
        return 0;
    for (int i = 0; i < got.n; i++) {
        if (*mask & (1 << (got.v[i] - 1)))
            return 0;
        *mask |= 1 << (got.v[i] - 1);
    }
    return 1;
}

static int read_pending(mm_wire w, cob_wire *s)
{
    mm_wire_field f;
    int rc;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        int ok;
        switch (f.number) {
        case 1:
            ok = mm_wire_first(&s->pending_seen, 1) && (s->pending_tile = mm_wire_name(&f, mm_cob_tile_names, NT, 1)) >= -1;
            break;
        case 2:
            ok = mm_wire_expect(&s->pending_seen, &f, MM_WIRE_VARINT);
            if (ok)
                s->pending_cell = mm_wire_int32(&f);
            ok = ok && s->pending_cell >= 0 && s->pending_cell <= MM_COB_CELLS;
            break;
        case 3:
            ok = add_numbers(&f, &s->ship_mask, MM_COB_DEPOTS);
            break;
        case 4:
            ok = add_numbers(&f, &s->goods_chosen, NG);
            break;
        default:
            ok = 1;
        }
        if (!ok)
            return 0;
    }
    return rc == 0;
}

static int read_depot(mm_wire w, cob_wire *s)
{
    mm_wire_field f;
    int rc, d = s->depots;
    if (d >= MM_COB_DEPOTS)
        return 0;
    s->depots++;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if (f.number == 1 && !add_tile(&f, &s->depot_tiles[d], MM_COB_DEPOT_SLOTS, 1))
            return 0;
        if (f.number == 2 && !add_ints(&f, &s->depot_goods[d], NG, 0, LIMIT))
            return 0;
    }
    return rc == 0 && s->depot_tiles[d].n == MM_COB_DEPOT_SLOTS && s->depot_goods[d].n == NG;
}

static int read_hidden(mm_wire w, cob_wire *s)
{
    mm_wire_field f;
    uint64_t stack_seen = 0, black_seen = 0;
    int rc;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        if ((f.number == 1 && !add_ints(&f, &s->hidden_goods, NG, 0, LIMIT))
            || (f.number == 2 && !add_count(&f, s->stack, &stack_seen))
            || (f.number == 3 && !add_count(&f, s->black_stack, &black_seen)))
            return 0;
    }
    return rc == 0 && s->hidden_goods.n == NG;
}

static int read_player(mm_wire w, cob_wire *s)
{
    mm_wire_field f, key, value;
    uint32_t bonus_seen = 0;
    uint64_t cells = 0;
    int rc, k;
    if (s->players >= MM_COB_MAX_PLAYERS)
        return 0;
    cob_player_wire *p = &s->p[s->players++];
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        int ok = 1;
        switch (f.number) {
        case 1:
        case 2:
        case 3:
            ok = mm_wire_expect(&p->seen, &f, MM_WIRE_VARINT);
            if (ok)
                p->scalar[f.number] = mm_wire_int32(&f);
            ok = ok && p->scalar[f.number] >= 0 && p->scalar[f.number] <= LIMIT;
            break;
        case 4:
            ok = add_ints(&f, &p->dice, 2, 0, 6);
            break;
        case 5:
            ok = add_ints(&f, &p->goods, NG, 0, LIMIT);
            break;
        case 6:
            ok = add_ints(&f, &p->sold, NG, 0, LIMIT);
            break;
        case 7: /* bonus_tiles: colour -> "first" or "second", each colour once */
            ok = f.type == MM_WIRE_LEN && read_entry(f.bytes, &key, &value, MM_WIRE_LEN, MM_WIRE_LEN)
                 && (k = mm_wire_name(&key, mm_cob_colour_names, NCOL, 0)) >= 0 && mm_wire_first(&bonus_seen, (uint32_t)k)
                 && (p->bonus[k] = mm_wire_name(&value, BONUS_NAMES, 2, 0) + 1) > 0;
            break;
        case 8:
            ok = add_tile(&f, &p->storage, MM_COB_STORAGE, 0);
            break;
        case 9: /* estate: space number 1..37 -> tile, each space once */
            ok = f.type == MM_WIRE_LEN && read_entry(f.bytes, &key, &value, MM_WIRE_VARINT, MM_WIRE_LEN);
            k = ok ? mm_wire_int32(&key) : 0; /* a space number, checked before it is made an index */
            ok = ok && k >= 1 && k <= MM_COB_CELLS && !(cells & BIT(--k))
                 && (p->estate[k] = mm_wire_name(&value, mm_cob_tile_names, NT, 0)) >= 0;
            if (ok)
                cells |= BIT(k);
            break;
        }
        if (!ok)
            return 0;
    }
    return rc == 0 && p->dice.n == 2 && p->goods.n == NG && p->sold.n == NG && (cells & BIT(START_CELL));
}

static int read_state(mm_wire w, cob_wire *s)
{
    mm_wire_field f;
    uint64_t discarded_seen = 0;
    int rc;
    while ((rc = mm_wire_next(&w, &f)) > 0) {
        int ok = 1;
        switch (f.number) {
        case 1:
            ok = mm_wire_first(&s->seen, 1) && (s->scalar[1] = mm_wire_name(&f, mm_cob_phase_names, MM_COB_ROUNDS, 0)) >= 0;
            break;
        case 3:
            ok = mm_wire_first(&s->seen, 3) && (s->scalar[3] = mm_wire_name(&f, mm_cob_stage_names, 12, 0)) >= 0;
            break;
        case 2:
        case 6:
        case 7:
        case 8:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_VARINT);
            if (ok)
                s->scalar[f.number] = mm_wire_int32(&f);
            break;
        case 4:
            ok = add_ints(&f, &s->turn_order, MM_COB_MAX_PLAYERS, 0, MM_COB_MAX_PLAYERS - 1);
            break;
        case 5:
            ok = add_ints(&f, &s->round_order, MM_COB_MAX_PLAYERS, 0, MM_COB_MAX_PLAYERS - 1);
            break;
        case 9:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_pending(f.bytes, s);
            break;
        case 10:
            ok = f.type == MM_WIRE_LEN && read_depot(f.bytes, s);
            break;
        case 11:
            ok = add_tile(&f, &s->black_depot, MM_COB_BLACK_SLOTS, 1);
            break;
        case 12:
            ok = add_ints(&f, &s->round_goods, MM_COB_ROUNDS, 0, NG);
            break;
        case 13:
            ok = mm_wire_expect(&s->seen, &f, MM_WIRE_LEN) && read_hidden(f.bytes, s);
            break;
        case 14:
            ok = add_count(&f, s->discarded, &discarded_seen);
            break;
        case 15:
            ok = f.type == MM_WIRE_LEN && read_player(f.bytes, s);
            break;
        }
        if (!ok)
            return 0;
    }
    return rc == 0;
}

/* The fields from_dict requires and the lengths it checks, once the players are known. */
static int complete(const cob_wire *s)
{
    int32_t n = s->players;
    const int32_t *g = s->scalar;
    const uint32_t required = BIT(1) | BIT(3) | BIT(9) | BIT(13); /* phase, stage, pending, hidden */
    if (n < 2 || (s->seen & required) != required || s->depots != MM_COB_DEPOTS)
        return 0;
    if (s->turn_order.n != n || s->round_order.n != n || s->black_depot.n != MM_COB_BLACK_SLOTS
        || s->round_goods.n != MM_COB_ROUNDS)
        return 0;
    for (int i = 0; i < n; i++)
        if (s->turn_order.v[i] >= n || s->round_order.v[i] >= n)
            return 0;
    return g[2] >= 1 && g[2] <= MM_COB_ROUNDS && g[6] >= 0 && g[6] < n && g[7] >= -1 && g[7] < n;
}

static void sort_ints(int32_t *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int32_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static int32_t write_vector(cob_wire *s, int32_t *v)
{
    int32_t i = 0, n = s->players;
    const int32_t *g = s->scalar;
    int32_t globals[12] = {MM_COB_LAYOUT_VERSION, n, g[1], g[2] - 1, g[3], g[6], g[7], g[8] != 0,
                           s->pending_tile, s->pending_cell - 1, s->ship_mask, s->goods_chosen};
    for (int k = 0; k < 12; k++)
        v[i++] = globals[k];
    for (int k = 0; k < MM_COB_MAX_PLAYERS; k++)
        v[i++] = k < n ? s->turn_order.v[k] : -1;
    for (int k = 0; k < MM_COB_MAX_PLAYERS; k++)
        v[i++] = k < n ? s->round_order.v[k] : -1;
    for (int d = 0; d < MM_COB_DEPOTS; d++)
        for (int k = 0; k < MM_COB_DEPOT_SLOTS; k++)
            v[i++] = s->depot_tiles[d].v[k];
    for (int k = 0; k < MM_COB_BLACK_SLOTS; k++)
        v[i++] = s->black_depot.v[k];
    for (int d = 0; d < MM_COB_DEPOTS; d++)
        for (int k = 0; k < NG; k++)
            v[i++] = s->depot_goods[d].v[k];
    for (int k = 0; k < MM_COB_ROUNDS; k++)
        v[i++] = s->round_goods.v[k] - 1;
    for (int k = 0; k < NG; k++)
        v[i++] = s->hidden_goods.v[k];
    for (int k = 0; k < NT; k++)
        v[i++] = s->stack[k];
    for (int k = 0; k < NT; k++)
        v[i++] = s->black_stack[k];
    for (int k = 0; k < NT; k++)
        v[i++] = s->discarded[k];
    for (int p = 0; p < MM_COB_MAX_PLAYERS; p++) {
        cob_player_wire *q = &s->p[p];
        if (p >= n) {
            for (int k = 0; k < 23; k++)
                v[i++] = 0;
            for (int k = 0; k < MM_COB_STORAGE + MM_COB_CELLS; k++)
                v[i++] = -1;
            continue;
        }
        sort_ints(q->dice.v, 2);
        sort_ints(q->storage.v, q->storage.n);
        for (int k = 1; k <= 3; k++)
            v[i++] = q->scalar[k];
        for (int k = 0; k < 2; k++)
            v[i++] = q->dice.v[k];
        for (int k = 0; k < NG; k++)
            v[i++] = q->goods.v[k];
        for (int k = 0; k < NG; k++)
            v[i++] = q->sold.v[k];
        for (int k = 0; k < NCOL; k++)
            v[i++] = q->bonus[k];
        for (int k = 0; k < MM_COB_STORAGE; k++)
            v[i++] = k < q->storage.n ? q->storage.v[k] : -1;
        for (int k = 0; k < MM_COB_CELLS; k++)
            v[i++] = q->estate[k];
    }
    return i;
}

int32_t mm_cob_read_wire(const uint8_t *buf, int32_t len, int32_t *vec)
{
    cob_wire s;
    memset(&s, 0, sizeof s);
    s.pending_tile = -1;
    for (int p = 0; p < MM_COB_MAX_PLAYERS; p++)
        for (int c = 0; c < MM_COB_CELLS; c++)
            s.p[p].estate[c] = -1;
    if (buf == NULL || vec == NULL || len < 0 || !read_state(mm_wire_of(buf, len), &s) || !complete(&s))
        return 0;
    return write_vector(&s, vec);
}
