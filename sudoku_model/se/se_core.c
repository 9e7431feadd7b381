/* The technique searches of the SE rater in C: sudoku_model.se._core (typed wrapper:
 * sudoku_model.se.native).
 *
 * The Python code of tests/se_reference is the readable reference: every function here
 * returns the hints of its Python twin, in the same order and the same form (a test
 * compares both on every step of a sample of rated puzzles). Sudoku Explainer applies the
 * first hint of the first technique that has one, so the order is part of the answer, not
 * a detail: each search below walks regions, digits and combinations in the order the
 * Python code does, and the techniques whose hints SE sorts are sorted with the same key.
 *
 * The state is the rater's: cands[81], a 9-bit candidate mask per cell (0 for a filled
 * cell), and where a technique needs them values[81] (0 for an empty cell). Regions are
 * numbered as SE numbers them: 0-8 boxes, 9-17 rows, 18-26 columns. Sets of cells are
 * 128-bit boards (bit c = cell c).
 *
 * A hint comes back as a tuple (kind, rating, eliminations, placement, cells, regions):
 * kind indexes the Python side's table of names, eliminations is a tuple of (cell, digit),
 * placement a (cell, digit) or None. Functions that scan (no sorting) take `limit`, the
 * number of hints wanted (-1: all): the rater wants one, a dynamic chain "+" all.
 *
 * Written for GCC and Clang (unsigned __int128, __builtin_ctzll), like the backtracker's
 * native_backtrack/classic9.c.
 */
#include "se_scan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


int REG[27][9];
int CREG[81][3];
u128 REGMASK[27];
u128 PEER[81];
int PEERLIST[81][20];
int POP[512];
int COMBO[5][126], NCOMBO[5]; /* the masks of 9 bits with k set, ascending */

static void init_tables(void)
{
    for (int b = 0; b < 9; b++)
        for (int i = 0; i < 9; i++)
            REG[b][i] = (3 * (b / 3) + i / 3) * 9 + 3 * (b % 3) + i % 3;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            REG[9 + r][c] = r * 9 + c;
            REG[18 + c][r] = r * 9 + c;
        }
    for (int c = 0; c < 81; c++) {
        CREG[c][0] = 3 * (c / 27) + (c % 9) / 3;
        CREG[c][1] = 9 + c / 9;
        CREG[c][2] = 18 + c % 9;
    }
    for (int r = 0; r < 27; r++) {
        REGMASK[r] = 0;
        for (int i = 0; i < 9; i++)
            REGMASK[r] |= BIT128(REG[r][i]);
    }
    for (int c = 0; c < 81; c++) {
        PEER[c] = (REGMASK[CREG[c][0]] | REGMASK[CREG[c][1]] | REGMASK[CREG[c][2]]) & ~BIT128(c);
        int n = 0;
        for (int p = 0; p < 81; p++)
            if (PEER[c] & BIT128(p))
                PEERLIST[c][n++] = p;
    }
    for (int m = 0; m < 512; m++)
        POP[m] = __builtin_popcount((unsigned)m);
    for (int m = 0; m < 512; m++)
        if (POP[m] < 5)
            COMBO[POP[m]][NCOMBO[POP[m]]++] = m;
}

static u128 FORWARD[81];

static void init_forward(void)
{
    /* the peers of a cell with a higher index (SE's "forward visible" cells) */
    for (int c = 0; c < 81; c++)
        FORWARD[c] = PEER[c] & ~((BIT128(c) << 1) - 1);
}


/* ---- arguments ---------------------------------------------------------------------- */

/* Reads 81 ints in [0, top] from a sequence; 0 on success, -1 with an exception set. */
int read81(PyObject *seq, int out[81], int top, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 81) {
        PyErr_Format(PyExc_ValueError, "%s: 81 cells expected", what);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int i = 0; i < 81; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > top) {
            PyErr_Format(PyExc_ValueError, "%s: cell %d holds %ld, outside 0..%d", what, i, v,
                         top);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* ---- building hints ----------------------------------------------------------------- */

PyObject *int_tuple(const int *v, int n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

PyObject *pair_tuple(int a, int b) { return Py_BuildValue("(ii)", a, b); }

PyObject *elims_tuple(const int *cells, const int *digits, int n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = pair_tuple(cells[i], digits[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* Eliminations of one digit from a board of cells, ascending. */
static PyObject *board_elims(u128 board, int digit, int *count)
{
    int cells[81], digits[81], n = 0;
    while (board) {
        int c = ctz128(board);
        board &= board - 1;
        cells[n] = c;
        digits[n++] = digit;
    }
    if (count)
        *count = n;
    return elims_tuple(cells, digits, n);
}

/* Appends (kind, rating, elims, placement, cells, regions) to `out`; steals `elims`.
 * pc < 0: no placement. 0 on success, -1 on error. */
int emit(PyObject *out, int kind, double rating, PyObject *elims, int pc, int pd,
                const int *cells, int ncells, const int *regions, int nregions)
{
    if (elims == NULL)
        return -1;
    PyObject *placement, *ct, *rt;
    if (pc >= 0) {
        placement = pair_tuple(pc, pd);
    } else {
        placement = Py_None;
        Py_INCREF(placement);
    }
    ct = int_tuple(cells, ncells);
    rt = int_tuple(regions, nregions);
    PyObject *hint = NULL;
    if (placement && ct && rt)
        hint = Py_BuildValue("(idNNNN)", kind, rating, elims, placement, ct, rt);
    else {
        Py_DECREF(elims);
        Py_XDECREF(placement);
        Py_XDECREF(ct);
        Py_XDECREF(rt);
    }
    if (hint == NULL)
        return -1;
    int rc = PyList_Append(out, hint);
    Py_DECREF(hint);
    return rc;
}

/* True when `out` holds the `limit` hints asked for (limit < 0: never). */
int full(PyObject *out, Py_ssize_t limit)
{
    return limit >= 0 && PyList_GET_SIZE(out) >= limit;
}


int emit_s(Sink *s, int kind, double rating, const int *ec, const int *ed, int ne, int pc,
                  int pd, const int *cells, int ncells, const int *regions, int nregions)
{
    if (s->list)
        return emit(s->list, kind, rating, elims_tuple(ec, ed, ne), pc, pd, cells, ncells,
                    regions, nregions);
    if (s->nraw == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        RawHint *raw = realloc(s->raw, sizeof(RawHint) * cap);
        if (raw == NULL)
            return -1;
        s->raw = raw;
        s->cap = cap;
    }
    RawHint *h = &s->raw[s->nraw++];
    h->kind = kind;
    h->ne = ne;
    memcpy(h->ec, ec, sizeof(int) * ne);
    memcpy(h->ed, ed, sizeof(int) * ne);
    h->nc = ncells < 16 ? ncells : 16;
    memcpy(h->cells, cells, sizeof(int) * h->nc);
    h->nr = nregions < 8 ? nregions : 8;
    if (h->nr)
        memcpy(h->regions, regions, sizeof(int) * h->nr);
    return 0;
}

int full_s(const Sink *s) { return s->list && full(s->list, s->limit); }

/* The mask of positions (bit i: position i of the region) that hold `bit`. */
static inline int position_mask(const int *cands, int region, int bit)
{
    int m = 0;
    for (int i = 0; i < 9; i++)
        if (cands[REG[region][i]] & bit)
            m |= 1 << i;
    return m;
}

static inline int empty_count(const int *values, int region)
{
    int n = 0;
    for (int i = 0; i < 9; i++)
        n += values[REG[region][i]] == 0;
    return n;
}

/* SE scans boxes, then columns, then rows for singles and subsets. */
static const int SCAN_TYPES[3] = {0, 2, 1};

/* ---- singles (basic.hidden_singles, basic.naked_singles) ----------------------------- */

int hidden_singles(const int *values, const int *cands, PyObject *out, Py_ssize_t limit)
{
    for (int alone_only = 1; alone_only >= 0; alone_only--)
        for (int t = 0; t < 3; t++) {
            int rtype = SCAN_TYPES[t];
            for (int r = 9 * rtype; r < 9 * rtype + 9; r++) {
                int empty = empty_count(values, r);
                if (empty == 0)
                    continue;
                int alone = empty == 1;
                if (alone != alone_only)
                    continue;
                int once = 0, twice = 0; /* the digits with one place, with two or more */
                for (int i = 0; i < 9; i++) {
                    int m = cands[REG[r][i]];
                    twice |= once & m;
                    once |= m;
                }
                for (int m = once & ~twice; m; m &= m - 1) {
                    int d = __builtin_ctz((unsigned)m) + 1, bit = m & -m, found = -1;
                    for (int i = 0; i < 9; i++)
                        if (cands[REG[r][i]] & bit) {
                            found = REG[r][i];
                            break;
                        }
                    int kind = alone ? K_FULL_HOUSE : K_HIDDEN_SINGLE;
                    double rating = alone ? 1.0 : (rtype == 0 ? 1.2 : 1.5);
                    if (emit(out, kind, rating, PyTuple_New(0), found, d, &found, 1, NULL, 0))
                        return -1;
                    if (full(out, limit))
                        return 0;
                }
            }
        }
    return 0;
}

int naked_singles(const int *cands, PyObject *out, Py_ssize_t limit)
{
    for (int c = 0; c < 81; c++) {
        int m = cands[c];
        if (m && POP[m] == 1) {
            if (emit(out, K_NAKED_SINGLE, 2.3, PyTuple_New(0), c, lowest_digit(m), &c, 1, NULL,
                     0))
                return -1;
            if (full(out, limit))
                return 0;
        }
    }
    return 0;
}

/* ---- intersections (basic._locking) ------------------------------------------------- */

static const int LOCKING_PAIRS[4][2] = {{0, 2}, {0, 1}, {2, 0}, {1, 0}};

/* CROSS[r][t]: the regions of type t that share cells with region r, ascending (NCROSS of
 * them: 3 between a box and a line, 0 or 9 between two lines, 1 for r's own type). */
static int CROSS[27][3][9], NCROSS[27][3];

static void init_crossing(void)
{
    for (int r1 = 0; r1 < 27; r1++)
        for (int t = 0; t < 3; t++) {
            NCROSS[r1][t] = 0;
            for (int r2 = 9 * t; r2 < 9 * t + 9; r2++)
                if (REGMASK[r1] & REGMASK[r2])
                    CROSS[r1][t][NCROSS[r1][t]++] = r2;
        }
}

/* The cells of each digit as boards (board[d - 1]). */
static void digit_boards(const int *cands, u128 board[9])
{
    memset(board, 0, 9 * sizeof(u128));
    for (int c = 0; c < 81; c++)
        for (int m = cands[c]; m; m &= m - 1)
            board[__builtin_ctz((unsigned)m)] |= BIT128(c);
}

/* The cells of a board, ascending (a region's order is ascending too); their count. */
static int board_cells(u128 b, int *cells)
{
    int n = 0;
    while (b) {
        cells[n++] = ctz128(b);
        b &= b - 1;
    }
    return n;
}

int locking(const int *cands, int direct, Sink *out)
{
    u128 board[9];
    digit_boards(cands, board);
    for (int p = 0; p < 4; p++) {
        int t1 = LOCKING_PAIRS[p][0], t2 = LOCKING_PAIRS[p][1];
        for (int d = 1; d <= 9; d++) {
            int bit = 1 << (d - 1);
            u128 bd = board[d - 1];
            for (int r1 = 9 * t1; r1 < 9 * t1 + 9; r1++) {
                if (out->rem && !(out->rem[r1] & bit))
                    continue; /* a chain "+": r1 must have lost d to the chain */
                u128 b1 = bd & REGMASK[r1];
                if (!b1 || !(b1 & (b1 - 1)))
                    continue; /* fewer than two places */
                for (int k = 0; k < NCROSS[r1][t2]; k++) {
                    int r2 = CROSS[r1][t2][k];
                    if (b1 & ~REGMASK[r2])
                        continue;
                    u128 victims = bd & REGMASK[r2] & ~REGMASK[r1];
                    if (!victims)
                        continue;
                    int ec[9], ed[9], ne = board_cells(victims, ec), pos1[9],
                        n1 = board_cells(b1, pos1);
                    for (int i = 0; i < ne; i++)
                        ed[i] = d;
                    if (direct) {
                        int kind = t1 == 0 ? K_DIRECT_POINTING : K_DIRECT_CLAIMING;
                        double rating = t1 == 0 ? 1.7 : 1.9;
                        for (int j = 0; j < NCROSS[r2][t1]; j++) {
                            int r3 = CROSS[r2][t1][j];
                            if (r3 == r1)
                                continue;
                            u128 b3 = bd & REGMASK[r3], rest = b3 & ~REGMASK[r2];
                            /* two places or more, one of them outside r2 */
                            if (!(b3 & (b3 - 1)) || !rest || (rest & (rest - 1)))
                                continue;
                            if (emit_s(out, kind, rating, ec, ed, ne, ctz128(rest), d, pos1,
                                       n1, NULL, 0))
                                return -1;
                            if (full_s(out))
                                return 0;
                        }
                    } else {
                        int kind = t1 == 0 ? K_POINTING : K_CLAIMING;
                        double rating = t1 == 0 ? 2.6 : 2.8;
                        int regions[2] = {r1, r2};
                        if (emit_s(out, kind, rating, ec, ed, ne, -1, 0, pos1, n1, regions, 2))
                            return -1;
                        if (full_s(out))
                            return 0;
                    }
                }
            }
        }
    }
    return 0;
}

/* ---- subsets (basic._hidden_sets, basic.naked_sets) --------------------------------- */

int hidden_sets(const int *values, const int *cands, int degree, int direct, Sink *out)
{
    static const int KIND[5] = {0, 0, K_HIDDEN_PAIR, K_HIDDEN_TRIPLET, K_HIDDEN_QUAD};
    static const double RATING[5] = {0, 0, 3.4, 4.0, 5.4};
    for (int t = 0; t < 3; t++) {
        int rtype = SCAN_TYPES[t];
        for (int r = 9 * rtype; r < 9 * rtype + 9; r++) {
            if (out->rem && !out->rem[r])
                continue; /* a chain "+" (see Sink): nothing lost in the region */
            int empty = empty_count(values, r);
            if (!(empty > 2 * degree || (direct && empty > degree)))
                continue;
            int pos[9] = {0}, usable = 0; /* digits with 2..degree places */
            for (int i = 0; i < 9; i++)
                for (int m = cands[REG[r][i]]; m; m &= m - 1)
                    pos[__builtin_ctz((unsigned)m)] |= 1 << i;
            for (int i = 0; i < 9; i++)
                if (POP[pos[i]] > 1 && POP[pos[i]] <= degree)
                    usable |= 1 << i;
            if (POP[usable] < degree)
                continue;
            /* SE's combinations, by increasing mask value: those of `usable` (a digit with
             * one place, or more than `degree`, fails the test below) */
            for (int vmask = usable & -usable; vmask; vmask = (vmask - usable) & usable) {
                if (POP[vmask] != degree)
                    continue;
                if (out->rem && !(out->rem[r] & vmask))
                    continue; /* no chain removal of these digits in the region */
                int uni = 0;
                for (int m = vmask; m; m &= m - 1)
                    uni |= pos[__builtin_ctz((unsigned)m)];
                if (POP[uni] != degree)
                    continue;
                int set_cells[9], ns = 0, ec[81], ed[81], ne = 0;
                for (int i = 0; i < 9; i++)
                    if (uni >> i & 1)
                        set_cells[ns++] = REG[r][i];
                for (int k = 0; k < ns; k++) {
                    int rest = cands[set_cells[k]] & ~vmask;
                    for (int d = 1; d <= 9; d++)
                        if (rest >> (d - 1) & 1) {
                            ec[ne] = set_cells[k];
                            ed[ne++] = d;
                        }
                }
                if (direct) {
                    for (int d = 1; d <= 9; d++) {
                        if (vmask >> (d - 1) & 1)
                            continue;
                        int m = pos[d - 1];
                        if (POP[m] > 1) {
                            int rest = m & ~uni;
                            if (POP[rest] == 1) {
                                if (ne) {
                                    int target = REG[r][__builtin_ctz((unsigned)rest)];
                                    int kind = degree == 2 ? K_DIRECT_HIDDEN_PAIR
                                                           : K_DIRECT_HIDDEN_TRIPLET;
                                    if (emit_s(out, kind, degree == 2 ? 2.0 : 2.5,
                                             ec, ed, ne, target, d, set_cells, ns,
                                             NULL, 0))
                                        return -1;
                                    if (full_s(out))
                                        return 0;
                                }
                                break;
                            }
                        }
                    }
                    continue;
                }
                if (ne) {
                    if (emit_s(out, KIND[degree], RATING[degree], ec, ed, ne, -1, 0,
                             set_cells, ns, &r, 1))
                        return -1;
                    if (full_s(out))
                        return 0;
                }
            }
        }
    }
    return 0;
}

int naked_sets(const int *values, const int *cands, int degree, Sink *out)
{
    static const int KIND[5] = {0, 0, K_NAKED_PAIR, K_NAKED_TRIPLET, K_NAKED_QUAD};
    static const double RATING[5] = {0, 0, 3.0, 3.6, 5.0};
    for (int t = 0; t < 3; t++) {
        int rtype = SCAN_TYPES[t];
        for (int r = 9 * rtype; r < 9 * rtype + 9; r++) {
            if (empty_count(values, r) < 2 * degree)
                continue;
            if (out->rem && !out->rem[r])
                continue; /* no chain removal in the region */
            /* the positions a set can use: 2..degree candidates */
            int usable = 0;
            for (int i = 0; i < 9; i++) {
                int n = POP[cands[REG[r][i]]];
                if (n > 1 && n <= degree)
                    usable |= 1 << i;
            }
            if (POP[usable] < degree)
                continue;
            /* the subsets of `usable` of `degree` positions, by increasing mask value (SE's
             * order of combinations; the others fail the test below) */
            for (int combo = usable & -usable; combo; combo = (combo - usable) & usable) {
                if (POP[combo] != degree)
                    continue;
                int uni = 0;
                for (int m = combo; m; m &= m - 1)
                    uni |= cands[REG[r][__builtin_ctz((unsigned)m)]];
                if (POP[uni] != degree)
                    continue;
                int ec[81], ed[81], ne = 0;
                u128 chosen = 0;
                for (int i = 0; i < 9; i++)
                    if (combo >> i & 1)
                        chosen |= BIT128(REG[r][i]);
                for (int i = 0; i < 9; i++) {
                    int c = REG[r][i];
                    if (chosen & BIT128(c))
                        continue;
                    int m = cands[c] & uni;
                    for (int d = 1; d <= 9; d++)
                        if (m >> (d - 1) & 1) {
                            ec[ne] = c;
                            ed[ne++] = d;
                        }
                }
                if (!ne)
                    continue;
                int cells[9], nc = 0;
                while (chosen) {
                    cells[nc++] = ctz128(chosen);
                    chosen &= chosen - 1;
                }
                if (emit_s(out, KIND[degree], RATING[degree], ec, ed, ne, -1, 0, cells,
                         nc, &r, 1))
                    return -1;
                if (full_s(out))
                    return 0;
            }
        }
    }
    return 0;
}

/* ---- basic fish (basic.fish) -------------------------------------------------------- */

int fish(const int *values, const int *cands, int degree, Sink *out)
{
    static const int KIND[5] = {0, 0, K_X_WING, K_SWORDFISH, K_JELLYFISH};
    static const double RATING[5] = {0, 0, 3.2, 3.8, 5.2};
    int placed[10] = {0};
    for (int c = 0; c < 81; c++)
        placed[values[c]]++;
    static const int TYPES[2][2] = {{2, 1}, {1, 2}};
    for (int p = 0; p < 2; p++) {
        int bt = TYPES[p][0], ct = TYPES[p][1];
        /* the digits worth a look: few enough placed, and for a chain "+" (see Sink) lost
         * to the chain in some line of the base type */
        int want = 0, lines_lost = 0, pos[10][9];
        for (int i = 0; i < 9; i++)
            lines_lost |= out->rem ? out->rem[9 * bt + i] : 511;
        for (int d = 1; d <= 9; d++)
            if (placed[d] + degree * 2 <= 9 && (lines_lost >> (d - 1) & 1)) {
                want |= 1 << (d - 1);
                for (int i = 0; i < 9; i++)
                    pos[d][i] = position_mask(cands, 9 * bt + i, 1 << (d - 1));
            }
        /* per digit, the base lines a fish can use (2..degree places), and all of them */
        int usable[10] = {0}, any = 0;
        for (int d = 1; d <= 9; d++)
            if (want >> (d - 1) & 1) {
                for (int i = 0; i < 9; i++)
                    if (POP[pos[d][i]] > 1 && POP[pos[d][i]] <= degree)
                        usable[d] |= 1 << i;
                if (POP[usable[d]] >= degree)
                    any |= usable[d];
            }
        for (int ci = 0; ci < NCOMBO[degree]; ci++) {
            int base_mask = COMBO[degree][ci], lost = 511;
            if (base_mask & ~any)
                continue;
            if (out->rem) { /* a chain "+": a base line must have lost d to the chain */
                lost = 0;
                for (int i = 0; i < 9; i++)
                    if (base_mask >> i & 1)
                        lost |= out->rem[9 * bt + i];
            }
            for (int d = 1; d <= 9; d++) {
                if (!(want & lost & (1 << (d - 1))) || (base_mask & ~usable[d]))
                    continue;
                int uni = 0;
                for (int m = base_mask; m; m &= m - 1)
                    uni |= pos[d][__builtin_ctz((unsigned)m)];
                if (POP[uni] != degree)
                    continue;
                int bit = 1 << (d - 1), ec[81], ed[81], ne = 0;
                for (int j = 0; j < 9; j++)
                    if (uni >> j & 1)
                        for (int i = 0; i < 9; i++) {
                            int c = REG[9 * ct + j][i];
                            if (!(base_mask >> i & 1) && (cands[c] & bit)) {
                                ec[ne] = c;
                                ed[ne++] = d;
                            }
                        }
                if (!ne)
                    continue;
                int cells[16], nc = 0, lines[8], nl = 0;
                for (int i = 0; i < 9; i++)
                    if (base_mask >> i & 1) {
                        for (int j = 0; j < 9; j++) {
                            int c = REG[9 * bt + i][j];
                            if ((uni >> j & 1) && (cands[c] & bit))
                                cells[nc++] = c;
                        }
                        lines[nl++] = 9 * bt + i;
                    }
                for (int j = 0; j < 9; j++)
                    if (uni >> j & 1)
                        lines[nl++] = 9 * ct + j;
                if (emit_s(out, KIND[degree], RATING[degree], ec, ed, ne, -1, 0, cells,
                         nc, lines, nl))
                    return -1;
                if (full_s(out))
                    return 0;
            }
        }
    }
    return 0;
}

/* ---- XY- and XYZ-wings (basic.xy_wings) --------------------------------------------- */

int xy_wings(const int *cands, int xyz, PyObject *out, Py_ssize_t limit)
{
    int target = xyz ? 3 : 2;
    for (int xy = 0; xy < 81; xy++) {
        int xyv = cands[xy];
        if (POP[xyv] != target)
            continue;
        for (int a = 0; a < 20; a++) {
            int xz = PEERLIST[xy][a], xzv = cands[xz];
            if (POP[xzv] != 2 || POP[xyv & ~xzv] != 1)
                continue;
            for (int b = 0; b < 20; b++) {
                int yz = PEERLIST[xy][b], yzv = cands[yz];
                if (POP[yzv] != 2)
                    continue;
                int uni = xyv | xzv | yzv, inter = xyv & xzv & yzv;
                if (POP[uni] != 3)
                    continue;
                if (xyz ? POP[inter] != 1 : inter != 0)
                    continue;
                int zd = lowest_digit(xzv & yzv), zbit = 1 << (zd - 1);
                u128 victims = PEER[xz] & PEER[yz];
                if (xyz)
                    victims &= PEER[xy];
                victims &= ~(BIT128(xy) | BIT128(xz) | BIT128(yz));
                u128 hit = 0;
                for (u128 v = victims; v; v &= v - 1) {
                    int c = ctz128(v);
                    if (cands[c] & zbit)
                        hit |= BIT128(c);
                }
                if (!hit)
                    continue;
                int cells[3] = {xy, xz, yz};
                if (emit(out, xyz ? K_XYZ_WING : K_XY_WING, xyz ? 4.4 : 4.2,
                         board_elims(hit, zd, NULL), -1, 0, cells, 3, NULL, 0))
                    return -1;
                if (full(out, limit))
                    return 0;
            }
        }
    }
    return 0;
}

/* ---- strong links (strong_links.py) ------------------------------------------------- */

typedef struct {
    int n;
    int cell[3];
    int row, col, box; /* the region holding every cell, or -1 */
} Group;

typedef struct {
    Group g[2];
    int grouped;
} Link;

static void group_init(Group *g, const int *cells, int n)
{
    g->n = n;
    g->row = CREG[cells[0]][1];
    g->col = CREG[cells[0]][2];
    g->box = CREG[cells[0]][0];
    for (int i = 0; i < n; i++) {
        g->cell[i] = cells[i];
        if (CREG[cells[i]][1] != g->row)
            g->row = -1;
        if (CREG[cells[i]][2] != g->col)
            g->col = -1;
        if (CREG[cells[i]][0] != g->box)
            g->box = -1;
    }
}

/* The first region (column, row, box) holding every cell of both groups, or -1. */
static inline int share_region(const Group *a, const Group *b)
{
    if (a->col >= 0 && a->col == b->col)
        return a->col;
    if (a->row >= 0 && a->row == b->row)
        return a->row;
    if (a->box >= 0 && a->box == b->box)
        return a->box;
    return -1;
}

/* Box position e 0-8 of the heart: (positions off its row and column, its column part
 * without it, its row part without it); e 9-14: (the empty line, the two other lines). */
static int BOX_CONFIGS[15][3][5]; /* [config][part][0] = count, then up to 4 positions */
static const int LINE_CONFIGS[3][3][3] = {
    {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}},
    {{3, 4, 5}, {0, 1, 2}, {6, 7, 8}},
    {{6, 7, 8}, {0, 1, 2}, {3, 4, 5}},
};

static void init_box_configs(void)
{
    static const int LINES[6][3][3] = {
        {{6, 7, 8}, {0, 1, 2}, {3, 4, 5}}, {{3, 4, 5}, {0, 1, 2}, {6, 7, 8}},
        {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, {{2, 5, 8}, {0, 3, 6}, {1, 4, 7}},
        {{1, 4, 7}, {0, 3, 6}, {2, 5, 8}}, {{0, 3, 6}, {1, 4, 7}, {2, 5, 8}},
    };
    for (int e = 0; e < 9; e++) {
        int *off = BOX_CONFIGS[e][0], *colp = BOX_CONFIGS[e][1], *rowp = BOX_CONFIGS[e][2];
        off[0] = colp[0] = rowp[0] = 0;
        for (int i = 0; i < 9; i++) {
            if (i / 3 != e / 3 && i % 3 != e % 3)
                off[1 + off[0]++] = i;
            if (i % 3 == e % 3 && i != e)
                colp[1 + colp[0]++] = i;
            if (i / 3 == e / 3 && i != e)
                rowp[1 + rowp[0]++] = i;
        }
    }
    for (int k = 0; k < 6; k++)
        for (int part = 0; part < 3; part++) {
            BOX_CONFIGS[9 + k][part][0] = 3;
            for (int i = 0; i < 3; i++)
                BOX_CONFIGS[9 + k][part][1 + i] = LINES[k][part][i];
        }
}

/* strong_links._links: the strong links of `digit` in `region` (at most 2), in SE's order;
 * *found = the candidate cells of the region. */
static int region_links(const int *cands, int region, int digit, int three, Link *links,
                        u128 *found)
{
    int bit = 1 << (digit - 1);
    const int *cells = REG[region];
    int pos[9], n = 0, pset = 0;
    u128 f = 0;
    for (int i = 0; i < 9; i++)
        if (cands[cells[i]] & bit) {
            pos[n++] = i;
            pset |= 1 << i;
            f |= BIT128(cells[i]);
        }
    *found = f;
    int box = region < 9;
    if (n < 2 || n > 6 || (box && n > 5 && !three))
        return 0;
    if (n == 2) {
        int a = cells[pos[0]], b = cells[pos[1]];
        if (three && box && (a / 9 == b / 9 || a % 9 == b % 9))
            return 0;
        group_init(&links[0].g[0], &a, 1);
        group_init(&links[0].g[1], &b, 1);
        links[0].grouped = 0;
        return 1;
    }
    int nconfigs = box ? (three && n >= 4 ? 15 : 9) : 3;
    int e = -1, blade1[3], nb1 = 0, blade2[3], nb2 = 0;
    for (int k = 0; k < nconfigs; k++) {
        const int *empty, *part1, *part2;
        int ne, np1, np2;
        if (box) {
            empty = BOX_CONFIGS[k][0] + 1;
            ne = BOX_CONFIGS[k][0][0];
            part1 = BOX_CONFIGS[k][1] + 1;
            np1 = BOX_CONFIGS[k][1][0];
            part2 = BOX_CONFIGS[k][2] + 1;
            np2 = BOX_CONFIGS[k][2][0];
        } else {
            empty = LINE_CONFIGS[k][0];
            part1 = LINE_CONFIGS[k][1];
            part2 = LINE_CONFIGS[k][2];
            ne = np1 = np2 = 3;
        }
        int hit = 0;
        for (int i = 0; i < ne; i++)
            hit |= pset >> empty[i] & 1;
        if (hit)
            continue;
        e = k;
        for (int i = 0; i < np1; i++)
            if (pset >> part1[i] & 1)
                blade1[nb1++] = part1[i];
        for (int i = 0; i < np2; i++)
            if (pset >> part2[i] & 1)
                blade2[nb2++] = part2[i];
        break;
    }
    if (e < 0 || !nb1 || !nb2)
        return 0;
    int heart_ok = box && e < 9;
    int nl = 0;
    if (nb1 == 1 || nb2 == 1) {
        if (three && nb1 == 1 && nb2 == 1)
            return 0; /* both blades one cell: the heart holds the digit too */
        for (int s = 0; s < 2; s++) {
            const int *single = s ? blade2 : blade1, *other = s ? blade1 : blade2;
            int ns = s ? nb2 : nb1, no = s ? nb1 : nb2;
            if (ns != 1)
                continue;
            /* the other group: the line through the heart (in a box) or the other segment;
             * SE keeps the heart's position in it even without a candidate there */
            int g[4], ng = 0;
            for (int i = 0; i < no; i++)
                g[ng++] = cells[other[i]];
            if (heart_ok)
                g[ng++] = cells[e];
            for (int i = 1; i < ng; i++) /* sort ascending */
                for (int j = i; j > 0 && g[j - 1] > g[j]; j--) {
                    int tmp = g[j];
                    g[j] = g[j - 1];
                    g[j - 1] = tmp;
                }
            int one = cells[single[0]];
            group_init(&links[nl].g[0], &one, 1);
            group_init(&links[nl].g[1], g, ng);
            links[nl++].grouped = 1;
        }
        return nl;
    }
    if (heart_ok && (pset >> e & 1))
        return 0; /* the heart is in neither blade: not a strong link */
    int g1[3], g2[3];
    for (int i = 0; i < nb1; i++)
        g1[i] = cells[blade1[i]];
    for (int i = 0; i < nb2; i++)
        g2[i] = cells[blade2[i]];
    group_init(&links[0].g[0], g1, nb1);
    group_init(&links[0].g[1], g2, nb2);
    links[0].grouped = 1;
    nl = 1;
    if (three && box && e >= 9 && n == 4 && nb1 == 2 && nb2 == 2) {
        int a = blade1[0], b = blade1[1], c = blade2[0], d = blade2[1];
        if ((a % 3 == c % 3 && b % 3 == d % 3) || (a / 3 == c / 3 && b / 3 == d / 3)) {
            int h1[2] = {cells[a], cells[c]}, h2[2] = {cells[b], cells[d]};
            group_init(&links[1].g[0], h1, 2);
            group_init(&links[1].g[1], h2, 2);
            links[1].grouped = 1;
            nl = 2;
        }
    }
    return nl;
}

/* The cells that see every cell of both groups and hold the digit (`dcells`), outside the
 * excluded regions. */
static inline u128 link_victims(u128 dcells, const Group *start, const Group *end,
                                const int *excluded, int nex)
{
    u128 seen = dcells;
    for (int i = 0; i < start->n; i++)
        seen &= PEER[start->cell[i]];
    for (int i = 0; i < end->n; i++)
        seen &= PEER[end->cell[i]];
    for (int i = 0; i < nex; i++)
        seen &= ~REGMASK[excluded[i]];
    return seen;
}

/* A found strong-link hint, sorted before it becomes a Python object. */
typedef struct {
    int r10;    /* rating in tenths */
    int nelim;
    int suffix; /* SE's suffix as a number (same length: same order as the strings) */
    int idx;    /* discovery order */
    int digit;
    int ncells;
    u128 elims;
    int cells[18];
} SLHint;

typedef struct {
    SLHint *items;
    int n, cap;
} SLHints;

static SLHint *sl_push(SLHints *h)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 32;
        SLHint *grown = realloc(h->items, (size_t)cap * sizeof(SLHint));
        if (grown == NULL)
            return NULL;
        h->items = grown;
        h->cap = cap;
    }
    SLHint *x = &h->items[h->n];
    x->idx = h->n++;
    return x;
}

static int sl_cmp(const void *pa, const void *pb)
{
    const SLHint *a = pa, *b = pb;
    if (a->r10 != b->r10)
        return a->r10 < b->r10 ? -1 : 1;
    if (a->nelim != b->nelim)
        return a->nelim > b->nelim ? -1 : 1; /* more eliminations first */
    if (a->suffix != b->suffix)
        return a->suffix < b->suffix ? -1 : 1;
    return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

static PyObject *sl_finish(SLHints *h, int kind)
{
    qsort(h->items, (size_t)h->n, sizeof(SLHint), sl_cmp);
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < h->n; i++) {
        SLHint *x = &h->items[i];
        if (emit(out, kind, x->r10 / 10.0, board_elims(x->elims, x->digit, NULL), -1, 0,
                 x->cells, x->ncells, NULL, 0)) {
            Py_CLEAR(out);
        }
    }
    free(h->items);
    return out;
}

static inline int add_group_cells(int *cells, int n, const Group *g)
{
    for (int i = 0; i < g->n; i++)
        cells[n++] = g->cell[i];
    return n;
}

static inline int popcount128(u128 x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static const int TURBOT_TYPES[5][2] = {{1, 1}, {2, 2}, {2, 1}, {1, 0}, {2, 0}};
static const int TURBOT_R10[5] = {40, 40, 41, 42, 42};

PyObject *turbot_fish(const int *cands)
{
    SLHints h = {NULL, 0, 0};
    Link links[9][27][2];
    int nlinks[9][27];
    u128 found[9][27], dcells[9];
    for (int d = 1; d <= 9; d++) {
        dcells[d - 1] = 0;
        for (int c = 0; c < 81; c++)
            if (cands[c] >> (d - 1) & 1)
                dcells[d - 1] |= BIT128(c);
        for (int r = 0; r < 27; r++)
            nlinks[d - 1][r] =
                region_links(cands, r, d, 0, links[d - 1][r], &found[d - 1][r]);
    }
    for (int t = 0; t < 5; t++) {
        int bt = TURBOT_TYPES[t][0], ct = TURBOT_TYPES[t][1];
        for (int d = 1; d <= 9; d++) {
            for (int i1 = 0; i1 < 9; i1++) {
                int base = 9 * bt + i1;
                for (int a = 0; a < nlinks[d - 1][base]; a++) {
                    const Link *lb = &links[d - 1][base][a];
                    int first = bt == ct ? i1 + 1 : 0;
                    for (int i2 = first; i2 < 9; i2++) {
                        int cover = 9 * ct + i2;
                        if (!nlinks[d - 1][cover] || (found[d - 1][base] & found[d - 1][cover]))
                            continue;
                        for (int b = 0; b < nlinks[d - 1][cover]; b++) {
                            const Link *lc = &links[d - 1][cover][b];
                            for (int s = 0; s < 2; s++)
                                for (int u = 0; u < 2; u++) {
                                    const Group *start = &lb->g[s], *bridge1 = &lb->g[1 - s];
                                    const Group *bridge2 = &lc->g[u], *end = &lc->g[1 - u];
                                    int share = share_region(bridge1, bridge2);
                                    if (share < 0 || share == base || share == cover)
                                        continue;
                                    int ex[2] = {base, cover};
                                    u128 v = link_victims(dcells[d - 1], start, end, ex, 2);
                                    if (!v)
                                        continue;
                                    SLHint *x = sl_push(&h);
                                    if (x == NULL) {
                                        free(h.items);
                                        return PyErr_NoMemory();
                                    }
                                    int grouped = lb->grouped + lc->grouped;
                                    x->r10 = grouped ? 43 : TURBOT_R10[t];
                                    x->nelim = popcount128(v);
                                    x->suffix = grouped == 0 ? 0 : (grouped == 1 ? 1 : 11);
                                    x->digit = d;
                                    x->elims = v;
                                    int nc = add_group_cells(x->cells, 0, start);
                                    nc = add_group_cells(x->cells, nc, bridge1);
                                    nc = add_group_cells(x->cells, nc, bridge2);
                                    x->ncells = add_group_cells(x->cells, nc, end);
                                }
                        }
                    }
                }
            }
        }
    }
    return sl_finish(&h, K_TURBOT_FISH);
}

/* Three strong links (strong_links._ThreeLinks). */
static const int THREE_TYPES[10][3] = {
    {0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 1, 1}, {0, 1, 2},
    {0, 2, 2}, {1, 1, 1}, {1, 1, 2}, {1, 2, 2}, {2, 2, 2},
};
/* QuickPerm's countdown permutations of 3, each kept unless after its reverse. */
static const int PERMS[3][3] = {{0, 1, 2}, {1, 0, 2}, {0, 2, 1}};

typedef struct {
    const int *cands;
    int digit;
    u128 dcells;
    const int *types;
    const Link (*links)[2];
    const int *nlinks;
    const u128 *found;
    const int (*regs)[2]; /* the regions of a link's two sides, as a 27-bit mask */
    int chosen_region[3], chosen_regs[3];
    const Link *chosen[3];
    SLHints h;
    int failed;
} Three;

static inline int three_digits(int a, int b, int c) { return 100 * a + 10 * b + c; }

/* strong_links._line_name of three region types, as a number. */
static int line_name(const int *t)
{
    static const int FWD[3] = {0, 2, 1};
    int has_row = t[0] == 1 || t[1] == 1 || t[2] == 1;
    if (!has_row) {
        return three_digits(t[0] == 2 ? 1 : t[0], t[1] == 2 ? 1 : t[1], t[2] == 2 ? 1 : t[2]);
    }
    int original = three_digits(t[0], t[1], t[2]);
    int forward = three_digits(FWD[t[0]], FWD[t[1]], FWD[t[2]]);
    int backward = three_digits(FWD[t[2]], FWD[t[1]], FWD[t[0]]);
    int swapped = backward < forward ? backward : forward;
    return original < swapped ? original : swapped;
}

static void three_hint(Three *s, const int *q, const int *u, const int *shares)
{
    const Group *start = &s->chosen[q[0]]->g[u[0]];
    const Group *end = &s->chosen[q[2]]->g[1 - u[2]];
    int ex[5] = {s->chosen_region[0], s->chosen_region[1], s->chosen_region[2], shares[0],
                 shares[1]};
    u128 v = link_victims(s->dcells, start, end, ex, 5);
    if (!v)
        return;
    int grouped = s->chosen[0]->grouped + s->chosen[1]->grouped + s->chosen[2]->grouped;
    int ct[3] = {s->types[q[0]], s->types[q[1]], s->types[q[2]]};
    if (three_digits(ct[0], ct[1], ct[2]) > three_digits(ct[2], ct[1], ct[0])) {
        int tmp = ct[0];
        ct[0] = ct[2];
        ct[2] = tmp;
    }
    int name = line_name(ct);
    int d0 = name / 100, d1 = name / 10 % 10, d2 = name % 10;
    int r10;
    if (grouped)
        r10 = 57;
    else if (d0 == 0 || d1 == 0 || d2 == 0)
        r10 = 55; /* a box among the links */
    else if (d0 == 2 || d1 == 2 || d2 == 2)
        r10 = 56; /* rows and columns */
    else
        r10 = 54; /* parallel lines */
    SLHint *x = sl_push(&s->h);
    if (x == NULL) {
        s->failed = 1;
        return;
    }
    x->r10 = r10;
    x->nelim = popcount128(v);
    x->suffix = 1000 * grouped + name;
    x->digit = s->digit;
    x->elims = v;
    int nc = 0;
    for (int i = 0; i < 3; i++) {
        nc = add_group_cells(x->cells, nc, &s->chosen[q[i]]->g[0]);
        nc = add_group_cells(x->cells, nc, &s->chosen[q[i]]->g[1]);
    }
    x->ncells = nc;
}

static void three_chains(Three *s)
{
    /* share[i][j][2*sa+sb]: the region side sa of link i and side sb of link j share */
    int share[3][3][4];
    int met[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            met[i][j] = 0;
            if (i == j)
                continue;
            for (int sa = 0; sa < 2; sa++)
                for (int sb = 0; sb < 2; sb++) {
                    int r = share_region(&s->chosen[i]->g[sa], &s->chosen[j]->g[sb]);
                    share[i][j][2 * sa + sb] = r;
                    if (r >= 0)
                        met[i][j] = 1;
                }
        }
    /* the middle link of a chain meets both others: most choices fail here */
    if (!((met[0][1] && met[0][2]) || (met[1][0] && met[1][2]) || (met[2][0] && met[2][1])))
        return;
    for (int p = 0; p < 3; p++) {
        const int *q = PERMS[p];
        for (int dir = 0; dir < 8; dir++) {
            int u[3] = {dir >> 2 & 1, dir >> 1 & 1, dir & 1};
            int shares[2], ok = 1;
            for (int w = 0; w < 2; w++) {
                int got = share[q[w]][q[w + 1]][2 * (1 - u[w]) + u[w + 1]];
                if (got < 0) {
                    ok = 0;
                    break;
                }
                shares[w] = got;
            }
            if (ok)
                three_hint(s, q, u, shares);
        }
    }
}

static void three_build(Three *s, int depth, int last, u128 used)
{
    const int *types = s->types;
    int first = depth && types[depth - 1] == types[depth] ? last + 1 : 0;
    for (int i = first; i < 9; i++) {
        int region = 9 * types[depth] + i;
        if (!s->nlinks[region] || (used & s->found[region]))
            continue;
        for (int k = 0; k < s->nlinks[region]; k++) {
            int regs = s->regs[region][k];
            if (depth == 2) {
                /* the middle link meets both others (three_chains): the third link meets
                 * the first or the second, and both when those two do not meet */
                int m0 = (regs & s->chosen_regs[0]) != 0, m1 = (regs & s->chosen_regs[1]) != 0;
                if (!(m0 || m1) || (!(s->chosen_regs[0] & s->chosen_regs[1]) && !(m0 && m1)))
                    continue;
            }
            s->chosen_region[depth] = region;
            s->chosen_regs[depth] = regs;
            s->chosen[depth] = &s->links[region][k];
            if (depth + 1 < 3)
                three_build(s, depth + 1, i, used | s->found[region]);
            else
                three_chains(s);
            if (s->failed)
                return;
        }
    }
}

PyObject *three_strong_links(const int *cands)
{
    Three *s = calloc(1, sizeof(Three));
    if (s == NULL)
        return PyErr_NoMemory();
    s->cands = cands;
    /* links per digit, computed once for all ten type patterns */
    Link (*links)[27][2] = malloc(9 * sizeof(*links));
    int nlinks[9][27];
    u128 found[9][27], dcells[9];
    if (links == NULL) {
        free(s);
        return PyErr_NoMemory();
    }
    for (int d = 1; d <= 9; d++) {
        dcells[d - 1] = 0;
        for (int c = 0; c < 81; c++)
            if (cands[c] >> (d - 1) & 1)
                dcells[d - 1] |= BIT128(c);
        for (int r = 0; r < 27; r++)
            nlinks[d - 1][r] = region_links(cands, r, d, 1, links[d - 1][r], &found[d - 1][r]);
    }
    int regs[9][27][2];
    for (int d = 0; d < 9; d++)
        for (int r = 0; r < 27; r++)
            for (int k = 0; k < nlinks[d][r]; k++) {
                int m = 0;
                for (int side = 0; side < 2; side++) {
                    const Group *g = &links[d][r][k].g[side];
                    if (g->row >= 0)
                        m |= 1 << g->row;
                    if (g->col >= 0)
                        m |= 1 << g->col;
                    if (g->box >= 0)
                        m |= 1 << g->box;
                }
                regs[d][r][k] = m;
            }
    for (int t = 0; t < 10 && !s->failed; t++) {
        s->types = THREE_TYPES[t];
        for (int d = 1; d <= 9 && !s->failed; d++) {
            s->digit = d;
            s->dcells = dcells[d - 1];
            s->links = links[d - 1];
            s->nlinks = nlinks[d - 1];
            s->found = found[d - 1];
            s->regs = (const int (*)[2])regs[d - 1];
            three_build(s, 0, 0, 0);
        }
    }
    free(links);
    PyObject *out;
    if (s->failed) {
        free(s->h.items);
        out = PyErr_NoMemory();
    } else {
        out = sl_finish(&s->h, K_THREE_STRONG_LINKS);
    }
    free(s);
    return out;
}

/* ---- aligned pair and triplet exclusion (aligned.py) -------------------------------- */

/* aligned._exclusions: the candidates of `cells` that no combination allows; a
 * combination repeating a digit in a region, or covering every candidate of a common
 * excluder, is impossible. Returns the number of (cell, digit) written. */
static int exclusions(const int *cands, const int *cells, int n, u128 common, int *ec, int *ed)
{
    int masks[81], nm = 0;
    for (u128 x = common; x; x &= x - 1)
        masks[nm++] = cands[ctz128(x)];
    int want[3], allowed[3] = {0, 0, 0}, sees[3][3];
    for (int i = 0; i < n; i++) {
        want[i] = cands[cells[i]];
        for (int j = 0; j < n; j++)
            sees[i][j] = (PEER[cells[i]] & BIT128(cells[j])) != 0;
    }
    /* every combination: the allowed sets do not depend on the order, and the search stops
     * once every candidate is allowed (then nothing goes) */
    int last = n == 3 ? 1 : 0;
    for (int m0 = want[0]; m0; m0 &= m0 - 1) {
        int b0 = m0 & -m0;
        int w1 = sees[0][1] ? want[1] & ~b0 : want[1];
        for (int m1 = w1; m1; m1 &= m1 - 1) {
            int b1 = m1 & -m1;
            int w2 = last ? want[2] : 1;
            if (last) {
                if (sees[0][2])
                    w2 &= ~b0;
                if (sees[1][2])
                    w2 &= ~b1;
            }
            for (int m2 = w2; m2; m2 &= m2 - 1) {
                int b2 = last ? (m2 & -m2) : 0;
                int mask = b0 | b1 | b2, ok = 1;
                for (int k = 0; k < nm; k++)
                    if ((masks[k] & ~mask) == 0) {
                        ok = 0;
                        break;
                    }
                if (!ok)
                    continue;
                allowed[0] |= b0;
                allowed[1] |= b1;
                allowed[2] |= b2;
                if (allowed[0] == want[0] && allowed[1] == want[1] &&
                    (!last || allowed[2] == want[2]))
                    return 0;
            }
        }
    }
    int ne = 0;
    for (int i = 0; i < n; i++)
        for (int d = 1; d <= 9; d++)
            if ((want[i] >> (d - 1) & 1) && !(allowed[i] >> (d - 1) & 1)) {
                ec[ne] = cells[i];
                ed[ne++] = d;
            }
    return ne;
}

int aligned_exclusion(const int *cands, int degree, PyObject *out, Py_ssize_t limit)
{
    int cand[81], nc = 0, excl[81][20], nexcl[81];
    u128 ex[81], candset = 0;
    for (int c = 0; c < 81; c++) {
        if (POP[cands[c]] < 2)
            continue;
        int single = 0, n = 0;
        u128 b = 0;
        for (int k = 0; k < 20; k++) {
            int p = PEERLIST[c][k], pop = POP[cands[p]];
            if (pop == 1)
                single = 1;
            else if (pop >= 2 && pop <= degree) {
                excl[c][n++] = p;
                b |= BIT128(p);
            }
        }
        if (!single && n) {
            cand[nc++] = c;
            nexcl[c] = n;
            ex[c] = b;
            candset |= BIT128(c);
        }
    }
    if (nc < degree)
        return 0;
    int kind = degree == 2 ? K_APE : K_ATE;
    double rating = degree == 2 ? 6.2 : 7.5;
    /* pairs in SE's order: increasing bitmask of the two indices */
    for (int i1 = 1; i1 < nc; i1++)
        for (int i0 = 0; i0 < i1; i0++) {
            int c0 = cand[i0], c1 = cand[i1];
            u128 common01 = ex[c0] & ex[c1];
            if ((common01 & (common01 - 1)) == 0)
                continue;
            int tail[40], nt = 1;
            if (degree == 3) {
                /* the third cell: a candidate among the excluders of c0, then of c1 */
                nt = 0;
                u128 taken = BIT128(c0) | BIT128(c1);
                for (int s = 0; s < 2; s++) {
                    int c = s ? c1 : c0;
                    for (int k = 0; k < nexcl[c]; k++) {
                        int t = excl[c][k];
                        if ((candset & BIT128(t)) && !(taken & BIT128(t))) {
                            taken |= BIT128(t);
                            tail[nt++] = t;
                        }
                    }
                }
            }
            for (int j = 0; j < nt; j++) {
                int cells[3] = {c0, c1, degree == 3 ? tail[j] : -1};
                u128 common = common01;
                if (degree == 3)
                    common &= ex[cells[2]];
                if ((common & (common - 1)) == 0)
                    continue;
                int ec[27], ed[27];
                int ne = exclusions(cands, cells, degree, common, ec, ed);
                if (!ne)
                    continue;
                if (emit(out, kind, rating, elims_tuple(ec, ed, ne), -1, 0, cells, degree, NULL, 0))
                    return -1;
                if (full(out, limit))
                    return 0;
            }
        }
    return 0;
}

/* ---- WXYZ- to TUVWXYZ-wings (wings.als_wing) ---------------------------------------- */

typedef struct {
    double rating;
    int nelim;
    char suffix[8];
    int idx;
    PyObject *hint;
} WHint;

typedef struct {
    const int *cands;
    int size, digits_max;
    int cells[6];
    WHint *found;
    int n, cap;
    int failed;
} Wings;

/* wings._victims: the cells that see every set cell holding `bit`, within `start`. */
static inline u128 wing_victims(const Wings *w, int bit, u128 start)
{
    u128 out = start;
    for (int i = 0; i < w->size; i++)
        if (w->cands[w->cells[i]] & bit)
            out &= PEER[w->cells[i]];
    return out;
}

static int wing_add(Wings *w, u128 board, int digit, int *ec, int *ed, int ne)
{
    int bit = 1 << (digit - 1);
    for (; board; board &= board - 1) {
        int c = ctz128(board);
        if (w->cands[c] & bit) {
            ec[ne] = c;
            ed[ne++] = digit;
        }
    }
    return ne;
}

static void wing_hint(Wings *w, int uni, int yz, int x, int z, int dbl, int biggest,
                      int wing_size, double rating)
{
    u128 skip = BIT128(yz);
    for (int i = 0; i < w->size; i++)
        skip |= BIT128(w->cells[i]);
    int ec[81 * 9], ed[81 * 9], ne = 0, before;
    int weak = 0, strong_x = 0, strong_z = 0;
    u128 all = ~(u128)0;
    if (dbl) {
        int others = uni & ~((1 << (x - 1)) | (1 << (z - 1)));
        for (int d = 1; d <= 9; d++)
            if (others >> (d - 1) & 1) {
                before = ne;
                ne = wing_add(w, wing_victims(w, 1 << (d - 1), all) & ~skip, d, ec, ed, ne);
                weak |= ne > before;
            }
        before = ne;
        ne = wing_add(w, wing_victims(w, 1 << (x - 1), PEER[yz]) & ~skip, x, ec, ed, ne);
        strong_x = ne > before;
    }
    before = ne;
    ne = wing_add(w, wing_victims(w, 1 << (z - 1), PEER[yz]) & ~skip, z, ec, ed, ne);
    strong_z = ne > before;
    if (dbl && !weak && (!strong_z || !strong_x))
        dbl = 0;
    if (!ne)
        return;
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        WHint *grown = realloc(w->found, (size_t)cap * sizeof(WHint));
        if (grown == NULL) {
            w->failed = 1;
            PyErr_NoMemory();
            return;
        }
        w->found = grown;
        w->cap = cap;
    }
    int cells[7];
    memcpy(cells, w->cells, (size_t)w->size * sizeof(int));
    cells[w->size] = yz;
    static const int KIND[7] = {0, 0, 0, K_WXYZ_WING, K_VWXYZ_WING, K_UVWXYZ_WING,
                                K_TUVWXYZ_WING};
    PyObject *hint = PyList_New(0);
    if (hint == NULL ||
        emit(hint, KIND[w->size], rating, elims_tuple(ec, ed, ne), -1, 0, cells, w->size + 1,
             NULL, 0)) {
        Py_XDECREF(hint);
        w->failed = 1;
        return;
    }
    WHint *h = &w->found[w->n];
    h->rating = rating;
    h->nelim = ne;
    snprintf(h->suffix, sizeof h->suffix, "%d%d%d", dbl ? 2 : 1, biggest, wing_size);
    h->idx = w->n++;
    h->hint = PyList_GET_ITEM(hint, 0);
    Py_INCREF(h->hint);
    Py_DECREF(hint);
}

static double wing_rating(int size, int biggest)
{
    if (size == 3)
        return 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1;
    if (size == 4)
        return 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1;
    return size == 5 ? 6.6 : 7.5;
}

static void wing_bivalues(Wings *w, int uni)
{
    const int *cands = w->cands;
    u128 around = 0, inside = 0;
    int biggest = 0, wing_size = 0;
    for (int i = 0; i < w->size; i++) {
        int c = w->cells[i];
        around |= PEER[c];
        inside |= BIT128(c);
        int p = POP[cands[c]];
        biggest = p > biggest ? p : biggest;
        wing_size += p;
    }
    double rating = wing_rating(w->size, biggest);
    for (u128 rest = around & ~inside; rest && !w->failed; rest &= rest - 1) {
        int yz = ctz128(rest), m = cands[yz];
        if (POP[m] != 2 || (m & uni) != m)
            continue;
        int x = lowest_digit(m), z = lowest_digit(m & (m - 1));
        int x_ok = 1, z_ok = 1;
        for (int i = 0; i < w->size; i++) {
            int c = w->cells[i];
            int sees = (PEER[c] & BIT128(yz)) != 0;
            if ((cands[c] >> (x - 1) & 1) && !sees)
                x_ok = 0;
            if ((cands[c] >> (z - 1) & 1) && !sees)
                z_ok = 0;
        }
        if (x_ok)
            wing_hint(w, uni, yz, x, z, z_ok, biggest, wing_size, rating);
        else if (z_ok)
            wing_hint(w, uni, yz, z, x, 0, biggest, wing_size, rating);
    }
}

static void wing_clique(Wings *w, int depth, int uni, u128 allowed)
{
    if (depth == w->size) {
        if (POP[uni] == w->digits_max)
            wing_bivalues(w, uni);
        return;
    }
    for (u128 a = allowed; a && !w->failed; a &= a - 1) {
        int nxt = ctz128(a), m = w->cands[nxt];
        if (POP[m] < 2)
            continue;
        int u = uni | m;
        int last = depth + 1 == w->size;
        if (last ? POP[u] == w->digits_max : POP[u] <= w->digits_max) {
            w->cells[depth] = nxt;
            wing_clique(w, depth + 1, u, allowed & FORWARD[nxt]);
        }
    }
}

static int wing_cmp(const void *pa, const void *pb)
{
    const WHint *a = pa, *b = pb;
    if (a->rating != b->rating)
        return a->rating < b->rating ? -1 : 1;
    if (a->nelim != b->nelim)
        return a->nelim > b->nelim ? -1 : 1; /* more eliminations first */
    int s = strcmp(a->suffix, b->suffix);
    if (s)
        return s > 0 ? -1 : 1; /* suffix descending, as a string */
    return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

PyObject *als_wings(const int *cands, int size)
{
    Wings w = {cands, size, size + 1, {0}, NULL, 0, 0, 0};
    for (int first = 0; first < 81 && !w.failed; first++) {
        int m = cands[first];
        if (POP[m] >= 2 && POP[m] <= w.digits_max) {
            w.cells[0] = first;
            wing_clique(&w, 1, m, FORWARD[first]);
        }
    }
    PyObject *out = NULL;
    if (!w.failed) {
        qsort(w.found, (size_t)w.n, sizeof(WHint), wing_cmp);
        out = PyList_New(w.n);
        for (int i = 0; out && i < w.n; i++) {
            PyList_SET_ITEM(out, i, w.found[i].hint);
            w.found[i].hint = NULL;
        }
    }
    for (int i = 0; i < w.n; i++)
        Py_XDECREF(w.found[i].hint);
    free(w.found);
    return out;
}

/* ---- cycles and forcing chains (chaining.cycles_and_forcing_chains) ------------------ */

/* SE's first chaining producer on the static grid: bidirectional X-, Y- and XY-cycles
 * and forcing X- and XY-chains, of which only the best hint (rating, complexity, kind)
 * is wanted. The searches, their order, the rounds of growing depth and the pruning by
 * the best hint so far are chaining.py's, step for step: a hint found earlier wins among
 * equals, so the order decides the answer.
 *
 * A potential is a key ((cell * 9 + digit - 1) << 1) | on. The implications of the grid
 * are built once per mode (y: a bivalue cell links its two digits; x: a region with two
 * places for a digit links them), in SE's order: an "on" implies the other digits of its
 * cell, then the peers holding its digit in box, row (outside the box), column (outside
 * the box) order; an "off" implies the naked single of its cell, then the hidden single
 * of its box, row, column. Static chains have one parent per node, so a chain is a walk
 * up a parent index. */

#define CH_POOL 65536
#define CH_PATHW 12 /* 729 off keys, one bit each */

typedef struct {
    int n_on[729], on_off[729][CH_ONOFF]; /* by candidate (key >> 1) of an on key */
    int n_off[729], off_on[729][CH_OFFON];
} ChLinks;

typedef struct {
    int key, parent, path; /* path: index of the on node's path bitset, or -1 */
} ChNode;

typedef struct {
    const int *cands;
    u128 cand[9]; /* the cells of each digit */
    ChLinks *links;
    ChNode *nodes;
    int nnodes;
    uint64_t (*paths)[CH_PATHW];
    int npaths;
    int *mark_on, *mark_off, stamp; /* the search's visited keys: mark == stamp */
    int *queue_a, *queue_b;
    /* the best hint so far */
    int has_best, best_kind, best_sort, best_cx;
    double best_base, best_diff;
    int best_elims[729][2], best_nelims, best_cells[81], best_ncells, best_pc, best_pd;
} Chains;

double length_addition(int complexity)
{
    double added = 0.0;
    int ceil = 4, length = complexity - 2, odd = 0;
    while (length > ceil) {
        added += 0.1;
        ceil = odd ? (ceil * 4) / 3 : (ceil * 3) / 2;
        odd = !odd;
    }
    return added;
}

void se_build_links(const int *cands, int y, int x, int n_on[729], int on_off[729][CH_ONOFF],
                    int n_off[729], int off_on[729][CH_OFFON], int off_cause[729][CH_OFFON])
{
    u128 board[9];
    digit_boards(cands, board);
    memset(n_on, 0, 729 * sizeof(int));
    memset(n_off, 0, 729 * sizeof(int));
    for (int cell = 0; cell < 81; cell++)
        for (int cm = cands[cell]; cm; cm &= cm - 1) {
            int d0 = __builtin_ctz((unsigned)cm), bit = 1 << d0, cd = cell * 9 + d0;
            int box = CREG[cell][0];
            u128 others = board[d0] & ~BIT128(cell);
            int n = 0;
            if (y)
                for (int m = cands[cell] & ~bit; m; m &= m - 1)
                    on_off[cd][n++] = (cell * 9 + __builtin_ctz((unsigned)m)) << 1;
            /* the peers holding the digit: the box, then the row and the column outside it,
             * each ascending (SE's order) */
            u128 parts[3] = {others & REGMASK[box],
                             others & REGMASK[CREG[cell][1]] & ~REGMASK[box],
                             others & REGMASK[CREG[cell][2]] & ~REGMASK[box]};
            for (int t = 0; t < 3; t++)
                for (u128 b = parts[t]; b; b &= b - 1)
                    on_off[cd][n++] = (ctz128(b) * 9 + d0) << 1;
            n_on[cd] = n;
            n = 0;
            if (y && POP[cands[cell]] == 2) {
                int other = cands[cell] & ~bit;
                if (off_cause)
                    off_cause[cd][n] = NAKED;
                off_on[cd][n++] = ((cell * 9 + __builtin_ctz((unsigned)other)) << 1) | 1;
            }
            if (x) {
                int seen = 0;
                for (int t = 0; t < 3; t++) {
                    u128 rest = others & REGMASK[CREG[cell][t]];
                    if (!rest || (rest & (rest - 1)))
                        continue; /* the digit's only other place in the region, if one */
                    int on_key = ((ctz128(rest) * 9 + d0) << 1) | 1, dup = 0;
                    if (seen)
                        for (int k = 0; k < n; k++)
                            dup |= off_on[cd][k] == on_key;
                    if (dup)
                        continue;
                    if (off_cause)
                        off_cause[cd][n] = CREG[cell][t];
                    off_on[cd][n++] = on_key;
                    seen = 1;
                }
            }
            n_off[cd] = n;
        }
}

static void ch_build(ChLinks *l, const int *cands, int y, int x)
{
    se_build_links(cands, y, x, l->n_on, l->on_off, l->n_off, l->off_on, NULL);
}

/* SE's rank order: (difficulty, complexity, sort key), lexicographic. */
int rank_less(double d1, int c1, int s1, double d2, int c2, int s2)
{
    if (d1 != d2)
        return d1 < d2;
    if (c1 != c2)
        return c1 < c2;
    return s1 < s2;
}

/* _Best.max_complexity */
static int ch_max_complexity(const Chains *s, double base, int sort_key)
{
    if (!s->has_best)
        return 1 << 30;
    int c = 1;
    while (c < 4096) {
        if (!rank_less(base + length_addition(c + 1), c + 1, sort_key, s->best_diff, s->best_cx,
                       s->best_sort))
            return c;
        c++;
    }
    return c;
}

static int ch_new_node(Chains *s, int key, int parent)
{
    if (s->nnodes >= CH_POOL)
        return -1;
    ChNode *n = &s->nodes[s->nnodes];
    n->key = key;
    n->parent = parent;
    n->path = -1;
    return s->nnodes++;
}

/* The number of distinct potentials on the walk from node i to its root (_ancestors). */
static int ch_ancestors(const Chains *s, int i)
{
    int keys[CH_POOL > 1460 ? 1460 : CH_POOL], n = 0;
    for (; i >= 0; i = s->nodes[i].parent) {
        int k = s->nodes[i].key, dup = 0;
        for (int j = 0; j < n && !dup; j++)
            dup = keys[j] == k;
        if (!dup && n < 1460)
            keys[n++] = k;
    }
    return n;
}

/* _Best.offer of a hint whose eliminations are in elims[0..ne) (cell, digit), sorted. */
static void ch_offer(Chains *s, int kind, double base, int sort_key, int cx, int (*elims)[2],
                     int ne, const int *cells, int nc, int pc, int pd)
{
    if (ne == 0)
        return;
    double diff = base + length_addition(cx);
    if (s->has_best && !rank_less(diff, cx, sort_key, s->best_diff, s->best_cx, s->best_sort))
        return;
    s->has_best = 1;
    s->best_kind = kind;
    s->best_sort = sort_key;
    s->best_cx = cx;
    s->best_base = base;
    s->best_diff = diff;
    memcpy(s->best_elims, elims, sizeof(int) * 2 * ne);
    s->best_nelims = ne;
    memcpy(s->best_cells, cells, sizeof(int) * nc);
    s->best_ncells = nc;
    s->best_pc = pc;
    s->best_pd = pd;
}

/* _cycle_hint: the candidates that both the "on" and the "off" nodes of the cycle see
 * (outside its cells) go. Returns 1 when the cycle has eliminations. */
static int ch_cycle_hint(Chains *s, int dst, double base, int sort_key)
{
    u128 cells = 0, forw[9] = {0}, back[9] = {0}, both = 0;
    for (int i = dst; s->nodes[i].parent >= 0; i = s->nodes[i].parent)
        cells |= BIT128((s->nodes[i].key >> 1) / 9);
    for (int i = dst; s->nodes[i].parent >= 0; i = s->nodes[i].parent) {
        int key = s->nodes[i].key, cell = (key >> 1) / 9, d0 = (key >> 1) % 9;
        u128 seen = PEER[cell] & ~cells & s->cand[d0];
        if (key & 1)
            forw[d0] |= seen;
        else
            back[d0] |= seen;
    }
    for (int d0 = 0; d0 < 9; d0++)
        both |= forw[d0] & back[d0];
    if (!both)
        return 0; /* nothing goes: most cycles */
    int elims[729][2], ne = 0, cl[81], nc = 0;
    for (int c = 0; c < 81; c++) {
        if (cells & BIT128(c))
            cl[nc++] = c;
        if (both & BIT128(c))
            for (int d0 = 0; d0 < 9; d0++)
                if (forw[d0] & back[d0] & BIT128(c)) {
                    elims[ne][0] = c;
                    elims[ne++][1] = d0 + 1;
                }
    }
    ch_offer(s, 0, base, sort_key, ch_ancestors(s, dst), elims, ne, cl, nc, -1, 0);
    return 1;
}

static void ch_forcing_hint(Chains *s, int target, double base, int sort_key)
{
    int key = s->nodes[target].key, cell = (key >> 1) / 9, d = (key >> 1) % 9 + 1;
    int elims[9][2], ne = 0, pc = -1;
    if (key & 1) {
        for (int m = s->cands[cell] & ~(1 << (d - 1)); m; m &= m - 1) {
            elims[ne][0] = cell;
            elims[ne++][1] = __builtin_ctz((unsigned)m) + 1;
        }
        pc = cell;
    } else {
        elims[0][0] = cell;
        elims[0][1] = d;
        ne = 1;
    }
    ch_offer(s, 1, base, sort_key, ch_ancestors(s, target), elims, ne, &cell, 1, pc, d);
}

/* _cycles: 1 when cut at `cap` (and not by the best hint), -1 when out of nodes. */
static int ch_cycles(Chains *s, int src_key, double base, int sort_key, int cap)
{
    ChLinks *l = s->links;
    s->nnodes = s->npaths = 0;
    s->stamp++;
    int src = ch_new_node(s, src_key, -1);
    s->mark_on[src_key] = s->stamp;
    s->nodes[src].path = s->npaths++;
    memset(s->paths[0], 0, sizeof(s->paths[0]));
    int *pend_on = s->queue_a, non = 0, *pend_off = s->queue_b, noff;
    pend_on[non++] = src;
    int length = 0, bound = ch_max_complexity(s, base, sort_key);
    int limit = bound < cap ? bound : cap;
    while (non) {
        length++;
        noff = 0;
        int first_off = s->nnodes;
        for (int i = 0; i < non; i++) {
            int p = pend_on[i], cd = s->nodes[p].key >> 1;
            const uint64_t *path = s->paths[s->nodes[p].path];
            for (int k = 0; k < l->n_on[cd]; k++) {
                int off_key = l->on_off[cd][k], oc = off_key >> 1;
                if (path[oc >> 6] >> (oc & 63) & 1)
                    continue;
                if (ch_new_node(s, off_key, p) < 0)
                    return -1;
                noff++;
            }
        }
        length++;
        if (length > limit)
            return cap < bound;
        int nnew = 0, found = 0;
        int *new_on = pend_on; /* pend_on's entries are read through the off nodes now */
        for (int j = first_off; j < first_off + noff; j++) {
            int cd = s->nodes[j].key >> 1;
            for (int k = 0; k < l->n_off[cd]; k++) {
                int on_key = l->off_on[cd][k];
                if (length >= 4 && on_key == src_key) {
                    int dst = ch_new_node(s, on_key, j);
                    if (dst < 0)
                        return -1;
                    found |= ch_cycle_hint(s, dst, base, sort_key);
                }
                if (s->mark_on[on_key] != s->stamp) {
                    s->mark_on[on_key] = s->stamp;
                    int n = ch_new_node(s, on_key, j);
                    if (n < 0 || s->npaths >= 730)
                        return -1;
                    int parent_on = s->nodes[j].parent;
                    s->nodes[n].path = s->npaths;
                    memcpy(s->paths[s->npaths], s->paths[s->nodes[parent_on].path],
                           sizeof(s->paths[0]));
                    int oc = s->nodes[j].key >> 1;
                    s->paths[s->npaths][oc >> 6] |= (uint64_t)1 << (oc & 63);
                    s->npaths++;
                    new_on[nnew++] = n;
                }
            }
        }
        if (found)
            return 0;
        non = nnew;
    }
    (void)pend_off;
    return 0;
}

/* One half-step of ch_forcing: every node of `from` (on keys with the on->off table, or off
 * keys with the off->on table, rows of `width`) reaches its implied keys; a key not marked
 * yet becomes a node of `to`. 1 when the target is reached (its hint offered), -1 when out of
 * nodes, else 0. */
static int ch_forcing_step(Chains *s, const int *from, int nfrom, const int *counts,
                           const int *table, int width, int *mark, int *to, int *nto,
                           int target_key, double base, int sort_key)
{
    for (int i = 0; i < nfrom; i++) {
        int p = from[i], cd = s->nodes[p].key >> 1;
        const int *row = table + cd * width;
        for (int k = 0; k < counts[cd]; k++) {
            int key = row[k];
            if (key == target_key) {
                int t = ch_new_node(s, key, p);
                if (t < 0)
                    return -1;
                ch_forcing_hint(s, t, base, sort_key);
                return 1;
            }
            if (mark[key] != s->stamp) {
                mark[key] = s->stamp;
                int n = ch_new_node(s, key, p);
                if (n < 0)
                    return -1;
                to[(*nto)++] = n;
            }
        }
    }
    return 0;
}

/* _forcing_chain: 1 when cut at `cap` (and not by the best hint), -1 when out of nodes. */
static int ch_forcing(Chains *s, int src_key, double base, int sort_key, int cap)
{
    ChLinks *l = s->links;
    s->nnodes = 0;
    s->stamp++;
    int target_key = src_key ^ 1;
    int src = ch_new_node(s, src_key, -1);
    int *pend_on = s->queue_a, non = 0, *pend_off = s->queue_b, noff = 0;
    if (src_key & 1) {
        s->mark_on[src_key] = s->stamp;
        pend_on[non++] = src;
    } else {
        s->mark_off[src_key] = s->stamp;
        pend_off[noff++] = src;
    }
    int depth = src_key & 1 ? 0 : -1;
    int bound = ch_max_complexity(s, base, sort_key);
    int limit = bound < cap ? bound : cap;
    while (non || noff) {
        int r;
        if (non) {
            if (depth + 2 > limit)
                return cap < bound;
            r = ch_forcing_step(s, pend_on, non, l->n_on, &l->on_off[0][0], CH_ONOFF,
                                s->mark_off, pend_off, &noff, target_key, base, sort_key);
            if (r)
                return r < 0 ? -1 : 0;
            non = 0;
        }
        if (depth + 3 > limit)
            return cap < bound;
        r = ch_forcing_step(s, pend_off, noff, l->n_off, &l->off_on[0][0], CH_OFFON, s->mark_on,
                            pend_on, &non, target_key, base, sort_key);
        if (r)
            return r < 0 ? -1 : 0;
        noff = 0;
        depth += 2;
    }
    return 0;
}

double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    unsigned char mode, kind, sort_key;
    short key;
    double base;
} ChSearch;

/* Returns 0 (done), 1 (deadline passed) or -1 (out of memory / nodes). */
static int cycles_and_forcing(Chains *s, ChLinks links[3], double deadline)
{
    static const int MODES[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    static const int CAPS[4] = {6, 10, 16, 1 << 30};
    ChSearch *searches = malloc(sizeof(ChSearch) * 3 * 3 * 729);
    if (searches == NULL)
        return -1;
    int ns = 0;
    for (int m = 0; m < 3; m++) {
        int y = MODES[m][0], x = MODES[m][1];
        double base_cycle = y && x ? 7.0 : 6.5, base_chain = y && x ? 7.0 : 6.6;
        int sort_key = y && x ? 4 : (y ? 3 : 2);
        ch_build(&links[m], s->cands, y, x);
        for (int cell = 0; cell < 81; cell++) {
            int cm = s->cands[cell], n = POP[cm];
            if (n < 2 || (!x && n > 2))
                continue;
            for (int mm = cm; mm; mm &= mm - 1) {
                int on_key = ((cell * 9 + __builtin_ctz((unsigned)mm)) << 1) | 1;
                searches[ns++] = (ChSearch){m, 0, sort_key, on_key, base_cycle};
                if (x) {
                    searches[ns++] = (ChSearch){m, 1, sort_key, on_key, base_chain};
                    searches[ns++] = (ChSearch){m, 1, sort_key, on_key ^ 1, base_chain};
                }
            }
        }
    }
    int rc = 0;
    for (int round = 0; round < 4 && ns; round++) {
        int again = 0;
        for (int i = 0; i < ns; i++) {
            if (!(i & 15) && deadline >= 0 && cpu_seconds() > deadline) {
                rc = 1;
                goto done;
            }
            ChSearch q = searches[i];
            if (s->has_best && rank_less(s->best_diff, s->best_cx, s->best_sort, q.base, 0,
                                         q.sort_key))
                continue;
            s->links = &links[q.mode];
            int cut = q.kind == 0 ? ch_cycles(s, q.key, q.base, q.sort_key, CAPS[round])
                                  : ch_forcing(s, q.key, q.base, q.sort_key, CAPS[round]);
            if (cut < 0) {
                rc = -1;
                goto done;
            }
            if (cut)
                searches[again++] = q;
        }
        ns = again;
    }
done:
    free(searches);
    return rc;
}

static PyObject *py_cycles_and_forcing_chains(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pc;
    double deadline = -1.0;
    if (!PyArg_ParseTuple(args, "O|d", &pc, &deadline))
        return NULL;
    int cands[81];
    if (read81(pc, cands, 511, "cands"))
        return NULL;
    Chains *s = calloc(1, sizeof(Chains));
    ChLinks *links = malloc(sizeof(ChLinks) * 3);
    if (s)
        s->nodes = malloc(sizeof(ChNode) * CH_POOL);
    if (s) {
        s->paths = malloc(sizeof(s->paths[0]) * 730);
        s->mark_on = calloc(CH_KEYS, sizeof(int));
        s->mark_off = calloc(CH_KEYS, sizeof(int));
        s->queue_a = malloc(sizeof(int) * CH_KEYS);
        s->queue_b = malloc(sizeof(int) * CH_KEYS);
    }
    PyObject *out = NULL;
    if (!s || !links || !s->nodes || !s->paths || !s->mark_on || !s->mark_off || !s->queue_a ||
        !s->queue_b) {
        PyErr_NoMemory();
        goto done;
    }
    s->cands = cands;
    for (int c = 0; c < 81; c++)
        for (int m = cands[c]; m; m &= m - 1)
            s->cand[__builtin_ctz((unsigned)m)] |= BIT128(c);
    int rc = cycles_and_forcing(s, links, deadline);
    if (rc == 1) {
        PyErr_SetString(PyExc_TimeoutError, "deadline passed");
    } else if (rc < 0) {
        PyErr_SetString(PyExc_RuntimeError, "chain search out of nodes");
    } else if (!s->has_best) {
        out = Py_None;
        Py_INCREF(out);
    } else {
        int ec[729], ed[729];
        for (int i = 0; i < s->best_nelims; i++) {
            ec[i] = s->best_elims[i][0];
            ed[i] = s->best_elims[i][1];
        }
        PyObject *elims = elims_tuple(ec, ed, s->best_nelims);
        PyObject *placement = s->best_pc >= 0 ? pair_tuple(s->best_pc, s->best_pd) : Py_None;
        if (placement == Py_None)
            Py_INCREF(placement);
        PyObject *cells = int_tuple(s->best_cells, s->best_ncells);
        if (elims && placement && cells)
            out = Py_BuildValue("(iidiNNN)", s->best_kind, s->best_sort, s->best_base,
                                s->best_cx, elims, placement, cells);
        else {
            Py_XDECREF(elims);
            Py_XDECREF(placement);
            Py_XDECREF(cells);
        }
    }
done:
    if (s) {
        free(s->nodes);
        free(s->paths);
        free(s->mark_on);
        free(s->mark_off);
        free(s->queue_a);
        free(s->queue_b);
        free(s);
    }
    free(links);
    return out;
}

/* ---- dynamic and multiple forcing chains (chaining._do_chaining, chaining._Multiple) --
 *
 * One chain is what chaining._do_chaining completes: the "on" and "off" potentials that
 * follow from its assumptions, each with the parents SE records, in SE's order. A node
 * may have several parents (a dynamic single rests on the earlier removals that made it
 * single; a "+" removal on the removals its pattern needs), so parents live in a pool and
 * a node names a slice of it. The multiple-chain producers (Nishio, cell and region
 * forcing chains, dynamic ones, "+") keep only their best hint: SE sorts its hints by
 * (rating, complexity, kind) keeping discovery order among equals, so a later hint
 * counts only when strictly better, and its complexity is counted only up to the largest
 * one that could still be. The nested levels (2 and more) run this engine through the
 * hooks of se_chains.h (se_nested.c): nodes keep their cause or nested hint as a tag. */


static int PEERSCAN[81][20]; /* box, row outside the box, column outside the box */
int POSIDX[81][3];

static void init_peerscan(void)
{
    for (int cell = 0; cell < 81; cell++) {
        int n = 0;
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < 9; i++) {
                int c = REG[CREG[cell][t]][i];
                if (c == cell || (t > 0 && CREG[c][0] == CREG[cell][0]))
                    continue;
                PEERSCAN[cell][n++] = c;
            }
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < 9; i++)
                if (REG[CREG[cell][t]][i] == cell)
                    POSIDX[cell][t] = i;
    }
}

/* The places of each digit in `cands`, per region and as boards. */
void dyn_places(Dyn *D)
{
    memset(D->rpos0, 0, sizeof(D->rpos0));
    memset(D->board0, 0, sizeof(D->board0));
    for (int c = 0; c < 81; c++)
        for (int m = D->cands[c]; m; m &= m - 1) {
            int d0 = __builtin_ctz((unsigned)m);
            D->board0[d0] |= BIT128(c);
            for (int t = 0; t < 3; t++)
                D->rpos0[CREG[c][t]][d0] |= (uint16_t)(1 << POSIDX[c][t]);
        }
}

int dyn_node(Dyn *D, int key, int par, int npar, int tag)
{
    if (D->nn == D->ncap) {
        int cap = D->ncap ? 2 * D->ncap : 65536;
        DNode *nodes = realloc(D->nodes, sizeof(DNode) * cap);
        if (nodes == NULL)
            return -1;
        D->nodes = nodes;
        D->ncap = cap;
    }
    D->nodes[D->nn] = (DNode){key, par, npar, tag};
    return D->nn++;
}

/* Appends one parent to the pool; returns its offset, -1 when out of memory. */
int dyn_par(Dyn *D, int node)
{
    if (D->np == D->pcap) {
        int cap = D->pcap ? 2 * D->pcap : 262144;
        int *par = realloc(D->par, sizeof(int) * cap);
        if (par == NULL)
            return -1;
        D->par = par;
        D->pcap = cap;
    }
    D->par[D->np] = node;
    return D->np++;
}

static void chain_reset(DChain *ch)
{
    memset(ch->idx, 0xff, sizeof(ch->idx));
    ch->n_on = ch->n_off = 0;
}

void chain_add(DChain *ch, int key, int node)
{
    ch->idx[key] = node;
    if (key & 1)
        ch->order_on[ch->n_on++] = (short)key;
    else
        ch->order_off[ch->n_off++] = (short)key;
}

int chain_add_new(Dyn *D, DChain *ch, const int *nodes, int n, int *toff)
{
    int added = 0;
    for (int i = 0; i < n; i++) {
        int node = nodes[i], key = D->nodes[node].key;
        if (ch->idx[key] < 0) {
            chain_add(ch, key, node);
            D->qoff[(*toff)++] = node;
            added++;
        }
    }
    return added;
}

/* A chain's first potential: an assumption, without parents. -1: out of memory. */
static int chain_root(Dyn *D, DChain *ch, int key)
{
    chain_reset(ch);
    int n = dyn_node(D, key, 0, 0, NO_CAUSE);
    if (n < 0)
        return -1;
    chain_add(ch, key, n);
    return 0;
}

/* chaining._rule_parents of a "+" pattern: the off keys of the candidates the chain
 * removed and the pattern needs gone. */
static int rule_parents(const RawHint *h, const int *grid, const int *src, int *out)
{
    int n = 0;
    if (h->kind == K_POINTING || h->kind == K_CLAIMING || h->kind == K_X_WING) {
        int d = h->ed[0], bit = 1 << (d - 1), k = h->nr / 2;
        u128 cover = 0;
        for (int i = k; i < h->nr; i++)
            cover |= REGMASK[h->regions[i]];
        for (int i = 0; i < k; i++)
            for (int j = 0; j < 9; j++) {
                int c = REG[h->regions[i]][j];
                if ((src[c] & bit) && !(grid[c] & bit) && !(cover & BIT128(c)))
                    out[n++] = (c * 9 + d - 1) << 1;
            }
        return n;
    }
    int values = 0;
    for (int i = 0; i < h->nc; i++)
        values |= grid[h->cells[i]];
    if (h->kind == K_HIDDEN_PAIR) {
        for (int i = 0; i < h->ne; i++)
            values &= ~(1 << (h->ed[i] - 1));
        for (int j = 0; j < 9; j++) {
            int c = REG[h->regions[0]][j], inside = 0;
            for (int i = 0; i < h->nc; i++)
                inside |= h->cells[i] == c;
            if (inside)
                continue;
            for (int m = src[c] & values; m; m &= m - 1)
                out[n++] = (c * 9 + __builtin_ctz((unsigned)m)) << 1;
        }
    } else { /* a naked pair */
        for (int i = 0; i < h->nc; i++) {
            int c = h->cells[i];
            for (int m = src[c] & ~values & 511; m; m &= m - 1)
                out[n++] = (c * 9 + __builtin_ctz((unsigned)m)) << 1;
        }
    }
    return n;
}

/* chaining._plus_advanced: the removals of the first "+" rule with a pattern resting on
 * the chain's removals, added to the chain (those it lacks) and queued at qoff[*toff..].
 * Returns the number added, -1 when out of memory. */
static int dyn_plus(Dyn *D, DChain *ch, int *toff)
{
    const int *grid = D->grid, *src = D->cands;
    int nout = 0, rem[27];
    for (int r = 0; r < 27; r++) {
        rem[r] = 0;
        for (int i = 0; i < 9; i++)
            rem[r] |= src[REG[r][i]] & ~grid[REG[r][i]];
    }
    D->sink.rem = rem;
    for (int rule = 0; rule < 4 && nout == 0; rule++) {
        D->sink.nraw = 0;
        int rc;
        switch (rule) {
        case 0:
            rc = locking(grid, 0, &D->sink);
            break;
        case 1:
            rc = hidden_sets(D->values, grid, 2, 0, &D->sink);
            break;
        case 2:
            rc = naked_sets(D->values, grid, 2, &D->sink);
            break;
        default:
            rc = fish(D->values, grid, 2, &D->sink);
            break;
        }
        if (rc)
            return -1;
        for (int i = 0; i < D->sink.nraw; i++) {
            const RawHint *h = &D->sink.raw[i];
            int keys[81], nk = rule_parents(h, grid, src, keys), ok = nk > 0;
            for (int j = 0; j < nk && ok; j++)
                ok = ch->idx[keys[j]] >= 0;
            if (!ok)
                continue;
            int start = D->np;
            for (int j = 0; j < nk; j++)
                if (dyn_par(D, ch->idx[keys[j]]) < 0)
                    return -1;
            for (int j = 0; j < h->ne && nout < CH_KEYS; j++) {
                int n = dyn_node(D, (h->ec[j] * 9 + h->ed[j] - 1) << 1, start, nk, NO_CAUSE);
                if (n < 0)
                    return -1;
                D->plus_out[nout++] = n;
            }
        }
    }
    D->plus_nout = nout;
    return chain_add_new(D, ch, D->plus_out, nout, toff);
}

/* chaining._do_chaining on `ch`: 1 with (*a_on, *a_off) the first potential found both
 * on and off, 0 when the chain is complete, -1 when out of memory. */
static int dyn_run(Dyn *D, DChain *ch, int *a_on, int *a_off)
{
    int *grid = D->grid;
    const int *src = D->dynamic ? D->cands : NULL;
    memcpy(grid, D->cands, sizeof(int) * 81);
    memcpy(D->rpos, D->rpos0, sizeof(D->rpos));
    memcpy(D->board, D->board0, sizeof(D->board));
    int hon = 0, ton = 0, hoff = 0, toff = 0;
    for (int i = 0; i < ch->n_on; i++)
        D->qon[ton++] = ch->idx[ch->order_on[i]];
    for (int i = 0; i < ch->n_off; i++)
        D->qoff[toff++] = ch->idx[ch->order_off[i]];
    for (;;) {
        if (hon < ton) {
            int p = D->qon[hon++], key = D->nodes[p].key;
            int cell = (key >> 1) / 9, d0 = (key >> 1) % 9, bit = 1 << d0;
            int offs[28], no = 0;
            if (D->y)
                for (int m = grid[cell] & ~bit; m; m &= m - 1)
                    offs[no++] = (cell * 9 + __builtin_ctz((unsigned)m)) << 1;
            /* the peers in PEERSCAN order: box, row and column each ascend */
            u128 b = D->board[d0], box = REGMASK[CREG[cell][0]];
            u128 parts[3] = {b & box & ~BIT128(cell), b & REGMASK[CREG[cell][1]] & ~box,
                             b & REGMASK[CREG[cell][2]] & ~box};
            for (int t = 0; t < 3; t++)
                for (u128 x = parts[t]; x; x &= x - 1)
                    offs[no++] = (ctz128(x) * 9 + d0) << 1;
            for (int i = 0; i < no; i++) {
                int off_key = offs[i], conj = off_key | 1;
                if (ch->idx[conj] >= 0 || ch->idx[off_key] < 0) {
                    int pp = dyn_par(D, p), n = pp < 0 ? -1 : dyn_node(D, off_key, pp, 1, NO_CAUSE);
                    if (n < 0)
                        return -1;
                    if (ch->idx[conj] >= 0) {
                        *a_on = ch->idx[conj];
                        *a_off = n;
                        return 1;
                    }
                    chain_add(ch, off_key, n);
                    D->qoff[toff++] = n;
                }
            }
            continue;
        }
        if (hoff < toff) {
            int p = D->qoff[hoff++], key = D->nodes[p].key;
            int cell = (key >> 1) / 9, d0 = (key >> 1) % 9, bit = 1 << d0;
            int m = grid[cell], made[4], nm = 0;
            if (D->y && POP[m] == 2) {
                int other = m & ~bit;
                other = other == m ? (m & -m) : (other & -other);
                int on_key = ((cell * 9 + __builtin_ctz((unsigned)other)) << 1) | 1;
                int start = dyn_par(D, p);
                if (start < 0)
                    return -1;
                int npar = 1;
                if (src)
                    for (int h = src[cell] & ~m; h; h &= h - 1) {
                        int q = ch->idx[cell * 18 + (__builtin_ctz((unsigned)h) << 1)];
                        if (q < 0 || dyn_par(D, q) < 0)
                            return -1;
                        npar++;
                    }
                int n = dyn_node(D, on_key, start, npar, NAKED);
                if (n < 0)
                    return -1;
                made[nm++] = n;
            }
            int seen = 0;
            for (int t = 0; t < 3; t++) {
                int region = CREG[cell][t];
                int others = D->rpos[region][d0] & ~(1 << POSIDX[cell][t]);
                if (POP[others] != 1)
                    continue;
                int found = REG[region][__builtin_ctz((unsigned)others)];
                int on_key = ((found * 9 + d0) << 1) | 1, dup = 0;
                if (seen)
                    for (int k = 0; k < nm; k++)
                        dup |= D->nodes[made[k]].key == on_key;
                if (dup)
                    continue;
                int start = dyn_par(D, p);
                if (start < 0)
                    return -1;
                int npar = 1;
                if (src)
                    for (int h = D->rpos0[region][d0] & ~D->rpos[region][d0]; h; h &= h - 1) {
                        int c = REG[region][__builtin_ctz((unsigned)h)];
                        int q = ch->idx[(c * 9 + d0) << 1];
                        if (q < 0 || dyn_par(D, q) < 0)
                            return -1;
                        npar++;
                    }
                int n = dyn_node(D, on_key, start, npar, region);
                if (n < 0)
                    return -1;
                made[nm++] = n;
                seen = 1;
            }
            if (D->dynamic && (grid[cell] & bit)) {
                grid[cell] &= ~bit;
                D->board[d0] &= ~BIT128(cell);
                for (int t = 0; t < 3; t++)
                    D->rpos[CREG[cell][t]][d0] &= (uint16_t)~(1 << POSIDX[cell][t]);
            }
            for (int i = 0; i < nm; i++) {
                int n = made[i], on_key = D->nodes[n].key, conj = on_key & ~1;
                if (ch->idx[conj] >= 0) {
                    *a_on = n;
                    *a_off = ch->idx[conj];
                    return 1;
                }
                if (ch->idx[on_key] < 0) {
                    chain_add(ch, on_key, n);
                    D->qon[ton++] = n;
                }
            }
            continue;
        }
        if (D->plus) {
            int added = dyn_plus(D, ch, &toff);
            if (added < 0)
                return -1;
            if (added)
                continue;
            if (D->nested && D->plus_nout == 0) {
                added = D->nested(D, ch, &toff);
                if (added < 0)
                    return -1;
                if (added)
                    continue;
            }
        }
        return 0;
    }
}

/* The number of distinct potentials among the ancestors of `node` (chaining._complexity
 * of one target: a breadth-first walk that expands the first node met of each
 * potential), or limit + 1 once it exceeds `limit`. */
static int dyn_count(Dyn *D, int node, int limit)
{
    int stamp = ++D->stamp, head = 0, tail = 0;
    D->mark[D->nodes[node].key] = stamp;
    D->bfs[tail++] = node;
    while (head < tail) {
        const DNode *n = &D->nodes[D->bfs[head++]];
        for (int i = 0; i < n->npar; i++) {
            int q = D->par[n->par + i], k = D->nodes[q].key;
            if (D->mark[k] != stamp) {
                D->mark[k] = stamp;
                D->bfs[tail++] = q;
                if (tail > limit)
                    return limit + 1;
            }
        }
    }
    return tail;
}

static void dyn_bounds(Dyn *D)
{
    for (int sk = 0; sk < 8; sk++) {
        int c = 0;
        while (c < (1 << 20) && rank_less(D->base + length_addition(c + 1), c + 1, sk,
                                          D->best_diff, D->best_cx, D->best_sort))
            c++;
        D->bound[sk] = c;
    }
}

/* A hint of the producer (chaining._Multiple._hint), kept when it removes something and
 * beats the best so far. */
static void dyn_offer(Dyn *D, int kind, const int *targets, int nt, int sort_key, int key,
                      const int *cells, int nc)
{
    int cell = (key >> 1) / 9, bit = 1 << ((key >> 1) % 9);
    if ((key & 1) && !(D->cands[cell] & ~bit))
        return; /* no eliminations */
    if (D->stamp > (1 << 30)) {
        memset(D->mark, 0, sizeof(D->mark));
        D->stamp = 0;
    }
    if (D->on_hint) {
        if (D->on_hint(D, kind, targets, nt, sort_key, key, cells, nc))
            D->failed = D->failed ? D->failed : -1;
        return;
    }
    int limit = D->has_best ? D->bound[sort_key] : (1 << 30), cx = 0;
    if (D->complexity)
        cx = D->complexity(D, targets, nt, limit);
    else
        for (int i = 0; i < nt && cx <= limit; i++)
            cx += dyn_count(D, targets[i], limit - cx);
    if (cx > limit)
        return;
    D->has_best = 1;
    D->best_kind = kind;
    D->best_cx = cx;
    D->best_sort = sort_key;
    D->best_key = key;
    D->best_diff = D->base + length_addition(cx);
    D->best_nc = nc;
    memcpy(D->best_cells, cells, sizeof(int) * nc);
    dyn_bounds(D);
}

/* chaining._Multiple._regions: the region forcing chains of `d` in the regions whose
 * first place for it is `cell` (`ch` the chain of cell = d). */
static int dyn_regions(Dyn *D, int cell, int d0, DChain *ch)
{
    int bit = 1 << d0;
    for (int t = 0; t < 3; t++) {
        int r = CREG[cell][t], pos[9], n = 0;
        for (int i = 0; i < 9; i++)
            if (D->cands[REG[r][i]] & bit)
                pos[n++] = REG[r][i];
        if (!(n == 2 || (D->multiple && n > 2)) || pos[0] != cell)
            continue;
        int nn = D->nn, np = D->np;
        DChain *others = D->chains + 10;
        for (int i = 1; i < n; i++) {
            int a, b;
            if (chain_root(D, &others[i - 1], ((pos[i] * 9 + d0) << 1) | 1) ||
                dyn_run(D, &others[i - 1], &a, &b) < 0)
                return -1;
        }
        D->region = r;
        for (int side = 1; side >= 0; side--) {
            int count = side ? ch->n_on : ch->n_off;
            const short *order = side ? ch->order_on : ch->order_off;
            for (int j = 0; j < count; j++) {
                int k = order[j], ends[9], ok = 1;
                ends[0] = ch->idx[k];
                for (int i = 1; i < n && ok; i++)
                    ok = (ends[i] = others[i - 1].idx[k]) >= 0;
                if (ok)
                    dyn_offer(D, DK_REGION, ends, n, 6, k, pos, n);
            }
        }
        D->nn = nn;
        D->np = np;
    }
    return 0;
}

/* chaining._Multiple._cell. 0, or -1 when out of memory. */
static int dyn_cell(Dyn *D, int cell, int n)
{
    D->nn = D->np = 0;
    if (D->cell_start)
        D->cell_start(D);
    int do_double = n >= 3 && !D->nishio && D->dynamic;
    int do_contradiction = D->dynamic || D->nishio;
    int nd = 0;
    for (int m = D->cands[cell]; m; m &= m - 1, nd++) {
        int d0 = __builtin_ctz((unsigned)m);
        int on_key = ((cell * 9 + d0) << 1) | 1, off_key = on_key ^ 1, pair[2];
        DChain *ch = &D->chains[nd];
        if (chain_root(D, ch, on_key))
            return -1;
        int rc = dyn_run(D, ch, &pair[0], &pair[1]);
        if (rc < 0)
            return -1;
        int kind = D->nishio ? DK_NISHIO : DK_CONTRADICTION;
        if (do_contradiction && rc == 1)
            dyn_offer(D, kind, pair, 2, 7, off_key, &cell, 1);
        if (do_contradiction || do_double) {
            int nn = D->nn, np = D->np;
            DChain *o = &D->chains[9];
            if (chain_root(D, o, off_key))
                return -1;
            rc = dyn_run(D, o, &pair[0], &pair[1]);
            if (rc < 0)
                return -1;
            if (do_contradiction && rc == 1)
                dyn_offer(D, kind, pair, 2, 7, on_key, &cell, 1);
            if (do_double) {
                for (int j = 0; j < ch->n_on; j++) {
                    int k = ch->order_on[j];
                    if (o->idx[k] >= 0) {
                        int ends[2] = {ch->idx[k], o->idx[k]};
                        dyn_offer(D, DK_DOUBLE, ends, 2, 1, k, &cell, 1);
                    }
                }
                for (int j = 0; j < ch->n_off; j++) {
                    int k = ch->order_off[j];
                    if (o->idx[k] >= 0) {
                        int ends[2] = {ch->idx[k], o->idx[k]};
                        dyn_offer(D, DK_DOUBLE, ends, 2, 1, k, &cell, 1);
                    }
                }
            }
            D->nn = nn;
            D->np = np;
        }
        if (!D->nishio && dyn_regions(D, cell, d0, ch))
            return -1;
    }
    if (D->nishio || !(n == 2 || (D->multiple && n > 2)))
        return 0;
    DChain *first = &D->chains[0];
    for (int side = 1; side >= 0; side--) {
        int count = side ? first->n_on : first->n_off;
        const short *order = side ? first->order_on : first->order_off;
        for (int j = 0; j < count; j++) {
            int k = order[j], ends[9], ok = 1;
            for (int i = 0; i < nd && ok; i++)
                ok = (ends[i] = D->chains[i].idx[k]) >= 0;
            if (ok)
                dyn_offer(D, DK_CELL, ends, nd, 5, k, &cell, 1);
        }
    }
    return 0;
}

/* chaining._Multiple.hints, the best one: 0 done, 1 deadline passed, -1 out of memory. */
int dyn_hints(Dyn *D, double deadline)
{
    for (int cell = 0; cell < 81; cell++) {
        int n = POP[D->cands[cell]];
        if (n > 2 || (n > 1 && D->dynamic)) {
            if (deadline >= 0 && cpu_seconds() > deadline)
                return 1;
            if (dyn_cell(D, cell, n) || D->failed)
                return D->failed == 1 ? 1 : -1;
        }
    }
    return 0;
}

Dyn *dyn_new(const int *values, const int *cands, int nishio, int multiple, int dynamic,
             int plus)
{
    Dyn *D = calloc(1, sizeof(Dyn));
    if (D)
        D->chains = malloc(sizeof(DChain) * DYN_CHAINS);
    if (!D || !D->chains) {
        free(D);
        return NULL;
    }
    D->values = values;
    D->cands = cands;
    D->nishio = nishio;
    D->multiple = multiple;
    D->dynamic = dynamic;
    D->plus = plus;
    D->y = !nishio;
    D->base = plus ? 9.0 : nishio ? 7.5 : dynamic ? 8.5 : 8.0;
    return D;
}

void dyn_free(Dyn *D)
{
    if (!D)
        return;
    free(D->nodes);
    free(D->par);
    free(D->chains);
    free(D->sink.raw);
    free(D);
}

PyObject *dyn_result(Dyn *D)
{
    if (!D->has_best)
        Py_RETURN_NONE;
    const int *cands = D->cands;
    int key = D->best_key, cell = (key >> 1) / 9, d = (key >> 1) % 9 + 1;
    int ec[9], ed[9], ne = 0;
    if (key & 1) {
        for (int m = cands[cell] & ~(1 << (d - 1)); m; m &= m - 1) {
            ec[ne] = cell;
            ed[ne++] = __builtin_ctz((unsigned)m) + 1;
        }
    } else {
        ec[ne] = cell;
        ed[ne++] = d;
    }
    PyObject *out = NULL, *elims = elims_tuple(ec, ed, ne);
    PyObject *placement = key & 1 ? pair_tuple(cell, d) : Py_None;
    if (placement == Py_None)
        Py_INCREF(placement);
    PyObject *cells = int_tuple(D->best_cells, D->best_nc);
    if (elims && placement && cells)
        out = Py_BuildValue("(idiiNNN)", D->best_kind, D->base, D->best_cx, D->best_sort, elims,
                            placement, cells);
    else {
        Py_XDECREF(elims);
        Py_XDECREF(placement);
        Py_XDECREF(cells);
    }
    return out;
}

PyObject *dyn_best(Dyn *D, double deadline)
{
    dyn_places(D);
    int rc = dyn_hints(D, deadline);
    if (rc == 1) {
        PyErr_SetString(PyExc_TimeoutError, "deadline passed");
        return NULL;
    }
    if (rc < 0)
        return PyErr_NoMemory();
    return dyn_result(D);
}

static PyObject *py_multiple_chains(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pv, *pc;
    int nishio, multiple, dynamic, plus;
    double deadline = -1.0;
    if (!PyArg_ParseTuple(args, "OOpppp|d", &pv, &pc, &nishio, &multiple, &dynamic, &plus,
                          &deadline))
        return NULL;
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    if (plus && !dynamic) {
        PyErr_SetString(PyExc_ValueError, "a chain \"+\" is dynamic");
        return NULL;
    }
    Dyn *D = dyn_new(values, cands, nishio, multiple, dynamic, plus);
    if (!D)
        return PyErr_NoMemory();
    PyObject *out = dyn_best(D, deadline);
    dyn_free(D);
    return out;
}

/* ---- Python entry points ------------------------------------------------------------ */

static PyObject *py_scan(PyObject *args, PyObject *kwargs, int which)
{
    static char *kwlist[] = {"values", "cands", "degree", "limit", NULL};
    PyObject *pv, *pc;
    int degree = 0;
    Py_ssize_t limit = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|in", kwlist, &pv, &pc, &degree, &limit))
        return NULL;
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    int rc;
    Sink sink = {out, limit, NULL, 0, 0, NULL};
    switch (which) {
    case 0:
        rc = hidden_singles(values, cands, out, limit);
        break;
    case 1:
        rc = naked_singles(cands, out, limit);
        break;
    case 2:
    case 3:
        rc = locking(cands, which == 2, &sink);
        break;
    case 4:
    case 5:
        if (degree < 2 || degree > (which == 4 ? 3 : 4)) {
            PyErr_SetString(PyExc_ValueError, "degree out of range");
            rc = -1;
        } else {
            rc = hidden_sets(values, cands, degree, which == 4, &sink);
        }
        break;
    case 6:
        if (degree < 2 || degree > 4) {
            PyErr_SetString(PyExc_ValueError, "degree out of range");
            rc = -1;
        } else {
            rc = naked_sets(values, cands, degree, &sink);
        }
        break;
    case 7:
        if (degree < 2 || degree > 4) {
            PyErr_SetString(PyExc_ValueError, "degree out of range");
            rc = -1;
        } else {
            rc = fish(values, cands, degree, &sink);
        }
        break;
    case 8:
        rc = xy_wings(cands, degree, out, limit);
        break;
    default:
        if (degree < 2 || degree > 3) {
            PyErr_SetString(PyExc_ValueError, "degree out of range");
            rc = -1;
        } else {
            rc = aligned_exclusion(cands, degree, out, limit);
        }
        break;
    }
    if (rc) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

#define SCAN(name, which)                                                                     \
    static PyObject *py_##name(PyObject *self, PyObject *args, PyObject *kwargs)              \
    {                                                                                         \
        (void)self;                                                                           \
        return py_scan(args, kwargs, which);                                                  \
    }
SCAN(hidden_singles, 0)
SCAN(naked_singles, 1)
SCAN(direct_locking, 2)
SCAN(locking, 3)
SCAN(direct_hidden_sets, 4)
SCAN(hidden_sets, 5)
SCAN(naked_sets, 6)
SCAN(fish, 7)
SCAN(xy_wings, 8)
SCAN(aligned_exclusion, 9)

static PyObject *py_als_wings(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pc;
    int size;
    if (!PyArg_ParseTuple(args, "Oi", &pc, &size))
        return NULL;
    if (size < 3 || size > 6) {
        PyErr_SetString(PyExc_ValueError, "wing size out of range 3..6");
        return NULL;
    }
    int cands[81];
    if (read81(pc, cands, 511, "cands"))
        return NULL;
    return als_wings(cands, size);
}

static PyObject *py_turbot_fish(PyObject *self, PyObject *arg)
{
    (void)self;
    int cands[81];
    if (read81(arg, cands, 511, "cands"))
        return NULL;
    return turbot_fish(cands);
}

static PyObject *py_three_strong_links(PyObject *self, PyObject *arg)
{
    (void)self;
    int cands[81];
    if (read81(arg, cands, 511, "cands"))
        return NULL;
    return three_strong_links(cands);
}

#define KW (PyCFunction)(void (*)(void))
PyObject *py_nested_chains(PyObject *self, PyObject *args); /* se_nested.c */
/* se_unique.c */
PyObject *py_unique_loop_hints(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *py_bug(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *py_basic_steps(PyObject *self, PyObject *args); /* se_rate.c */
PyObject *py_broken(PyObject *self, PyObject *args);      /* se_rate.c */
static PyMethodDef methods[] = {
    {"hidden_singles", KW py_hidden_singles, METH_VARARGS | METH_KEYWORDS,
     "hidden_singles(values, cands, 0, limit=-1): basic.hidden_singles' hints."},
    {"naked_singles", KW py_naked_singles, METH_VARARGS | METH_KEYWORDS,
     "naked_singles(values, cands, 0, limit=-1): basic.naked_singles' hints."},
    {"direct_locking", KW py_direct_locking, METH_VARARGS | METH_KEYWORDS,
     "direct_locking(values, cands, 0, limit=-1): basic.direct_pointing's hints."},
    {"locking", KW py_locking, METH_VARARGS | METH_KEYWORDS,
     "locking(values, cands, 0, limit=-1): basic.locking's hints."},
    {"direct_hidden_sets", KW py_direct_hidden_sets, METH_VARARGS | METH_KEYWORDS,
     "direct_hidden_sets(values, cands, degree, limit=-1): basic.direct_hidden_sets'."},
    {"hidden_sets", KW py_hidden_sets, METH_VARARGS | METH_KEYWORDS,
     "hidden_sets(values, cands, degree, limit=-1): basic.hidden_sets' hints."},
    {"naked_sets", KW py_naked_sets, METH_VARARGS | METH_KEYWORDS,
     "naked_sets(values, cands, degree, limit=-1): basic.naked_sets' hints."},
    {"fish", KW py_fish, METH_VARARGS | METH_KEYWORDS,
     "fish(values, cands, degree, limit=-1): basic.fish's hints."},
    {"xy_wings", KW py_xy_wings, METH_VARARGS | METH_KEYWORDS,
     "xy_wings(values, cands, xyz, limit=-1): basic.xy_wings' hints (xyz 0 or 1)."},
    {"aligned_exclusion", KW py_aligned_exclusion, METH_VARARGS | METH_KEYWORDS,
     "aligned_exclusion(values, cands, degree, limit=-1): aligned.aligned_exclusion's hints."},
    {"als_wings", py_als_wings, METH_VARARGS,
     "als_wings(cands, size): wings.als_wing's hints (size 3..6), sorted as SE sorts them."},
    {"unique_loop_hints", KW py_unique_loop_hints, METH_VARARGS | METH_KEYWORDS,
     "unique_loop_hints(values, cands, limit=-1): the unique rectangles and loops (types "
     "1-4), sorted as SE sorts them (rating, then type)."},
    {"bug", KW py_bug, METH_VARARGS | METH_KEYWORDS,
     "bug(values, cands, limit=-1): the bivalue universal grave's hints (types 1-4)."},
    {"turbot_fish", py_turbot_fish, METH_O,
     "turbot_fish(cands): strong_links.turbot_fish's hints, sorted as SE sorts them."},
    {"three_strong_links", py_three_strong_links, METH_O,
     "three_strong_links(cands): strong_links.three_strong_links' hints, sorted."},
    {"cycles_and_forcing_chains", py_cycles_and_forcing_chains, METH_VARARGS,
     "cycles_and_forcing_chains(cands, deadline=-1): chaining.cycles_and_forcing_chains' "
     "best hint as (kind 0 cycle / 1 chain, sort key, base, complexity, elims, placement, "
     "cells), or None; TimeoutError when the process CPU clock passes deadline (>= 0)."},
    {"multiple_chains", py_multiple_chains, METH_VARARGS,
     "multiple_chains(values, cands, nishio, multiple, dynamic, plus, deadline=-1): "
     "chaining.multiple_chains' best hint (levels 0 and 1) as (kind, base, complexity, "
     "sort key, elims, placement, cells), kind 0 contradiction, 1 double, 2 cell, 3 region, "
     "4 Nishio forcing chain; or None. TimeoutError when the CPU clock passes deadline."},
    {"nested_chains", py_nested_chains, METH_VARARGS,
     "nested_chains(values, cands, level, deadline=-1): chaining.multiple_chains' best hint "
     "of the dynamic forcing chains of nesting level >= 2, as multiple_chains gives it."},
    {"basic_steps", py_basic_steps, METH_VARARGS,
     "basic_steps(values, cands, count, deadline=-1, max_steps=-1): the steps of the first "
     "count scanning producers of the rater, in its order, applied to the two lists (written "
     "back) until the grid is solved, broken or none has a hint, or max_steps were taken; "
     "returns ([(producer, hint), ...], status): 0 solved, 1 no hint, 2 broken, 3 the CPU "
     "clock passed deadline (>= 0), 4 max_steps taken."},
    {"broken", py_broken, METH_VARARGS,
     "broken(values, cands): a cell with neither value nor candidate, or a digit twice in a "
     "region."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "sudoku_model.se._core",
    "Technique searches of the SE rater in C (the Python in sudoku_model/se is the reference).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    init_tables();
    init_crossing();
    init_box_configs();
    init_forward();
    init_peerscan();
    return PyModule_Create(&module);
}
