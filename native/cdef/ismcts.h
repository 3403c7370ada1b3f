#define MM_ISMCTS_PV_MAX ...
#define MM_ISMCTS_PLAYERS ...
#define MM_ISMCTS_PLAYOUT_CAP ...
#define MM_ISMCTS_TRAIL_MAX ...
#define MM_ISMCTS_STOP_ITERATIONS ...
#define MM_ISMCTS_STOP_TIME ...
#define MM_ISMCTS_STOP_NODES ...
#define MM_ISMCTS_STOP_CANCELLED ...
#define MM_ISMCTS_STOP_TERMINAL ...
#define MM_ISMCTS_STOP_CPU_TIME ...
#define MM_ISMCTS_STOP_SINGLE_MOVE ...
#define MM_ISMCTS_ERR_PARAMS ...
#define MM_ISMCTS_ERR_MEMORY ...
#define MM_ISMCTS_ERR_PLAYOUT_CAP ...
#define MM_ISMCTS_ERR_ENGINE ...
typedef struct mm_ismcts_params {
    int64_t max_iterations;
    double max_ms;
    double max_cpu_ms;
    int64_t max_nodes;
    uint64_t seed;
    double exploration;
    double margin_weight;
    double margin_scale;
    int32_t rollout_policy;
    int32_t pv_max;
    const int32_t *root_action;
    double snapshot_ms;
    double mast;
    int32_t playout_moves;
    int32_t guided_expansion;
    double prior_weight;
    double widening;
    int32_t viewer;
    const struct mm_eval_model *weights;
} mm_ismcts_params;
typedef struct mm_ismcts_root_stats {
    int32_t *action;
    int64_t *visits;
    int64_t *avail;
    double *reward;
    int64_t *score;
    int32_t *pv;
    int32_t *pv_len;
    int32_t *pv_player;
} mm_ismcts_root_stats;
typedef struct mm_ismcts_summary {
    int64_t iterations;
    int64_t nodes;
    double elapsed_ms;
    double cpu_ms;
    double root_reward;
    int32_t root_player;
    int32_t players;
    int32_t children;
    int32_t stop_reason;
    int32_t bad_field;
    int64_t snapshot_seq;
} mm_ismcts_summary;
int32_t mm_ismcts_rows(const mm_game *g);
int mm_ismcts_search(const mm_game *g, const int32_t *vec, int32_t len,
                     const mm_ismcts_params *params, volatile int32_t *stop,
                     mm_ismcts_root_stats *stats, mm_ismcts_summary *summary);
