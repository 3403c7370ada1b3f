/* meeplemind: the one game interface every C engine implements and the search uses.
 *
 * A state is an opaque, fixed-size, plain struct (copied with memcpy, never
 * allocated by the engine).  Moves are integer ids in a fixed per-game action
 * space.  No function here touches global mutable state, so any number of
 * threads may run different states at once. */
#ifndef MM_GAME_H
#define MM_GAME_H
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mm_rng.h"

#define MM_MAX_PLAYERS 5

/* rollout_move policies (Python reads them from here) */
#define MM_POLICY_RANDOM 0
#define MM_POLICY_HEURISTIC 1
#define MM_POLICIES 2
/* Playout moves before a game counts as broken (the search's and mm_playouts'). */
#define MM_PLAYOUT_CAP 100000

/* decode() results */
#define MM_OK 0
#define MM_ERR_LENGTH 1    /* vector length differs from the layout's */
#define MM_ERR_VERSION 2   /* layout version not supported */
#define MM_ERR_RANGE 3     /* a field is out of its range */
#define MM_ERR_INVARIANT 4 /* fields in range but inconsistent (conservation, phase) */

/* Why decode() rejected a vector, written by the decoder into the caller's struct:
 * the vector index it names (-1: the vector as a whole) and the rule's words. */
#define MM_WHY_LEN 200
typedef struct mm_verdict {
    int32_t field;
    char why[MM_WHY_LEN];
} mm_verdict;

/* Record a rejection at `field` in printf-style words; returns `field`, so a check
 * reads `return mm_reject(out, index, "...", ...);`. */
__attribute__((format(printf, 3, 4)))
static inline int32_t mm_reject(mm_verdict *out, int32_t field, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(out->why, sizeof out->why, fmt, args);
    va_end(args);
    out->field = field;
    return field;
}

typedef struct mm_game {
    const char *name;
    int32_t layout_version; /* state vector layout, checked on decode */
    size_t state_bytes;     /* sizeof the engine's state struct */
    int32_t vector_len;     /* int32 entries in the encoded state vector (the longest layout) */
    int32_t num_actions;    /* size of the action space */
    int32_t max_legal;      /* upper bound on legal moves in any state */
    /* Decode and validate a state vector into *state: the one validator of
     * positions.  Returns MM_OK or an MM_ERR_* code with *verdict naming the
     * offending vector index and the rule broken. */
    int (*decode)(void *state, const int32_t *vec, int32_t len, mm_verdict *verdict);
    /* Encode *state into vec[mm_encoded_len(game, state)]. */
    void (*encode)(const void *state, int32_t *vec);
    int (*num_players)(const void *state);
    /* Player to move, or -1 when the game is over. */
    int (*current_player)(const void *state);
    /* Write the legal action ids in ascending order into out[max_legal];
     * return their count (0 only when the game is over). */
    int (*legal_moves)(const void *state, int32_t *out);
    /* Apply a legal action; chance (draws, shuffles, dice) comes from rng. */
    void (*apply)(void *state, int32_t action, mm_rng *rng);
    /* Fill in everything the viewer cannot see, at random, consistently with
     * what the viewer sees, and reseed the state's own chance if it has any. */
    void (*determinize)(void *state, int viewer, mm_rng *rng);
    /* Optional: mask *state to what `viewer` sees (docs/positions.md): everything the
     * viewer cannot see becomes unknown, as the game's observation has it.  determinize
     * starts from the same mask, so nothing hidden from the viewer reaches a sample.
     * NULL: the game's states hold nothing hidden. */
    void (*observe)(void *state, int viewer);
    /* Final scores (with the tie-break as a second column): out[2*p], out[2*p+1]. */
    void (*scores)(const void *state, int32_t *out);
    /* A playout move chosen by policy (MM_POLICY_RANDOM or MM_POLICY_HEURISTIC). */
    int32_t (*rollout_move)(const void *state, mm_rng *rng, int policy);
    /* Optional, for an engine that reads several layouts (decode tells them apart):
     * the entries encode writes for this state, in the layout it was decoded from.
     * Such an engine reports its longest layout as layout_version / vector_len and
     * its largest action space as num_actions.  NULL: always vector_len. */
    int32_t (*encoded_len)(const void *state);
    /* Optional, both or neither: the learned evaluation of a game in progress (what a
     * truncated playout backs up, mm_eval.h).  eval_features writes one row of
     * eval_model->features values per player into rows and returns the rounds left;
     * eval_model is the game's network (generated from native/evaluation_<game>.json).
     * NULL: playouts always run to the end. */
    double (*eval_features)(const void *state, float *rows);
    const struct mm_eval_model *eval_model;
    /* Optional: the prior probability of each legal move (a search's move prior), in the
     * order legal_moves writes them, into out[max_legal]; they sum to 1.  An engine derives
     * them from the move values of its heuristic rollout policy (mm_softmax).  NULL: the
     * search takes every move as equally likely. */
    void (*move_priors)(const void *state, double *out);
} mm_game;

/* An evaluation (mm_eval.h): each player's expected final score and win probability. */
typedef struct mm_evaluation {
    double score[MM_MAX_PLAYERS];
    double win[MM_MAX_PLAYERS];
} mm_evaluation;

/* The length of the state vector encode writes for *state (also a flat API
 * function: declared in cdef/api.h). */
static inline int32_t mm_encoded_len(const mm_game *g, const void *state)
{
    return g->encoded_len ? g->encoded_len(state) : g->vector_len;
}

/* The index of the first of the n >= 1 highest values: a heuristic policy's move. */
static inline int mm_first_max(const int *values, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (values[i] > values[best])
            best = i;
    return best;
}

/* The softmax of n move values at `temperature` (in value units: a move `temperature`
 * better is e times likelier) into out[n], summing to 1: what an engine's move_priors
 * makes of its heuristic's values. */
static inline void mm_softmax(const int *values, int n, double temperature, double *out)
{
    int top = values[0];
    for (int i = 1; i < n; i++)
        top = values[i] > top ? values[i] : top;
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += out[i] = exp((values[i] - top) / temperature);
    for (int i = 0; i < n; i++)
        out[i] /= sum;
}

/* Share of the win per player: 1 for a sole winner, split evenly on a tie
 * after the tie-break.  scores as written by mm_game.scores. */
static inline void mm_win_shares(int n, const int32_t *scores, double *out)
{
    int32_t best = INT32_MIN, best_tb = INT32_MIN;
    int winners = 0;
    for (int p = 0; p < n; p++) {
        int32_t s = scores[2 * p], tb = scores[2 * p + 1];
        if (s > best || (s == best && tb > best_tb)) { best = s; best_tb = tb; }
    }
    for (int p = 0; p < n; p++)
        winners += scores[2 * p] == best && scores[2 * p + 1] == best_tb;
    for (int p = 0; p < n; p++)
        out[p] = (scores[2 * p] == best && scores[2 * p + 1] == best_tb) ? 1.0 / winners : 0.0;
}
#endif
