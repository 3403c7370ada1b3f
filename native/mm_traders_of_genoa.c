/* meeplemind: Traders of Genoa in C; see mm_traders_of_genoa.h.  Function names follow
 * engine/traders_of_genoa (state.py, heuristic.py) so the two read side by side. */
#include <assert.h>
#include <stddef.h>
#include <string.h>
#include "mm_traders_of_genoa.h"
#include "schema_traders_of_genoa.h"
#include "traders_of_genoa_tables.h"
#include "layout_traders_of_genoa.h"
#include "mm_layout.h"
#include "evaluation_traders_of_genoa.h"
#include "mm_traders_of_genoa_eval.h"

typedef mm_tog_state state;
typedef mm_tog_player player;

_Static_assert(MM_TOG_MAX_PLAYERS == TOG_MAX_PLAYERS && MM_TOG_GOODS == TOG_NUM_GOODS
                   && MM_TOG_SPECIALS == TOG_NUM_SPECIALS && MM_TOG_DECKS == TOG_NUM_DECKS
                   && MM_TOG_CARDS == TOG_NUM_CARDS && MM_TOG_BUILDINGS == TOG_NUM_BUILDINGS
                   && MM_TOG_DISCS == TOG_TOWER_DISCS && MM_TOG_LOCATIONS == TOG_UNSEEN + 1,
               "mm_traders_of_genoa.h sizes differ from the generated tables");
_Static_assert(sizeof(mm_tog_player) == 24 && offsetof(mm_tog_state, p) == 8 * (MM_TOG_LOCATIONS + 2)
                   && offsetof(mm_tog_state, offer_ducats) == offsetof(mm_tog_state, visited) + 4
                   && offsetof(mm_tog_state, legal) % 2 == 0
                   && offsetof(mm_tog_state, num_legal) == offsetof(mm_tog_state, piles) + MM_TOG_DECKS
                   && sizeof(mm_tog_state) == offsetof(mm_tog_state, legal) + 2 * MM_TOG_MAX_LEGAL,
               "padding in the state");

#define NP TOG_MAX_PLAYERS
#define NG TOG_NUM_GOODS
#define NK TOG_NUM_SPECIALS
#define NB TOG_NUM_BUILDINGS
#define ND TOG_NUM_DECKS
#define NCARDS TOG_NUM_CARDS
#define NSQ TOG_NUM_SQUARES
#define DISCS TOG_TOWER_DISCS
#define MAX_LEGAL MM_TOG_MAX_LEGAL
#define PILE TOG_PILE
#define USED TOG_USED
#define UNSEEN TOG_UNSEEN
#define EPSILON_TENTHS 2 /* heuristic playouts: a uniform move 2 times in 10 */

_Static_assert(NCARDS < 64, "a card set is a 64-bit mask");

/* The cards of a deck, one bit each. */
static uint64_t deck_cards(int deck) { return ((1ull << DECK_SIZES[deck]) - 1) << DECK_FIRST[deck]; }

/* The index of the n-th (from 0) set bit of m, which has more than n. */
static int nth_card(uint64_t m, int n)
{
    for (; n > 0; n--)
        m &= m - 1;
    return __builtin_ctzll(m);
}

/* Card c moves to location `to` (the location masks follow). */
static void put_card(state *s, int c, int to)
{
    s->at[s->cards[c]] &= ~(1ull << c);
    s->at[to] |= 1ull << c;
    s->cards[c] = (int8_t)to;
}

static int trade_id(int give, int get) { return TOG_A_TRADE + give * (NG - 1) + (get < give ? get : get - 1); }


static void clear_offers(state *s)
{
    for (int q = 0; q < NP; q++)
        s->offer_ducats[q] = s->offer_target[q] = -1;
    memset(s->offer_goods, 0, sizeof s->offer_goods);
    memset(s->offer_specials, 0, sizeof s->offer_specials);
    memset(s->offer_markers, 0, sizeof s->offer_markers);
    memset(s->offered_cards, 0, sizeof s->offered_cards);
    s->offered = 0;
}

/* The cards in seat's hand (bit c: card c); *offered: those of them in his offer. */
static uint64_t hand_mask(const state *s, int seat, uint64_t *offered)
{
    *offered = s->at[seat] & s->offered;
    return s->at[seat];
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && NG == 8 && NK < 8,
               "a table of goods or special-card counts is read as one 64-bit word, kind k in byte k");

/* The counts of a table of goods as one word, good g in byte g. */
static uint64_t goods_word(const int8_t *goods)
{
    uint64_t x;
    memcpy(&x, goods, sizeof x);
    return x;
}

/* The counts of a table of special cards as one word, kind k in byte k (two loads: a
 * five-byte copy goes through memory). */
static uint64_t specials_word(const int8_t *specials)
{
    uint32_t x;
    memcpy(&x, specials, sizeof x);
    _Static_assert(NK == sizeof x + 1, "five kinds of special cards");
    return x | (uint64_t)(uint8_t)specials[NK - 1] << 32;
}

/* Bit k set where byte k of x (each 0-127) is not 0. */
static unsigned nonzero_bytes(uint64_t x)
{
    uint64_t high = (x + 0x7F7F7F7F7F7F7F7Full) & 0x8080808080808080ull;
    return (unsigned)((high >> 7) * 0x0102040810204080ull >> 56);
}

/* A set of offer items (moves.py ITEM_NAMES: the coins, goods, cards, special cards and
 * the marker, in building order): bit i of low, then of high, for item i. */
typedef struct item_set {
    uint64_t low, high;
} item_set;
_Static_assert(TOG_I_GOOD == TOG_NUM_OFFER_COINS && TOG_I_CARD == TOG_I_GOOD + NG && TOG_I_SPECIAL == TOG_I_CARD + NCARDS
                   && TOG_I_MARKER == TOG_I_SPECIAL + NK && TOG_I_CARD < 64 && TOG_I_SPECIAL >= 64 && TOG_I_MARKER < 128,
               "the items are the coins, goods, cards, special cards and a marker, one bit each");

/* The set of the given coins, goods, cards and special cards (bit k for kind k) and marker. */
static item_set items_of(unsigned coins, unsigned goods, uint64_t cards, unsigned specials, int marker)
{
    return (item_set){coins | (uint64_t)goods << TOG_I_GOOD | cards << TOG_I_CARD,
                      cards >> (64 - TOG_I_CARD) | (uint64_t)specials << (TOG_I_SPECIAL - 64)
                          | (uint64_t)marker << (TOG_I_MARKER - 64)};
}

/* The last item of a set in building order (0: none). */
static int top_item(item_set items)
{
    return items.high ? 127 - __builtin_clzll(items.high) : items.low ? 63 - __builtin_clzll(items.low) : 0;
}

/* state.py offer_top: the last item in building order in seat's offer (0: ducats or
 * none); offered: his cards in it (hand_mask). */
static int offer_top(const state *s, int seat, uint64_t offered)
{
    return top_item(items_of(0, nonzero_bytes(goods_word(s->offer_goods[seat])), offered,
                             nonzero_bytes(specials_word(s->offer_specials[seat])), s->offer_markers[seat] != 0));
}

static uint32_t visited_buildings(const state *s) { return s->visited; }

/* The tower steps onto square (the path and its buildings). */
static void push_path(state *s, int square)
{
    s->path[s->path_len++] = (int8_t)square;
    s->walked |= 1ull << square;
    if (SQUARE[square] >= 0)
        s->visited |= 1u << SQUARE[square];
}

static int has_mark(const state *s, int b, int seat) { return s->marks[b] >> seat & 1; }

static int action_limit(const state *s, int seat)
{
    if (s->players == 2 && seat == s->owner)
        return 1 + (s->p[1 - seat].actions > 0);
    return 1;
}

/* state.py may_act */
static int may_act(const state *s, int seat)
{
    return s->p[seat].actions < action_limit(s, seat) || s->p[seat].specials[S_EXTRA_ACTION] > 0;
}

static int has_large_goods(const player *p, int order)
{
    for (int i = 1; i <= 3; i++) {
        int g = LARGE_ORDERS[order][i], need = 0;
        for (int j = 1; j <= 3; j++)
            need += LARGE_ORDERS[order][j] == g;
        if (p->goods[g] < need)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ legal moves */

static int start_moves(const state *s, int16_t *out)
{
    const player *p = &s->p[s->to_move];
    int n = 0;
    out[n++] = TOG_A_ROLL;
    if (p->specials[S_ANY_START])
        for (int sq = 0; sq < NSQ; sq++)
            if (SQUARE[sq] != TOG_MARKET)
                out[n++] = TOG_A_START + sq;
    return n;
}

_Static_assert(NSQ <= 64, "a set of squares is a 64-bit mask");

/* state.py steering_targets as a set: the squares next to the tower (bit t: square t) of
 * buildings it has not visited this turn, while it has a disc left. */
static uint64_t target_squares(const state *s)
{
    uint64_t m = 0;
    if (s->path_len >= DISCS)
        return 0;
    const int8_t *next = NEIGHBOUR[s->path[s->path_len - 1]];
    for (int d = 0; d < 4; d++) {
        int t = next[d] & (NSQ - 1), b = SQUARE[t];
        m |= (uint64_t)((next[d] >= 0) & (b >= 0) & !(s->visited >> (b & 31) & 1)) << t;
    }
    return m;
}

/* state.py steering_targets: the target squares, ascending; their count. */
static int steering_targets(const state *s, int *out)
{
    int n = 0;
    for (uint64_t m = target_squares(s); m; m &= m - 1)
        out[n++] = __builtin_ctzll(m);
    return n;
}

/* state.py may_hear: the owner may call for steering offers at the walk. */
static int may_hear(const state *s)
{
    if (!target_squares(s))
        return 0;
    for (int q = 0; q < s->players; q++)
        if (q != s->owner && may_act(s, q))
            return 1;
    return 0;
}

/* stop, a step, and at the walk (not while answering steering offers) hear. */
static int walk_moves(const state *s, int16_t *out)
{
    int n = 0;
    out[n++] = TOG_A_STOP;
    if (s->path_len < DISCS) {
        const int8_t *next = NEIGHBOUR[s->path[s->path_len - 1]];
        for (int d = 0; d < 4; d++) {
            int t = next[d] & (NSQ - 1);
            out[n] = (int16_t)(TOG_A_MOVE + d);
            n += (next[d] >= 0) & (SQUARE[t] != TOG_MARKET) & !(s->walked >> t & 1);
        }
    }
    if (s->stage == ST_WALK && may_hear(s))
        out[n++] = TOG_A_HEAR;
    return n;
}

/* The items seat may still add to his offer: from its top on in building order, what he
 * has beyond it (a card once; not the extra-action card he needs to act), coins while it
 * holds ducats alone; free_cards: his cards not in it. */
static item_set open_items(const state *s, const player *p, int seat, int top, uint64_t free_cards)
{
    unsigned coins = 0;
    int total = s->offer_ducats[seat] > 0 ? s->offer_ducats[seat] : 0;
    for (int i = 0; i < TOG_NUM_OFFER_COINS && !top; i++)
        coins |= (unsigned)(total % OFFER_COINS[i] == 0 && total + OFFER_COINS[i] <= p->ducats) << i;
    /* an offer holds at most the goods and special cards its bidder has: no byte borrows */
    unsigned goods = nonzero_bytes(goods_word(p->goods) - goods_word(s->offer_goods[seat]));
    int extra = p->specials[S_EXTRA_ACTION] - s->offer_specials[seat][S_EXTRA_ACTION];
    unsigned specials = nonzero_bytes(specials_word(p->specials) - specials_word(s->offer_specials[seat]));
    specials &= ~((unsigned)(extra == 1 && p->actions >= action_limit(s, seat)) << S_EXTRA_ACTION);
    item_set open = items_of(coins, goods, free_cards, specials, s->offer_markers[seat] < p->markers);
    open.low &= top < 64 ? ~0ull << top : 0;
    open.high &= top < 64 ? ~0ull : ~0ull << (top - 64);
    return open;
}

/* state.py can_offer: seat may make an offer, by what every view knows (goods, special
 * cards and markers are public, a hand by its count). */
static int can_offer(const state *s, const player *p, int seat)
{
    if (s->players > 2 && p->ducats >= TOG_OFFER_STEP)
        return 1;
    for (int g = 0; g < NG; g++)
        if (p->goods[g])
            return 1;
    for (int k = 0; k < NK; k++)
        if (p->specials[k] > (k == S_EXTRA_ACTION && p->actions >= action_limit(s, seat)))
            return 1;
    for (int d = 0; d < ND; d++)
        if (p->hand[d])
            return 1;
    return p->markers > 0;
}

/* pass, or build an offer item by item (give) and make it (offer): state.py _offer_moves.
 * A steering offer is opened by its target (steer).  In 2-player games ducats only while
 * an item besides them can follow (a card by the hand's public count). */
static int offer_moves(const state *s, int16_t *out)
{
    const player *p = &s->p[s->to_move];
    int n = 0, seat = s->to_move, ducats = s->offer_ducats[seat];
    if (s->stage == ST_STEER && ducats < 0) {
        int targets[4], count = steering_targets(s, targets);
        out[n++] = TOG_A_PASS;
        for (int i = 0; i < count && can_offer(s, p, seat); i++)
            out[n++] = (int16_t)(TOG_A_STEER + targets[i]);
        return n;
    }
    uint64_t offered, held = hand_mask(s, seat, &offered);
    int top = offer_top(s, seat, offered), items = top >= TOG_I_GOOD;
    item_set open = open_items(s, p, seat, top, held & ~offered);
    uint32_t cards; /* public counts: the same legal moves in every seat's view */
    memcpy(&cards, p->hand, sizeof cards);
    if (s->players == 2 && !cards && !(open.low >> TOG_I_GOOD) && !open.high) /* no ducats without an item to follow */
        open.low = 0;
    out[n] = TOG_A_PASS; /* no offer, or a steering offer with its target only */
    n += ducats <= 0 && !items;
    out[n] = TOG_A_OFFER;
    n += (ducats > 0 || items) && (items || s->players > 2);
    for (uint64_t m = open.low; m; m &= m - 1)
        out[n++] = (int16_t)(TOG_A_GIVE + __builtin_ctzll(m));
    for (uint64_t m = open.high; m; m &= m - 1)
        out[n++] = (int16_t)(TOG_A_GIVE + 64 + __builtin_ctzll(m));
    return n;
}

/* One item into seat's offer (the first one opens it). */
static void give(state *s, int seat, int item)
{
    s->offer_ducats[seat] = s->offer_ducats[seat] < 0 ? 0 : s->offer_ducats[seat];
    if (item < TOG_I_GOOD)
        s->offer_ducats[seat] += OFFER_COINS[item];
    else if (item < TOG_I_CARD)
        s->offer_goods[seat][item - TOG_I_GOOD]++;
    else if (item < TOG_I_SPECIAL) {
        s->offered_cards[item - TOG_I_CARD] = 1;
        s->offered |= 1ull << (item - TOG_I_CARD);
    }
    else if (item < TOG_I_MARKER)
        s->offer_specials[seat][item - TOG_I_SPECIAL]++;
    else
        s->offer_markers[seat]++;
}

/* Sell to an offer or take the action; only while nobody offered may it lapse. */
static int decide_moves(const state *s, int16_t *out)
{
    int n = 0, offers = 0;
    if (may_act(s, s->owner))
        out[n++] = TOG_A_TAKE;
    for (int q = 0; q < s->players; q++)
        offers += s->offer_ducats[q] >= 0;
    if (!offers)
        out[n++] = TOG_A_LAPSE;
    for (int q = 0; q < s->players; q++)
        if (s->offer_ducats[q] >= 0)
            out[n++] = TOG_A_ACCEPT + q;
    return n;
}

/* Any-good and trade cards the actor may play. */
static int goods_card_moves(const state *s, const player *p, int16_t *out)
{
    int n = 0;
    if (p->specials[S_ANY_GOOD])
        for (int g = 0; g < NG; g++)
            if (s->supply[g])
                out[n++] = TOG_A_GOOD + g;
    if (p->specials[S_TRADE])
        for (int a = 0; a < NG; a++)
            if (p->goods[a])
                for (int b = 0; b < NG; b++)
                    if (b != a && s->supply[b])
                        out[n++] = trade_id(a, b);
    return n;
}

/* A privilege or a large order; the goods cards may be played first (they complete the
 * order).  Large orders' ids lie below the goods cards'. */
static int villa_moves(const state *s, int16_t *out)
{
    const player *p = &s->p[s->to_move];
    int n = 0;
    out[n++] = TOG_A_PRIVILEGE;
    for (const int8_t *i = LARGE_AT[s->site]; *i >= 0; i++)
        if (s->cards[DECK_FIRST[D_LARGE] + *i] == s->actor && has_large_goods(p, *i))
            out[n++] = TOG_A_LARGE + *i;
    return n + goods_card_moves(s, p, out + n);
}

static int reward_moves(const state *s, int16_t *out)
{
    int n = 0;
    for (int k = 0; k < NK; k++)
        if (s->special_supply[k])
            out[n++] = TOG_A_SPECIAL + k;
    return n;
}

static int extras_moves(const state *s, int16_t *out)
{
    const player *p = &s->p[s->to_move];
    int n = 0;
    out[n++] = TOG_A_DONE;
    n += goods_card_moves(s, p, out + n);
    if (!s->delivered)
        for (const int8_t *i = SMALL_AT[s->site]; *i >= 0; i++)
            if (s->cards[DECK_FIRST[D_SMALL] + *i] == s->actor && p->goods[SMALL_ORDERS[*i][0]])
                out[n++] = TOG_A_DELIVER + *i;
    if (p->specials[S_BUILDING_ACTION])
        for (int b = 0; b < NB; b++)
            if (b != s->site && has_mark(s, b, s->actor))
                out[n++] = TOG_A_PALACE + b;
    return n;
}

/* Whether a street square offers the player a building without his marker. */
static int base_useful(const state *s, int square, int seat)
{
    for (int i = 0; i < 5 && STREET_BUILDINGS[square][i] >= 0; i++)
        if (!has_mark(s, STREET_BUILDINGS[square][i], seat))
            return 1;
    return 0;
}

static int base_moves(const state *s, int16_t *out)
{
    const player *p = &s->p[s->to_move];
    int n = 0;
    out[n++] = TOG_A_PASS;
    if (!p->markers)
        return n;
    for (int i = 0; i < s->path_len; i++) {
        int sq = s->path[i];
        if (SQUARE[sq] == TOG_STREET && !(s->used_discs >> i & 1) && base_useful(s, sq, s->to_move)) {
            int j = n++; /* insertion: ascending squares */
            for (; j > 1 && out[j - 1] > TOG_A_BASE + sq; j--)
                out[j] = out[j - 1];
            out[j] = TOG_A_BASE + sq;
        }
    }
    return n;
}

static int mark_moves(const state *s, int16_t *out)
{
    const player *p = &s->p[s->to_move];
    int n = 0;
    out[n++] = TOG_A_DONE;
    if (!p->markers)
        return n;
    for (int i = 0; i < 5 && STREET_BUILDINGS[s->base][i] >= 0; i++) {
        int b = STREET_BUILDINGS[s->base][i];
        if (b > s->last_mark && !has_mark(s, b, s->to_move))
            out[n++] = TOG_A_MARK + b;
    }
    if (s->last_mark < 0 && !s->ousted)
        for (int i = 0; i < 5 && STREET_BUILDINGS[s->base][i] >= 0; i++) {
            int b = STREET_BUILDINGS[s->base][i];
            for (int q = 0; q < s->players; q++)
                if (q != s->to_move && has_mark(s, b, q))
                    out[n++] = TOG_A_OUST + b * NP + q;
        }
    return n;
}

/* The owner's answer to the steering offers: the walk on (refusing them all), or accept one. */
static int heed_moves(const state *s, int16_t *out)
{
    int n = walk_moves(s, out);
    for (int q = 0; q < s->players; q++)
        if (s->offer_ducats[q] >= 0)
            out[n++] = TOG_A_ACCEPT + q;
    return n;
}

static int end_moves(const state *s, int16_t *out) { return 0; }

/* The moves of each stage, ascending, into out (room for one past them); their count.  A
 * table of functions: a switch inlines them and saves their registers for every stage. */
typedef int generator(const state *s, int16_t *out);
static generator *const GENERATORS[] = {
    [ST_START] = start_moves, [ST_OFFER] = offer_moves, [ST_DECIDE] = decide_moves, [ST_VILLA] = villa_moves,
    [ST_REWARD] = reward_moves, [ST_EXTRAS] = extras_moves, [ST_WALK] = walk_moves, [ST_STEER] = offer_moves,
    [ST_HEED] = heed_moves, [ST_BASE] = base_moves, [ST_MARK] = mark_moves, [ST_END] = end_moves,
};
_Static_assert(sizeof GENERATORS / sizeof *GENERATORS == ST_END + 1, "a generator for every stage");

static int legal(const state *s, int16_t *out) { return GENERATORS[s->stage](s, out); }

/* ------------------------------------------------------------------ apply */

static void use_special(state *s, player *p, int kind)
{
    p->specials[kind]--;
    s->special_supply[kind]++;
}

static void take_good(state *s, player *p, int g)
{
    if (s->supply[g]) {
        s->supply[g]--;
        p->goods[g]++;
    }
}

static void reveal(state *s, int card)
{
    s->p[s->cards[card]].hand[CARD_DECK[card]]--;
    put_card(s, card, USED);
}

/* state.py draw: the known pile cards in ascending order, then the unseen ones. */
static int draw(state *s, int deck, mm_rng *rng)
{
    uint64_t cards = deck_cards(deck);
    if (!s->piles[deck]) {
        uint64_t used = s->at[USED] & cards;
        for (uint64_t m = used; m; m &= m - 1)
            put_card(s, __builtin_ctzll(m), PILE);
        s->piles[deck] = (int8_t)mm_popcount(used);
        if (!s->piles[deck])
            return -1;
    }
    uint64_t known = s->at[PILE] & cards, unseen = s->at[UNSEEN] & cards;
    int r = (int)mm_rng_below(rng, (uint32_t)s->piles[deck]);
    s->piles[deck]--;
    if (r < mm_popcount(known))
        return nth_card(known, r);
    return nth_card(unseen, (int)mm_rng_below(rng, (uint32_t)mm_popcount(unseen)));
}

static void draw_to(state *s, int seat, int deck, mm_rng *rng)
{
    int card = draw(s, deck, rng);
    if (card >= 0) {
        put_card(s, card, seat);
        s->p[seat].hand[deck]++;
    }
}

static void begin_turn(state *s)
{
    s->path_len = 0;
    s->walked = s->visited = 0;
    memset(s->path, -1, sizeof s->path);
    s->used_discs = s->acquirer = 0;
    for (int q = 0; q < s->players; q++)
        s->p[q].actions = 0;
    s->stage = ST_START;
    s->to_move = s->owner;
}

/* The tower has just entered building b for the first time this turn: the messages
 * naming b whose other building it has visited too are paid (ascending, as state.py). */
static void complete_messages(state *s, int b)
{
    uint32_t visited = visited_buildings(s);
    int first = DECK_FIRST[D_MESSAGE];
    for (const int8_t *i = MESSAGES_AT[b]; *i >= 0; i++) {
        int seat = s->cards[first + *i];
        if (seat < PILE && (visited >> MESSAGES[*i][0] & 1) && (visited >> MESSAGES[*i][1] & 1)) {
            reveal(s, first + *i);
            s->p[seat].ducats += TOG_MESSAGE_PAY;
        }
    }
}

/* state.py _next_bidder: bidding is ST_OFFER (for the action on offer, then the owner
 * decides) or ST_STEER (steering offers, then the owner heeds them). */
static void next_bidder(state *s, int bidding)
{
    int seat = s->to_move;
    for (;;) {
        seat = (seat + 1) % s->players;
        if (seat == s->owner) {
            s->stage = (int8_t)(bidding == ST_OFFER ? ST_DECIDE : ST_HEED);
            s->to_move = s->owner;
            return;
        }
        if (may_act(s, seat)) {
            s->stage = (int8_t)bidding;
            s->to_move = (int8_t)seat;
            return;
        }
    }
}

static void enter(state *s, int square)
{
    int b = SQUARE[square];
    int first = b >= 0 && !(visited_buildings(s) >> b & 1);
    push_path(s, square);
    if (first) {
        complete_messages(s, b);
        s->site = (int8_t)b;
        clear_offers(s);
        s->to_move = s->owner;
        next_bidder(s, ST_OFFER);
    } else {
        s->stage = ST_WALK;
        s->to_move = s->owner;
    }
}

static void roll(state *s, mm_rng *rng)
{
    int square;
    for (;;) {
        int r = (int)mm_rng_below(rng, TOG_SIDE);
        square = r * TOG_SIDE + (int)mm_rng_below(rng, TOG_SIDE);
        if (SQUARE[square] != TOG_MARKET)
            break;
        if (s->round < ROUNDS[s->players]) /* the track's last space (state.py _roll) */
            s->round++;
    }
    enter(s, square);
}

/* state.py _perform */
static void perform(state *s, int actor, int b, int counted, mm_rng *rng)
{
    player *p = &s->p[actor];
    if (counted) {
        if (p->actions >= action_limit(s, actor))
            use_special(s, p, S_EXTRA_ACTION);
        p->actions++;
    }
    clear_offers(s);
    s->site = (int8_t)b;
    s->actor = (int8_t)actor;
    s->delivered = 0;
    s->stage = ST_EXTRAS;
    s->to_move = (int8_t)actor;
    for (int q = 0; q < s->players; q++)
        if (q != actor && has_mark(s, b, q))
            s->p[q].ducats += TOG_OWNER_INCOME;
    const int8_t *act = BUILDING_ACTION[b];
    switch (act[0]) {
    case ACT_VILLA:
        s->stage = ST_VILLA;
        break;
    case ACT_DRAW:
        for (int i = 0; i < act[2]; i++)
            draw_to(s, actor, act[1], rng);
        break;
    case ACT_MARKERS: {
        int n = act[1] < p->reserve ? act[1] : p->reserve;
        p->reserve -= (int8_t)n;
        p->markers += (int8_t)n;
        break;
    }
    case ACT_GOODS:
        take_good(s, p, act[1]);
        take_good(s, p, act[2]);
        break;
    default:
        if (s->special_supply[act[1]]) {
            s->special_supply[act[1]]--;
            p->specials[act[1]]++;
        }
    }
}

/* The owner accepts buyer's offer: everything in it changes hands (a marker goes back to
 * the buyer's supply and the owner takes one of his own from his). */
static void sell(state *s, int buyer, mm_rng *rng)
{
    player *b = &s->p[buyer], *o = &s->p[s->owner];
    b->ducats -= s->offer_ducats[buyer];
    o->ducats += s->offer_ducats[buyer];
    for (int g = 0; g < NG; g++) {
        b->goods[g] = (int8_t)(b->goods[g] - s->offer_goods[buyer][g]);
        o->goods[g] = (int8_t)(o->goods[g] + s->offer_goods[buyer][g]);
    }
    for (int k = 0; k < NK; k++) {
        b->specials[k] = (int8_t)(b->specials[k] - s->offer_specials[buyer][k]);
        o->specials[k] = (int8_t)(o->specials[k] + s->offer_specials[buyer][k]);
    }
    for (uint64_t m = s->at[buyer] & s->offered; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        b->hand[CARD_DECK[c]]--;
        o->hand[CARD_DECK[c]]++;
        put_card(s, c, s->owner);
    }
    int m = s->offer_markers[buyer];
    b->markers = (int8_t)(b->markers - m);
    b->reserve = (int8_t)(b->reserve + m);
    m = m < o->reserve ? m : o->reserve;
    o->reserve = (int8_t)(o->reserve - m);
    o->markers = (int8_t)(o->markers + m);
    perform(s, buyer, s->site, 1, rng);
}

/* state.py _steer: the owner accepts buyer's steering offer: the tower moves onto its
 * target (messages pay as on any entry) and buyer buys that building's action with it. */
static void steer(state *s, int buyer, mm_rng *rng)
{
    int square = s->offer_target[buyer], b = SQUARE[square];
    push_path(s, square);
    complete_messages(s, b);
    s->site = (int8_t)b;
    sell(s, buyer, rng);
}

static void after_action(state *s)
{
    s->site = s->actor = -1;
    s->delivered = 0;
    clear_offers(s);
    s->stage = ST_WALK;
    s->to_move = s->owner;
}

static void end_turn(state *s)
{
    s->path_len = 0;
    s->walked = s->visited = 0;
    memset(s->path, -1, sizeof s->path);
    s->used_discs = s->acquirer = 0;
    s->base = s->last_mark = -1;
    s->ousted = 0;
    s->owner = (int8_t)((s->owner + 1) % s->players);
    if (s->owner == s->start_player) {
        if (s->round < ROUNDS[s->players])
            s->round++;
        if (s->round >= ROUNDS[s->players]) {
            s->stage = ST_END;
            s->to_move = -1;
            for (int q = 0; q < s->players; q++)
                s->p[q].actions = 0;
            return;
        }
    }
    begin_turn(s);
}

static void acquisition_turn(state *s)
{
    if (s->acquirer == s->players) {
        end_turn(s);
        return;
    }
    s->base = s->last_mark = -1;
    s->ousted = 0;
    s->stage = ST_BASE;
    s->to_move = (int8_t)((s->owner + s->acquirer) % s->players);
}

static void next_acquirer(state *s)
{
    s->acquirer++;
    acquisition_turn(s);
}

static void do_move(state *s, int a, mm_rng *rng)
{
    player *p = &s->p[s->to_move];
    if (s->stage == ST_HEED && (a == TOG_A_STOP || (a >= TOG_A_MOVE && a < TOG_A_START)))
        clear_offers(s); /* the owner walks on: the steering offers lapse */
    if (a == TOG_A_HEAR) {
        clear_offers(s);
        s->to_move = s->owner;
        next_bidder(s, ST_STEER);
    } else if (a >= TOG_A_STEER) {
        s->offer_target[s->to_move] = (int8_t)(a - TOG_A_STEER);
        s->offer_ducats[s->to_move] = 0;
    } else if (a == TOG_A_ROLL) {
        roll(s, rng);
    } else if (a == TOG_A_STOP) {
        s->acquirer = 0;
        acquisition_turn(s);
    } else if (a == TOG_A_PASS) {
        if (s->stage == ST_OFFER || s->stage == ST_STEER) {
            s->offer_target[s->to_move] = s->offer_ducats[s->to_move] = -1; /* a steering offer withdrawn */
            next_bidder(s, s->stage);
        } else {
            next_acquirer(s);
        }
    } else if (a == TOG_A_TAKE) {
        perform(s, s->owner, s->site, 1, rng);
    } else if (a == TOG_A_LAPSE) {
        after_action(s);
    } else if (a == TOG_A_PRIVILEGE) {
        draw_to(s, s->actor, D_PRIVILEGE, rng);
        s->stage = ST_EXTRAS;
    } else if (a == TOG_A_OFFER) {
        next_bidder(s, s->stage);
    } else if (a == TOG_A_DONE) {
        if (s->stage == ST_EXTRAS)
            after_action(s);
        else
            next_acquirer(s);
    } else if (a < TOG_A_START) {
        enter(s, NEIGHBOUR[s->path[s->path_len - 1]][a - TOG_A_MOVE]);
    } else if (a < TOG_A_GIVE) {
        use_special(s, p, S_ANY_START);
        enter(s, a - TOG_A_START);
    } else if (a < TOG_A_ACCEPT) {
        give(s, s->to_move, a - TOG_A_GIVE);
    } else if (a < TOG_A_LARGE) {
        if (s->stage == ST_HEED)
            steer(s, a - TOG_A_ACCEPT, rng);
        else
            sell(s, a - TOG_A_ACCEPT, rng);
    } else if (a < TOG_A_SPECIAL) {
        int order = a - TOG_A_LARGE;
        for (int i = 1; i <= 3; i++) {
            p->goods[LARGE_ORDERS[order][i]]--;
            s->supply[LARGE_ORDERS[order][i]]++;
        }
        reveal(s, DECK_FIRST[D_LARGE] + order);
        p->ducats += TOG_LARGE_ORDER_PAY;
        s->stage = ST_EXTRAS;
        for (int k = 0; k < NK; k++)
            if (s->special_supply[k])
                s->stage = ST_REWARD;
    } else if (a < TOG_A_GOOD) {
        s->special_supply[a - TOG_A_SPECIAL]--;
        p->specials[a - TOG_A_SPECIAL]++;
        s->stage = ST_EXTRAS;
    } else if (a < TOG_A_TRADE) {
        use_special(s, p, S_ANY_GOOD);
        take_good(s, p, a - TOG_A_GOOD);
    } else if (a < TOG_A_DELIVER) {
        int t = a - TOG_A_TRADE, give = t / (NG - 1), get = t % (NG - 1);
        get += get >= give;
        use_special(s, p, S_TRADE);
        p->goods[give]--;
        s->supply[give]++;
        take_good(s, p, get);
    } else if (a < TOG_A_PALACE) {
        int order = a - TOG_A_DELIVER, good = SMALL_ORDERS[order][0];
        p->goods[good]--;
        s->supply[good]++;
        reveal(s, DECK_FIRST[D_SMALL] + order);
        p->ducats += TOG_SMALL_ORDER_PAY;
        s->delivered = 1;
    } else if (a < TOG_A_BASE) {
        use_special(s, p, S_BUILDING_ACTION);
        perform(s, s->actor, a - TOG_A_PALACE, 0, rng);
    } else if (a < TOG_A_MARK) {
        int sq = a - TOG_A_BASE;
        s->base = (int8_t)sq;
        s->last_mark = -1;
        s->ousted = 0;
        for (int i = 0; i < s->path_len; i++)
            if (s->path[i] == sq)
                s->used_discs |= (int8_t)(1 << i);
        s->stage = ST_MARK;
    } else if (a < TOG_A_OUST) {
        int b = a - TOG_A_MARK;
        s->marks[b] |= (uint8_t)(1 << s->to_move);
        p->markers--;
        s->last_mark = (int8_t)b;
    } else {
        int b = (a - TOG_A_OUST) / NP, q = (a - TOG_A_OUST) % NP;
        p->markers--;
        p->reserve++;
        s->marks[b] &= (uint8_t)~(1u << q);
        s->p[q].reserve++;
        s->ousted = 1;
    }
}

/* ducats count up to LIMIT (state.py _cap); the seats past the players hold 0.  Their
 * bits or'ed (unsigned) are at least the most any seat has: the cap is rarely due. */
static void cap(state *s)
{
    uint32_t any = 0;
    for (int q = 0; q < NP; q++)
        any |= (uint32_t)s->p[q].ducats;
    for (int q = 0; q < NP && any > MM_TOG_LIMIT; q++)
        s->p[q].ducats = s->p[q].ducats < MM_TOG_LIMIT ? s->p[q].ducats : MM_TOG_LIMIT;
}

/* The move cache's entries past its count are zero, so equal positions are equal bytes.
 * It is cleared before the moves are generated, in 64-byte stores GCC and Clang make of a
 * vector type (a memset calls the library, and a loop over the old list's entries
 * mispredicts its exit: docs/measurements.md).  The generators write some moves always
 * and count them when open, so the entry past a list may hold one not counted, and a cache
 * that ends a game two from the last forced decision: they are cleared after. */
_Static_assert(MM_TOG_LONGEST_LIST + 2 <= MAX_LEGAL, "room for the entries past the longest list");

static void clear_legal(state *s)
{
#if defined(__GNUC__)
    typedef int16_t block __attribute__((vector_size(64), aligned(2), may_alias));
    size_t i = 0;
    for (; i + sizeof(block) <= sizeof s->legal; i += sizeof(block))
        *(block *)((char *)s->legal + i) = (block){0};
    memset((char *)s->legal + i, 0, sizeof s->legal - i);
#else
    memset(s->legal, 0, sizeof s->legal);
#endif
}

static void finish_legal(state *s, int n)
{
    assert(n <= MM_TOG_LONGEST_LIST);
    s->legal[n] = s->legal[n + 1] = 0;
    s->num_legal = (uint8_t)n;
}

/* Play every decision that has a single move, ducats capped after the move played and
 * after each of these (state.py _resolve_forced); the legal moves are generated straight
 * into the state's cache. */
static void resolve_forced(state *s, mm_rng *rng)
{
    int n;
    cap(s);
    clear_legal(s);
    while ((n = legal(s, s->legal)) == 1) {
        do_move(s, s->legal[0], rng);
        cap(s);
    }
    finish_legal(s, n);
}

static void cache_legal(state *s)
{
    clear_legal(s);
    finish_legal(s, legal(s, s->legal));
}

/* ------------------------------------------------------------------ the state vector */

/* Offsets in the state vector, from the schema (native/layout_traders_of_genoa.h): G() of a
 * global or the first cell of a table, P() of a field in a player's record, OFFER() of a
 * field of a seat's offer (the offers' fields interleave, one record per seat). */
#define G(NAME) MM_TOG_O_##NAME
#define P(NAME) MM_TOG_P_##NAME
#define PLAYERS_AT MM_TOG_V2_PLAYERS_AT
#define PLAYER_LEN MM_TOG_V2_PLAYER_LEN
#define OFFER_LEN MM_TOG_STRIDE_OFFER_DUCATS
#define OFFER(seat, NAME) (G(OFFER_##NAME) + (seat) * OFFER_LEN)
_Static_assert(MM_TOG_STRIDE_OFFER_GOODS == OFFER_LEN && MM_TOG_STRIDE_OFFER_SPECIALS == OFFER_LEN
                   && MM_TOG_STRIDE_OFFER_MARKERS == OFFER_LEN && MM_TOG_STRIDE_OFFER_TARGET == OFFER_LEN
                   && G(OFFER_MARKERS) + 1 == G(OFFER_TARGET) && G(OFFER_TARGET) == G(OFFER_DUCATS) + OFFER_LEN - 1,
               "an offer is one record per seat: ducats, the items (markers last), the target");

/* The load/store tables of native/layout_*.h expand into native/mm_layout.h's copies. */

static void encode_player(const player *s, int32_t *v) { MM_TOG_V2_PLAYER(STORE_ONE, STORE_MANY) }

static void load_player(player *s, const int32_t *v) { MM_TOG_V2_PLAYER(LOAD_ONE, LOAD_MANY) }

static void encode_state(const state *s, int32_t *v)
{
    memset(v, 0, sizeof(int32_t) * MM_TOG_V2_LEN);
    v[G(VERSION)] = MM_TOG_V2_VERSION;
    MM_TOG_V2_STATE(STORE_ONE, STORE_MANY)
    for (int q = 0; q < s->players; q++)
        encode_player(&s->p[q], v + PLAYERS_AT + q * PLAYER_LEN);
}

static int32_t pv(const int32_t *v, int seat, int j) { return v[PLAYERS_AT + seat * PLAYER_LEN + j]; }

/* The seat has actions left this turn without an extra-action card (on the vector). */
static int vector_acts_left(const int32_t *v, int seat)
{
    int limit = 1 + (v[G(PLAYERS)] == 2 && seat == v[G(OWNER)] && pv(v, 1 - seat, P(ACTIONS)) > 0);
    return pv(v, seat, P(ACTIONS)) < limit;
}

/* may_act on the vector: the seat may still take an action this turn. */
static int vector_may_act(const int32_t *v, int seat)
{
    return vector_acts_left(v, seat) || pv(v, seat, P(SPECIALS) + S_EXTRA_ACTION) > 0;
}

#define STAGE_NAME(stage) MM_TOG_NAMES_STAGES[stage]

/* Rules path and progress: the tower's path and who is to move at this stage. */
static int32_t check_turn(const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)], stage = v[G(STAGE)], owner = v[G(OWNER)], len = 0;
    int32_t path[DISCS];
    while (len < DISCS && v[G(PATH) + len] >= 0) {
        path[len] = v[G(PATH) + len];
        len++;
    }
    for (int i = 0; i < DISCS; i++) {
        int sq = v[G(PATH) + i];
        if (i >= len) {
            if (sq >= 0)
                return mm_reject(out, G(PATH) + i, "the path lists its squares first, then -1");
            continue;
        }
        if (SQUARE[sq] == TOG_MARKET)
            return mm_reject(out, G(PATH) + i, "the tower never stands on the market");
        for (int j = 0; j < i; j++)
            if (path[j] == sq)
                return mm_reject(out, G(PATH) + i, "the tower never visits a square twice in a turn");
        if (i) {
            int next = 0;
            for (int d = 0; d < 4; d++)
                next |= NEIGHBOUR[path[i - 1]][d] == sq;
            if (!next)
                return mm_reject(out, G(PATH) + i, "the tower moves one square orthogonally");
        }
    }
    for (int i = 0; i < DISCS; i++)
        if ((v[G(USED_DISCS)] >> i & 1) && (i >= len || SQUARE[path[i]] != TOG_STREET))
            return mm_reject(out, G(USED_DISCS), "disc %d is not on a street square", i);
    int acting = stage == ST_VILLA || stage == ST_REWARD || stage == ST_EXTRAS;
    /* each field: set (1: must be >= 0, 2: any value) or its one value */
    struct { int index, free, value; } want[] = {
        {G(TO_MOVE), stage != ST_END, -1},
        {G(SITE), stage == ST_OFFER || stage == ST_DECIDE || acting, -1},
        {G(ACTOR), acting, -1},
        {G(DELIVERED), stage == ST_EXTRAS ? 2 : 0, 0},
        {G(BASE), stage == ST_MARK, -1},
        {G(LAST_MARK), stage == ST_MARK ? 2 : 0, -1},
        {G(ACQUIRER), stage == ST_BASE || stage == ST_MARK ? 2 : 0, 0},
        {G(OUSTED), stage == ST_MARK ? 2 : 0, 0},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int i = want[k].index;
        if (!want[k].free && v[i] != want[k].value)
            return mm_reject(out, i, "must be %d at stage %s", want[k].value, STAGE_NAME(stage));
        if (want[k].free == 1 && v[i] < 0)
            return mm_reject(out, i, "must be set at stage %s", STAGE_NAME(stage));
    }
    if ((stage == ST_START || stage == ST_END) && len)
        return mm_reject(out, G(PATH), "the tower has no path at stage %s", STAGE_NAME(stage));
    if (stage != ST_START && stage != ST_END && !len)
        return mm_reject(out, G(PATH), "the tower stands on the board at stage %s", STAGE_NAME(stage));
    if ((stage == ST_OFFER || stage == ST_DECIDE) && SQUARE[path[len - 1]] != v[G(SITE)])
        return mm_reject(out, G(SITE), "the action on offer is the building the tower stands on");
    if (stage == ST_VILLA && BUILDING_ACTION[v[G(SITE)]][0] != ACT_VILLA)
        return mm_reject(out, G(SITE), "only a villa offers a privilege or a large order");
    if (stage == ST_REWARD) {
        int any = 0;
        for (int k = 0; k < NK; k++)
            any |= v[G(SPECIAL_SUPPLY) + k] > 0;
        if (!any)
            return mm_reject(out, G(STAGE), "a large order's special card needs one in the supply");
    }
    if (stage == ST_MARK) {
        int at = -1;
        for (int i = 0; i < len && at < 0; i++)
            if (path[i] == v[G(BASE)])
                at = i;
        if (at < 0 || !(v[G(USED_DISCS)] >> at & 1))
            return mm_reject(out, G(BASE), "the base is a street square of the path whose disc is used");
        if (v[G(LAST_MARK)] >= 0 && !(v[G(MARKS) + v[G(LAST_MARK)]] >> v[G(TO_MOVE)] & 1))
            return mm_reject(out, G(LAST_MARK), "the last building marked carries the player's marker");
    }
    int bidding = stage == ST_OFFER || stage == ST_STEER;
    if (bidding && v[G(TO_MOVE)] == owner)
        return mm_reject(out, G(TO_MOVE), "the tower owner makes no offer");
    if (bidding && !vector_may_act(v, v[G(TO_MOVE)]))
        return mm_reject(out, G(TO_MOVE), "the bidder to move may still act this turn");
    if ((stage == ST_STEER || stage == ST_HEED) && len >= DISCS)
        return mm_reject(out, G(PATH), "steering offers move the tower: it has a disc left at stage %s",
                         STAGE_NAME(stage));
    if ((stage == ST_START || stage == ST_DECIDE || stage == ST_WALK || stage == ST_HEED) && v[G(TO_MOVE)] != owner)
        return mm_reject(out, G(TO_MOVE), "the tower owner %d is to move", owner);
    if (acting && v[G(TO_MOVE)] != v[G(ACTOR)])
        return mm_reject(out, G(TO_MOVE), "the actor %d is to move", v[G(ACTOR)]);
    if ((stage == ST_BASE || stage == ST_MARK) && v[G(TO_MOVE)] != (owner + v[G(ACQUIRER)]) % n)
        return mm_reject(out, G(TO_MOVE), "the acquirer %d is to move", (owner + v[G(ACQUIRER)]) % n);
    return -1;
}

/* Whether square is a steering target on the vector: a building's square next to the
 * tower's last square, of a building the path has not visited. */
static int vector_target(const int32_t *v, int square)
{
    int len = 0, next = 0;
    while (len < DISCS && v[G(PATH) + len] >= 0)
        len++;
    if (square < 0 || !len || len >= DISCS || SQUARE[square] < 0)
        return 0;
    for (int d = 0; d < 4; d++)
        next |= NEIGHBOUR[v[G(PATH) + len - 1]][d] == square;
    for (int i = 0; i < len; i++)
        next &= SQUARE[v[G(PATH) + i]] != SQUARE[square];
    return next;
}

/* Rule offers. */
static int32_t check_offers(const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)], stage = v[G(STAGE)], steering = stage == ST_STEER || stage == ST_HEED;
    int cards[MM_TOG_MAX_PLAYERS] = {0};
    for (int c = 0; c < NCARDS; c++) {
        int loc = v[G(CARDS) + c];
        if (!v[G(OFFERED_CARDS) + c])
            continue;
        if (loc >= n || v[OFFER(loc, DUCATS)] < 0)
            return mm_reject(out, G(OFFERED_CARDS) + c, "an offered card is in the hand of a player with an offer");
        cards[loc]++;
    }
    for (int seat = 0; seat < n; seat++) {
        int at = OFFER(seat, DUCATS), amount = v[at], items = cards[seat];
        for (int i = at + 1; i <= OFFER(seat, MARKERS); i++) {
            if (amount < 0 && v[i])
                return mm_reject(out, i, "only an offer (0 ducats or more) holds items");
            items += v[i];
        }
        int target = v[OFFER(seat, TARGET)];
        if (amount < 0 && target >= 0)
            return mm_reject(out, OFFER(seat, TARGET), "only an offer (0 ducats or more) has a target");
        if (amount < 0)
            continue;
        if ((stage != ST_OFFER && stage != ST_DECIDE && !steering) || seat == v[G(OWNER)])
            return mm_reject(out, at, "offers are made to the tower owner during a negotiation");
        if (steering ? !vector_target(v, target) : target >= 0)
            return mm_reject(out, OFFER(seat, TARGET), steering
                             ? "a steering offer's target is a square next to the tower of a building it has not visited"
                             : "an offer for the action on offer has no target");
        if (!vector_may_act(v, seat))
            return mm_reject(out, at, "an offer comes from a player who may still act this turn");
        if (amount % TOG_OFFER_STEP || amount > pv(v, seat, P(DUCATS)))
            return mm_reject(out, at, "an offer is a multiple of %d ducats the bidder has", TOG_OFFER_STEP);
        for (int g = 0; g < NG; g++)
            if (v[OFFER(seat, GOODS) + g] > pv(v, seat, P(GOODS) + g))
                return mm_reject(out, OFFER(seat, GOODS) + g, "an offer holds goods the bidder has");
        for (int k = 0; k < NK; k++)
            if (v[OFFER(seat, SPECIALS) + k] > pv(v, seat, P(SPECIALS) + k))
                return mm_reject(out, OFFER(seat, SPECIALS) + k, "an offer holds special cards the bidder has");
        int extra = OFFER(seat, SPECIALS) + S_EXTRA_ACTION;
        if (pv(v, seat, P(SPECIALS) + S_EXTRA_ACTION) == v[extra] && v[extra] && !vector_acts_left(v, seat))
            return mm_reject(out, extra, "an offer keeps the extra-action card its bidder needs to act");
        if (v[OFFER(seat, MARKERS)] > pv(v, seat, P(MARKERS)))
            return mm_reject(out, OFFER(seat, MARKERS), "an offer holds markers from the bidder's hand");
        int opening = stage == ST_STEER && seat == v[G(TO_MOVE)]; /* named its target, nothing yet */
        if (!amount && !items && !opening)
            return mm_reject(out, at, "an offer holds something");
        if (n == 2 && !items && (stage == ST_DECIDE || stage == ST_HEED || seat != v[G(TO_MOVE)]))
            return mm_reject(out, at, "a 2-player offer holds something besides ducats");
    }
    return -1;
}

/* Rule conservation: every good, special card and marker of the game is somewhere. */
static int32_t check_conservation(const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)];
    for (int g = 0; g < NG; g++) {
        int total = v[G(SUPPLY) + g];
        for (int q = 0; q < n; q++)
            total += pv(v, q, P(GOODS) + g);
        if (total != TOG_GOODS_PER_KIND)
            return mm_reject(out, G(SUPPLY) + g, "%d %s in play, the game has %d", total, MM_TOG_NAMES_GOODS[g],
                             TOG_GOODS_PER_KIND);
    }
    for (int k = 0; k < NK; k++) {
        int total = v[G(SPECIAL_SUPPLY) + k];
        for (int q = 0; q < n; q++)
            total += pv(v, q, P(SPECIALS) + k);
        if (total != SPECIAL_COUNTS[k])
            return mm_reject(out, G(SPECIAL_SUPPLY) + k, "%d %s cards in play, the game has %d", total,
                             MM_TOG_NAMES_SPECIALS[k], SPECIAL_COUNTS[k]);
    }
    for (int q = 0; q < n; q++) {
        int total = pv(v, q, P(MARKERS)) + pv(v, q, P(RESERVE));
        for (int b = 0; b < NB; b++)
            total += v[G(MARKS) + b] >> q & 1;
        if (total != TOG_MARKERS_PER_PLAYER)
            return mm_reject(out, PLAYERS_AT + q * PLAYER_LEN + P(RESERVE),
                             "%d markers of seat %d in play, each player has %d", total, q, TOG_MARKERS_PER_PLAYER);
    }
    return -1;
}

/* Rule cards: every card has one location, and the public counts agree with the known cards. */
static int32_t check_cards(const int32_t *v, mm_verdict *out)
{
    int n = v[G(PLAYERS)];
    for (int c = 0; c < NCARDS; c++) {
        int loc = v[G(CARDS) + c];
        if (loc >= n && loc < PILE)
            return mm_reject(out, G(CARDS) + c, "seat %d is not in a %d-player game", loc, n);
    }
    for (int d = 0; d < ND; d++) {
        int count[UNSEEN + 1] = {0};
        for (int c = DECK_FIRST[d]; c < DECK_FIRST[d] + DECK_SIZES[d]; c++)
            count[v[G(CARDS) + c]]++;
        int piles = v[G(PILES) + d];
        if (count[PILE] > piles)
            return mm_reject(out, G(PILES) + d, "%d cards are known to be in the pile of %d", count[PILE], piles);
        int hidden = piles - count[PILE];
        for (int q = 0; q < n; q++) {
            int held = pv(v, q, P(HAND) + d);
            if (count[q] > held)
                return mm_reject(out, PLAYERS_AT + q * PLAYER_LEN + P(HAND) + d,
                                 "%d cards are known in a hand of %d", count[q], held);
            hidden += held - count[q];
        }
        if (hidden != count[UNSEEN])
            return mm_reject(out, G(PILES) + d, "%d unseen %s cards for %d unknown places", count[UNSEEN],
                             MM_TOG_NAMES_DECKS[d], hidden);
    }
    return -1;
}

static void load_state(state *s, const int32_t *v)
{
    memset(s, 0, sizeof *s);
    MM_TOG_V2_STATE(LOAD_ONE, LOAD_MANY)
    for (int i = 0; i < DISCS; i++)
        s->path_len += s->path[i] >= 0;
    for (int i = 0; i < s->path_len; i++) {
        s->walked |= 1ull << s->path[i];
        s->visited |= SQUARE[s->path[i]] >= 0 ? 1u << SQUARE[s->path[i]] : 0;
    }
    for (int c = 0; c < NCARDS; c++) {
        s->at[s->cards[c]] |= 1ull << c;
        s->offered |= (uint64_t)(s->offered_cards[c] != 0) << c;
    }
    for (int q = 0; q < s->players; q++)
        load_player(&s->p[q], v + PLAYERS_AT + q * PLAYER_LEN);
}

/* The one validator of Traders of Genoa positions: the length, version, player count
 * and every range (the schema's table), then the consistency rules in the schema's
 * order; a rejection names the vector index and the rule (*verdict). */
static int tog_decode(void *out, const int32_t *vec, int32_t len, mm_verdict *verdict)
{
    int rc = mm_check_layout(&MM_TOG_V2_CHECK, vec, len, verdict);
    if (rc != MM_OK)
        return rc;
    if (check_turn(vec, verdict) >= 0 || check_offers(vec, verdict) >= 0 || check_conservation(vec, verdict) >= 0
        || check_cards(vec, verdict) >= 0)
        return MM_ERR_INVARIANT;
    load_state(out, vec);
    cache_legal(out);
    return MM_OK;
}

#ifndef NDEBUG
/* Debug builds: every position apply reaches is one decode accepts, as the same bytes. */
static int consistent(const state *s)
{
    int32_t v[MM_TOG_V2_LEN];
    state again;
    mm_verdict verdict;
    encode_state(s, v);
    return tog_decode(&again, v, MM_TOG_V2_LEN, &verdict) == MM_OK && memcmp(&again, s, sizeof again) == 0;
}
#endif

/* ------------------------------------------------------------------ vtable */

static void tog_encode(const void *s, int32_t *vec) { encode_state(s, vec); }

static int tog_num_players(const void *s) { return ((const state *)s)->players; }

static int tog_current_player(const void *st)
{
    const state *s = st;
    return s->stage == ST_END ? -1 : s->to_move;
}

static int tog_legal_moves(const void *st, int32_t *out)
{
    const state *s = st;
    for (int i = 0; i < s->num_legal; i++)
        out[i] = s->legal[i];
    return s->num_legal;
}

static void tog_apply(void *st, int32_t action, mm_rng *rng)
{
    state *s = st;
    do_move(s, action, rng);
    resolve_forced(s, rng);
    assert(consistent(s));
}

/* state.py observation: what `viewer` sees (the other hands and the piles unseen; the
 * final scoring shows every hand). */
static void tog_observe(void *st, int viewer)
{
    state *s = st;
    uint64_t hidden = s->at[PILE];
    for (int q = 0; q < NP && s->stage != ST_END; q++)
        hidden |= q != viewer ? s->at[q] & ~s->offered : 0;
    for (uint64_t m = hidden; m; m &= m - 1)
        put_card(s, __builtin_ctzll(m), UNSEEN);
    cache_legal(s);
}

/* state.py paid_elsewhere: while the owner negotiates the building the tower has just
 * entered (no action taken since), a message naming it and another visited building is
 * in no hand: it would have paid on entering. */
static uint64_t inferred_in_pile(const state *s)
{
    uint64_t out = 0;
    if (s->stage != ST_OFFER && s->stage != ST_DECIDE)
        return 0;
    uint32_t visited = visited_buildings(s);
    for (const int8_t *i = MESSAGES_AT[s->site]; *i >= 0; i++)
        if ((visited >> MESSAGES[*i][0] & 1) && (visited >> MESSAGES[*i][1] & 1))
            out |= 1ull << (DECK_FIRST[D_MESSAGE] + *i);
    return out;
}

/* state.py determinize: the viewer's observation, then every deck's unseen cards that
 * may be in a hand shuffled and dealt to the other seats (the player to move too) up to
 * their counts, the rest to the pile. */
static void tog_determinize(void *st, int viewer, mm_rng *rng)
{
    state *s = st;
    if (viewer < 0 || viewer >= s->players)
        return;
    tog_observe(s, viewer);
    uint64_t in_pile = inferred_in_pile(s);
    for (int d = 0; d < ND; d++) {
        int8_t pool[NCARDS];
        int len = 0, k = 0, need[MM_TOG_MAX_PLAYERS] = {0}, needed = 0;
        uint64_t unseen = s->at[UNSEEN] & deck_cards(d);
        for (int q = 0; q < s->players; q++) {
            if (q == viewer)
                continue;
            need[q] = s->p[q].hand[d] - mm_popcount(s->at[q] & deck_cards(d));
            needed += need[q];
        }
        /* a client's position may defy the inference */
        uint64_t barred = mm_popcount(unseen & ~in_pile) >= needed ? in_pile : 0;
        for (uint64_t m = unseen & ~barred; m; m &= m - 1)
            pool[len++] = (int8_t)__builtin_ctzll(m);
        for (int i = len - 1; i > 0; i--) {
            int j = (int)mm_rng_below(rng, (uint32_t)(i + 1));
            int8_t t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        for (int q = 0; q < s->players; q++)
            for (int i = 0; i < need[q]; i++)
                put_card(s, pool[k++], q);
        for (uint64_t m = s->at[UNSEEN] & deck_cards(d); m; m &= m - 1)
            put_card(s, __builtin_ctzll(m), PILE);
    }
    cache_legal(s);
}

int mm_tog_group_size(uint32_t owned, int b)
{
    if (!(owned >> b & 1))
        return 0;
    uint32_t seen = 1u << b, before;
    do {
        before = seen;
        for (uint32_t m = seen; m; m &= m - 1)
            seen |= ADJACENT[__builtin_ctz(m)] & owned;
    } while (seen != before);
    return mm_popcount(seen);
}

uint32_t mm_tog_owned(const mm_tog_state *s, int seat)
{
    uint32_t m = 0;
    for (int b = 0; b < NB; b++)
        m |= (uint32_t)has_mark(s, b, seat) << b;
    return m;
}

int mm_tog_privilege_pay(uint32_t owned, int k)
{
    int size = mm_tog_group_size(owned, PRIVILEGES[k]);
    return PRIVILEGE_PAY[size < TOG_PRIVILEGE_SIZES ? size : TOG_PRIVILEGE_SIZES - 1];
}

/* state.py scores and tiebreaks */
static void tog_scores(const void *st, int32_t *out)
{
    const state *s = st;
    for (int q = 0; q < s->players; q++) {
        uint32_t mine = mm_tog_owned(s, q);
        int32_t score = s->p[q].ducats + TOG_MARKER_END_VALUE * mm_popcount(mine), goods = 0;
        for (int i = 0; i < DECK_SIZES[D_PRIVILEGE]; i++)
            if (s->cards[DECK_FIRST[D_PRIVILEGE] + i] == q) {
                score += mm_tog_privilege_pay(mine, i);
            }
        for (int g = 0; g < NG; g++)
            goods += s->p[q].goods[g];
        out[2 * q] = score;
        out[2 * q + 1] = goods;
    }
}

/* ------------------------------------------------------------------ playout policy */

/* heuristic.py needed_goods: how many of each good the orders in seat's hand ask for. */
static void needed_goods(const state *s, int seat, int *need)
{
    memset(need, 0, NG * sizeof *need);
    if (s->p[seat].hand[D_LARGE])
        for (int k = 0; k < DECK_SIZES[D_LARGE]; k++)
            if (s->cards[DECK_FIRST[D_LARGE] + k] == seat)
                for (int j = 1; j <= 3; j++)
                    need[LARGE_ORDERS[k][j]]++;
    if (s->p[seat].hand[D_SMALL])
        for (int k = 0; k < DECK_SIZES[D_SMALL]; k++)
            if (s->cards[DECK_FIRST[D_SMALL] + k] == seat)
                need[SMALL_ORDERS[k][0]]++;
}

/* heuristic.py good_value: a good an order in hand still lacks, or another. */
static int good_worth(const player *p, const int *need, int g)
{
    return need[g] > p->goods[g] ? TOG_NEEDED_GOOD_WORTH : TOG_GOOD_WORTH;
}

/* heuristic.py large_order_cost: the worth of the goods cards seat must play to complete
 * large order k (0: he holds its goods; any-good cards first, then trades of goods it does
 * not use), or -1 when his goods and cards cannot complete it. */
static int large_order_cost(const state *s, int seat, int k)
{
    const player *p = &s->p[seat];
    int want[NG] = {0}, missing = 0, spare = 0;
    for (int j = 1; j <= 3; j++)
        want[LARGE_ORDERS[k][j]]++;
    for (int g = 0; g < NG; g++) {
        int lack = want[g] - p->goods[g];
        if (lack > s->supply[g])
            return -1;
        if (lack > 0)
            missing += lack;
        else
            spare -= lack;
    }
    int any = p->specials[S_ANY_GOOD], trades = p->specials[S_TRADE] < spare ? p->specials[S_TRADE] : spare;
    if (missing > any + trades)
        return -1;
    int by_any = missing < any ? missing : any;
    return by_any * SPECIAL_WORTH[S_ANY_GOOD] + (missing - by_any) * SPECIAL_WORTH[S_TRADE];
}

/* heuristic.py villa_card_value: at a villa, what a goods card bringing good get (for give,
 * a trade; -1: an any-good card) is worth to the actor when it goes towards a large order of
 * the villa his cards complete (its pay and reward less the card), or -1 when it does not. */
static int villa_card_value(const state *s, int give, int get)
{
    const player *p = &s->p[s->actor];
    for (const int8_t *i = LARGE_AT[s->site]; *i >= 0; i++) {
        if (s->cards[DECK_FIRST[D_LARGE] + *i] != s->actor || large_order_cost(s, s->actor, *i) < 0)
            continue;
        int want_get = 0, want_give = 0;
        for (int j = 1; j <= 3; j++) {
            want_get += LARGE_ORDERS[*i][j] == get;
            want_give += LARGE_ORDERS[*i][j] == give;
        }
        if (want_get > p->goods[get] && (give < 0 || p->goods[give] > want_give))
            return TOG_LARGE_ORDER_PAY + TOG_REWARD_WORTH - SPECIAL_WORTH[give < 0 ? S_ANY_GOOD : S_TRADE];
    }
    return -1;
}

/* heuristic.py action_value: the ducat value of building b's action to seat. */
static int action_value(const state *s, int seat, int b)
{
    const int8_t *act = BUILDING_ACTION[b];
    const player *p = &s->p[seat];
    int value, need[NG];
    switch (act[0]) {
    case ACT_DRAW: value = CARD_WORTH[act[1]] * act[2]; break;
    case ACT_MARKERS: value = TOG_MARKER_WORTH * (act[1] < p->reserve ? act[1] : p->reserve); break;
    case ACT_VILLA:
        value = CARD_WORTH[D_PRIVILEGE];
        for (const int8_t *i = LARGE_AT[b]; *i >= 0; i++) {
            int cost = s->cards[DECK_FIRST[D_LARGE] + *i] == seat ? large_order_cost(s, seat, *i) : -1;
            if (cost >= 0 && TOG_LARGE_ORDER_PAY + TOG_REWARD_WORTH - cost > value)
                value = TOG_LARGE_ORDER_PAY + TOG_REWARD_WORTH - cost;
        }
        break;
    case ACT_GOODS:
        needed_goods(s, seat, need);
        value = (s->supply[act[1]] > 0 ? good_worth(p, need, act[1]) : 0)
                + (s->supply[act[2]] > 0 ? good_worth(p, need, act[2]) : 0);
        break;
    default: value = s->special_supply[act[1]] ? SPECIAL_WORTH[act[1]] : 0;
    }
    for (const int8_t *i = SMALL_AT[b]; *i >= 0; i++)
        if (s->cards[DECK_FIRST[D_SMALL] + *i] == seat && p->goods[SMALL_ORDERS[*i][0]])
            return value + TOG_SMALL_ORDER_PAY;
    return value;
}

/* heuristic.py item_value and give_cost: what one item of an offer is worth to seat (need:
 * his needed_goods), who receives it or, giving, loses it (a good his orders use up). */
static int item_worth(const state *s, int seat, const int *need, int item, int giving)
{
    if (item < TOG_I_GOOD)
        return OFFER_COINS[item];
    if (item < TOG_I_CARD) {
        int g = item - TOG_I_GOOD;
        return need[g] + giving > s->p[seat].goods[g] ? TOG_NEEDED_GOOD_WORTH : TOG_GOOD_WORTH;
    }
    if (item < TOG_I_SPECIAL)
        return CARD_WORTH[CARD_DECK[item - TOG_I_CARD]];
    return item < TOG_I_MARKER ? SPECIAL_WORTH[item - TOG_I_SPECIAL] : TOG_MARKER_WORTH;
}

/* heuristic.py offer_worth: what seat q's offer (so far) is worth to seat (need: his
 * needed_goods), or costs him when q == seat (give_cost). */
static int offer_worth(const state *s, int q, int seat, const int *need)
{
    int w = s->offer_ducats[q] > 0 ? s->offer_ducats[q] : 0, giving = q == seat;
    for (int g = 0; g < NG; g++)
        w += item_worth(s, seat, need, TOG_I_GOOD + g, giving) * s->offer_goods[q][g];
    for (int c = 0; c < NCARDS; c++)
        if (s->offered_cards[c] && s->cards[c] == q)
            w += CARD_WORTH[CARD_DECK[c]];
    for (int k = 0; k < NK; k++)
        w += SPECIAL_WORTH[k] * s->offer_specials[q][k];
    return w + TOG_MARKER_WORTH * s->offer_markers[q];
}

/* What the action bid for is worth to the mover: the action on offer, or his steering
 * offer's target (heuristic.py bid_site). */
static int site_value(const state *s)
{
    int seat = s->to_move;
    if (s->stage == ST_OFFER || s->stage == ST_DECIDE)
        return action_value(s, seat, s->site);
    if (s->stage == ST_STEER && s->offer_target[seat] >= 0)
        return action_value(s, seat, SQUARE[s->offer_target[seat]]);
    return 0;
}

/* What the owner may expect from hearing steering offers (heuristic.py steering_gain):
 * the most another player who may act would bid for a target (half its worth to him)
 * beyond the target's worth to the owner. */
static int steering_gain(const state *s)
{
    int targets[4], count = steering_targets(s, targets), best = 0;
    for (int i = 0; i < count; i++) {
        int b = SQUARE[targets[i]], mine = may_act(s, s->owner) ? action_value(s, s->owner, b) : 0;
        for (int q = 0; q < s->players; q++)
            if (q != s->owner && may_act(s, q) && action_value(s, q, b) / 2 - mine > best)
                best = action_value(s, q, b) / 2 - mine;
    }
    return best;
}

/* heuristic.py _give_score: the largest coin keeping the bid within half the action's
 * worth, then in 2-player games (an offer needs an item) the item the bidder loses least by
 * (the first of equals); never another item. */
static int give_value(const state *s, int seat, const int *need, int item, int site_value)
{
    uint64_t offered;
    hand_mask(s, seat, &offered);
    int cheapest = -1, cheapest_cost = 0;
    for (int i = 0; s->players == 2 && offer_top(s, seat, offered) < TOG_I_GOOD && i < s->num_legal; i++) {
        int it = s->legal[i] - TOG_A_GIVE;
        if (it < TOG_I_GOOD || it > TOG_I_MARKER)
            continue;
        int cost = item_worth(s, seat, need, it, 1);
        if (cheapest < 0 || cost < cheapest_cost) {
            cheapest = it;
            cheapest_cost = cost;
        }
    }
    int cost = offer_worth(s, seat, seat, need) + item_worth(s, seat, need, item, 1)
               + (item < TOG_I_GOOD && cheapest >= 0 ? cheapest_cost : 0);
    if (2 * cost > site_value || (item >= TOG_I_GOOD && item != cheapest))
        return -1;
    return item < TOG_I_GOOD ? OFFER_COINS[item] : 1;
}

/* The value of move a; site_value: what the action bid for is worth to the mover, need: his
 * needed_goods. */
static int move_value(const state *s, int a, int site_value, const int *need)
{
    int seat = s->to_move;
    const player *p = &s->p[seat];
    if (a == TOG_A_HEAR)
        return steering_gain(s);
    if (a >= TOG_A_STEER) /* a target worth bidding for */
        return action_value(s, seat, SQUARE[a - TOG_A_STEER]) / 2 - TOG_OFFER_STEP;
    if (a >= TOG_A_ACCEPT && a < TOG_A_LARGE && s->stage == ST_HEED) { /* the bid beyond the target's worth */
        int q = a - TOG_A_ACCEPT, b = SQUARE[s->offer_target[q]];
        return offer_worth(s, q, seat, need) - (may_act(s, seat) ? action_value(s, seat, b) : 0);
    }
    if (a >= TOG_A_GIVE && a < TOG_A_ACCEPT)
        return give_value(s, seat, need, a - TOG_A_GIVE, site_value);
    if (a >= TOG_A_ACCEPT && a < TOG_A_LARGE)
        return offer_worth(s, a - TOG_A_ACCEPT, seat, need);
    if (a == TOG_A_TAKE)
        return site_value;
    if (a >= TOG_A_MOVE && a < TOG_A_START) {
        int to = NEIGHBOUR[s->path[s->path_len - 1]][a - TOG_A_MOVE], b = SQUARE[to];
        if (b >= 0)
            return (visited_buildings(s) >> b & 1) ? 0 : 1 + action_value(s, seat, b) / 10;
        return 1;
    }
    if (a == TOG_A_ROLL)
        return 1;
    if (a >= TOG_A_LARGE && a < TOG_A_SPECIAL)
        return TOG_LARGE_ORDER_PAY;
    if (a >= TOG_A_DELIVER && a < TOG_A_PALACE)
        return TOG_SMALL_ORDER_PAY;
    if (a >= TOG_A_SPECIAL && a < TOG_A_GOOD)
        return SPECIAL_WORTH[a - TOG_A_SPECIAL];
    if (a == TOG_A_PRIVILEGE)
        return CARD_WORTH[D_PRIVILEGE];
    if (a >= TOG_A_PALACE && a < TOG_A_BASE)
        return action_value(s, seat, a - TOG_A_PALACE) - TOG_PALACE_WORTH;
    if (a >= TOG_A_BASE && a < TOG_A_MARK)
        return TOG_GOOD_WORTH; /* a base, once chosen, is worth its markers */
    if (a >= TOG_A_OUST)
        return -1;
    if (a >= TOG_A_MARK)
        return TOG_MARKER_END_VALUE;
    if (a >= TOG_A_GOOD && a < TOG_A_TRADE) { /* an any-good card: a good an order lacks */
        int towards = s->stage == ST_VILLA ? villa_card_value(s, -1, a - TOG_A_GOOD) : -1;
        return towards >= 0 ? towards : need[a - TOG_A_GOOD] > p->goods[a - TOG_A_GOOD] ? 3 : -1;
    }
    if (a >= TOG_A_TRADE && a < TOG_A_DELIVER) { /* a trade: for a good an order lacks, of one it does not */
        int give = (a - TOG_A_TRADE) / (NG - 1), get = (a - TOG_A_TRADE) % (NG - 1);
        get += get >= give;
        int towards = s->stage == ST_VILLA ? villa_card_value(s, give, get) : -1;
        if (towards >= 0)
            return towards;
        return need[get] > p->goods[get] && need[give] < p->goods[give] ? 2 : -1;
    }
    return 0;      /* stop, pass, lapse, done */
}

static int32_t start_move(const state *s)
{
    int best = TOG_A_ROLL, best_value = 20, value[NB];
    for (int b = 0; b < NB; b++)
        value[b] = action_value(s, s->to_move, b);
    for (int i = 1; i < s->num_legal; i++) {
        int b = SQUARE[s->legal[i] - TOG_A_START];
        if (b >= 0 && value[b] > best_value) {
            best = s->legal[i];
            best_value = value[b];
        }
    }
    return best;
}

static int32_t tog_rollout_move(const void *st, mm_rng *rng, int policy)
{
    const state *s = st;
    const int16_t *ids = s->legal;
    int n = s->num_legal;
    if (n == 0)
        return -1;
    if (policy != MM_TOG_POLICY_HEURISTIC || mm_rng_below(rng, 10) < EPSILON_TENTHS)
        return ids[mm_rng_below(rng, (uint32_t)n)];
    if (s->stage == ST_START) /* the any-start card: the square of the best action, if worth 20 */
        return start_move(s);
    int value_of_site = site_value(s), need[NG];
    needed_goods(s, s->to_move, need);
    int best = 0, best_value = move_value(s, ids[0], value_of_site, need);
    for (int i = 1; i < n; i++) {
        int value = move_value(s, ids[i], value_of_site, need);
        if (value > best_value) {
            best = i;
            best_value = value;
        }
    }
    return ids[best];
}

/* Move priors: the softmax of the playout policy's move values, a move PRIOR_TEMPERATURE
 * ducats better e times likelier (so an offer's items the policy would not give, and
 * offers over half an action's worth, start unlikely). */
#define PRIOR_TEMPERATURE 10.0

static void tog_move_priors(const void *st, double *out)
{
    const state *s = st;
    int values[MAX_LEGAL], need[NG];
    int value_of_site = site_value(s);
    needed_goods(s, s->to_move, need);
    for (int i = 0; i < s->num_legal; i++)
        values[i] = move_value(s, s->legal[i], value_of_site, need);
    mm_softmax(values, s->num_legal, PRIOR_TEMPERATURE, out);
}

const mm_game mm_traders_of_genoa_game = {
    .name = "traders-of-genoa",
    .layout_version = MM_TOG_V2_VERSION,
    .state_bytes = sizeof(mm_tog_state),
    .vector_len = MM_TOG_V2_LEN,
    .num_actions = TOG_NUM_ACTIONS,
    .max_legal = MAX_LEGAL,
    .decode = tog_decode,
    .encode = tog_encode,
    .num_players = tog_num_players,
    .current_player = tog_current_player,
    .legal_moves = tog_legal_moves,
    .apply = tog_apply,
    .determinize = tog_determinize,
    .observe = tog_observe,
    .scores = tog_scores,
    .rollout_move = tog_rollout_move,
    .eval_features = mm_tog_eval_features, .eval_model = &MM_TOG_EVAL_MODEL,
    .move_priors = tog_move_priors,
};
