/* meeplemind: a libFuzzer target for every game's state-vector decoder (make test-deep).
 *
 * Input: one byte choosing the game (in the registry's order, schema_games.h), then the
 * vector as little-endian int32s.  The decoder must refuse the vector or accept it; an
 * accepted vector must encode back to itself, every seat's observation and
 * determinization of it must be accepted too, and the position must have a legal move
 * unless it is over and play on for a few uniform moves.  Built with -fsanitize=fuzzer,address,undefined -fno-wrapv, so a
 * read out of bounds, a signed overflow or a broken check stops the run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../mm_api.h"
#include "../schema_games.h"

static const mm_game *const GAMES[] = {MM_GAMES}; /* every registered game, as mm_api.c */
#define NGAMES (sizeof GAMES / sizeof GAMES[0])
#define PLAY_MOVES 24

/* Every seat's observation and determinization of an accepted state are states too. */
static void views(const mm_game *g, const void *state)
{
    unsigned char view[g->state_bytes], back[g->state_bytes];
    int32_t vec[g->vector_len];
    mm_verdict verdict;
    for (int seat = 0; seat < mm_num_players(g, state); seat++)
        for (int dealt = 0; dealt < 2; dealt++) {
            uint64_t rng = 0x2545F4914F6CDD1Du + (uint64_t)seat;
            memcpy(view, state, g->state_bytes);
            if (dealt)
                mm_determinize(g, view, seat, &rng);
            else
                mm_observe(g, view, seat);
            mm_encode(g, view, vec);
            if (mm_decode(g, back, vec, mm_encoded_len(g, view), &verdict) != MM_OK)
                abort(); /* a view the decoder refuses */
        }
}

static void play_on(const mm_game *g, void *state)
{
    int32_t moves[g->max_legal];
    uint64_t rng = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < PLAY_MOVES && mm_current_player(g, state) >= 0; i++) {
        if (mm_legal_moves(g, state, moves) <= 0)
            abort(); /* accepted, not over, and no move */
        if (mm_apply(g, state, mm_rollout_move(g, state, &rng, 0), &rng) != 0)
            abort(); /* the rollout chose an illegal move */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const mm_game *g = GAMES[data[0] % NGAMES];
    int32_t len = (int32_t)((size - 1) / sizeof(int32_t));
    int32_t *vec = malloc(sizeof(int32_t) * (size_t)(len + 1));
    int32_t *again = malloc(sizeof(int32_t) * (size_t)g->vector_len);
    void *state = malloc(g->state_bytes);
    mm_verdict verdict;
    memcpy(vec, data + 1, sizeof(int32_t) * (size_t)len);
    if (mm_decode(g, state, vec, len, &verdict) == MM_OK) {
        if (mm_encoded_len(g, state) != len)
            abort();
        mm_encode(g, state, again);
        if (memcmp(again, vec, sizeof(int32_t) * (size_t)len) != 0)
            abort(); /* encode(decode(v)) != v */
        views(g, state);
        play_on(g, state);
    } else if (verdict.field < -1 || verdict.field >= (len > 0 ? len : 1) || !verdict.why[0]) {
        abort(); /* a rejection must name a field of the vector (or none) and a reason */
    }
    free(state);
    free(again);
    free(vec);
    return 0;
}
