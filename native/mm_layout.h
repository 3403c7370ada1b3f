/* meeplemind: the copies a generated layout table (native/layout_<game>.h, engine/layout.py)
 * expands into: STORE_* write the struct s into the vector v, LOAD_* read v into s. */
#ifndef MM_LAYOUT_H
#define MM_LAYOUT_H

#define STORE_ONE(m, at) v[at] = s->m;
#define STORE_MANY(m, at, n, step)      \
    for (int i = 0; i < (n); i++)       \
        v[(at) + i * (step)] = s->m[i];
#define LOAD_ONE(m, at) s->m = v[at];
#define LOAD_MANY(m, at, n, step)       \
    for (int i = 0; i < (n); i++)       \
        s->m[i] = v[(at) + i * (step)];

#endif
