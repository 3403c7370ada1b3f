/* meeplemind: the flat C API Python calls through cffi (declared again in cdef/api.h).
 * Games are looked up by id; every entry point checks its arguments. */
#ifndef MM_API_H
#define MM_API_H
#include "mm_game.h"

const mm_game *mm_find_game(const char *name);
/* out[0..5] = layout_version, vector_len, num_actions, max_legal, state_bytes, max_players */
void mm_game_info(const mm_game *g, int64_t *out);
int mm_decode(const mm_game *g, void *state, const int32_t *vec, int32_t len, mm_verdict *verdict);
void mm_encode(const mm_game *g, const void *state, int32_t *vec);
int mm_num_players(const mm_game *g, const void *state);
int mm_current_player(const mm_game *g, const void *state);
int mm_legal_moves(const mm_game *g, const void *state, int32_t *out);
/* Apply after checking legality: 0 on success, -1 if the action is not legal. */
int mm_apply(const mm_game *g, void *state, int32_t action, uint64_t *rng_state);
void mm_determinize(const mm_game *g, void *state, int viewer, uint64_t *rng_state);
/* Mask *state to what seat `viewer` sees (mm_game.observe; a no-op for a game with
 * nothing hidden or a viewer who is not a seat). */
void mm_observe(const mm_game *g, void *state, int viewer);
void mm_scores(const mm_game *g, const void *state, int32_t *out);
/* The game's evaluation of a state (mm_eval.h): each player's expected final score
 * into score[players] and win probability into win[players]; 1, or 0 (nothing written)
 * when the game has no evaluation.  mm_eval_inputs and mm_eval_samples (mm_eval.h) give
 * the features it reads. */
int mm_evaluate(const mm_game *g, const void *state, double *score, double *win);
/* The game's move_priors() of a state (one probability per legal move, in legal_moves
 * order, into out[max_legal]): 1, or 0 (out untouched) when the game has none or is over. */
int mm_move_priors(const mm_game *g, const void *state, double *out);
int32_t mm_rollout_move(const mm_game *g, const void *state, uint64_t *rng_state, int policy);
/* Play `games` playouts from `start` with `policy`; returns total decisions,
 * or -1 if a playout exceeded the safety cap of moves. */
int64_t mm_playouts(const mm_game *g, const void *start, int64_t games, uint64_t seed, int policy);
#endif
