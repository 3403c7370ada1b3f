/* meeplemind: single-observer ISMCTS (Cowling, Powley & Whitehouse 2012) over
 * any mm_game (declared again for cffi in cdef/ismcts.h).
 *
 * One search builds one tree for the player to move at the root (the
 * observer).  Each iteration copies the root, determinizes it for the
 * observer, descends by UCB1 with availability counts over the moves legal in
 * that sample, expands one untried move, plays out with the game's rollout
 * policy and backs up one reward per player (max^n).
 *
 * Reward of player p, in [0, 1]:
 *   r_p = (1 - w) * share_p + w * clip01(0.5 + (score_p - best_other_p) / (2 * margin_scale))
 * where share_p is mm_win_shares() of the final scores (of a playout cut short: see
 * below), w = margin_weight, and
 * best_other_p is the best final score among the other players (score_p itself
 * in a one-player game).  With w = 0 the reward is the win share.  UCB1 maximises
 * the mean reward; the root statistics report win shares, whatever w.
 *
 * Playouts (MAST, Finnsson & Bjornsson 2008): with probability params.mast a
 * playout move is the legal move with the best mean reward of its mover over
 * every move (tree and playout) of this search so far, each mean starting from
 * one virtual reward of 0.5; otherwise it is the game's rollout_move.  The first
 * MM_ISMCTS_TRAIL_MAX moves of an iteration feed the means.  With mast = 0 the
 * random stream and the results are those of a search without MAST.
 *
 * Truncated playouts: with params.playout_moves = N > 0 and a game with an
 * evaluation (mm_eval.h), a playout still running after N moves stops there (more,
 * shorter iterations per CPU second) and backs up soft rewards: share_p is the
 * evaluation's win probability of p (a softmax of the expected final scores whose
 * temperature, fitted per game, shrinks with the rounds left) instead of a 0/1 win,
 * and the margin term and the reported scores use the expected final scores.  A
 * finished playout keeps its exact rewards.  A game without an evaluation plays
 * every playout to the end; so does every search with N = 0.
 *
 * Guided expansion (a progressive bias from the rollout policy): with
 * params.guided_expansion = 1 a node about to expand asks the game's rollout_move
 * for a move and expands it when it is still untried (else a random untried one),
 * so the policy's favourite is searched first.
 *
 * Move priors (progressive bias, PUCT-style; Chaslot et al. 2008, Silver et al. 2017):
 * with params.prior_weight = w > 0 selection maximises
 *   mean reward + c * sqrt(ln(avail) / visits) + w * P * sqrt(avail) / (1 + visits)
 * where P is the move's prior probability from the game's move_priors() when its node
 * was expanded (1 / legal moves for a game without them); exploration c = 0 gives PUCT.
 * With w > 0 or widening > 0, a node expands its untried moves likeliest first (the
 * first on a tie, no random draw; before guided expansion).  With params.widening = k > 0
 * (progressive widening) a node expands another move only while fewer than
 * 1 + k * sqrt(visits of the node) of its children are legal in this iteration, and
 * otherwise selects among those children.  The priors are computed once per expansion
 * (into one buffer allocated with the pool) and kept in the node; with w = 0 and k = 0
 * the search is the one without priors, bit for bit.  The priors are raised to the
 * evaluation model's prior_exponent and renormalised (mm_eval.h; 1: unchanged).
 *
 * Memory: the node pool (max_nodes nodes, or max_iterations + 1 if fewer: an
 * iteration adds one node), the MAST table and a few scratch buffers are
 * malloc'd once per call and freed before it returns; nothing is allocated in
 * the iteration loop and nothing global is written, so any number of threads
 * may search at once.  With the same seed, the same iteration budget and no
 * time limit or cancellation, results are bit-for-bit reproducible. */
#ifndef MM_ISMCTS_H
#define MM_ISMCTS_H
#include "mm_game.h"

#define MM_ISMCTS_PV_MAX 16          /* longest principal variation reported */
#define MM_ISMCTS_PLAYERS MM_MAX_PLAYERS /* columns of mm_ismcts_root_stats.score */
#define MM_ISMCTS_PLAYOUT_CAP MM_PLAYOUT_CAP /* playout moves before a game counts as broken */
#define MM_ISMCTS_TRAIL_MAX 4096      /* moves of an iteration that update the MAST means */

/* mm_ismcts_summary.stop_reason */
#define MM_ISMCTS_STOP_ITERATIONS 1
#define MM_ISMCTS_STOP_TIME 2
#define MM_ISMCTS_STOP_NODES 3
#define MM_ISMCTS_STOP_CANCELLED 4
#define MM_ISMCTS_STOP_TERMINAL 5 /* the root is terminal or has no legal move */
#define MM_ISMCTS_STOP_CPU_TIME 6 /* the search thread's CPU-time budget was spent */
#define MM_ISMCTS_STOP_SINGLE_MOVE 7 /* the root has one legal move: reported at once, with
                                       0 visits (no iteration, no budget spent) */

/* mm_ismcts_search() results besides MM_OK and the decode codes MM_ERR_* */
#define MM_ISMCTS_ERR_PARAMS (-1)      /* a parameter or output pointer is invalid */
#define MM_ISMCTS_ERR_MEMORY (-2)      /* the node pool could not be allocated */
#define MM_ISMCTS_ERR_PLAYOUT_CAP (-3) /* a playout exceeded MM_ISMCTS_PLAYOUT_CAP moves */
#define MM_ISMCTS_ERR_ENGINE (-4)      /* the engine broke its contract (legal ids, players) */

typedef struct mm_ismcts_params {
    int64_t max_iterations; /* iterations to run; 0 = no iteration limit */
    double max_ms;          /* wall-clock budget in ms; 0 = no time limit */
    double max_cpu_ms;      /* CPU-time budget of the calling thread in ms
                               (CLOCK_THREAD_CPUTIME_ID), decoding included; 0 = no
                               limit.  It ends a search after its first iteration at the
                               earliest: a strength budget always yields a move */
    int64_t max_nodes;      /* node pool capacity, 2..INT32_MAX (the root uses one) */
    uint64_t seed;
    double exploration;     /* UCB1 constant c >= 0 */
    double margin_weight;   /* w in [0, 1], see above */
    double margin_scale;    /* > 0, in score points */
    int32_t rollout_policy; /* passed to mm_game.rollout_move: MM_POLICY_* */
    int32_t pv_max;         /* 1..MM_ISMCTS_PV_MAX */
    const int32_t *root_action; /* NULL, or a move legal at the root: the search tries only
                               it there (a move's own evaluation: a game review's best and
                               played move), and its iteration i draws from a generator seeded
                               by seed and i alone, so that two such searches with one seed give
                               their i-th iterations the same determinization and chance stream
                               (common random numbers) */
    double snapshot_ms;     /* > 0: publish the root statistics every snapshot_ms while
                               searching (see mm_ismcts_summary.snapshot_seq); 0 = only at the end */
    double mast;            /* in [0, 1): share of playout moves chosen by MAST (see above; below 1,
                               so the game's own policy keeps every playout finite) */
    int32_t playout_moves;  /* > 0: a playout stops after this many moves and backs up the
                               game's evaluation (see above); 0 = every playout to the end */
    int32_t guided_expansion; /* 1: a node expands the rollout policy's move first (see above);
                               0: its untried moves in random order */
    double prior_weight;    /* >= 0: weight of the move priors in selection (see above); 0 = none */
    double widening;        /* >= 0: progressive widening (see above); 0 = every move expanded first */
    int32_t viewer;         /* the seat whose knowledge the search uses (Position.viewer), whoever
                               is to move: the root is masked to its observation and every
                               iteration determinizes for it; -1 = the player to move */
    const struct mm_eval_model *weights;    /* NULL: the game's compiled evaluation; else
                               caller-owned weights of the same shape (mm_eval_model_fits, else
                               MM_ISMCTS_ERR_PARAMS) that truncated playouts back up and whose
                               prior_exponent shapes the move priors (a training generation's,
                               loaded at run time: no rebuild) */
} mm_ismcts_params;

/* Caller-owned arrays, one row per root child, rows = mm_ismcts_rows(g).
 * Row i describes the root move action[i]; rows beyond summary.children are
 * left untouched. */
typedef struct mm_ismcts_root_stats {
    int32_t *action;  /* [rows] action id */
    int64_t *visits;  /* [rows] iterations through the move */
    int64_t *avail;   /* [rows] iterations in which the move was legal */
    double *reward;   /* [rows] sum of the root player's win shares (the reward before
                         margin shaping: reward / visits is a win rate whatever the shaping) */
    int64_t *score;   /* [rows * MM_ISMCTS_PLAYERS] sums of every player's final score */
    int32_t *pv;      /* [rows * pv_max] most-visited line starting with the move, -1 padded */
    int32_t *pv_len;  /* [rows] */
    int32_t *pv_player; /* [rows * pv_max] the seat that plays each pv move, -1 padded */
} mm_ismcts_root_stats;

typedef struct mm_ismcts_summary {
    int64_t iterations;  /* iterations completed */
    int64_t nodes;       /* nodes used, root included; <= max_nodes */
    double elapsed_ms;
    double cpu_ms;       /* CPU time of the searching thread */
    double root_reward;  /* sum over iterations of the root player's win share */
    int32_t root_player; /* -1 when the root is terminal */
    int32_t players;
    int32_t children;    /* rows written */
    int32_t stop_reason; /* MM_ISMCTS_STOP_* */
    int32_t bad_field;   /* vector index named by a decode error, else -1 */
    /* Seqlock over the root statistics, children, nodes and root_reward: odd while
     * a snapshot is being written, even when they are consistent.  Another thread
     * may read them mid-search: read the sequence, copy, and accept the copy if the
     * sequence was even and has not changed. */
    int64_t snapshot_seq;
} mm_ismcts_summary;

/* Rows the root statistics arrays need for game g (its action space size:
 * the root children are distinct action ids). */
int32_t mm_ismcts_rows(const mm_game *g);

/* Decode the state vector vec[len] and search it.  Returns MM_OK, a decode
 * code MM_ERR_* (summary->bad_field names the vector index) or an
 * MM_ISMCTS_ERR_* code.  stop may be NULL; the search ends at the first
 * iteration boundary after *stop becomes non-zero.  The budget checks run
 * before every iteration in the order: cancelled, iterations, time, CPU time,
 * nodes (the CPU clock, a system call, is read every iteration only once about
 * two iterations' worth of CPU time is left, and every 64 at most before; it is
 * first read after the first iteration). */
int mm_ismcts_search(const mm_game *g, const int32_t *vec, int32_t len,
                     const mm_ismcts_params *params, volatile int32_t *stop,
                     mm_ismcts_root_stats *stats, mm_ismcts_summary *summary);
#endif
