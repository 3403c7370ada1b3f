/* meeplemind: Puerto Rico (base game and Expansion I, The New Buildings, 2-5
 * players), the C twin of engine/puerto_rico.
 *
 * The Python package is the specification: the same action ids (moves.py), the
 * same state vectors (codec.py: layout version 1 for base games, version 2 for
 * games with the expansion) and the same conventions (top of state.py and
 * expansion.py); decode here is the one validator of positions.  A decision with a
 * single legal move is applied inside apply, free gains are automatic, compound
 * choices are canonical sequences, and chance is only rng below(total) in the
 * plantation draws, in the same call order.
 *
 * One engine serves both layouts: decode takes a vector of either version (told
 * apart by its first field and length, as codec.py does), the state remembers it
 * (in_game), and encode writes the same layout back (encoded_len says how long it is).  The
 * vtable reports the larger layout: vector_len, num_actions and layout_version are
 * those of version 2.  A base game never leaves the base rules: its expansion
 * fields keep their idle values and no expansion building is ever in it.
 *
 * A state is a plain fixed-size struct, copied with memcpy.  Besides the position
 * it caches its legal moves (so legal_moves and rollout_move cost a copy, not a
 * generation) and a few counters the hot loops need. */
#ifndef MM_PUERTO_RICO_H
#define MM_PUERTO_RICO_H
#include "mm_game.h"

#define MM_PR_LAYOUT_VERSION 1
#define MM_PR_VECTOR_LEN 313
#define MM_PR_NUM_ACTIONS 192
#define MM_PR_LAYOUT_VERSION_V2 2
#define MM_PR_VECTOR_LEN_V2 463
#define MM_PR_NUM_ACTIONS_V2 358
/* Bound on any legal list.  The longest is the builder's with a University when its
 * colonist could end the game (46: pass, the 23 building types of a game, and each
 * but the University and the Statue again declining the colonist); then the first
 * draft pick (31 violet types), Black Market give-ups (25: San Juan, 5 plantation
 * kinds, quarry, 12 city buildings, 5 barrels, a chip) and captain (25: 15 loads, 5
 * Wharf, 5 Small Wharf). */
#define MM_PR_MAX_LEGAL 48

/* Action ids (engine/puerto_rico/moves.py). */
#define MM_PR_A_PASS 0
#define MM_PR_A_ROLE 1     /* + role */
#define MM_PR_A_SETTLE 9   /* + kind */
#define MM_PR_A_QUARRY 14
#define MM_PR_A_HACIENDA 15
#define MM_PR_A_DECLINE 16 /* + role (mayor, captain): an optional privilege declined */
#define MM_PR_A_BUILD 24   /* + building */
#define MM_PR_A_PLACE 64   /* + mayor slot: kinds, quarry, buildings */
#define MM_PR_A_CRAFT 112  /* + kind */
#define MM_PR_A_SELL 117   /* + kind */
#define MM_PR_A_LOAD 128   /* + kind * 5 + (capacity - 4) */
#define MM_PR_A_WHARF 153  /* + kind */
#define MM_PR_A_STORE 158  /* + kind */
#define MM_PR_A_KEEP 163   /* + kind */
/* The moves that decline the Hospice or University colonist they bring. */
#define MM_PR_A_SETTLE_DECLINE 122 /* + kind, + 5: the quarry */
#define MM_PR_A_BUILD_DECLINE 168  /* + base building */
/* Expansion I (layout v2 games only). */
#define MM_PR_A_FOREST 192          /* + kind: a face-up plantation taken as a forest */
#define MM_PR_A_HACIENDA_PLANT 197  /* the drawn Hacienda tile as a plantation */
#define MM_PR_A_HACIENDA_FOREST 198 /* ... or as a forest */
#define MM_PR_A_POST 199            /* + kind: sell to one's own Trading Post */
#define MM_PR_A_SMALL_WHARF 204     /* + kind: one more barrel through the Small Wharf */
#define MM_PR_A_GIVE 209            /* + kind: Black Market barrel; + 5: a VP chip */
#define MM_PR_A_GIVE_COLONIST 215   /* + mayor slot, + 43: from San Juan */
#define MM_PR_A_GUEST 259           /* + mayor slot: move a guest there */
#define MM_PR_A_DRAFT 302           /* + building (violet only) */
#define MM_PR_A_FOREST_DECLINE 339  /* + kind: a forest without the Hospice colonist */
#define MM_PR_A_BUILD_DECLINE_V2 344 /* + building - 23: an expansion building, ditto */

#define MM_PR_KINDS 5
#define MM_PR_BUILDINGS 37      /* base 0..22, expansion 23..36 */
#define MM_PR_BASE_BUILDINGS 23
#define MM_PR_SLOTS 43          /* kinds, quarry, buildings */
#define MM_PR_MAX_ROLES 8
#define MM_PR_MAX_SHIPS 3
#define MM_PR_MIN_CAPACITY 4

/* Phases, as in the state vector. */
#define MM_PR_PHASE_ROLE 0
#define MM_PR_PHASE_SETTLER 1
#define MM_PR_PHASE_MAYOR 2
#define MM_PR_PHASE_BUILDER 3
#define MM_PR_PHASE_CRAFTSMAN 4
#define MM_PR_PHASE_TRADER 5
#define MM_PR_PHASE_CAPTAIN 6
#define MM_PR_PHASE_STORAGE 7
#define MM_PR_PHASE_END 8
#define MM_PR_PHASE_DRAFT 9  /* expansion: the violet buildings are drafted */
#define MM_PR_PHASE_GUESTS 10 /* expansion: a Guest House window */

/* rollout_move policies */
#define MM_PR_POLICY_RANDOM 0
#define MM_PR_POLICY_HEURISTIC 1

/* Members named as the schema's attributes (native/layout_puerto_rico.h); the few derived
 * ones (marked) are rebuilt by decode and kept up to date by apply.  No padding
 * anywhere, so equal positions are equal bytes. */
typedef struct mm_pr_player {
    uint64_t owned; /* derived: bit b set when buildings[b] >= 0 */
    int16_t doubloons;
    int16_t vp_chips;
    int8_t goods[MM_PR_KINDS];
    int8_t plantations[MM_PR_KINDS];
    int8_t plantation_colonists[MM_PR_KINDS];
    int8_t quarries;
    int8_t quarry_colonists;
    int8_t san_juan;
    int8_t wharf_done;
    int8_t forests;          /* expansion: forest tiles on the island */
    int8_t small_wharf_done; /* expansion: Small Wharf used or declined this Captain phase */
    int8_t buildings[MM_PR_BUILDINGS]; /* -1: not owned, else colonists on it */
    int8_t city_used;   /* derived: city spaces taken */
    int8_t island_used; /* derived: plantations + quarries + forests */
} mm_pr_player;

typedef struct mm_pr_state {
    mm_pr_player p[MM_MAX_PLAYERS];
    uint64_t available; /* derived: bit b set when building_supply[b] > 0 */
    /* Expansion games: bit b set when building type b is in the game (the production
     * buildings always are); base games: 0, which is how the two are told apart. */
    uint64_t in_game;
    int32_t vp_supply;  /* below 0 once the chips run out */
    int16_t role_doubloons[MM_PR_MAX_ROLES]; /* -1: card not in play */
    uint16_t legal[MM_PR_MAX_LEGAL]; /* derived: the legal moves of this position, ascending */
    int8_t players, options, governor, phase, current, chooser, turn, picks, end_triggered;
    int8_t colonist_supply, colonist_ship, quarry_supply;
    /* progress inside a phase */
    int8_t hacienda_done, to_place, last_slot, produced, captain_loaded, store_mask;
    /* expansion: forests left, and progress (idle values in base games) */
    int8_t forest_supply, hacienda_tile, window, privilege_left;
    int8_t bm_building, bm_due, bm_given, bm_declined, wharf_barrels;
    int8_t made[MM_PR_KINDS], kept[MM_PR_KINDS];
    int8_t goods_supply[MM_PR_KINDS], house[MM_PR_KINDS];
    int8_t deck[MM_PR_KINDS], faceup[MM_PR_KINDS], discard[MM_PR_KINDS];
    int8_t building_supply[MM_PR_BUILDINGS];
    int8_t role_taken[MM_PR_MAX_ROLES];
    int8_t ship_capacity[MM_PR_MAX_SHIPS], ship_kind[MM_PR_MAX_SHIPS], ship_count[MM_PR_MAX_SHIPS];
    uint8_t num_legal; /* derived */
    uint8_t zero[7];   /* always 0: no compiler padding, so equal positions are equal bytes */
} mm_pr_state;

extern const mm_game mm_puerto_rico_game;

#endif
