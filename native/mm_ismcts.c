/* meeplemind: single-observer ISMCTS; see mm_ismcts.h. */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mm_eval.h"
#include "mm_ismcts.h"

/* A tree node: the move that leads to it and the statistics of that move.
 * Children form a first-child / next-sibling list of pool indices. */
typedef struct node {
    int32_t action;       /* -1 at the root */
    int32_t mover;        /* player who made the move; the root player at the root */
    int32_t parent;       /* -1 at the root */
    int32_t first_child;  /* -1 when none */
    int32_t next_sibling; /* -1 when last */
    int64_t visits;
    int64_t avail;        /* visits of the parent in which the move was legal */
    double reward;        /* sum of the mover's rewards (what UCB1 maximises) */
    double share;         /* sum of the mover's win shares (what is reported) */
    double prior;         /* the move's prior probability when it was expanded */
    int64_t score[MM_MAX_PLAYERS]; /* sums of final scores */
} node;

typedef struct search {
    const mm_game *g;
    const mm_ismcts_params *params;
    const mm_eval_model *model; /* params->weights, else the game's (NULL: none) */
    node *pool;
    int32_t used, cap;
    unsigned char *root;  /* decoded root state */
    unsigned char *state; /* this iteration's determinization */
    int32_t *legal;       /* [max_legal] */
    double *priors;       /* [max_legal] the game's move priors of s->legal, or NULL: no priors */
    uint64_t *mark;       /* [num_actions] stamp: legal (stamp) or legal with a child (stamp + 1) */
    uint64_t stamp;
    double *mast_reward;  /* [players * num_actions] MAST sums of the mover's rewards, or NULL */
    int64_t *mast_count;  /* [players * num_actions], or NULL */
    int32_t *trail;       /* [MM_ISMCTS_TRAIL_MAX] this iteration's moves: mover * num_actions + action */
    int32_t trail_len;
    mm_rng rng;
    int root_player, players, viewer;
} search;

int32_t mm_ismcts_rows(const mm_game *g) { return g->num_actions; }

static double clock_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

/* CPU time of the calling thread: the search runs on one thread from start to end. */
static double cpu_now_ms(void) { return clock_ms(CLOCK_THREAD_CPUTIME_ID); }

static int valid_params(const mm_ismcts_params *p)
{
    return p->max_iterations >= 0 && p->max_ms >= 0 && isfinite(p->max_ms)
        && p->max_cpu_ms >= 0 && isfinite(p->max_cpu_ms)
        && p->max_nodes >= 2 && p->max_nodes <= INT32_MAX
        && p->exploration >= 0 && isfinite(p->exploration)
        && p->margin_weight >= 0 && p->margin_weight <= 1
        && p->margin_scale > 0 && isfinite(p->margin_scale)
        && p->rollout_policy >= 0 && p->rollout_policy < MM_POLICIES && p->pv_max >= 1 && p->pv_max <= MM_ISMCTS_PV_MAX
        && p->snapshot_ms >= 0 && isfinite(p->snapshot_ms)
        && p->mast >= 0 && p->mast < 1 && p->playout_moves >= 0
        && (p->guided_expansion == 0 || p->guided_expansion == 1)
        && p->prior_weight >= 0 && isfinite(p->prior_weight)
        && p->widening >= 0 && isfinite(p->widening) && p->viewer >= -1;
}

static int valid_stats(const mm_ismcts_root_stats *s)
{
    return s->action && s->visits && s->avail && s->reward && s->score && s->pv && s->pv_len && s->pv_player;
}

static void release(search *s)
{
    free(s->pool);
    free(s->root);
    free(s->state);
    free(s->legal);
    free(s->priors);
    free(s->mark);
    free(s->mast_reward);
    free(s->mast_count);
    free(s->trail);
}

static int allocate(search *s)
{
    const mm_game *g = s->g;
    s->pool = malloc((size_t)s->cap * sizeof(node));
    s->root = malloc(g->state_bytes);
    s->state = malloc(g->state_bytes);
    s->legal = malloc((size_t)g->max_legal * sizeof(int32_t));
    s->mark = calloc((size_t)g->num_actions, sizeof(uint64_t));
    if (g->move_priors && (s->params->prior_weight > 0 || s->params->widening > 0)) {
        s->priors = malloc((size_t)g->max_legal * sizeof(double));
        if (!s->priors)
            return 0;
    }
    if (s->params->mast > 0) {
        size_t cells = (size_t)MM_MAX_PLAYERS * (size_t)g->num_actions;
        s->mast_reward = calloc(cells, sizeof(double));
        s->mast_count = calloc(cells, sizeof(int64_t));
        s->trail = malloc(MM_ISMCTS_TRAIL_MAX * sizeof(int32_t));
        if (!s->mast_reward || !s->mast_count || !s->trail)
            return 0;
    }
    return s->pool && s->root && s->state && s->legal && s->mark;
}

/* Apply `action` by `player` to this iteration's state, noting it for MAST. */
static void play(search *s, int player, int32_t action)
{
    if (s->trail && s->trail_len < MM_ISMCTS_TRAIL_MAX)
        s->trail[s->trail_len++] = player * s->g->num_actions + action;
    s->g->apply(s->state, action, &s->rng);
}

/* The legal move with the best MAST mean for `player`, ties broken at random;
 * -1 if the engine gives no legal move or one outside its action space. */
static int32_t mast_move(search *s, int player)
{
    int n = s->g->legal_moves(s->state, s->legal);
    const double *reward = s->mast_reward + (size_t)player * s->g->num_actions;
    const int64_t *count = s->mast_count + (size_t)player * s->g->num_actions;
    int32_t best = -1;
    double best_mean = -1.0;
    uint32_t equals = 0;
    for (int i = 0; i < n; i++) {
        int32_t a = s->legal[i];
        if (a < 0 || a >= s->g->num_actions)
            return -1;
        double mean = (reward[a] + 0.5) / (double)(count[a] + 1);
        if (mean > best_mean) {
            best_mean = mean;
            best = a;
            equals = 1;
        } else if (mean == best_mean && mm_rng_below(&s->rng, ++equals) == 0) {
            best = a;
        }
    }
    return best;
}

static int32_t new_node(search *s, int32_t parent, int32_t action, int mover, double prior)
{
    int32_t i = s->used++;
    node *n = &s->pool[i];
    memset(n, 0, sizeof *n);
    n->action = action;
    n->mover = mover;
    n->parent = parent;
    n->first_child = -1;
    n->next_sibling = -1;
    n->prior = prior;
    if (parent >= 0) {
        n->avail = 1; /* legal in the iteration that creates it */
        n->next_sibling = s->pool[parent].first_child;
        s->pool[parent].first_child = i;
    }
    return i;
}

/* Stamp the n legal moves in s->legal, count one availability for each legal
 * child of `at`, and return how many legal moves have no child yet (-1 if the
 * engine broke its contract: ids out of the action space or not ascending). */
static int mark_legal(search *s, int32_t at, int n)
{
    uint64_t legal = s->stamp += 2;
    for (int i = 0; i < n; i++) {
        int32_t a = s->legal[i];
        if (a < 0 || a >= s->g->num_actions || (i > 0 && a <= s->legal[i - 1]))
            return -1;
        s->mark[a] = legal;
    }
    int tried = 0;
    for (int32_t c = s->pool[at].first_child; c >= 0; c = s->pool[c].next_sibling) {
        node *child = &s->pool[c];
        if (s->mark[child->action] == legal) {
            s->mark[child->action] = legal + 1;
            child->avail++;
            tried++;
        }
    }
    return n - tried;
}

/* Index in s->legal of a legal move without a child (there are `untried` of the n):
 * with move priors the likeliest (the first on a tie), with guided expansion the rollout
 * policy's choice when it has none yet, else one uniformly at random.  *prior is its
 * prior probability (1/n without priors). */
static int pick_untried(search *s, int n, int untried, double *prior)
{
    *prior = 1.0 / n;
    if (s->priors && n > 1) {
        s->g->move_priors(s->state, s->priors);
        int best = -1;
        for (int i = 0; i < n; i++)
            if (s->mark[s->legal[i]] == s->stamp && (best < 0 || s->priors[i] > s->priors[best]))
                best = i;
        *prior = s->priors[best];
        double exponent = s->model ? s->model->prior_exponent : 1.0;
        if (exponent != 1.0) { /* the priors raised to the model's exponent, renormalised */
            double total = 0;
            for (int i = 0; i < n; i++)
                total += pow(s->priors[i], exponent);
            *prior = pow(s->priors[best], exponent) / total;
        }
        return best;
    }
    if (s->params->guided_expansion) {
        int32_t guess = s->g->rollout_move(s->state, &s->rng, s->params->rollout_policy);
        for (int i = 0; i < n; i++)
            if (s->legal[i] == guess && s->mark[guess] == s->stamp)
                return i;
    }
    uint32_t k = mm_rng_below(&s->rng, (uint32_t)untried);
    for (int i = 0;; i++)
        if (s->mark[s->legal[i]] == s->stamp && k-- == 0)
            return i;
}

/* Whether node `at`, with `tried` children legal in this iteration, may expand another
 * move: always without progressive widening, else while tried < 1 + widening * sqrt(visits). */
static int may_widen(const search *s, int32_t at, int tried)
{
    double w = s->params->widening;
    return w <= 0 || tried < 1 + w * sqrt((double)s->pool[at].visits);
}

/* The legal child of `at` maximising
 *   mean reward + c * sqrt(ln(avail) / visits) + prior_weight * prior * sqrt(avail) / (1 + visits). */
static int32_t select_ucb(const search *s, int32_t at)
{
    double c = s->params->exploration, w = s->params->prior_weight, best_score = -INFINITY;
    int32_t best = -1;
    for (int32_t i = s->pool[at].first_child; i >= 0; i = s->pool[i].next_sibling) {
        const node *child = &s->pool[i];
        if (s->mark[child->action] != s->stamp + 1)
            continue;
        double v = (double)child->visits;
        double score = child->reward / v + c * sqrt(log((double)child->avail) / v);
        if (w > 0)
            score += w * child->prior * sqrt((double)child->avail) / (1 + v);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best;
}

/* Whether params->root_action is NULL or one of the n legal moves in s->legal. */
static int root_action_legal(const search *s, int n)
{
    const int32_t *action = s->params->root_action;
    for (int i = 0; i < n && action; i++)
        if (s->legal[i] == *action)
            return 1;
    return action == NULL;
}

/* Descend from the root applying moves to s->state; expand one untried move
 * when there is one.  Returns the last node reached or MM_ISMCTS_ERR_ENGINE. */
static int32_t descend(search *s)
{
    const mm_game *g = s->g;
    int32_t at = 0;
    for (;;) {
        int player = g->current_player(s->state);
        if (player < 0)
            return at;
        if (player >= s->players)
            return MM_ISMCTS_ERR_ENGINE;
        int n = g->legal_moves(s->state, s->legal);
        if (n <= 0)
            return at;
        if (at == 0 && s->params->root_action) { /* the root tries that move only */
            if (!root_action_legal(s, n))
                return MM_ISMCTS_ERR_ENGINE;
            s->legal[0] = *s->params->root_action;
            n = 1;
        }
        int untried = mark_legal(s, at, n);
        if (untried < 0)
            return MM_ISMCTS_ERR_ENGINE;
        if (untried > 0 && may_widen(s, at, n - untried)) {
            double prior;
            int32_t action = s->legal[pick_untried(s, n, untried, &prior)];
            play(s, player, action);
            return new_node(s, at, action, player, prior);
        }
        at = select_ucb(s, at);
        play(s, player, s->pool[at].action);
    }
}

/* Play this iteration's state on by the rollout policy (and MAST) until the game
 * ends or, when the game can evaluate a position, for `truncate` moves (0: no limit);
 * *cut tells whether it stopped before the end. */
static int playout(search *s, int truncate, int *cut)
{
    const mm_game *g = s->g;
    double mast = s->params->mast;
    int player;
    *cut = 0;
    for (int moves = 0; (player = g->current_player(s->state)) >= 0; moves++) {
        if (truncate > 0 && moves == truncate) {
            *cut = 1;
            return MM_OK;
        }
        if (moves == MM_ISMCTS_PLAYOUT_CAP)
            return MM_ISMCTS_ERR_PLAYOUT_CAP;
        if (player >= s->players)
            return MM_ISMCTS_ERR_ENGINE;
        int32_t action = mast > 0 && mm_rng_unit(&s->rng) < mast
            ? mast_move(s, player) : g->rollout_move(s->state, &s->rng, s->params->rollout_policy);
        if (action < 0)
            return MM_ISMCTS_ERR_ENGINE;
        play(s, player, action);
    }
    return MM_OK;
}

/* Reward per player: the win share blended with the score margin over the best
 * other player (see mm_ismcts.h). */
static void rewards(const search *s, const double *score, const double *share, double *out)
{
    double w = s->params->margin_weight;
    for (int p = 0; p < s->players; p++) {
        double best_other = s->players == 1 ? score[0] : -INFINITY;
        for (int q = 0; q < s->players; q++)
            if (q != p && score[q] > best_other)
                best_other = score[q];
        double m = 0.5 + (score[p] - best_other) / (2 * s->params->margin_scale);
        out[p] = w > 0 ? (1 - w) * share[p] + w * fmin(1.0, fmax(0.0, m)) : share[p];
    }
}

static void backup(search *s, int32_t leaf, const double *reward, const double *share,
                   const double *score)
{
    for (int32_t i = 0; s->trail && i < s->trail_len; i++) {
        int32_t cell = s->trail[i];
        s->mast_reward[cell] += reward[cell / s->g->num_actions];
        s->mast_count[cell]++;
    }
    for (int32_t at = leaf; at >= 0; at = s->pool[at].parent) {
        node *n = &s->pool[at];
        n->visits++;
        n->reward += reward[n->mover];
        n->share += share[n->mover];
        for (int p = 0; p < s->players; p++)
            n->score[p] += llround(score[p]);
    }
}

/* The outcome of this iteration's state: the final scores and win shares of a
 * finished game, or the evaluation's expected scores and win probabilities of a
 * playout cut short. */
static void outcome(const search *s, int cut, double *score, double *share)
{
    if (cut) {
        mm_evaluation e;
        mm_eval_state_by(s->g, s->model, s->state, &e);
        memcpy(score, e.score, (size_t)s->players * sizeof *score);
        memcpy(share, e.win, (size_t)s->players * sizeof *share);
        return;
    }
    int32_t final[2 * MM_MAX_PLAYERS];
    s->g->scores(s->state, final);
    mm_win_shares(s->players, final, share);
    for (int p = 0; p < s->players; p++)
        score[p] = final[2 * p];
}

#ifndef NDEBUG
/* Debug builds (the sanitizer's): a determinization is a state the decoder accepts. */
static void assert_decodable(const search *s)
{
    int32_t vec[s->g->vector_len];
    unsigned char back[s->g->state_bytes];
    mm_verdict verdict = {.field = -1};
    s->g->encode(s->state, vec);
    int rc = s->g->decode(back, vec, mm_encoded_len(s->g, s->state), &verdict);
    if (rc != MM_OK)
        fprintf(stderr, "determinized state refused at %d: %s\n", verdict.field, verdict.why);
    assert(rc == MM_OK);
}
#endif

static int iterate(search *s)
{
    const mm_game *g = s->g;
    memcpy(s->state, s->root, g->state_bytes);
    g->determinize(s->state, s->viewer, &s->rng);
#ifndef NDEBUG
    assert_decodable(s);
#endif
    s->trail_len = 0;
    int32_t leaf = descend(s);
    if (leaf < 0)
        return leaf;
    int cut, rc = playout(s, mm_has_evaluation(g) ? s->params->playout_moves : 0, &cut);
    if (rc != MM_OK)
        return rc;
    double score[MM_MAX_PLAYERS], share[MM_MAX_PLAYERS], reward[MM_MAX_PLAYERS];
    outcome(s, cut, score, share);
    rewards(s, score, share, reward);
    backup(s, leaf, reward, share, score);
    return MM_OK;
}

/* Whether the CPU-time budget is spent, read at iteration `iterations` if it is due.
 * The thread CPU clock is a system call (the wall clock is not), so it is read at
 * most every CPU_CHECK_MAX iterations and, at the rate so far, when about half the
 * time left is spent: every iteration near the end, rarely before.  It is first due
 * after the first iteration: decoding and the pool's first page faults can spend a
 * small budget, under load too, and a search that ran no iteration has no move. */
#define CPU_CHECK_MAX 64
static int cpu_spent(const mm_ismcts_params *p, int64_t iterations, double cpu_start, int64_t *next_check)
{
    if (iterations < *next_check)
        return 0;
    double used = cpu_now_ms() - cpu_start;
    if (used >= p->max_cpu_ms)
        return 1;
    double ahead = iterations > 0 && used > 0 ? (p->max_cpu_ms - used) * iterations / (2 * used) : 1;
    *next_check = iterations + (int64_t)fmax(1.0, fmin(CPU_CHECK_MAX, ahead));
    return 0;
}

static int stop_reason(const search *s, int64_t iterations, volatile int32_t *stop, double elapsed,
                       double cpu_start, int64_t *next_cpu_check)
{
    const mm_ismcts_params *p = s->params;
    if (stop && *stop)
        return MM_ISMCTS_STOP_CANCELLED;
    if (p->max_iterations > 0 && iterations >= p->max_iterations)
        return MM_ISMCTS_STOP_ITERATIONS;
    if (p->max_ms > 0 && elapsed >= p->max_ms)
        return MM_ISMCTS_STOP_TIME;
    if (p->max_cpu_ms > 0 && cpu_spent(p, iterations, cpu_start, next_cpu_check))
        return MM_ISMCTS_STOP_CPU_TIME;
    if (s->used >= s->cap)
        return MM_ISMCTS_STOP_NODES;
    return 0;
}

static int32_t most_visited_child(const search *s, int32_t at)
{
    int32_t best = -1;
    for (int32_t i = s->pool[at].first_child; i >= 0; i = s->pool[i].next_sibling)
        if (best < 0 || s->pool[i].visits > s->pool[best].visits)
            best = i;
    return best;
}

static void write_row(const search *s, int32_t child, int32_t row, mm_ismcts_root_stats *out)
{
    const node *n = &s->pool[child];
    int32_t pv_max = s->params->pv_max, len = 0;
    int32_t *pv = out->pv + (size_t)row * pv_max, *pv_player = out->pv_player + (size_t)row * pv_max;
    out->action[row] = n->action;
    out->visits[row] = n->visits;
    out->avail[row] = n->avail;
    out->reward[row] = n->share;
    for (int p = 0; p < MM_ISMCTS_PLAYERS; p++)
        out->score[(size_t)row * MM_ISMCTS_PLAYERS + p] = n->score[p];
    for (int32_t at = child; at >= 0 && len < pv_max; at = most_visited_child(s, at)) {
        pv_player[len] = s->pool[at].mover;
        pv[len++] = s->pool[at].action;
    }
    out->pv_len[row] = len;
    for (int32_t i = len; i < pv_max; i++)
        pv[i] = pv_player[i] = -1;
}

static int32_t write_root(const search *s, mm_ismcts_root_stats *out)
{
    int32_t rows = 0;
    for (int32_t c = s->pool[0].first_child; c >= 0; c = s->pool[c].next_sibling)
        write_row(s, c, rows++, out);
    return rows;
}

/* Publish the root statistics under the summary's seqlock. */
static void publish(const search *s, mm_ismcts_root_stats *out, mm_ismcts_summary *sum)
{
    __atomic_store_n(&sum->snapshot_seq, sum->snapshot_seq + 1, __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    sum->children = s->used > 0 ? write_root(s, out) : 0;
    sum->nodes = s->used;
    sum->root_reward = s->used > 0 ? s->pool[0].share : 0.0;
    __atomic_store_n(&sum->snapshot_seq, sum->snapshot_seq + 1, __ATOMIC_RELEASE);
}

/* Run iterations until a budget ends, publishing snapshots if asked; returns
 * MM_OK or an error of iterate(). */
static int run(search *s, volatile int32_t *stop, double start, double cpu_start,
               mm_ismcts_root_stats *out, mm_ismcts_summary *sum)
{
    int legal = s->root_player < 0 ? 0 : s->g->legal_moves(s->root, s->legal);
    if (legal <= 0) {
        sum->stop_reason = MM_ISMCTS_STOP_TERMINAL;
        return MM_OK;
    }
    new_node(s, -1, -1, s->root_player, 1.0);
    if (legal == 1) { /* nothing to choose: the move, unsearched, at once */
        if (mark_legal(s, 0, 1) < 0)
            return MM_ISMCTS_ERR_ENGINE;
        s->pool[new_node(s, 0, s->legal[0], s->root_player, 1.0)].avail = 0;
        sum->stop_reason = MM_ISMCTS_STOP_SINGLE_MOVE;
        return MM_OK;
    }
    double every = s->params->snapshot_ms, next = every > 0 ? every : -1.0;
    int64_t next_cpu_check = 1;
    int reason;
    for (;;) {
        double elapsed = now_ms() - start;
        if ((reason = stop_reason(s, sum->iterations, stop, elapsed, cpu_start, &next_cpu_check)) != 0)
            break;
        if (next > 0 && elapsed >= next) {
            publish(s, out, sum);
            next = elapsed + every;
        }
        if (s->params->root_action) { /* iteration i's own stream: splitmix64 of (seed, i) */
            mm_rng at = {s->params->seed ^ ((uint64_t)sum->iterations * 0xD1B54A32D192ED03ULL)};
            s->rng.s = mm_rng_next(&at);
        }
        int rc = iterate(s);
        if (rc != MM_OK)
            return rc;
        __atomic_store_n(&sum->iterations, sum->iterations + 1, __ATOMIC_RELAXED);
    }
    sum->stop_reason = reason;
    return MM_OK;
}

static int prepare(search *s, const int32_t *vec, int32_t len, mm_ismcts_summary *sum)
{
    if (!allocate(s))
        return MM_ISMCTS_ERR_MEMORY;
    mm_verdict verdict = {.field = -1};
    int rc = s->g->decode(s->root, vec, len, &verdict);
    if (rc != MM_OK) {
        sum->bad_field = verdict.field;
        return rc;
    }
    s->players = s->g->num_players(s->root);
    s->root_player = s->g->current_player(s->root);
    if (s->players < 1 || s->players > MM_MAX_PLAYERS || s->root_player >= s->players)
        return MM_ISMCTS_ERR_ENGINE;
    sum->players = s->players;
    s->viewer = s->params->viewer < 0 ? s->root_player : s->params->viewer;
    if (s->params->viewer >= s->players)
        return MM_ISMCTS_ERR_PARAMS;
    if (s->g->observe && s->viewer >= 0)
        s->g->observe(s->root, s->viewer);
    sum->root_player = s->root_player < 0 ? -1 : s->root_player;
    if (s->params->root_action && s->root_player >= 0
        && !root_action_legal(s, s->g->legal_moves(s->root, s->legal)))
        return MM_ISMCTS_ERR_PARAMS;
    return MM_OK;
}

int mm_ismcts_search(const mm_game *g, const int32_t *vec, int32_t len,
                     const mm_ismcts_params *params, volatile int32_t *stop,
                     mm_ismcts_root_stats *stats, mm_ismcts_summary *summary)
{
    if (!g || !vec || !params || !stats || !summary || !valid_params(params) || !valid_stats(stats)
        || (params->weights && !mm_eval_model_fits(g, params->weights)))
        return MM_ISMCTS_ERR_PARAMS;
    double start = now_ms(), cpu_start = cpu_now_ms();
    memset(summary, 0, sizeof *summary);
    summary->root_player = -1;
    summary->bad_field = -1;
    /* an iteration adds at most one node: an iteration budget bounds the pool too */
    int64_t cap = params->max_nodes;
    if (params->max_iterations > 0 && params->max_iterations < cap)
        cap = params->max_iterations + 1;
    search s = {.g = g, .params = params, .model = params->weights ? params->weights : g->eval_model, .cap = (int32_t)cap, .rng = {params->seed}};
    int rc = prepare(&s, vec, len, summary);
    if (rc == MM_OK)
        rc = run(&s, stop, start, cpu_start, stats, summary);
    if (rc == MM_OK)
        publish(&s, stats, summary);
    release(&s);
    summary->elapsed_ms = now_ms() - start;
    summary->cpu_ms = cpu_now_ms() - cpu_start;
    return rc;
}
