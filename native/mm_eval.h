/* meeplemind: the learned leaf evaluation every game shares (what a truncated ISMCTS
 * playout backs up, see mm_ismcts.h).
 *
 * A game writes one row of features per player (its eval_inputs, from one feature
 * function in its own C file); the model's input for player p is p's row followed by,
 * feature by feature, the largest value among the other players (the strongest rival's
 * summary).  A one-hidden-layer ReLU network, shared by every seat, maps that input to
 * the points p still scores in a heuristic playout from here (its inputs' standardisation
 * folded into the first layer).  Then
 *     score_p = now_p + gain_p
 *     win_p   = softmax_p(score / tau),  tau = max(temperature[0] + temperature[1] * rounds_left, 0.5)
 * where now_p is scores() of the position and rounds_left the game's own count: the
 * estimated scores' spread shrinks as the end nears, so the win probabilities sharpen.
 * The weights come from native/evaluation_<game>.json (fitted by tools/fit_evaluation.py on C
 * self-play, see mm_eval_samples in mm_api.h), written into native/evaluation_<game>.h at
 * build time with a version and shape the game's C file checks.  Nothing here writes global
 * state. */
#ifndef MM_EVAL_H
#define MM_EVAL_H
#include "mm_game.h"

#define MM_EVAL_FEATURES_MAX 32 /* features per player row */
#define MM_EVAL_HIDDEN 32       /* hidden units (a constant: the compiler vectorises them) */
#define MM_EVAL_MIN_TEMPERATURE 0.5

typedef struct mm_eval_model {
    int32_t features;         /* F: a row's length; the network reads 2F inputs */
    const float *w1;          /* [2F * MM_EVAL_HIDDEN], input-major */
    const float *b1;          /* [MM_EVAL_HIDDEN] */
    const float *w2;          /* [MM_EVAL_HIDDEN] */
    float b2;
    double temperature[2];    /* tau = temperature[0] + temperature[1] * rounds_left */
} mm_eval_model;

/* Whether game g has an evaluation (both members set, see mm_game.h). */
static inline int mm_has_evaluation(const mm_game *g) { return g->eval_features && g->eval_model; }

/* The network's inputs of every player of a state (rows of 2F, see above) into
 * out[players * 2F], and its rounds left into *rounds_left; returns 2F, or 0 (out
 * untouched) when the game has no evaluation. */
int32_t mm_eval_inputs(const mm_game *g, const void *state, float *out, double *rounds_left);

/* The evaluation of a game in progress; 0 (out untouched) when the game has none. */
int mm_eval_state(const mm_game *g, const void *state, mm_evaluation *out);

/* Training data (tools/fit_evaluation.py): `games` self-play games by the rollout
 * `policy` from `start` (each determinized first for the player to move, so hidden
 * tiles differ), each decision sampled with probability 1 / `every`, at most `cap`
 * samples.  Sample s writes the network inputs of every seat to
 * inputs[s * MM_MAX_PLAYERS * 2F ...] (rows of 2F, unused seats untouched) and
 * info[s * MM_EVAL_INFO ...]: the rounds left, then per seat (MM_MAX_PLAYERS each,
 * unused seats 0) the score now, the final score and the final win share.  Returns the
 * samples written or an MM_EVAL_ERR_* code. */
#define MM_EVAL_INFO (1 + 3 * MM_MAX_PLAYERS)
#define MM_EVAL_ERR_PARAMS (-1)       /* games or cap negative, every < 1, unknown policy */
#define MM_EVAL_ERR_NONE (-2)         /* the game has no evaluation */
#define MM_EVAL_ERR_PLAYOUT_CAP (-3)  /* a game exceeded MM_PLAYOUT_CAP moves */
int64_t mm_eval_samples(const mm_game *g, const void *start, int64_t games, uint64_t seed, int policy,
                        int32_t every, int64_t cap, float *inputs, double *info);
#endif
