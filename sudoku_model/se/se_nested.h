/* What the nested chains' two files share: the records of nested hints and their cache,
 * the state of one producer's nesting (se_nested.c), and every static chain of a grid as
 * records (se_nested_static.c, an inner rule of levels 2 and 3). */
#ifndef SE_NESTED_H
#define SE_NESTED_H

#include "se_scan.h"

/* ---- hints and records --------------------------------------------------------------- */

typedef struct {
    double diff;
    int cx, sort, idx;
    int eoff, ne; /* removals in the arena: cell * 9 + digit - 1 */
    int poff, np; /* rule parents in the arena: off keys */
    uint64_t h1, h2;
    int dead; /* beaten by a later hint with the same removals (finish skips it) */
} Rec;

typedef struct {
    Rec *r;
    int n, cap;
    int *a;
    int na, acap;
} Recs;



static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline void sig_add(uint64_t *h1, uint64_t *h2, uint64_t v)
{
    *h1 = mix64(*h1 ^ (v + 0x9e3779b97f4a7c15ULL));
    *h2 = mix64(*h2 + v * 0xd6e8feb86659fd93ULL + 0x632be59bd9b4e019ULL);
}

/* ---- the state of one producer's nesting ----------------------------------------------- */

enum { R_STATIC, R_MULTIPLE, R_DYNAMIC, R_NESTED };

typedef struct {
    uint64_t h;
    int rule, grid, start, n; /* grid: offset of source and chain grid in the grid store */
} Entry;

/* The records of nested hints and their cache. A top producer's store outlives its call:
 * on the same state, level 3 reads the static chains that level 2 found, level 5 the
 * dynamic ones of level 4 (what the Python reference's module-wide cache gives). */
typedef struct {
    Recs recs;
    Entry *tab;
    int tcap, tn;
    int *grids;
    int ng, gcap;
} Store;

typedef struct Nest {
    const int *values;
    double deadline;
    int level;
    /* nesting (level >= 2): the rules, their producers, the records and their cache */
    int nrules, rules[2];
    Dyn *inner[2];
    int icands[2][81];
    Store own, *st; /* st: own, or for a top producer the store its calls share */
    Recs tmp;      /* the hints of the rule being computed */
    int *out;      /* the removals of one nested call, as nodes */
    int nout, ocap;
    /* collecting (an inner producer): its hints go to `coll`, rule parents from `osrc` */
    Recs *coll;
    const int *osrc;
    int root_cause;
    /* the best hint so far in `coll` of each set of removals (by removal_set), valid
     * where bstamp[] == bround: SE keeps one hint per set, the first in its order */
    int best[1458], bstamp[1458], bround;
    /* scratch */
    int pmark[CH_KEYS], pstamp;
    uint64_t seen1[8192], seen2[8192];
    int seenst[8192], sstamp;
} Nest;

int recs_push(Recs *R, Rec *rec);
int arena_put(Recs *R, int v);
/* SE's rule parents of one "on" potential of an inner chain (cause: its unit), appended
 * to `R`'s arena unless already there (pmark). 0, or -1 when out of memory. */
int rule_parents_of(Nest *X, Recs *R, const int *src, const int *grid, int key, int cause,
                    int *np);
/* Every static chain of `cands` (cycles and forcing chains, static_chains._static_all) as
 * records into `dest`, rule parents against `osrc` (X's pmark): 0, 1 when the deadline
 * passed, -1 when out of memory. */
int static_hints(const int *cands, const int *osrc, Nest *X, Recs *dest, double deadline);

#endif
