/* meeplemind: Traders of Genoa (2-5 players), the C twin of engine/traders_of_genoa.
 *
 * The Python package is the specification: the same action ids (moves.py), the same
 * state vector (schema.py, layout version 2, copied by the generated layout_traders_of_genoa.h; decode here is the one validator of
 * positions, in schema.py's rule order), the same conventions (top of state.py): a decision with a
 * single legal move is played inside apply, and chance is rng below(n) in the same call
 * order (the start square, card draws).  Every number comes from the generated
 * traders_of_genoa_tables.h (native/gen_traders_of_genoa.py reads engine/traders_of_genoa).
 *
 * Hidden information is real: a card's location is a seat, the pile, used, or unseen
 * (an observation's pile or another player's hand); determinize deals the unseen cards
 * of every deck uniformly among the consistent deals. */
#ifndef MM_TRADERS_OF_GENOA_H
#define MM_TRADERS_OF_GENOA_H
#include "mm_game.h"

/* Sizes of the struct (the .c checks them against the generated tables). */
#define MM_TOG_MAX_PLAYERS 5
#define MM_TOG_GOODS 8
#define MM_TOG_SPECIALS 5
#define MM_TOG_DECKS 4
#define MM_TOG_CARDS 60
#define MM_TOG_BUILDINGS 18
#define MM_TOG_DISCS 5
#define MM_TOG_LOCATIONS 8 /* a card's: seat 0-4, pile, used, unseen */
/* The longest legal list: the extras of an action (done, 8 goods, 56 trades, a small
 * order, 17 building actions), 83; an offer's items (offer, 5 coins, 8 goods, at most 60
 * cards, 5 special cards, a marker) 80.  The move cache holds more, for the entries a
 * generator writes past a list, and so the state ends unpadded. */
#define MM_TOG_LONGEST_LIST 83
#define MM_TOG_MAX_LEGAL 97

/* rollout_move policies */
#define MM_TOG_POLICY_RANDOM 0
#define MM_TOG_POLICY_HEURISTIC 1

typedef struct mm_tog_player {
    int32_t ducats;
    int8_t goods[MM_TOG_GOODS], specials[MM_TOG_SPECIALS];
    int8_t markers, reserve; /* in hand, in the board supply */
    int8_t hand[MM_TOG_DECKS];  /* cards per deck (public) */
    int8_t actions;             /* taken this turn */
} mm_tog_player;

/* Fields as in state.py, named as the schema's cells (engine/layout.py binds them); the
 * few derived ones (marked) are rebuilt by decode and kept up to date by apply.  No
 * padding, so equal positions are equal bytes. */
typedef struct mm_tog_state {
    uint64_t at[MM_TOG_LOCATIONS]; /* derived: bit c of at[l] set where cards[c] == l */
    uint64_t offered;              /* derived: bit c set where offered_cards[c] */
    uint64_t walked;               /* derived: bit q set for each square on the path */
    mm_tog_player p[MM_TOG_MAX_PLAYERS];
    int32_t round;
    uint32_t visited; /* derived: bit b set for each building on the path */
    int32_t offer_ducats[MM_TOG_MAX_PLAYERS]; /* per seat, -1: no offer */
    int8_t players, start_player, owner, stage, to_move, site, actor, delivered;
    int8_t base, last_mark, used_discs, acquirer, ousted, path_len;
    int8_t path[MM_TOG_DISCS];
    /* per seat: the goods, special cards and markers in his offer */
    int8_t offer_goods[MM_TOG_MAX_PLAYERS][MM_TOG_GOODS], offer_specials[MM_TOG_MAX_PLAYERS][MM_TOG_SPECIALS];
    int8_t offer_markers[MM_TOG_MAX_PLAYERS];
    int8_t offer_target[MM_TOG_MAX_PLAYERS]; /* per seat: a steering offer's square, -1 for none */
    int8_t offered_cards[MM_TOG_CARDS]; /* 1: the card is in its holder's offer */
    int8_t supply[MM_TOG_GOODS], special_supply[MM_TOG_SPECIALS];
    uint8_t marks[MM_TOG_BUILDINGS]; /* bitmask of seats per building */
    int8_t cards[MM_TOG_CARDS];      /* every card's location: seat 0-4, 5 pile, 6 used, 7 unseen */
    int8_t piles[MM_TOG_DECKS];
    /* derived: the legal moves of the position, ascending (rebuilt by decode, apply and
     * determinize), so a playout generates them once per decision */
    uint8_t num_legal;
    int16_t legal[MM_TOG_MAX_LEGAL];
} mm_tog_state;

/* The buildings `seat` owns, one bit each (the rules' scoring and the evaluation read it). */
uint32_t mm_tog_owned(const mm_tog_state *s, int seat);
/* The size of the connected group of `owned` buildings holding b (0 if b is not owned). */
int mm_tog_group_size(uint32_t owned, int b);
/* What privilege card k (its index in the privilege deck) pays the owner of `owned`. */
int mm_tog_privilege_pay(uint32_t owned, int k);

extern const mm_game mm_traders_of_genoa_game;
#endif
