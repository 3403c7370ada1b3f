/* meeplemind: the flat C API behind cffi; see mm_api.h. */
#include <string.h>
#include "mm_api.h"
#include "mm_eval.h"
#include "schema_games.h"

static const mm_game *const GAMES[] = {MM_GAMES}; /* every engine/<game>/schema.py's C_GAME */

const mm_game *mm_find_game(const char *name)
{
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++)
        if (strcmp(GAMES[i]->name, name) == 0)
            return GAMES[i];
    return NULL;
}

void mm_game_info(const mm_game *g, int64_t *out)
{
    out[0] = g->layout_version;
    out[1] = g->vector_len;
    out[2] = g->num_actions;
    out[3] = g->max_legal;
    out[4] = (int64_t)g->state_bytes;
    out[5] = MM_MAX_PLAYERS;
}

int mm_decode(const mm_game *g, void *state, const int32_t *vec, int32_t len, mm_verdict *verdict)
{
    verdict->field = -1;
    verdict->why[0] = '\0';
    return g->decode(state, vec, len, verdict);
}

void mm_encode(const mm_game *g, const void *state, int32_t *vec) { g->encode(state, vec); }

int mm_num_players(const mm_game *g, const void *state) { return g->num_players(state); }

int mm_current_player(const mm_game *g, const void *state) { return g->current_player(state); }

int mm_legal_moves(const mm_game *g, const void *state, int32_t *out) { return g->legal_moves(state, out); }

int mm_apply(const mm_game *g, void *state, int32_t action, uint64_t *rng_state)
{
    int32_t moves[g->max_legal];
    int n = g->legal_moves(state, moves);
    int found = 0;
    for (int i = 0; i < n && !found; i++)
        found = moves[i] == action;
    if (!found)
        return -1;
    mm_rng rng = {*rng_state};
    g->apply(state, action, &rng);
    *rng_state = rng.s;
    return 0;
}

void mm_determinize(const mm_game *g, void *state, int viewer, uint64_t *rng_state)
{
    mm_rng rng = {*rng_state};
    g->determinize(state, viewer, &rng);
    *rng_state = rng.s;
}

void mm_observe(const mm_game *g, void *state, int viewer)
{
    if (g->observe && viewer >= 0 && viewer < g->num_players(state))
        g->observe(state, viewer);
}

void mm_scores(const mm_game *g, const void *state, int32_t *out) { g->scores(state, out); }

int mm_evaluate(const mm_game *g, const void *state, double *score, double *win)
{
    mm_evaluation e;
    if (!mm_eval_state(g, state, &e))
        return 0;
    int players = g->num_players(state);
    memcpy(score, e.score, (size_t)players * sizeof *score);
    memcpy(win, e.win, (size_t)players * sizeof *win);
    return 1;
}

int mm_move_priors(const mm_game *g, const void *state, double *out)
{
    if (!g->move_priors || g->current_player(state) < 0)
        return 0;
    g->move_priors(state, out);
    return 1;
}

int32_t mm_rollout_move(const mm_game *g, const void *state, uint64_t *rng_state, int policy)
{
    mm_rng rng = {*rng_state};
    int32_t a = g->rollout_move(state, &rng, policy);
    *rng_state = rng.s;
    return a;
}

int64_t mm_playouts(const mm_game *g, const void *start, int64_t games, uint64_t seed, int policy)
{
    unsigned char buf[g->state_bytes];
    mm_rng rng = {seed};
    int64_t decisions = 0;
    for (int64_t i = 0; i < games; i++) {
        memcpy(buf, start, g->state_bytes);
        int steps = 0;
        while (g->current_player(buf) >= 0) {
            if (++steps > MM_PLAYOUT_CAP)
                return -1;
            g->apply(buf, g->rollout_move(buf, &rng, policy), &rng);
        }
        decisions += steps;
    }
    return decisions;
}
