/* meeplemind: the features of Traders of Genoa's learned evaluation (mm_eval.h), one row
 * per player; see mm_traders_of_genoa_eval.h.  The network is
 * native/evaluation_traders_of_genoa.json's, fitted on these rows by tools/fit_evaluation.py
 * (and `meeplemind train traders-of-genoa`); the target is the ducats a player still gains
 * (his final score, privileges and markers included, minus his score now).
 *
 * A row: the score now and its parts (ducats, buildings owned, the largest connected group,
 * what the privileges held pay now and how many do not pay yet), the markers in hand and in
 * the board supply, the goods and how far the orders in hand are from completion (goods
 * held that they use, goods they still lack, large orders ready or one good short, small
 * orders ready), the messages, each kind of special card, the tower turns the player still
 * owns and the actions he may still take this turn, and the game's clock. */
#include "mm_traders_of_genoa_eval.h"
#include "mm_eval.h"
#include "mm_traders_of_genoa.h"
#pragma GCC diagnostic push /* the tables and the network are the engine's; this file reads a few */
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-const-variable"
#include "traders_of_genoa_tables.h"
#include "evaluation_traders_of_genoa.h"
#pragma GCC diagnostic pop

enum {
    F_SCORE, F_DUCATS, F_OWNED, F_GROUP, F_PRIVILEGE_PAY, F_PRIVILEGES, F_PRIVILEGES_UNPAID, F_MARKERS,
    F_RESERVE, F_GOODS, F_GOODS_USED, F_GOODS_LACKING, F_LARGE, F_LARGE_READY, F_LARGE_NEAR, F_SMALL,
    F_SMALL_READY, F_MESSAGES, F_ANY_START, F_TRADE, F_ANY_GOOD, F_BUILDING_ACTION, F_EXTRA_ACTION,
    F_ROUNDS_OWNED, F_OWNER_TURNS, F_ACTIONS_LEFT, F_ROUNDS, F_PLAYERS, TOG_FEATURES
};
#define TOG_EVAL_VERSION 1
_Static_assert(MM_TOG_EVAL_VERSION == TOG_EVAL_VERSION && MM_TOG_EVAL_FEATURES == TOG_FEATURES,
               "native/evaluation_traders_of_genoa.json is for other features: make fit-evaluation");
_Static_assert(TOG_FEATURES <= MM_EVAL_FEATURES_MAX && MM_TOG_EVAL_HIDDEN == MM_EVAL_HIDDEN,
               "the traders-of-genoa model is larger than mm_eval.h allows");
_Static_assert(S_ANY_START == 0 && S_EXTRA_ACTION == MM_TOG_SPECIALS - 1 && F_EXTRA_ACTION - F_ANY_START == S_EXTRA_ACTION,
               "a feature per special card, in the tables' order");

typedef mm_tog_state state;

/* The buildings carrying seat's marker, as a bitmask. */
/* The tower turns still to come, the current one included: the rest of this round, and
 * whole rounds until the marker reaches the end (a market start may have moved it there). */
static int turns_left(const state *s)
{
    if (s->stage == ST_END)
        return 0;
    int rounds = ROUNDS[s->players] - s->round;
    return (rounds > 1 ? rounds : 1) * s->players - (s->owner - s->start_player + s->players) % s->players;
}

static void player_features(const state *s, int i, int turns, float *f)
{
    const mm_tog_player *p = &s->p[i];
    uint32_t mine = mm_tog_owned(s, i);
    int need[MM_TOG_GOODS] = {0}, goods = 0, used = 0, lacking = 0, group = 0;
    int large = 0, ready = 0, near = 0, small = 0, small_ready = 0, messages = 0;
    int privileges = 0, unpaid = 0, pay = 0;
    for (int c = 0; c < MM_TOG_CARDS; c++) {
        if (s->cards[c] != i)
            continue;
        int deck = CARD_DECK[c], k = c - DECK_FIRST[deck];
        if (deck == D_LARGE) {
            int short_of = 0;
            large++;
            for (int j = 1; j <= 3; j++) {
                int g = LARGE_ORDERS[k][j], wanted = 0;
                need[g]++;
                for (int l = 1; l <= j; l++)
                    wanted += LARGE_ORDERS[k][l] == g;
                short_of += p->goods[g] < wanted;
            }
            ready += short_of == 0;
            near += short_of == 1;
        } else if (deck == D_SMALL) {
            small++;
            need[SMALL_ORDERS[k][0]]++;
            small_ready += p->goods[SMALL_ORDERS[k][0]] > 0;
        } else if (deck == D_MESSAGE) {
            messages++;
        } else {
            int paid = mm_tog_privilege_pay(mine, k);
            privileges++;
            unpaid += paid == 0; /* only a privilege of no owned building pays nothing */
            pay += paid;
        }
    }
    for (int g = 0; g < MM_TOG_GOODS; g++) {
        goods += p->goods[g];
        used += p->goods[g] < need[g] ? p->goods[g] : need[g];
        lacking += need[g] > p->goods[g] ? need[g] - p->goods[g] : 0;
    }
    for (int b = 0; b < MM_TOG_BUILDINGS; b++) {
        int size = mm_tog_group_size(mine, b);
        group = size > group ? size : group;
    }
    int first = (i - s->owner + s->players) % s->players; /* turns until i owns the tower */
    int limit = s->players == 2 && i == s->owner ? 1 + (s->p[1 - i].actions > 0) : 1;
    int owned = mm_popcount(mine);
    double rounds = (double)turns / s->players;
    f[F_SCORE] = (float)(p->ducats + TOG_MARKER_END_VALUE * owned + pay);
    f[F_DUCATS] = (float)p->ducats;
    f[F_OWNED] = (float)owned;
    f[F_GROUP] = (float)group;
    f[F_PRIVILEGE_PAY] = (float)pay;
    f[F_PRIVILEGES] = (float)privileges;
    f[F_PRIVILEGES_UNPAID] = (float)unpaid;
    f[F_MARKERS] = p->markers;
    f[F_RESERVE] = p->reserve;
    f[F_GOODS] = (float)goods;
    f[F_GOODS_USED] = (float)used;
    f[F_GOODS_LACKING] = (float)lacking;
    f[F_LARGE] = (float)large;
    f[F_LARGE_READY] = (float)ready;
    f[F_LARGE_NEAR] = (float)near;
    f[F_SMALL] = (float)small;
    f[F_SMALL_READY] = (float)small_ready;
    f[F_MESSAGES] = (float)messages;
    for (int k = 0; k < MM_TOG_SPECIALS; k++)
        f[F_ANY_START + k] = p->specials[k];
    f[F_ROUNDS_OWNED] = (float)(rounds * owned);
    f[F_OWNER_TURNS] = (float)(first < turns ? (turns - first + s->players - 1) / s->players : 0);
    f[F_ACTIONS_LEFT] = (float)(limit > p->actions ? limit - p->actions : 0);
    f[F_ROUNDS] = (float)rounds;
    f[F_PLAYERS] = s->players;
}

double mm_tog_eval_features(const void *st, float *rows)
{
    const state *s = st;
    int turns = turns_left(s);
    for (int i = 0; i < s->players; i++)
        player_features(s, i, turns, rows + i * TOG_FEATURES);
    return (double)turns / s->players;
}
