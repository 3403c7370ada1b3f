/* meeplemind: the learned leaf evaluation; see mm_eval.h. */
#include <math.h>
#include <string.h>
#include "mm_eval.h"

/* The network's inputs of every player from the feature rows (rows[p * F + k]). */
static void assemble(const mm_eval_model *m, int players, const float *rows, float *inputs)
{
    int f = m->features;
    for (int p = 0; p < players; p++) {
        float *in = inputs + (size_t)p * 2 * f;
        memcpy(in, rows + (size_t)p * f, (size_t)f * sizeof *in);
        for (int k = 0; k < f; k++) {
            float best = players > 1 ? -INFINITY : 0.0f;
            for (int q = 0; q < players; q++)
                if (q != p && rows[q * f + k] > best)
                    best = rows[q * f + k];
            in[f + k] = best;
        }
    }
}

/* The network's output for one input vector: the points still to come.  The hidden
 * layer's width is a constant, so the compiler vectorises its loops. */
static double forward(const mm_eval_model *m, const float *in)
{
    float h[MM_EVAL_HIDDEN];
    memcpy(h, m->b1, sizeof h);
    for (int i = 0; i < 2 * m->features; i++) {
        const float *w = m->w1 + (size_t)i * MM_EVAL_HIDDEN;
        float x = in[i];
        for (int j = 0; j < MM_EVAL_HIDDEN; j++)
            h[j] += x * w[j];
    }
    float out = m->b2;
    for (int j = 0; j < MM_EVAL_HIDDEN; j++)
        out += (h[j] > 0 ? h[j] : 0.0f) * m->w2[j];
    return out;
}

int32_t mm_eval_inputs(const mm_game *g, const void *state, float *out, double *rounds_left)
{
    if (!mm_has_evaluation(g))
        return 0;
    float rows[MM_MAX_PLAYERS * MM_EVAL_FEATURES_MAX];
    *rounds_left = g->eval_features(state, rows);
    assemble(g->eval_model, g->num_players(state), rows, out);
    return 2 * g->eval_model->features;
}

int mm_eval_state(const mm_game *g, const void *state, mm_evaluation *out)
{
    return mm_eval_state_by(g, NULL, state, out);
}

int mm_eval_model_fits(const mm_game *g, const mm_eval_model *m)
{
    return mm_has_evaluation(g) && m && m->w1 && m->b1 && m->w2 && m->features == g->eval_model->features
        && isfinite(m->b2) && isfinite(m->temperature[0]) && isfinite(m->temperature[1])
        && m->temperature[1] >= 0 && isfinite(m->prior_exponent) && m->prior_exponent > 0;
}

int mm_eval_state_by(const mm_game *g, const mm_eval_model *m, const void *state, mm_evaluation *out)
{
    if (!m)
        m = g->eval_model;
    float inputs[MM_MAX_PLAYERS * 2 * MM_EVAL_FEATURES_MAX];
    double rounds_left;
    if (!mm_eval_inputs(g, state, inputs, &rounds_left))
        return 0;
    int32_t now[2 * MM_MAX_PLAYERS];
    g->scores(state, now);
    int players = g->num_players(state);
    double tau = fmax(m->temperature[0] + m->temperature[1] * rounds_left, MM_EVAL_MIN_TEMPERATURE);
    double top = -INFINITY, total = 0;
    for (int p = 0; p < players; p++) {
        out->score[p] = now[2 * p] + forward(m, inputs + (size_t)p * 2 * m->features);
        top = fmax(top, out->score[p]);
    }
    for (int p = 0; p < players; p++)
        total += out->win[p] = exp((out->score[p] - top) / tau);
    for (int p = 0; p < players; p++)
        out->win[p] /= total;
    return 1;
}

int64_t mm_eval_samples(const mm_game *g, const void *start, int64_t games, uint64_t seed, int policy,
                        int32_t every, int64_t cap, float *inputs, double *info)
{
    if (games < 0 || every < 1 || cap < 0 || policy < 0 || policy >= MM_POLICIES)
        return MM_EVAL_ERR_PARAMS;
    if (!mm_has_evaluation(g))
        return MM_EVAL_ERR_NONE;
    int32_t width = MM_MAX_PLAYERS * 2 * g->eval_model->features, scores[2 * MM_MAX_PLAYERS];
    unsigned char buf[g->state_bytes];
    mm_rng rng = {seed};
    int64_t written = 0;
    for (int64_t i = 0; i < games && written < cap; i++) {
        memcpy(buf, start, g->state_bytes);
        int player = g->current_player(buf);
        if (player >= 0)
            g->determinize(buf, player, &rng);
        int64_t first = written;
        for (int steps = 0; (player = g->current_player(buf)) >= 0; steps++) {
            if (steps == MM_PLAYOUT_CAP)
                return MM_EVAL_ERR_PLAYOUT_CAP;
            if (written < cap && mm_rng_below(&rng, (uint32_t)every) == 0) {
                double *row = info + written * MM_EVAL_INFO;
                mm_eval_inputs(g, buf, inputs + written * width, &row[0]);
                g->scores(buf, scores);
                for (int p = 0; p < MM_MAX_PLAYERS; p++)
                    row[1 + p] = p < g->num_players(buf) ? scores[2 * p] : 0;
                written++;
            }
            g->apply(buf, g->rollout_move(buf, &rng, policy), &rng);
        }
        int players = g->num_players(buf);
        double share[MM_MAX_PLAYERS] = {0};
        g->scores(buf, scores);
        mm_win_shares(players, scores, share);
        for (int64_t s = first; s < written; s++)
            for (int p = 0; p < MM_MAX_PLAYERS; p++) {
                info[s * MM_EVAL_INFO + 1 + MM_MAX_PLAYERS + p] = p < players ? scores[2 * p] : 0;
                info[s * MM_EVAL_INFO + 1 + 2 * MM_MAX_PLAYERS + p] = share[p];
            }
    }
    return written;
}
