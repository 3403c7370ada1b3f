#define MM_MAX_PLAYERS ...
#define MM_OK ...
#define MM_ERR_LENGTH ...
#define MM_ERR_VERSION ...
#define MM_ERR_RANGE ...
#define MM_ERR_INVARIANT ...
typedef struct mm_game mm_game;
const mm_game *mm_find_game(const char *name);
void mm_game_info(const mm_game *g, int64_t *out);
int mm_decode(const mm_game *g, void *state, const int32_t *vec, int32_t len, int32_t *bad_field);
void mm_encode(const mm_game *g, const void *state, int32_t *vec);
int32_t mm_encoded_len(const mm_game *g, const void *state);
int mm_num_players(const mm_game *g, const void *state);
int mm_current_player(const mm_game *g, const void *state);
int mm_legal_moves(const mm_game *g, const void *state, int32_t *out);
int mm_apply(const mm_game *g, void *state, int32_t action, uint64_t *rng_state);
void mm_determinize(const mm_game *g, void *state, int viewer, uint64_t *rng_state);
void mm_scores(const mm_game *g, const void *state, int32_t *out);
int32_t mm_rollout_move(const mm_game *g, const void *state, uint64_t *rng_state, int policy);
int64_t mm_playouts(const mm_game *g, const void *start, int64_t games, uint64_t seed, int policy);
