extern const char *const mm_cob_tile_names[49];
extern const char *const mm_cob_phase_names[5];
extern const char *const mm_cob_stage_names[12];
extern const char *const mm_cob_colour_names[6];
