/* The technique searches of the SE rater in C: sudoku_model.se._core (typed wrapper:
 * sudoku_model.se.native).
 *
 * The Python code of tests/se_reference is the readable reference: every search of this
 * module returns the hints of its Python twin, in the same order and the same form (a test
 * compares both on every step of a sample of rated puzzles). Sudoku Explainer applies the
 * first hint of the first technique that has one, so the order is part of the answer, not
 * a detail: each search walks regions, digits and combinations in the order the Python
 * code does, and the techniques whose hints SE sorts are sorted with the same key.
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
 * This file holds the grid's tables, the reading of arguments, the building of hints, the
 * one dispatch of the scanning searches and the module's Python entry points. The
 * searches: singles, intersections, subsets, fish and XY-wings in se_basic.c, strong links
 * in se_strong_links.c, aligned exclusion in se_aligned.c, ALS wings in se_wings.c, cycles
 * and forcing chains in se_static_chains.c, the dynamic chain engine in
 * se_dynamic_chains.c, the nested chains in se_nested.c (their inner static chains in
 * se_nested_static.c), the uniqueness techniques in se_unique.c, the rating loop in
 * se_rate.c.
 *
 * Written for GCC and Clang (unsigned __int128, __builtin_ctzll), like the backtracker's
 * native_backtrack/classic9.c.
 */
#include "se_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
PyObject *board_elims(u128 board, int digit, int *count)
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

/* ---- Python entry points ------------------------------------------------------------ */

PyObject *se_search(int search, int arg, const int *values, const int *cands,
                    Py_ssize_t limit)
{
    /* the sorting searches make their own list, of every hint */
    if (search == S_TURBOT)
        return turbot_fish(cands);
    if (search == S_THREE)
        return three_strong_links(cands);
    if (search == S_ALS)
        return als_wings(cands, arg);
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Sink sink = {out, limit, NULL, 0, 0, NULL, NULL};
    int rc;
    switch (search) {
    case S_HIDDEN_SINGLES:
        rc = hidden_singles(values, cands, out, limit);
        break;
    case S_NAKED_SINGLES:
        rc = naked_singles(cands, out, limit);
        break;
    case S_DIRECT_LOCKING:
    case S_LOCKING:
        rc = locking(cands, search == S_DIRECT_LOCKING, &sink);
        break;
    case S_DIRECT_HIDDEN:
    case S_HIDDEN:
        rc = hidden_sets(values, cands, arg, search == S_DIRECT_HIDDEN, &sink);
        break;
    case S_NAKED:
        rc = naked_sets(values, cands, arg, &sink);
        break;
    case S_FISH:
        rc = fish(values, cands, arg, &sink);
        break;
    case S_XY:
        rc = xy_wings(cands, arg, out, limit);
        break;
    case S_LOOPS:
        rc = unique_loop_hints(values, cands, out, limit);
        break;
    case S_BUG:
        rc = bug_hints(values, cands, out, limit);
        break;
    default:
        rc = aligned_exclusion(cands, arg, out, limit);
        break;
    }
    if (rc) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* The module's function of a scanning search, its degree checked against [lo, hi]. */
static PyObject *py_scan(PyObject *args, PyObject *kwargs, int search, int lo, int hi)
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
    if (hi > 0 && (degree < lo || degree > hi)) {
        PyErr_SetString(PyExc_ValueError, "degree out of range");
        return NULL;
    }
    return se_search(search, degree, values, cands, limit);
}

/* hi 0: no degree (for xy_wings, 1 asks for the XYZ-wings) */
#define SCAN(name, search, lo, hi)                                                            \
    static PyObject *py_##name(PyObject *self, PyObject *args, PyObject *kwargs)              \
    {                                                                                         \
        (void)self;                                                                           \
        return py_scan(args, kwargs, search, lo, hi);                                         \
    }
SCAN(hidden_singles, S_HIDDEN_SINGLES, 0, 0)
SCAN(naked_singles, S_NAKED_SINGLES, 0, 0)
SCAN(direct_locking, S_DIRECT_LOCKING, 0, 0)
SCAN(locking, S_LOCKING, 0, 0)
SCAN(direct_hidden_sets, S_DIRECT_HIDDEN, 2, 3)
SCAN(hidden_sets, S_HIDDEN, 2, 4)
SCAN(naked_sets, S_NAKED, 2, 4)
SCAN(fish, S_FISH, 2, 4)
SCAN(xy_wings, S_XY, 0, 0)
SCAN(aligned_exclusion, S_ALIGNED, 2, 3)

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
PyObject *py_cycles_and_forcing_chains(PyObject *self,
                                      PyObject *args); /* se_static_chains.c */
PyObject *py_multiple_chains(PyObject *self, PyObject *args); /* se_dynamic_chains.c */
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
