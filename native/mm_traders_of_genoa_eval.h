/* meeplemind: the learned evaluation's features of Traders of Genoa (mm_eval.h), written
 * by native/mm_traders_of_genoa_eval.c from the state of mm_traders_of_genoa.h; its network
 * is native/evaluation_traders_of_genoa.json's (tools/fit_evaluation.py). */
#ifndef MM_TRADERS_OF_GENOA_EVAL_H
#define MM_TRADERS_OF_GENOA_EVAL_H

/* One row of features per player of an mm_tog_state into rows; returns the rounds left
 * (the tower turns still to come, this one included, over the players). */
double mm_tog_eval_features(const void *state, float *rows);
#endif
