/* meeplemind: The Castles of Burgundy (2011 base game, 2-4 players, estate board
 * No. 1), the C twin of engine/castles_of_burgundy.
 *
 * The Python package is the specification: the same action ids (moves.py), the
 * same state vector (codec.py, layout version 1; decode here is the one validator of
 * positions) and the same conventions (top of state.py): a decision with a
 * single legal move is played inside apply, a turn whose dice are used ends by
 * itself unless the player may still buy, no decision offers two moves with one
 * outcome (including the two lookaheads: twin die actions and equal tiles in the
 * last turn of a phase), and chance is rng below(n) in the same call order (dice
 * at every round start, depot refills and goods at every phase start).
 *
 * A state is a plain fixed-size struct, copied with memcpy: the position (what
 * the vector holds, plus a few derived fields) followed by a cache of its legal
 * moves, so legal_moves and rollout_move cost a copy, not a generation. */
#ifndef MM_CASTLES_OF_BURGUNDY_H
#define MM_CASTLES_OF_BURGUNDY_H
#include "mm_game.h"

#define MM_COB_LAYOUT_VERSION 1
#define MM_COB_VECTOR_LEN 498
#define MM_COB_NUM_ACTIONS 625
/* Bound on any legal list: in a turn 2 workers + 2 x (3 sales + 24 takes + 36
 * placements) + 8 black-depot and 24 depot purchases = 160; 163 keeps the struct
 * free of padding. */
#define MM_COB_MAX_LEGAL 163
#define MM_COB_MAX_PLAYERS 4

#define MM_COB_CELLS 37
#define MM_COB_TILES 49
#define MM_COB_GOODS 6
#define MM_COB_DEPOTS 6
#define MM_COB_DEPOT_SLOTS 4
#define MM_COB_BLACK_SLOTS 8
#define MM_COB_STORAGE 3
#define MM_COB_ROUNDS 5

/* Action ids (engine/castles_of_burgundy/moves.py); a source is 0 (no die) or
 * the die value 1-6. */
#define MM_COB_SOURCES 7
#define MM_COB_A_PASS 0
#define MM_COB_A_WORKERS 1      /* + source */
#define MM_COB_A_SELL 8         /* + source * 6 + goods */
#define MM_COB_A_TAKE 50        /* + source * 24 + depot * 4 + slot */
#define MM_COB_A_PLACE 218      /* + source * 37 + cell */
#define MM_COB_A_TILE 477       /* + tile kind */
#define MM_COB_A_DISCARD 526    /* + tile kind */
#define MM_COB_A_BUY_BLACK 575  /* + black slot */
#define MM_COB_A_BUY 583        /* + depot * 4 + slot (knowledge #6) */
#define MM_COB_A_SHIP 607       /* + depot */
#define MM_COB_A_SHIP_PAIR 613  /* + pair: depots d and d + 1 (pair 5: 6 and 1) */
#define MM_COB_A_GOODS 619      /* + goods */

/* rollout_move policies */
#define MM_COB_POLICY_RANDOM 0
#define MM_COB_POLICY_HEURISTIC 1

/* One seat: members named as the schema's attributes (native/layout_castles_of_burgundy.h);
 * the derived ones (marked) are rebuilt by decode and kept up to date by apply.  No
 * padding anywhere, so equal positions are equal bytes. */
typedef struct mm_cob_player {
    uint64_t filled;   /* derived: bit c set when estate[c] holds a tile */
    uint64_t frontier; /* derived: empty cells next to a placed tile */
    uint32_t knows;    /* derived: bit k - 1 set when knowledge #k is in the estate */
    int16_t silverlings, workers, vp;
    int8_t dice[2]; /* ascending, 0: used */
    int8_t goods[MM_COB_GOODS], sold[MM_COB_GOODS];
    int8_t bonus[6]; /* per colour: 0, 1 first, 2 second */
    int8_t storage[MM_COB_STORAGE]; /* ascending, -1 last */
    int8_t estate[MM_COB_CELLS];    /* tile kind per cell, -1: empty */
    int8_t ships, mines;            /* derived: tiles of these kinds in the estate */
} mm_cob_player;

typedef struct mm_cob_state {
    /* the position */
    mm_cob_player p[MM_COB_MAX_PLAYERS];
    uint32_t takes; /* derived: depot spaces holding the first of equal tiles of a depot */
    int8_t players, phase, round, stage, turn, bought;
    int8_t pending_tile, pending_cell, ship_mask, goods_chosen;
    int8_t ranking[MM_COB_MAX_PLAYERS];     /* the turn-order track, first player first */
    int8_t round_order[MM_COB_MAX_PLAYERS]; /* the track at the start of the round */
    int8_t depots[MM_COB_DEPOTS * MM_COB_DEPOT_SLOTS];
    int8_t black[MM_COB_BLACK_SLOTS];
    int8_t depot_goods[MM_COB_DEPOTS * MM_COB_GOODS];
    int8_t round_goods[MM_COB_ROUNDS];
    int8_t goods_pool[MM_COB_GOODS];                       /* hidden goods */
    int8_t stack[MM_COB_TILES], black_stack[MM_COB_TILES]; /* hidden tiles */
    int8_t discarded[MM_COB_TILES];
    /* derived: the legal moves of the position, ascending; unused entries 0.
     * Everything before num_legal is the position (compared by the lookaheads). */
    uint16_t num_legal;
    uint16_t legal[MM_COB_MAX_LEGAL];
} mm_cob_state;

extern const mm_game mm_castles_of_burgundy_game;
#endif
