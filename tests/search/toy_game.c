/* A toy hidden-information game for the ISMCTS tests: Nim with hidden cards.
 *
 * 2-3 players share a pile of tokens.  In turn each player takes 1..max_take
 * tokens (action k-1 takes k) or, once per game, discards their hidden card and
 * draws the top card of the face-down deck (action TOY_DRAW).  Whoever takes the
 * last token scores 10; everyone adds the value of their card (0..9), so taking
 * the last token always wins.  A viewer sees the pile, the counts and their own
 * card; the other hands and the deck are hidden.
 *
 * State vector (TOY_VECTOR_LEN int32): version, players, to_move, pile,
 * max_take, last_taker, hand[3], drew[3], deck_len, deck[10] (top last);
 * entries of absent players and beyond deck_len are -1 (drew: 0). */
#include "mm_eval.h"

#define TOY_VERSION 1
#define TOY_CARDS 10
#define TOY_PLAYERS 3
#define TOY_MAX_TAKE 8
#define TOY_MAX_PILE 60
#define TOY_DRAW TOY_MAX_TAKE
#define TOY_VECTOR_LEN 23

typedef struct toy {
    int32_t players, to_move, pile, max_take, last_taker;
    int32_t hand[TOY_PLAYERS];
    int32_t drew[TOY_PLAYERS];
    int32_t deck_len;
    int32_t deck[TOY_CARDS];
} toy;

enum { F_VERSION, F_PLAYERS, F_TO_MOVE, F_PILE, F_MAX_TAKE, F_LAST, F_HAND, F_DREW = F_HAND + 3,
       F_DECK_LEN = F_DREW + 3, F_DECK };

static int in_range(int32_t v, int32_t lo, int32_t hi) { return v >= lo && v <= hi; }

/* The first index in [from, to) whose value breaks lo..hi, or -1. */
static int32_t out_of_range(const int32_t *vec, int32_t from, int32_t to, int32_t lo, int32_t hi)
{
    for (int32_t i = from; i < to; i++)
        if (!in_range(vec[i], lo, hi))
            return i;
    return -1;
}

static int32_t check_ranges(const int32_t *vec)
{
    int32_t n = vec[F_PLAYERS], bad;
    if (!in_range(n, 2, TOY_PLAYERS))
        return F_PLAYERS;
    if (!in_range(vec[F_TO_MOVE], -1, n - 1)) return F_TO_MOVE;
    if (!in_range(vec[F_PILE], 0, TOY_MAX_PILE)) return F_PILE;
    if (!in_range(vec[F_MAX_TAKE], 1, TOY_MAX_TAKE)) return F_MAX_TAKE;
    if (!in_range(vec[F_LAST], -1, n - 1)) return F_LAST;
    if ((bad = out_of_range(vec, F_HAND, F_HAND + n, 0, TOY_CARDS - 1)) >= 0) return bad;
    if ((bad = out_of_range(vec, F_HAND + n, F_DREW, -1, -1)) >= 0) return bad;
    if ((bad = out_of_range(vec, F_DREW, F_DREW + n, 0, 1)) >= 0) return bad;
    if ((bad = out_of_range(vec, F_DREW + n, F_DECK_LEN, 0, 0)) >= 0) return bad;
    if (!in_range(vec[F_DECK_LEN], 0, TOY_CARDS - n)) return F_DECK_LEN;
    int32_t deck_end = F_DECK + vec[F_DECK_LEN];
    if ((bad = out_of_range(vec, F_DECK, deck_end, 0, TOY_CARDS - 1)) >= 0) return bad;
    return out_of_range(vec, deck_end, TOY_VECTOR_LEN, -1, -1);
}

/* The first field breaking an invariant (cards distinct, end iff empty pile), or -1. */
static int32_t check_invariants(const int32_t *vec)
{
    int seen[TOY_CARDS] = {0};
    for (int32_t i = F_HAND; i < TOY_VECTOR_LEN; i++) {
        int in_deck = i >= F_DECK, in_hand = i < F_DREW;
        if ((in_deck || in_hand) && vec[i] >= 0 && seen[vec[i]]++)
            return i;
    }
    int over = vec[F_PILE] == 0;
    if (over != (vec[F_TO_MOVE] < 0)) return F_TO_MOVE;
    if (over != (vec[F_LAST] >= 0)) return F_LAST;
    return -1;
}

static int toy_decode(void *state, const int32_t *vec, int32_t len, mm_verdict *verdict)
{
    int32_t bad;
    if (len != TOY_VECTOR_LEN) { mm_reject(verdict, -1, "wrong length"); return MM_ERR_LENGTH; }
    if (vec[F_VERSION] != TOY_VERSION) { mm_reject(verdict, F_VERSION, "wrong version"); return MM_ERR_VERSION; }
    if ((bad = check_ranges(vec)) >= 0) { mm_reject(verdict, bad, "out of range"); return MM_ERR_RANGE; }
    if ((bad = check_invariants(vec)) >= 0) { mm_reject(verdict, bad, "inconsistent"); return MM_ERR_INVARIANT; }
    toy *t = state;
    t->players = vec[F_PLAYERS];
    t->to_move = vec[F_TO_MOVE];
    t->pile = vec[F_PILE];
    t->max_take = vec[F_MAX_TAKE];
    t->last_taker = vec[F_LAST];
    for (int p = 0; p < TOY_PLAYERS; p++) {
        t->hand[p] = vec[F_HAND + p];
        t->drew[p] = vec[F_DREW + p];
    }
    t->deck_len = vec[F_DECK_LEN];
    for (int i = 0; i < TOY_CARDS; i++)
        t->deck[i] = vec[F_DECK + i];
    return MM_OK;
}

static void toy_encode(const void *state, int32_t *vec)
{
    const toy *t = state;
    int32_t head[] = {TOY_VERSION, t->players, t->to_move, t->pile, t->max_take, t->last_taker};
    for (int i = 0; i < F_HAND; i++) vec[i] = head[i];
    for (int p = 0; p < TOY_PLAYERS; p++) {
        vec[F_HAND + p] = t->hand[p];
        vec[F_DREW + p] = t->drew[p];
    }
    vec[F_DECK_LEN] = t->deck_len;
    for (int i = 0; i < TOY_CARDS; i++) vec[F_DECK + i] = t->deck[i];
}

static int toy_num_players(const void *state) { return ((const toy *)state)->players; }

static int toy_current_player(const void *state) { return ((const toy *)state)->to_move; }

static int toy_legal_moves(const void *state, int32_t *out)
{
    const toy *t = state;
    int n = 0;
    if (t->to_move < 0) return 0;
    for (int k = 1; k <= t->max_take && k <= t->pile; k++) out[n++] = k - 1;
    if (!t->drew[t->to_move] && t->deck_len > 0) out[n++] = TOY_DRAW;
    return n;
}

static void toy_apply(void *state, int32_t action, mm_rng *rng)
{
    toy *t = state;
    int p = t->to_move;
    if (action == TOY_DRAW) {
        t->hand[p] = t->deck[--t->deck_len];
        t->deck[t->deck_len] = -1;
        t->drew[p] = 1;
    } else if ((t->pile -= action + 1) == 0) {
        t->last_taker = p;
        t->to_move = -1;
        return;
    }
    t->to_move = (p + 1) % t->players;
}

/* Deal the cards the viewer cannot see (other hands and the deck) anew.  The
 * pool is taken in card order, so the result depends only on what the viewer sees. */
static void toy_determinize(void *state, int viewer, mm_rng *rng)
{
    toy *t = state;
    int hidden[TOY_CARDS] = {0}, pool[TOY_CARDS], n = 0;
    for (int p = 0; p < t->players; p++)
        if (p != viewer) hidden[t->hand[p]] = 1;
    for (int i = 0; i < t->deck_len; i++) hidden[t->deck[i]] = 1;
    for (int c = 0; c < TOY_CARDS; c++)
        if (hidden[c]) pool[n++] = c;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mm_rng_below(rng, (uint32_t)i + 1), c = pool[i];
        pool[i] = pool[j];
        pool[j] = c;
    }
    for (int p = 0; p < t->players; p++)
        if (p != viewer) t->hand[p] = pool[--n];
    for (int i = 0; i < t->deck_len; i++) t->deck[i] = pool[i];
}

static void toy_scores(const void *state, int32_t *out)
{
    const toy *t = state;
    for (int p = 0; p < t->players; p++) {
        out[2 * p] = t->hand[p] + (p == t->last_taker ? 10 : 0);
        out[2 * p + 1] = 0;
    }
}

/* Policy 0: uniform.  Policy 1: epsilon-greedy Nim (leave a multiple of
 * max_take + 1), drawing on a low card when no winning take exists. */
static int32_t toy_rollout_move(const void *state, mm_rng *rng, int policy)
{
    const toy *t = state;
    int32_t legal[TOY_MAX_TAKE + 1];
    int n = toy_legal_moves(state, legal);
    if (policy == 0 || mm_rng_below(rng, 10) == 0)
        return legal[mm_rng_below(rng, (uint32_t)n)];
    int take = t->pile % (t->max_take + 1);
    if (take > 0) return take - 1;
    if (legal[n - 1] == TOY_DRAW && t->hand[t->to_move] < 5) return TOY_DRAW;
    return 0;
}

/* A broken engine for the playout-cap test: every move just passes the turn. */
static void endless_apply(void *state, int32_t action, mm_rng *rng)
{
    toy *t = state;
    t->to_move = (t->to_move + 1) % t->players;
}

/* A broken engine for the contract test: legal moves in descending order. */
static int unsorted_legal_moves(const void *state, int32_t *out)
{
    int n = toy_legal_moves(state, out);
    for (int i = 0; i < n / 2; i++) {
        int32_t a = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = a;
    }
    return n;
}

/* The endless game's evaluation (mm_eval.h): a network of zeros, so the expected
 * scores are its scores now. */
static double toy_eval_features(const void *state, float *rows)
{
    const toy *t = state;
    for (int p = 0; p < t->players; p++)
        rows[p] = (float)t->hand[p];
    return 1.0;
}

static const float TOY_ZEROS[2 * MM_EVAL_HIDDEN] = {0};
static const mm_eval_model TOY_EVAL_MODEL = {1, TOY_ZEROS, TOY_ZEROS, TOY_ZEROS, 0.0f, {1.0, 0.0}, 1.0};

#define TOY_VTABLE(NAME, LEGAL, APPLY, FEATURES, MODEL)                                                \
    {                                                                                    \
        .name = NAME, .layout_version = TOY_VERSION, .state_bytes = sizeof(toy),         \
        .vector_len = TOY_VECTOR_LEN, .num_actions = TOY_MAX_TAKE + 1,                   \
        .max_legal = TOY_MAX_TAKE + 1, .decode = toy_decode, .encode = toy_encode,       \
        .num_players = toy_num_players, .current_player = toy_current_player,            \
        .legal_moves = LEGAL, .apply = APPLY, .determinize = toy_determinize,            \
        .scores = toy_scores, .rollout_move = toy_rollout_move,                         \
        .eval_features = FEATURES, .eval_model = MODEL,                                  \
    }

/* The toy has no evaluation (its playouts always run out); the endless game has one,
 * its scores now, so a truncated playout ends where a full one never would. */
static const mm_game TOY_GAME = TOY_VTABLE("toy", toy_legal_moves, toy_apply, NULL, NULL);
static const mm_game ENDLESS_GAME = TOY_VTABLE("toy-endless", toy_legal_moves, endless_apply, toy_eval_features,
                                               &TOY_EVAL_MODEL);
static const mm_game UNSORTED_GAME = TOY_VTABLE("toy-unsorted", unsorted_legal_moves, toy_apply, NULL, NULL);

const mm_game *toy_game(void) { return &TOY_GAME; }

const mm_game *toy_endless_game(void) { return &ENDLESS_GAME; }

const mm_game *toy_unsorted_game(void) { return &UNSORTED_GAME; }
