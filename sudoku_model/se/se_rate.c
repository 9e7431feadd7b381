/* The SE rater's loop over its scanning techniques, in C: sudoku_model.se._core.basic_steps
 * (typed wrapper: sudoku_model.se.native.basic_steps).
 *
 * Sudoku Explainer rates a puzzle by applying, again and again, the first hint of the first
 * technique (in its fixed order) that has one. The rater's loop (sudoku_model/se/rater.py)
 * runs that order over its producers; the first BASIC_COUNT of them are the scanning
 * searches of se_basic.c, se_strong_links.c, se_wings.c, se_aligned.c and se_unique.c, so
 * this file runs them, in the same order, on a C copy of the grid: it takes each step,
 * applies it, and goes on until the grid is solved, broken, or none of them has a hint
 * (the rater then asks the chains, in Python's order).
 * One call replaces a Python round trip per technique per step; the hints it returns are
 * the ones the producers would have given, as the same tuples.
 */
#include "se_scan.h"

/* One scanning producer of rater.PRODUCERS: which search, with which argument. */
typedef struct {
    int search, arg;
} Producer;

/* rater.PRODUCERS[0 .. BASIC_COUNT), in its order (native.BASIC_NAMES names them; a test
 * checks both lists agree). */
static const Producer BASIC[] = {
    {S_HIDDEN_SINGLES, 0}, {S_DIRECT_LOCKING, 0}, {S_DIRECT_HIDDEN, 2}, {S_NAKED_SINGLES, 0},
    {S_DIRECT_HIDDEN, 3},  {S_LOCKING, 0},        {S_NAKED, 2},         {S_FISH, 2},
    {S_HIDDEN, 2},         {S_NAKED, 3},          {S_FISH, 3},          {S_HIDDEN, 3},
    {S_TURBOT, 0},         {S_XY, 0},             {S_XY, 1},            {S_LOOPS, 0},
    {S_NAKED, 4},          {S_FISH, 4},           {S_HIDDEN, 4},        {S_THREE, 0},
    {S_ALS, 3},            {S_BUG, 0},            {S_ALS, 4},           {S_ALIGNED, 2},
};
#define BASIC_COUNT ((int)(sizeof BASIC / sizeof BASIC[0]))

/* The first hint of producer p on the grid into *hint (a new reference, NULL when it has
 * none). 0, or -1 with an exception set. */
static int first_hint(int p, const int *values, const int *cands, PyObject **hint)
{
    *hint = NULL;
    PyObject *out = se_search(BASIC[p].search, BASIC[p].arg, values, cands, 1);
    if (out == NULL)
        return -1;
    if (PyList_GET_SIZE(out) > 0) {
        *hint = PyList_GET_ITEM(out, 0);
        Py_INCREF(*hint);
    }
    Py_DECREF(out);
    return 0;
}

/* Carries out a hint on the grid as rater.apply_step does: its eliminations, then its
 * placement (the value, and its removal from the peers). 0, or -1 on a malformed hint. */
static int apply_hint(PyObject *hint, int *values, int *cands)
{
    PyObject *elims = PyTuple_GET_ITEM(hint, 2), *placement = PyTuple_GET_ITEM(hint, 3);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(elims); i++) {
        PyObject *e = PyTuple_GET_ITEM(elims, i);
        long c = PyLong_AsLong(PyTuple_GET_ITEM(e, 0)), d = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
        if (c < 0 || c > 80 || d < 1 || d > 9)
            return -1;
        cands[c] &= ~(1 << (d - 1));
    }
    if (placement != Py_None) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(placement, 0));
        long d = PyLong_AsLong(PyTuple_GET_ITEM(placement, 1));
        if (c < 0 || c > 80 || d < 1 || d > 9)
            return -1;
        values[c] = (int)d;
        cands[c] = 0;
        for (int i = 0; i < 20; i++)
            cands[PEERLIST[c][i]] &= ~(1 << (d - 1));
    }
    return 0;
}

/* A cell with neither value nor candidate, or a digit twice in a region. */
int se_broken(const int *values, const int *cands)
{
    for (int c = 0; c < 81; c++)
        if (!values[c] && !cands[c])
            return 1;
    for (int r = 0; r < 27; r++) {
        int seen = 0;
        for (int i = 0; i < 9; i++) {
            int v = values[REG[r][i]];
            if (v) {
                if (seen & (1 << v))
                    return 1;
                seen |= 1 << v;
            }
        }
    }
    return 0;
}

static int solved(const int *values)
{
    for (int c = 0; c < 81; c++)
        if (!values[c])
            return 0;
    return 1;
}

/* Writes the C grid back into the caller's lists. */
static int write_back(PyObject *list, const int *v)
{
    for (int c = 0; c < 81; c++) {
        PyObject *x = PyLong_FromLong(v[c]);
        if (x == NULL || PyList_SetItem(list, c, x))
            return -1;
    }
    return 0;
}

enum { B_SOLVED, B_NONE, B_BROKEN, B_DEADLINE, B_LIMIT };

PyObject *py_basic_steps(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pv, *pc;
    int count;
    double deadline = -1.0;
    Py_ssize_t max_steps = -1;
    if (!PyArg_ParseTuple(args, "O!O!i|dn", &PyList_Type, &pv, &PyList_Type, &pc, &count,
                          &deadline, &max_steps))
        return NULL;
    if (count < 0 || count > BASIC_COUNT) {
        PyErr_Format(PyExc_ValueError, "count: 0..%d producers", BASIC_COUNT);
        return NULL;
    }
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    PyObject *steps = PyList_New(0);
    if (steps == NULL)
        return NULL;
    int status = B_SOLVED;
    for (;;) {
        if (solved(values)) {
            status = B_SOLVED;
            break;
        }
        if (max_steps >= 0 && PyList_GET_SIZE(steps) >= max_steps) {
            status = B_LIMIT;
            break;
        }
        if (deadline_passed(deadline)) {
            status = B_DEADLINE;
            break;
        }
        PyObject *hint = NULL;
        int p;
        for (p = 0; p < count; p++) {
            if (first_hint(p, values, cands, &hint))
                goto fail;
            if (hint)
                break;
        }
        if (hint == NULL) {
            status = B_NONE;
            break;
        }
        PyObject *item = Py_BuildValue("(iN)", p, hint);
        if (item == NULL || PyList_Append(steps, item)) {
            Py_XDECREF(item);
            goto fail;
        }
        Py_DECREF(item);
        if (apply_hint(hint, values, cands)) {
            PyErr_SetString(PyExc_SystemError, "a search gave a malformed hint");
            goto fail;
        }
        if (se_broken(values, cands)) {
            status = B_BROKEN;
            break;
        }
    }
    if (write_back(pv, values) || write_back(pc, cands))
        goto fail;
    return Py_BuildValue("(Ni)", steps, status);
fail:
    Py_DECREF(steps);
    return NULL;
}

PyObject *py_broken(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pv, *pc;
    if (!PyArg_ParseTuple(args, "OO", &pv, &pc))
        return NULL;
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    return PyBool_FromLong(se_broken(values, cands));
}

