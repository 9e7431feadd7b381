/* Shared declarations of the native backtracker (C99, no dependency beyond libc).
 *
 * Two solvers live here:
 *   - generic.c: any model (n = 4..25, any all-different units, any "different" pairs,
 *     and the extra constraints below), one 32-bit candidate mask per cell, naked +
 *     hidden singles, fewest-candidates-first branching, an explicit stack so a search
 *     can stop (limit, budget) and resume.
 *   - classic9.c: a fixed-size solver for the classic 9x9 rules only (bands of 27-bit
 *     digit masks, box/row locked candidates per band); used whenever the model is
 *     exactly classic 9x9 and no randomisation or streaming is asked for.
 * Both answer the same question (count up to a limit, keep the first solutions) and
 * are cross-checked in the tests.
 */
#ifndef NB_H
#define NB_H

#include <stdint.h>
#include <stddef.h>

#define NB_MAXN 25
#define NB_MAXC (NB_MAXN * NB_MAXN)
/* Most full units whose hidden singles are swept only when one of their cells changed. */
#define NB_DIRTY_UNITS 256
/* Most locked pairs whose runs are read through segments (see nb_model.lk_rest). */
#define NB_SEG_MAX 1024

/* Search status codes (also exported to Python). */
enum {
    NB_EXHAUSTED = 0,     /* search space exhausted: the count is exact */
    NB_LIMIT = 1,         /* stopped because the limit was reached */
    NB_BUDGET = 2,        /* stopped by the node or time budget */
    NB_CONTRADICTORY = 3, /* two givens clash directly (same digit on peers) */
    NB_INVALID = 4,       /* a value outside 0..n (batch only) */
    NB_INTERRUPTED = 5,   /* stopped by nb_interrupt() (any thread, a signal handler) */
    NB_NOMEM = -1         /* an allocation failed (never a budget answer) */
};

/* The process-wide stop flag: nb_interrupt() makes every search in flight (any thread)
 * stop at its next poll (every NB_POLL_NODES nodes, with the deadline) and return
 * NB_INTERRUPTED; new searches stop at their first poll until nb_clear_interrupt().
 * Relaxed atomics (GCC/Clang builtins, so -std=c99 is enough): the poll is a plain load. */
#define NB_POLL_NODES 256
extern int nb_interrupt_flag;
static inline void nb_interrupt(void) { __atomic_store_n(&nb_interrupt_flag, 1, __ATOMIC_RELAXED); }
static inline void nb_clear_interrupt(void)
{
    __atomic_store_n(&nb_interrupt_flag, 0, __ATOMIC_RELAXED);
}
static inline int nb_interrupted(void) { return __atomic_load_n(&nb_interrupt_flag, __ATOMIC_RELAXED); }

/* Allocation of the search code (generic.c): libc, behind one door so that the test build
 * (NB_TESTING, the module native_backtrack._testing) can make the k-th allocation from
 * now fail (nb_fail_allocation_after) and check that running out of memory is reported as
 * such. */
void *nb_malloc(size_t size);
void *nb_calloc(size_t count, size_t size);
void *nb_realloc(void *ptr, size_t size);
void nb_free(void *ptr);
#ifdef NB_TESTING
/* After `k` more successful allocations the next one fails (once); k < 0 disarms. */
void nb_fail_allocation_after(long k);
#endif

typedef struct {
    int n;            /* digits 1..n */
    int nc;           /* cells n*n */
    uint32_t full;    /* (1<<n)-1 */
    int nunits;
    int nfull;        /* number of units with exactly n cells (hidden singles) */
    int16_t *unit_cells;   /* full units first: nfull*n cells, then the short units */
    int32_t *unit_start;   /* nunits+1 offsets into unit_cells */
    int16_t *peer_cells;   /* every peer of every cell */
    int32_t *peer_start;   /* nc+1 offsets into peer_cells */
    int classic9;     /* 1 when the constraints are exactly classic 9x9 (and maybe a domain) */
    /* Locked candidates: pairs of units (u, v), at least one of n cells, sharing >= 2
     * cells. Pair k has three cell runs in lk_cells: u&v, u-v, v-u, delimited by
     * lk_start[3k .. 3k+3]; lk_full[k] bit 0: u has n cells, bit 1: v has n cells. */
    int nlocked;
    int16_t *lk_cells;
    int32_t *lk_start;
    uint8_t *lk_full;
    /* Dirty-unit tracking (built by nb_model_prepare; dirty_words = 0 without it, or
     * with more than NB_DIRTY_UNITS full units: propagation then sweeps every full unit
     * and checks every pair). cu_mask[c * dirty_words ..]: the full units holding cell c,
     * one bit each; lk_units[2k], lk_units[2k+1]: the units u, v of locked pair k. */
    int dirty_words;
    uint64_t *cu_mask;
    int16_t *lk_units;
    /* Segments (built by nb_model_prepare for at most NB_SEG_MAX pairs; lk_rest = NULL
     * otherwise): segment k is the shared run u&v of pair k. The runs u-v and v-u of pair
     * k are covered, disjointly, by whole segments and single cells: entries
     * lk_rest[lk_rest_start[2k] .. lk_rest_start[2k+1]] (u-v) and
     * [lk_rest_start[2k+1] .. lk_rest_start[2k+2]] (v-u), a segment s as s >= 0, a cell c
     * as -(c+1). So a locked-candidates pass ORs each segment once (on a box and line
     * model: a third of the loads) instead of every cell of every pair; a segment's OR is
     * dropped when one of its cells loses a candidate (the segments of cell c:
     * cs_list[cs_start[c] .. cs_start[c+1]]). */
    /* With one dirty word (at most 64 full units): lk_pmask[k] has the bits of the units
     * u, v of pair k when both are full, else every bit (the pair is always checked). */
    uint64_t *lk_pmask;
    int32_t *lk_rest;
    int32_t *lk_rest_start;
    int32_t *cs_start;
    int32_t *cs_list;
    /* Extra constraints (generic path only; all zero / NULL when absent). The arrays are
     * owned by whoever filled them (core.c: PyMem_Raw), like the unit and peer arrays.
     * has_extra != 0 when there is a relation, a sum, a sandwich or a table: propagate() then
     * runs extra_sweep() once singles are exhausted and checks a full assignment. */
    int has_extra;
    uint32_t *domain;       /* nc initial candidate masks, or NULL (every digit); the only
                             * extra the classic 9x9 path takes (c9_solve's `domain`) */
    /* Binary relations: arc k is cells rel_cells[2k] = a, rel_cells[2k+1] = b under the
     * table at rel_masks + rel_table[k]: 2n masks, [d-1] = digits allowed at b when a
     * holds d, [n+e-1] = digits allowed at a when b holds e. */
    int nrel;
    int16_t *rel_cells;
    int32_t *rel_table;
    uint32_t *rel_masks;
    /* Linear sums: group g is sum of sum_weights[i] * digit(sum_cells[i]) over
     * i in sum_start[g] .. sum_start[g+1]-1, equal to sum_total[g]. sum_mode[g]:
     * 0 = bounds reasoning only; 1 = a distinct group of unit weights whose digit
     * sets (masks) are combos[combo_start[g] .. combo_start[g+1]-1] (maybe none). */
    int nsum;
    int32_t *sum_start;
    int16_t *sum_cells;
    int32_t *sum_weights;
    int64_t *sum_total;
    uint8_t *sum_mode;
    int32_t *combo_start;
    uint32_t *combos;
    /* Sandwiches: the digits strictly between the 1 and the n on line k (cells
     * sand_cells[sand_start[k] .. sand_start[k+1]-1]) sum to sand_total[k]. */
    int nsand;
    int32_t *sand_start;
    int16_t *sand_cells;
    int32_t *sand_total;
    /* Tables (positive table constraints): scope k is the cells tab_cells[tab_start[k] ..
     * tab_start[k+1]-1] (its arity a, at most NB_TAB_MAXARITY), whose digits in order form
     * one of the tab_nrows[k] tuples at tab_rows + tab_off[k], a masks each (bit d-1 =
     * digit d at that position). The scopes of one table share its tuples and their
     * index: for position i and digit d, the tuples with d there are the row numbers
     * tab_idx[tab_ioff[k] + j] for j in b[d-1] .. b[d]-1, b = tab_bucket + tab_boff[k] +
     * i*(n+1) (none for a table without tuples). */
    int ntab;
    int32_t *tab_start;
    int16_t *tab_cells;
    int64_t *tab_off;
    int32_t *tab_nrows;
    uint32_t *tab_rows;
    int64_t *tab_ioff;
    int64_t *tab_boff;
    int32_t *tab_idx;
    int32_t *tab_bucket;
} nb_model;

/* The most cells in one scope of a table. */
#define NB_TAB_MAXARITY 32

/* The masks of the k-digit subsets of 1..n whose digits sum to `total` (bit d-1 =
 * digit d), in increasing order: the first min(count, cap) go to out (NULL when cap is
 * 0). Returns the count, or cap + 1 when there are more than cap. */
size_t nb_combos(int n, int k, int64_t total, uint32_t *out, size_t cap);

typedef struct {
    uint64_t nodes_limit;   /* 0 = none */
    double deadline;        /* absolute monotonic seconds, 0 = none */
} nb_budget;

typedef struct {
    uint64_t nodes;
    uint64_t guesses;
} nb_stats;

double nb_now(void);

/* Build the locked-candidate tables and the full units of each cell of a model whose
 * units are set (malloc'd; 0 on allocation failure) and free them (safe on a zeroed
 * model). */
int nb_model_prepare(nb_model *m);
void nb_model_release(nb_model *m);

/* ---- generic solver ---- */
typedef struct nb_search nb_search;

/* Create a search over `givens` (nc bytes, 0 = empty). `forbidden` holds nforbidden
 * (cell, digit) pairs that are excluded; `avoid` (nc bytes or NULL) is one solution that
 * is skipped (not reported, not counted). randomise != 0 shuffles digit order and
 * tie-breaks from `seed`. Returns NULL on allocation failure. Status NB_CONTRADICTORY is reported by
 * the first nb_search_run when givens clash. */
nb_search *nb_search_new(const nb_model *m, const uint8_t *givens,
                         const int32_t *forbidden, int nforbidden,
                         const uint8_t *avoid, int randomise, uint64_t seed);
void nb_search_free(nb_search *s);
/* Find up to `want` more solutions; each is written (nc bytes, values 1..n) to
 * out + k*nc for the first `keep` of them. Returns a status; *found gets the number
 * found in this call. May be called again after NB_LIMIT, NB_BUDGET, NB_INTERRUPTED or
 * NB_NOMEM to continue. */
int nb_search_run(nb_search *s, uint64_t want, uint8_t *out, uint64_t keep,
                  const nb_budget *budget, uint64_t *found);
void nb_search_stats(const nb_search *s, nb_stats *st);
/* Value order from a hint grid (nc bytes, 0 = none, copied; NULL clears it): at a branch
 * on cell c, hint[c] is tried first when still possible. 0 on allocation failure. */
int nb_search_hint(nb_search *s, const uint8_t *hint);

/* One-shot helper used by the batch: count up to `limit`, keep the first `keep`
 * solutions in out; NB_NOMEM when an allocation fails. Chooses the classic 9x9 fast path when possible (which ignores
 * `hint`, a value order for the generic path, see nb_search_hint; NULL for none). */
int nb_solve(const nb_model *m, const uint8_t *givens, const int32_t *forbidden,
             int nforbidden, const uint8_t *avoid, const uint8_t *hint,
             uint64_t limit, uint8_t *out,
             uint64_t keep, const nb_budget *budget, uint64_t *count, nb_stats *st);

/* nb_solve on the generic path for a caller that keeps, per cell, the digits its peers
 * hold among the givens (`seen`, bit d-1; exact for every empty cell): the givens are
 * taken as placed, without nb_solve's walk over their peers and without the check for
 * clashing givens (the caller's givens must not clash). Same answers, nodes and states. */
int nb_solve_seen(const nb_model *m, const uint8_t *givens, const uint32_t *seen,
                  const int32_t *forbidden, int nforbidden, const uint8_t *avoid,
                  const uint8_t *hint, uint64_t limit, uint8_t *out, uint64_t keep,
                  const nb_budget *budget, uint64_t *count, nb_stats *st);

/* Direct clash among givens (or a value > n): NB_CONTRADICTORY / NB_INVALID / 0. */
int nb_check_givens(const nb_model *m, const uint8_t *givens);

/* ---- classic 9x9 fast path ---- */
void c9_init(void);
/* Same contract as nb_solve for the classic 9x9 rules, the check of the givens included
 * (NB_INVALID, NB_CONTRADICTORY as nb_check_givens); `domain` (81 candidate masks, bit d-1
 * = digit d, as nb_model.domain; NULL: every digit) restricts each cell; `prefer` (81
 * digits, or NULL) is tried first at every branch (the first search then runs). */
int c9_solve(const uint8_t *givens, const uint32_t *domain, const int32_t *forbidden,
             int nforbidden, const uint8_t *avoid, const uint8_t *prefer, uint64_t limit,
             uint8_t *out, uint64_t keep, const nb_budget *budget, uint64_t *count,
             nb_stats *st);

/* The instruction set the classic 9x9 search runs with: "c", "sse2", "popcnt" or "avx2"
 * (see classic9.c; c9_init picks the best the CPU has, or the lower one named by the
 * environment variable SUDOKU_NATIVE_ISA). c9_set_isa returns 0, changing nothing, for a
 * name that is unknown or that this CPU cannot run. A switch for tests and benchmarks: a
 * search in flight keeps the variant it started with. */
const char *c9_isa(void);
int c9_set_isa(const char *name);

/* removal.c: generic.c's randomised search for the classic 9x9 model, the same draws and
 * states with fixed sizes (random full grids for the generator). From the state that
 * nb_search_new built (cand, val, nassigned, the queue of cells to place) and the rng
 * state: NB_LIMIT with the first solution in out (81 bytes), NB_EXHAUSTED, NB_BUDGET or
 * NB_INTERRUPTED; *nodes and *guesses count as generic.c counts. */
int nb_fill9(const uint32_t *cand, const uint8_t *val, int nassigned, const int16_t *queue,
             int qn, uint64_t *rng, const nb_budget *budget, uint64_t *nodes,
             uint64_t *guesses, uint8_t *out);

#endif
