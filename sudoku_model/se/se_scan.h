/* What the scanning searches of the SE rater share across its C files (the tables and hint
 * building of se_core.c, the searches of se_basic.c, se_strong_links.c, se_aligned.c,
 * se_wings.c and the uniqueness searches of se_unique.c, the rating driver of se_rate.c):
 * the kinds of hint, the grid's tables and the searches themselves. A search appends its
 * hints to a Python list (or a Sink) as (kind, rating, eliminations, placement, cells,
 * regions) tuples; `limit` is the number of hints wanted (-1: all). Each returns 0, or -1
 * with a Python exception set. */
#ifndef SE_SCAN_H
#define SE_SCAN_H

#include "se_chains.h"

/* Kinds: the Python side (sudoku_model/se/native.py) names them in this order. */
enum {
    K_FULL_HOUSE, K_HIDDEN_SINGLE, K_DIRECT_POINTING, K_DIRECT_CLAIMING, K_DIRECT_HIDDEN_PAIR,
    K_DIRECT_HIDDEN_TRIPLET, K_NAKED_SINGLE, K_POINTING, K_CLAIMING, K_NAKED_PAIR,
    K_NAKED_TRIPLET, K_NAKED_QUAD, K_HIDDEN_PAIR, K_HIDDEN_TRIPLET, K_HIDDEN_QUAD, K_X_WING,
    K_SWORDFISH, K_JELLYFISH, K_XY_WING, K_XYZ_WING, K_TURBOT_FISH, K_THREE_STRONG_LINKS,
    K_APE, K_ATE, K_WXYZ_WING, K_VWXYZ_WING, K_UVWXYZ_WING, K_TUVWXYZ_WING,
    /* unique loops and rectangles (the name tells the loop size: its cells), BUG */
    K_UNIQUE_LOOP_1, K_UNIQUE_LOOP_2, K_UNIQUE_LOOP_3, K_UNIQUE_LOOP_4, K_BUG_1, K_BUG_2,
    K_BUG_3, K_BUG_4
};

extern u128 PEER[81];       /* a cell's 20 peers as a board */
extern int PEERLIST[81][20]; /* ... ascending */
extern int COMBO[5][126], NCOMBO[5]; /* the masks of 9 bits with k set, ascending */

static inline int ctz128(u128 x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int lowest_digit(int mask) { return __builtin_ctz((unsigned)mask) + 1; }

/* Appends (kind, rating, elims, placement, cells, regions) to `out`; steals `elims`.
 * pc < 0: no placement. */
int emit(PyObject *out, int kind, double rating, PyObject *elims, int pc, int pd,
         const int *cells, int ncells, const int *regions, int nregions);
int emit_s(Sink *s, int kind, double rating, const int *ec, const int *ed, int ne, int pc,
           int pd, const int *cells, int ncells, const int *regions, int nregions);
/* True when `out` holds the `limit` hints asked for (limit < 0: never). */
int full(PyObject *out, Py_ssize_t limit);
int full_s(const Sink *s);
/* Eliminations of one digit from a board of cells, ascending (se_core.c). */
PyObject *board_elims(u128 board, int digit, int *count);
/* The cells of each digit as boards (board[d - 1]; se_basic.c). */
void digit_boards(const int *cands, u128 board[9]);

/* The searches' own tables, filled once by PyInit__core: the crossing regions of the
 * intersections (se_basic.c), the box configurations of the strong links
 * (se_strong_links.c), the forward peers of the wings (se_wings.c). */
void init_crossing(void);
void init_box_configs(void);
void init_forward(void);

int hidden_singles(const int *values, const int *cands, PyObject *out, Py_ssize_t limit);
int naked_singles(const int *cands, PyObject *out, Py_ssize_t limit);
int locking(const int *cands, int direct, Sink *out);
int hidden_sets(const int *values, const int *cands, int degree, int direct, Sink *out);
int naked_sets(const int *values, const int *cands, int degree, Sink *out);
int fish(const int *values, const int *cands, int degree, Sink *out);
int xy_wings(const int *cands, int xyz, PyObject *out, Py_ssize_t limit);
int aligned_exclusion(const int *cands, int degree, PyObject *out, Py_ssize_t limit);
/* Every hint, sorted as SE sorts them (a new list, NULL on error). */
PyObject *turbot_fish(const int *cands);
PyObject *three_strong_links(const int *cands);
PyObject *als_wings(const int *cands, int size);
/* se_unique.c: the unique rectangles and loops of types 1-4 (every hint found, then SE's
 * sort by rating and type), and the bivalue universal grave's hints (types 1-4). */
int unique_loop_hints(const int *values, const int *cands, PyObject *out, Py_ssize_t limit);
int bug_hints(const int *values, const int *cands, PyObject *out, Py_ssize_t limit);
/* Every scanning search by name, with its argument (a degree, or for S_XY 1: XYZ): the
 * one dispatch that the module's functions and the rating loop share (se_core.c). */
enum { S_HIDDEN_SINGLES, S_DIRECT_LOCKING, S_DIRECT_HIDDEN, S_NAKED_SINGLES, S_LOCKING,
       S_NAKED, S_FISH, S_HIDDEN, S_TURBOT, S_XY, S_LOOPS, S_THREE, S_ALS, S_BUG, S_ALIGNED };
/* The hints of one search, at most `limit` of the scans' (-1: all; the sorting searches
 * give all): a new list, NULL with an exception set. */
PyObject *se_search(int search, int arg, const int *values, const int *cands,
                    Py_ssize_t limit);
/* A cell with neither value nor candidate, or a digit twice in a region (se_rate.c). */
int se_broken(const int *values, const int *cands);

#endif
