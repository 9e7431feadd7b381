/* CPython binding of the native backtracker: native_backtrack._core.
 *
 *   Model(n, units, pairs, *, relations, domains, sums, sandwiches, tables)
 *                                    build once per rule set (immutable, thread-safe)
 *   Model.solve(givens, ...)         count up to a limit, keep solutions, budget
 *   Model.batch(data, ...)           many puzzles in one call, GIL released
 *   Model.search(givens, ...)        a resumable Search (streaming, randomised)
 *   Search.run(want, ...)            the next `want` solutions
 *
 * Givens are bytes of n*n values 0..n (0 = empty); solutions come back the same way.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "nb.h"
#include "nb_capi.h"

/* The same sources build two modules: native_backtrack._core (the product) and, with
 * NB_TESTING defined, native_backtrack._testing: the same API plus the hooks the tests
 * and benchmarks drive (a failing allocation, the classic 9x9 instruction set), which
 * the product leaves out. Each module is its own copy, with its own process-wide state
 * (stop flag, instruction set). */
#ifdef NB_TESTING
#define NB_MODULE "sudoku_model.native_backtrack._testing"
#define NB_MODULE_INIT PyInit__testing
#else
#define NB_MODULE "sudoku_model.native_backtrack._core"
#define NB_MODULE_INIT PyInit__core
#endif

#ifndef C9_ENABLED
#define C9_ENABLED 1
#endif

typedef struct {
    PyObject_HEAD
    nb_model m;
} ModelObject;

typedef struct {
    PyObject_HEAD
    PyObject *model;   /* keeps the model alive */
    nb_search *s;
    int last_status;
    int busy;          /* a run is in progress (another thread); read and set under the GIL */
    /* Counters as of the end of the last run, written under the GIL: the getters read
     * these, never the search's own counters, which a run without the GIL is writing. */
    uint64_t nodes, guesses;
} SearchObject;

static PyTypeObject ModelType;
static PyTypeObject SearchType;

/* ---------------------------------------------------------------------------------- */
static void model_free_arrays(nb_model *m)
{
    PyMem_RawFree(m->unit_cells);
    PyMem_RawFree(m->unit_start);
    PyMem_RawFree(m->peer_cells);
    PyMem_RawFree(m->peer_start);
    m->unit_cells = NULL;
    m->unit_start = NULL;
    m->peer_cells = NULL;
    m->peer_start = NULL;
    void **extra[] = {(void **)&m->domain,    (void **)&m->rel_cells,   (void **)&m->rel_table,
                      (void **)&m->rel_masks, (void **)&m->sum_start,   (void **)&m->sum_cells,
                      (void **)&m->sum_weights, (void **)&m->sum_total, (void **)&m->sum_mode,
                      (void **)&m->combo_start, (void **)&m->combos,    (void **)&m->sand_start,
                      (void **)&m->sand_cells, (void **)&m->sand_total, (void **)&m->tab_start,
                      (void **)&m->tab_cells,  (void **)&m->tab_off,    (void **)&m->tab_nrows,
                      (void **)&m->tab_rows,   (void **)&m->tab_ioff,   (void **)&m->tab_boff,
                      (void **)&m->tab_idx,    (void **)&m->tab_bucket};
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
        PyMem_RawFree(*extra[i]);
        *extra[i] = NULL;
    }
    m->nrel = m->nsum = m->nsand = m->ntab = m->has_extra = 0;
    nb_model_release(m);
}

static void Model_dealloc(ModelObject *self)
{
    model_free_arrays(&self->m);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Read a sequence of cell indices (each in 0..nc-1) into a freshly allocated array;
 * returns its length, or -1 with an exception set. */
static Py_ssize_t read_cells(PyObject *seq, int32_t **out, int nc, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int32_t *a = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(len ? len : 1));
    if (!a) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                v = -1;  /* reported below as a cell outside the grid */
            } else {
                PyMem_RawFree(a);
                Py_DECREF(fast);
                return -1;
            }
        }
        if (v < 0 || v >= nc) {
            PyErr_Format(PyExc_ValueError, "%s: cell %ld is outside the grid (0..%d)", what,
                         v, nc - 1);
            PyMem_RawFree(a);
            Py_DECREF(fast);
            return -1;
        }
        a[i] = (int32_t)v;
    }
    Py_DECREF(fast);
    *out = a;
    return len;
}

/* pairs: a flat sequence of cells (even length) or a sequence of (a, b) pairs, flattened
 * into a fresh array of 2*k cells; returns 2*k, or -1 with an exception set. */
static Py_ssize_t read_pairs(PyObject *pairs, int32_t **out, int nc)
{
    PyObject *fast = PySequence_Fast(pairs, "pairs must be a sequence of cells or of (a, b)");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    Py_ssize_t np = -1;
    if (k == 0 || PyLong_Check(PySequence_Fast_GET_ITEM(fast, 0))) {
        if (k % 2)
            PyErr_Format(PyExc_ValueError,
                         "pairs: a flat sequence of cells needs an even length, got %zd", k);
        else
            np = read_cells(fast, out, nc, "pairs");
        Py_DECREF(fast);
        return np;
    }
    int32_t *a = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(2 * k));
    if (!a) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        int32_t *two = NULL;
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        Py_ssize_t len = -2;
        if (PySequence_Check(item) && !PyUnicode_Check(item) && !PyBytes_Check(item))
            len = read_cells(item, &two, nc, "pairs");
        if (len != 2) {
            PyMem_RawFree(two);
            if (len != -1)
                PyErr_Format(PyExc_ValueError, "pairs[%zd] is not a pair of cells (a, b)", i);
            PyMem_RawFree(a);
            Py_DECREF(fast);
            return -1;
        }
        a[2 * i] = two[0];
        a[2 * i + 1] = two[1];
        PyMem_RawFree(two);
    }
    Py_DECREF(fast);
    *out = a;
    return 2 * k;
}


/* ---- extra constraints (relations, domains, sums, sandwiches, tables) -------------- */

/* A growing array of fixed-size elements (PyMem_Raw); push returns 0 with MemoryError. */
typedef struct {
    char *p;
    size_t len, cap, elem;
} vec;

static int vec_push(vec *v, const void *x)
{
    if (v->len == v->cap) {
        size_t ncap = v->cap ? 2 * v->cap : 64;
        char *np = PyMem_RawRealloc(v->p, ncap * v->elem);
        if (!np) {
            PyErr_NoMemory();
            return 0;
        }
        v->p = np;
        v->cap = ncap;
    }
    memcpy(v->p + v->len * v->elem, x, v->elem);
    v->len++;
    return 1;
}

/* Hand the array over (at least one element allocated, so NULL means no memory). */
static void *vec_take(vec *v)
{
    if (!v->p) {
        v->p = PyMem_RawMalloc(v->elem);
        if (!v->p) PyErr_NoMemory();
    }
    void *p = v->p;
    v->p = NULL;
    v->len = v->cap = 0;
    return p;
}

/* A Python int as a C long long; -1 with an exception set (check PyErr_Occurred). */
static int read_int(PyObject *obj, long long *out, const char *what, Py_ssize_t i)
{
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s[%zd]: expected an integer of at most 63 bits", what,
                     i);
        return 0;
    }
    *out = v;
    return 1;
}

/* A digit 1..n. */
static int read_digit(PyObject *obj, int n, int *out, const char *what, Py_ssize_t i)
{
    long long v;
    if (!read_int(obj, &v, what, i)) return 0;
    if (v < 1 || v > n) {
        PyErr_Format(PyExc_ValueError, "%s[%zd]: digit %lld is outside 1..%d", what, i, v, n);
        return 0;
    }
    *out = (int)v;
    return 1;
}

/* A sequence of exactly `k` items (a new reference to its fast form), or NULL with an
 * exception naming what[i]. */
static PyObject *exactly(PyObject *obj, Py_ssize_t k, const char *what, Py_ssize_t i,
                         const char *shape)
{
    PyObject *fast = NULL;
    if (PySequence_Check(obj) && !PyUnicode_Check(obj) && !PyBytes_Check(obj))
        fast = PySequence_Fast(obj, "");
    if (!fast || PySequence_Fast_GET_SIZE(fast) != k) {
        Py_XDECREF(fast);
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s[%zd] must be %s", what, i, shape);
        return NULL;
    }
    return fast;
}

/* Digits allowed by each relation table, per the model's digit of the other cell. */
static int read_relations(nb_model *m, PyObject *relations, uint32_t *domain, int *self_rel)
{
    const int n = m->n;
    PyObject *fast = PySequence_Fast(relations, "relations must be a sequence of (pairs, allowed)");
    if (!fast) return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    vec cells = {NULL, 0, 0, sizeof(int16_t)}, tables = {NULL, 0, 0, sizeof(int32_t)};
    uint32_t *masks = PyMem_RawCalloc((size_t)(k ? k : 1) * 2 * (size_t)n, sizeof(uint32_t));
    int ok = 0;
    if (!masks) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < k; r++) {
        PyObject *item = exactly(PySequence_Fast_GET_ITEM(fast, r), 2, "relations", r,
                                 "a pair (pairs, allowed)");
        if (!item) goto done;
        uint32_t *t = masks + (size_t)r * 2 * n;
        int32_t *pa = NULL;
        Py_ssize_t np = read_pairs(PySequence_Fast_GET_ITEM(item, 0), &pa, m->nc);
        PyObject *allowed = np < 0 ? NULL
                                   : PySequence_Fast(PySequence_Fast_GET_ITEM(item, 1),
                                                     "relations: allowed must be digit pairs");
        Py_DECREF(item);
        if (!allowed) {
            PyMem_RawFree(pa);
            goto done;
        }
        uint32_t same = 0;  /* digits d with (d, d) allowed: the rule on a cell with itself */
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(allowed); j++) {
            PyObject *xy = exactly(PySequence_Fast_GET_ITEM(allowed, j), 2, "allowed", j,
                                   "a digit pair (x, y)");
            int x = 0, y = 0;
            int good = xy && read_digit(PySequence_Fast_GET_ITEM(xy, 0), n, &x, "allowed", j) &&
                       read_digit(PySequence_Fast_GET_ITEM(xy, 1), n, &y, "allowed", j);
            Py_XDECREF(xy);
            if (!good) {
                Py_DECREF(allowed);
                PyMem_RawFree(pa);
                goto done;
            }
            t[x - 1] |= 1u << (y - 1);
            t[n + y - 1] |= 1u << (x - 1);
            if (x == y) same |= 1u << (x - 1);
        }
        Py_DECREF(allowed);
        for (Py_ssize_t i = 0; i < np; i += 2) {
            if (pa[i] == pa[i + 1]) {
                domain[pa[i]] &= same;
                *self_rel = 1;
                continue;
            }
            int16_t a = (int16_t)pa[i], b = (int16_t)pa[i + 1];
            int32_t off = (int32_t)(r * 2 * n);
            if (!vec_push(&cells, &a) || !vec_push(&cells, &b) || !vec_push(&tables, &off)) {
                PyMem_RawFree(pa);
                goto done;
            }
        }
        PyMem_RawFree(pa);
    }
    m->nrel = (int)tables.len;
    m->rel_masks = masks;
    masks = NULL;
    m->rel_cells = vec_take(&cells);
    m->rel_table = vec_take(&tables);
    ok = m->rel_cells && m->rel_table;
done:
    Py_DECREF(fast);
    PyMem_RawFree(masks);
    PyMem_RawFree(cells.p);
    PyMem_RawFree(tables.p);
    return ok;
}

static int read_domains(nb_model *m, PyObject *domains, uint32_t *domain)
{
    PyObject *fast = PySequence_Fast(domains, "domains must be a sequence of (cell, digits)");
    if (!fast) return 0;
    int ok = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        PyObject *item = exactly(PySequence_Fast_GET_ITEM(fast, i), 2, "domains", i,
                                 "a pair (cell, digits)");
        if (!item) goto done;
        long long c;
        PyObject *digits = NULL;
        if (read_int(PySequence_Fast_GET_ITEM(item, 0), &c, "domains", i)) {
            if (c < 0 || c >= m->nc)
                PyErr_Format(PyExc_ValueError, "domains[%zd]: cell %lld is outside the grid "
                             "(0..%d)", i, c, m->nc - 1);
            else
                digits = PySequence_Fast(PySequence_Fast_GET_ITEM(item, 1),
                                         "domains: digits must be a collection of digits");
        }
        Py_DECREF(item);
        if (!digits) goto done;
        uint32_t mask = 0;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(digits); j++) {
            int d;
            if (!read_digit(PySequence_Fast_GET_ITEM(digits, j), m->n, &d, "domains", i)) {
                Py_DECREF(digits);
                goto done;
            }
            mask |= 1u << (d - 1);
        }
        Py_DECREF(digits);
        domain[c] &= mask;
    }
    ok = 1;
done:
    Py_DECREF(fast);
    return ok;
}

/* Sum groups of more than this many digit sets get bounds reasoning only. */
#define COMBO_CAP 512

/* Sums: (cells, weights, total, distinct). Distinct groups also become peers in `adj`;
 * their cells (int32 copies) are appended to *dunits / *dlen for the caller to add as
 * all-different units when they have at most n cells. */
static int read_sums(nb_model *m, PyObject *sums, uint8_t *adj, int32_t ***dunits,
                     Py_ssize_t **dlen, Py_ssize_t *ndistinct)
{
    const int n = m->n, nc = m->nc;
    PyObject *fast = PySequence_Fast(sums, "sums must be a sequence of (cells, weights, total, distinct)");
    if (!fast) return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    vec cells = {NULL, 0, 0, sizeof(int16_t)}, weights = {NULL, 0, 0, sizeof(int32_t)},
        combos = {NULL, 0, 0, sizeof(uint32_t)};
    int32_t *start = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(k + 1));
    int32_t *cstart = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(k + 1));
    int64_t *total = PyMem_RawMalloc(sizeof(int64_t) * (size_t)(k ? k : 1));
    uint8_t *mode = PyMem_RawMalloc((size_t)(k ? k : 1));
    uint32_t *buf = PyMem_RawMalloc(sizeof(uint32_t) * COMBO_CAP);
    *dunits = PyMem_RawCalloc((size_t)(k ? k : 1), sizeof(int32_t *));
    *dlen = PyMem_RawCalloc((size_t)(k ? k : 1), sizeof(Py_ssize_t));
    *ndistinct = 0;
    int ok = 0;
    if (!start || !cstart || !total || !mode || !buf || !*dunits || !*dlen) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t g = 0; g < k; g++) {
        PyObject *item = exactly(PySequence_Fast_GET_ITEM(fast, g), 4, "sums", g,
                                 "a tuple (cells, weights, total, distinct)");
        if (!item) goto done;
        int32_t *gc = NULL;
        Py_ssize_t len = read_cells(PySequence_Fast_GET_ITEM(item, 0), &gc, nc, "sums");
        PyObject *w = len < 0 ? NULL
                              : PySequence_Fast(PySequence_Fast_GET_ITEM(item, 1),
                                                "sums: weights must be a sequence of integers");
        long long t = 0;
        int distinct = -1;
        if (w && PySequence_Fast_GET_SIZE(w) != len)
            PyErr_Format(PyExc_ValueError, "sums[%zd]: %zd cells but %zd weights", g, len,
                         PySequence_Fast_GET_SIZE(w));
        else if (w && read_int(PySequence_Fast_GET_ITEM(item, 2), &t, "sums", g))
            distinct = PyObject_IsTrue(PySequence_Fast_GET_ITEM(item, 3));
        Py_DECREF(item);
        if (distinct < 0) {
            Py_XDECREF(w);
            PyMem_RawFree(gc);
            goto done;
        }
        start[g] = (int32_t)cells.len;
        int unit_weights = 1;
        for (Py_ssize_t i = 0; i < len; i++) {
            long long wi = 0;
            if (!read_int(PySequence_Fast_GET_ITEM(w, i), &wi, "sums weights", i) ||
                wi < -(1LL << 30) || wi > (1LL << 30)) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, "sums[%zd]: weight %lld is outside "
                                 "-2**30..2**30", g, wi);
                Py_DECREF(w);
                PyMem_RawFree(gc);
                goto done;
            }
            int16_t c16 = (int16_t)gc[i];
            int32_t w32 = (int32_t)wi;
            unit_weights &= wi == 1;
            if (!vec_push(&cells, &c16) || !vec_push(&weights, &w32)) {
                Py_DECREF(w);
                PyMem_RawFree(gc);
                goto done;
            }
        }
        Py_DECREF(w);
        total[g] = t;
        mode[g] = 0;
        cstart[g] = (int32_t)combos.len;
        if (distinct) {
            for (Py_ssize_t i = 0; i < len; i++)
                for (Py_ssize_t j = 0; j < len; j++) {
                    if (i == j) continue;
                    if (gc[i] == gc[j]) {
                        PyErr_Format(PyExc_ValueError,
                                     "sums[%zd]: a distinct group repeats cell %d", g, gc[i]);
                        PyMem_RawFree(gc);
                        goto done;
                    }
                    adj[(size_t)gc[i] * nc + gc[j]] = 1;
                }
            size_t count = unit_weights ? nb_combos(n, (int)len, t, buf, COMBO_CAP) : COMBO_CAP + 1;
            if (count <= COMBO_CAP) {
                mode[g] = 1;
                for (size_t i = 0; i < count; i++)
                    if (!vec_push(&combos, &buf[i])) {
                        PyMem_RawFree(gc);
                        goto done;
                    }
            }
            if (len <= n) {
                (*dunits)[*ndistinct] = gc;
                (*dlen)[*ndistinct] = len;
                (*ndistinct)++;
                gc = NULL;
            }
        }
        PyMem_RawFree(gc);
    }
    start[k] = (int32_t)cells.len;
    cstart[k] = (int32_t)combos.len;
    m->nsum = (int)k;
    m->sum_start = start;
    m->combo_start = cstart;
    m->sum_total = total;
    m->sum_mode = mode;
    start = cstart = NULL;
    total = NULL;
    mode = NULL;
    m->sum_cells = vec_take(&cells);
    m->sum_weights = vec_take(&weights);
    m->combos = vec_take(&combos);
    ok = m->sum_cells && m->sum_weights && m->combos;
done:
    Py_DECREF(fast);
    PyMem_RawFree(start);
    PyMem_RawFree(cstart);
    PyMem_RawFree(total);
    PyMem_RawFree(mode);
    PyMem_RawFree(buf);
    PyMem_RawFree(cells.p);
    PyMem_RawFree(weights.p);
    PyMem_RawFree(combos.p);
    return ok;
}

static int read_sandwiches(nb_model *m, PyObject *sandwiches)
{
    PyObject *fast = PySequence_Fast(sandwiches, "sandwiches must be a sequence of (cells, total)");
    if (!fast) return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    vec cells = {NULL, 0, 0, sizeof(int16_t)};
    int32_t *start = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(k + 1));
    int32_t *total = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(k ? k : 1));
    int ok = 0;
    if (!start || !total) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *item = exactly(PySequence_Fast_GET_ITEM(fast, i), 2, "sandwiches", i,
                                 "a pair (cells, total)");
        if (!item) goto done;
        int32_t *lc = NULL;
        long long t = 0;
        Py_ssize_t len = read_cells(PySequence_Fast_GET_ITEM(item, 0), &lc, m->nc, "sandwiches");
        int good = len >= 0 && read_int(PySequence_Fast_GET_ITEM(item, 1), &t, "sandwiches", i);
        Py_DECREF(item);
        if (good && (t < 0 || t > INT32_MAX)) {
            PyErr_Format(PyExc_ValueError, "sandwiches[%zd]: total %lld is negative or too large",
                         i, t);
            good = 0;
        }
        for (Py_ssize_t a = 0; good && a < len; a++)
            for (Py_ssize_t b = a + 1; b < len; b++)
                if (lc[a] == lc[b]) {
                    PyErr_Format(PyExc_ValueError, "sandwiches[%zd]: the line repeats cell %d",
                                 i, lc[a]);
                    good = 0;
                    break;
                }
        start[i] = (int32_t)cells.len;
        for (Py_ssize_t a = 0; good && a < len; a++) {
            int16_t c16 = (int16_t)lc[a];
            good = vec_push(&cells, &c16);
        }
        PyMem_RawFree(lc);
        if (!good) goto done;
        total[i] = (int32_t)t;
    }
    start[k] = (int32_t)cells.len;
    m->nsand = (int)k;
    m->sand_start = start;
    m->sand_total = total;
    start = total = NULL;
    m->sand_cells = vec_take(&cells);
    ok = m->sand_cells != NULL;
done:
    Py_DECREF(fast);
    PyMem_RawFree(start);
    PyMem_RawFree(total);
    PyMem_RawFree(cells.p);
    return ok;
}

/* Tables: (scopes, allowed) items; every scope of an item gets its own entry pointing at
 * the item's tuples (one mask per position). */
static int read_tables(nb_model *m, PyObject *tables)
{
    const int n = m->n;
    PyObject *fast = PySequence_Fast(tables, "tables must be a sequence of (scopes, allowed)");
    if (!fast) return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    vec start = {NULL, 0, 0, sizeof(int32_t)}, cells = {NULL, 0, 0, sizeof(int16_t)};
    vec off = {NULL, 0, 0, sizeof(int64_t)}, nrows = {NULL, 0, 0, sizeof(int32_t)};
    vec rows = {NULL, 0, 0, sizeof(uint32_t)};
    vec ioff = {NULL, 0, 0, sizeof(int64_t)}, boff = {NULL, 0, 0, sizeof(int64_t)};
    vec idx = {NULL, 0, 0, sizeof(int32_t)}, bucket = {NULL, 0, 0, sizeof(int32_t)};
    PyObject *item = NULL, *scopes = NULL, *allowed = NULL;
    int32_t *sc = NULL, *order = NULL;
    int ok = 0;
    for (Py_ssize_t t = 0; t < k; t++) {
        item = exactly(PySequence_Fast_GET_ITEM(fast, t), 2, "tables", t,
                       "a pair (scopes, allowed)");
        if (!item) goto done;
        scopes = PySequence_Fast(PySequence_Fast_GET_ITEM(item, 0),
                                 "tables: scopes must be a sequence of cell sequences");
        allowed = scopes ? PySequence_Fast(PySequence_Fast_GET_ITEM(item, 1),
                                           "tables: allowed must be a sequence of digit tuples")
                         : NULL;
        if (!allowed) goto done;
        Py_ssize_t ns = PySequence_Fast_GET_SIZE(scopes), nt = PySequence_Fast_GET_SIZE(allowed);
        Py_ssize_t arity = -1;
        int64_t first = (int64_t)rows.len;
        for (Py_ssize_t j = 0; j < nt; j++) {
            PyObject *tup = PySequence_Fast(PySequence_Fast_GET_ITEM(allowed, j),
                                            "tables: an allowed entry must be a digit tuple");
            if (!tup) goto done;
            Py_ssize_t len = PySequence_Fast_GET_SIZE(tup);
            int good = 1;
            if (len < 1 || len > NB_TAB_MAXARITY || (arity >= 0 && len != arity)) {
                PyErr_Format(PyExc_ValueError,
                             "tables[%zd]: allowed entry %zd has %zd digits (1..%d, all alike)",
                             t, j, len, NB_TAB_MAXARITY);
                good = 0;
            }
            arity = len;
            for (Py_ssize_t i = 0; good && i < len; i++) {
                int d = 0;
                uint32_t bit;
                good = read_digit(PySequence_Fast_GET_ITEM(tup, i), n, &d, "allowed", j);
                bit = good ? 1u << (d - 1) : 0;
                good = good && vec_push(&rows, &bit);
            }
            Py_DECREF(tup);
            if (!good) goto done;
        }
        if (rows.len - (size_t)first > (size_t)INT32_MAX / NB_TAB_MAXARITY) {
            PyErr_Format(PyExc_ValueError, "tables[%zd]: too many tuples", t);
            goto done;
        }
        int32_t count = arity > 0 ? (int32_t)(((int64_t)rows.len - first) / arity) : 0;
        /* the index: per position, the row numbers by digit there (a counting sort) */
        int64_t ifirst = (int64_t)idx.len, bfirst = (int64_t)bucket.len;
        if (count > 0) {
            order = PyMem_RawMalloc(sizeof(int32_t) * (size_t)count);
            if (!order) {
                PyErr_NoMemory();
                goto done;
            }
            for (Py_ssize_t i = 0; i < arity; i++) {
                const uint32_t *base = (const uint32_t *)rows.p + first;
                int32_t at[NB_MAXN + 1] = {0};
                for (int32_t r = 0; r < count; r++)
                    at[__builtin_ctz(base[(size_t)r * arity + i]) + 1]++;
                for (int d = 0; d < n; d++) at[d + 1] += at[d];
                for (int d = 0; d <= n; d++)
                    if (!vec_push(&bucket, &at[d])) goto done;
                for (int32_t r = 0; r < count; r++)
                    order[at[__builtin_ctz(base[(size_t)r * arity + i])]++] = r;
                for (int32_t r = 0; r < count; r++)
                    if (!vec_push(&idx, &order[r])) goto done;
                /* position i's rows sit at idx[ifirst + i*count ..]: offsets from there */
            }
            PyMem_RawFree(order);
            order = NULL;
        }
        for (Py_ssize_t j = 0; j < ns; j++) {
            Py_ssize_t len = read_cells(PySequence_Fast_GET_ITEM(scopes, j), &sc, m->nc, "tables");
            if (len < 0) goto done;
            if (len < 1 || len > NB_TAB_MAXARITY || (arity >= 0 && len != arity)) {
                PyErr_Format(PyExc_ValueError,
                             "tables[%zd]: scope %zd has %zd cells, not the tuples' arity", t,
                             j, len);
                goto done;
            }
            for (Py_ssize_t a = 0; a < len; a++)
                for (Py_ssize_t b = a + 1; b < len; b++)
                    if (sc[a] == sc[b]) {
                        PyErr_Format(PyExc_ValueError, "tables[%zd]: scope %zd repeats cell %d",
                                     t, j, sc[a]);
                        goto done;
                    }
            int32_t pos = (int32_t)cells.len;
            if (!vec_push(&start, &pos) || !vec_push(&off, &first) || !vec_push(&nrows, &count) ||
                !vec_push(&ioff, &ifirst) || !vec_push(&boff, &bfirst))
                goto done;
            for (Py_ssize_t a = 0; a < len; a++) {
                int16_t c16 = (int16_t)sc[a];
                if (!vec_push(&cells, &c16)) goto done;
            }
            PyMem_RawFree(sc);
            sc = NULL;
        }
        Py_CLEAR(allowed);
        Py_CLEAR(scopes);
        Py_CLEAR(item);
    }
    {
        int32_t pos = (int32_t)cells.len;
        if (!vec_push(&start, &pos)) goto done;
    }
    m->ntab = (int)nrows.len;
    m->tab_start = vec_take(&start);
    m->tab_cells = vec_take(&cells);
    m->tab_off = vec_take(&off);
    m->tab_nrows = vec_take(&nrows);
    m->tab_rows = vec_take(&rows);
    m->tab_ioff = vec_take(&ioff);
    m->tab_boff = vec_take(&boff);
    m->tab_idx = vec_take(&idx);
    m->tab_bucket = vec_take(&bucket);
    ok = m->tab_start && m->tab_cells && m->tab_off && m->tab_nrows && m->tab_rows &&
         m->tab_ioff && m->tab_boff && m->tab_idx && m->tab_bucket;
done:
    Py_XDECREF(allowed);
    Py_XDECREF(scopes);
    Py_XDECREF(item);
    Py_DECREF(fast);
    PyMem_RawFree(sc);
    PyMem_RawFree(order);
    PyMem_RawFree(ioff.p);
    PyMem_RawFree(boff.p);
    PyMem_RawFree(idx.p);
    PyMem_RawFree(bucket.p);
    PyMem_RawFree(start.p);
    PyMem_RawFree(cells.p);
    PyMem_RawFree(off.p);
    PyMem_RawFree(nrows.p);
    PyMem_RawFree(rows.p);
    return ok;
}

static int is_classic9(const nb_model *m, const uint8_t *adj)
{
    if (m->n != 9) return 0;
    for (int a = 0; a < 81; a++)
        for (int b = 0; b < 81; b++) {
            int ra = a / 9, ca = a % 9, rb = b / 9, cb = b % 9;
            int peer = a != b && (ra == rb || ca == cb ||
                                  (ra / 3 == rb / 3 && ca / 3 == cb / 3));
            if (peer != (adj[(size_t)a * 81 + b] != 0)) return 0;
        }
    /* hidden singles need the 27 units to be complete: rows, columns and boxes present */
    return m->nfull >= 27;
}

static int Model_init(ModelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n",         "units", "pairs",      "locked", "relations",
                             "domains",   "sums",  "sandwiches", "tables", NULL};
    int n, locked = 1;
    PyObject *units, *pairs, *relations = Py_None, *domains = Py_None, *sums = Py_None,
             *sandwiches = Py_None, *tables = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOO|$pOOOOO:Model", kwlist, &n, &units,
                                     &pairs, &locked, &relations, &domains, &sums, &sandwiches,
                                     &tables))
        return -1;
    nb_model *m = &self->m;
    if (m->n != 0) {
        /* Its arrays may be in use by a live Search or by a batch running without the
         * GIL: a model is immutable once built. */
        PyErr_SetString(PyExc_RuntimeError,
                        "a Model is immutable: __init__ cannot be called again; build a new one");
        return -1;
    }
    if (n < 4 || n > NB_MAXN) {
        PyErr_Format(PyExc_ValueError, "n must be in 4..%d, got %d", NB_MAXN, n);
        return -1;
    }
    model_free_arrays(m);  /* nothing, or what a failed first __init__ left */
    memset(m, 0, sizeof *m);
    m->n = n;
    m->nc = n * n;
    m->full = (n == 32) ? 0xFFFFFFFFu : ((1u << n) - 1);
    const int nc = m->nc;

    PyObject *ufast = PySequence_Fast(units, "units must be a sequence of sequences");
    if (!ufast) return -1;
    Py_ssize_t nu = PySequence_Fast_GET_SIZE(ufast);
    int32_t **ulist = PyMem_RawCalloc((size_t)(nu ? nu : 1), sizeof(int32_t *));
    Py_ssize_t *ulen = PyMem_RawCalloc((size_t)(nu ? nu : 1), sizeof(Py_ssize_t));
    uint8_t *adj = PyMem_RawCalloc((size_t)nc * nc, 1);
    int32_t *pa = NULL;
    int32_t **dunits = NULL;  /* distinct sum groups taken as units (read_sums) */
    Py_ssize_t *dlen = NULL, ndistinct = 0;
    int ok = 0;
    if (!ulist || !ulen || !adj) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t u = 0; u < nu; u++) {
        ulen[u] = read_cells(PySequence_Fast_GET_ITEM(ufast, u), &ulist[u], nc, "units");
        if (ulen[u] < 0) goto done;
        if (ulen[u] > n) {
            PyErr_Format(PyExc_ValueError, "unit %zd has %zd cells, more than n=%d", u,
                         ulen[u], n);
            goto done;
        }
        total += ulen[u];
    }
    /* adjacency from units and pairs */
    for (Py_ssize_t u = 0; u < nu; u++)
        for (Py_ssize_t i = 0; i < ulen[u]; i++)
            for (Py_ssize_t j = 0; j < ulen[u]; j++)
                if (i != j) {
                    int a = ulist[u][i], b = ulist[u][j];
                    if (a == b) {
                        PyErr_Format(PyExc_ValueError, "unit %zd repeats cell %d", u, a);
                        goto done;
                    }
                    adj[(size_t)a * nc + b] = 1;
                }
    Py_ssize_t np = read_pairs(pairs, &pa, nc);
    if (np < 0) goto done;
    for (Py_ssize_t i = 0; i < np; i += 2) {
        int a = pa[i], b = pa[i + 1];
        if (a != b) {
            adj[(size_t)a * nc + b] = 1;
            adj[(size_t)b * nc + a] = 1;
        }
    }
    /* extra constraints; distinct sum groups become all-different units too (peers,
     * locked candidates with the other units, hidden singles for one of n cells) */
    {
        uint32_t *domain = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)nc);
        int self_rel = 0, has_domain = domains != Py_None;
        if (!domain) {
            PyErr_NoMemory();
            goto done;
        }
        for (int c = 0; c < nc; c++) domain[c] = m->full;
        m->domain = domain;  /* freed with the model; dropped below when unused */
        if (relations != Py_None && !read_relations(m, relations, domain, &self_rel)) goto done;
        if (domains != Py_None && !read_domains(m, domains, domain)) goto done;
        if (!has_domain && !self_rel) {
            PyMem_RawFree(m->domain);
            m->domain = NULL;
        }
        if (sums != Py_None) {
            if (!read_sums(m, sums, adj, &dunits, &dlen, &ndistinct)) goto done;
            int32_t **nl = PyMem_RawRealloc(ulist, sizeof(int32_t *) * (size_t)(nu + ndistinct + 1));
            if (nl) ulist = nl;
            Py_ssize_t *nlen = nl ? PyMem_RawRealloc(ulen, sizeof(Py_ssize_t) * (size_t)(nu + ndistinct + 1)) : NULL;
            if (nlen) ulen = nlen;
            if (!nl || !nlen) {
                PyErr_NoMemory();
                goto done;
            }
            for (Py_ssize_t i = 0; i < ndistinct; i++) {
                ulist[nu] = dunits[i];
                ulen[nu] = dlen[i];
                dunits[i] = NULL;
                total += ulen[nu++];
            }
        }
        if (sandwiches != Py_None && !read_sandwiches(m, sandwiches)) goto done;
        if (tables != Py_None && !read_tables(m, tables)) goto done;
        m->has_extra = m->nrel > 0 || m->nsum > 0 || m->nsand > 0 || m->ntab > 0;
    }
    /* units: full ones first */
    m->nunits = (int)nu;
    m->unit_cells = PyMem_RawMalloc(sizeof(int16_t) * (size_t)(total + 1));
    m->unit_start = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(nu + 1));
    if (!m->unit_cells || !m->unit_start) {
        PyErr_NoMemory();
        goto done;
    }
    {
        int32_t pos = 0, k = 0;
        for (int pass = 0; pass < 2; pass++)
            for (Py_ssize_t u = 0; u < nu; u++) {
                if ((ulen[u] == n) != (pass == 0)) continue;
                m->unit_start[k++] = pos;
                for (Py_ssize_t i = 0; i < ulen[u]; i++) m->unit_cells[pos++] = (int16_t)ulist[u][i];
                if (pass == 0) m->nfull++;
            }
        m->unit_start[k] = pos;
    }
    /* peers */
    {
        size_t cnt = 0;
        for (size_t i = 0; i < (size_t)nc * nc; i++) cnt += adj[i];
        m->peer_cells = PyMem_RawMalloc(sizeof(int16_t) * (cnt + 1));
        m->peer_start = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(nc + 1));
        if (!m->peer_cells || !m->peer_start) {
            PyErr_NoMemory();
            goto done;
        }
        int32_t pos = 0;
        for (int a = 0; a < nc; a++) {
            m->peer_start[a] = pos;
            for (int b = 0; b < nc; b++)
                if (adj[(size_t)a * nc + b]) m->peer_cells[pos++] = (int16_t)b;
        }
        m->peer_start[nc] = pos;
    }
    m->classic9 = C9_ENABLED && !m->has_extra && is_classic9(m, adj);
    if (locked && !nb_model_prepare(m)) {
        PyErr_NoMemory();
        goto done;
    }
    ok = 1;
done:
    if (ulist)
        for (Py_ssize_t u = 0; u < nu; u++) PyMem_RawFree(ulist[u]);
    PyMem_RawFree(ulist);
    PyMem_RawFree(ulen);
    PyMem_RawFree(adj);
    PyMem_RawFree(pa);
    if (dunits)
        for (Py_ssize_t i = 0; i < ndistinct; i++) PyMem_RawFree(dunits[i]);
    PyMem_RawFree(dunits);
    PyMem_RawFree(dlen);
    Py_DECREF(ufast);
    if (!ok) {
        model_free_arrays(m);
        m->n = 0;
        return -1;
    }
    return 0;
}

static int model_ready(ModelObject *self)
{
    if (self->m.n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Model was not initialised");
        return 0;
    }
    return 1;
}

/* Budget from Python: nodes < 0 and seconds < 0 mean no limit. */
static void make_budget(nb_budget *b, long long nodes, double seconds)
{
    b->nodes_limit = nodes < 0 ? 0 : (nodes == 0 ? 1 : (uint64_t)nodes);
    b->deadline = seconds < 0 ? 0.0 : nb_now() + seconds;
    if (seconds >= 0 && b->deadline <= 0) b->deadline = 1e-9;
}

/* Givens: a bytes-like object of exactly nc bytes. */
static int get_givens(const nb_model *m, PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return 0;
    if (view->len != m->nc) {
        PyErr_Format(PyExc_ValueError, "%s must be %d bytes (one value 0..%d per cell), got %zd",
                     what, m->nc, m->n, view->len);
        PyBuffer_Release(view);
        return 0;
    }
    const uint8_t *g = view->buf;
    for (int c = 0; c < m->nc; c++)
        if (g[c] > m->n) {
            PyErr_Format(PyExc_ValueError, "%s: cell %d holds %d, outside 0..%d", what, c,
                         g[c], m->n);
            PyBuffer_Release(view);
            return 0;
        }
    return 1;
}

/* forbidden: None or a sequence of (cell, digit), cell in 0..nc-1 and digit in 1..n;
 * returns the count, or -1 with an exception set. */
static int get_forbidden(const nb_model *m, PyObject *obj, int32_t **out)
{
    *out = NULL;
    if (!obj || obj == Py_None) return 0;
    PyObject *fast = PySequence_Fast(obj, "forbidden must be a sequence of (cell, digit)");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k > INT32_MAX / 2) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "forbidden holds too many pairs");
        return -1;
    }
    int32_t *a = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(2 * k + 2));
    if (!a) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        int c, d;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ii", &c, &d)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "forbidden must hold (cell, digit) pairs");
            PyMem_RawFree(a);
            Py_DECREF(fast);
            return -1;
        }
        if (c < 0 || c >= m->nc || d < 1 || d > m->n) {
            PyErr_Format(PyExc_ValueError,
                         "forbidden[%zd] = (%d, %d): the cell must be in 0..%d and the digit "
                         "in 1..%d",
                         i, c, d, m->nc - 1, m->n);
            PyMem_RawFree(a);
            Py_DECREF(fast);
            return -1;
        }
        a[2 * i] = c;
        a[2 * i + 1] = d;
    }
    Py_DECREF(fast);
    *out = a;
    return (int)k;
}

static PyObject *solutions_list(const uint8_t *buf, uint64_t k, int nc)
{
    PyObject *list = PyList_New((Py_ssize_t)k);
    if (!list) return NULL;
    for (uint64_t i = 0; i < k; i++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)buf + i * (size_t)nc, nc);
        if (!b) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, b);
    }
    return list;
}

PyDoc_STRVAR(Model_solve_doc,
"solve(givens, *, limit=1, keep=None, nodes=-1, seconds=-1.0, forbidden=None, avoid=None,\n"
"      fast=True, prefer=None) -> (count, status, solutions, nodes, guesses)\n\n"
"Count solutions of `givens` (n*n bytes, 0 = empty) up to `limit`, keeping the first\n"
"`keep` (default: all counted). `forbidden` excludes (cell, digit) pairs; `avoid` (n*n\n"
"bytes) is one solution that is neither counted nor returned. status: EXHAUSTED (count\n"
"exact), LIMIT, BUDGET, CONTRADICTORY or INTERRUPTED (see interrupt()).\n"
"`fast=False` disables the classic 9x9 path.\n"
"`prefer` (n*n bytes, 0 = no preference) sets the value order of the generic path: a\n"
"branch on cell c tries prefer[c] first. It changes the order solutions are found in,\n"
"never the count; a known solution makes \"is there another one?\" fast when there is.\n"
"Raises ValueError for givens of the wrong length or values outside 0..n, or a\n"
"forbidden pair outside the grid; MemoryError when an allocation fails.");

static PyObject *Model_solve(ModelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"givens", "limit", "keep", "nodes", "seconds", "forbidden",
                             "avoid", "fast", "prefer", NULL};
    PyObject *gobj, *keepobj = Py_None, *forbobj = Py_None, *avoidobj = Py_None,
             *hintobj = Py_None;
    unsigned long long limit = 1;
    long long nodes = -1;
    double seconds = -1.0;
    int fast = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$KOLdOOpO:solve", kwlist, &gobj, &limit,
                                     &keepobj, &nodes, &seconds, &forbobj, &avoidobj, &fast,
                                     &hintobj))
        return NULL;
    if (!model_ready(self)) return NULL;
    const nb_model *mm = &self->m;
    uint64_t keep = limit;
    if (keepobj != Py_None) {
        keep = PyLong_AsUnsignedLongLong(keepobj);
        if (PyErr_Occurred()) return NULL;
        if (keep > limit) keep = limit;
    }
    if (keep > 1000000) {
        PyErr_SetString(PyExc_ValueError, "keep more than 1,000,000 solutions: use search()");
        return NULL;
    }
    Py_buffer gv, av;
    if (!get_givens(mm, gobj, &gv, "givens")) return NULL;
    const uint8_t *avoid = NULL;
    if (avoidobj != Py_None) {
        if (!get_givens(mm, avoidobj, &av, "avoid")) {
            PyBuffer_Release(&gv);
            return NULL;
        }
        avoid = av.buf;
    }
    Py_buffer hv;
    const uint8_t *hint = NULL;
    if (hintobj != Py_None) {
        if (!get_givens(mm, hintobj, &hv, "prefer")) {
            PyBuffer_Release(&gv);
            if (avoid) PyBuffer_Release(&av);
            return NULL;
        }
        hint = hv.buf;
    }
    int32_t *forb = NULL;
    int nforb = get_forbidden(mm, forbobj, &forb);
    uint8_t *out = NULL;
    if (nforb >= 0) {
        out = PyMem_RawMalloc((size_t)(keep ? keep : 1) * (size_t)mm->nc);
        if (!out) PyErr_NoMemory();
    }
    if (nforb < 0 || !out) {
        PyBuffer_Release(&gv);
        if (avoid) PyBuffer_Release(&av);
        if (hint) PyBuffer_Release(&hv);
        PyMem_RawFree(forb);
        return NULL;
    }
    nb_model local = *mm;
    if (!fast) local.classic9 = 0;
    nb_budget budget;
    uint64_t count = 0;
    nb_stats st = {0, 0};
    int status;
    Py_BEGIN_ALLOW_THREADS
    make_budget(&budget, nodes, seconds);
    status = nb_solve(&local, gv.buf, forb, nforb, avoid, hint, limit, out, keep,
                      &budget, &count, &st);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&gv);
    if (avoid) PyBuffer_Release(&av);
    if (hint) PyBuffer_Release(&hv);
    PyMem_RawFree(forb);
    if (status == NB_NOMEM) {
        PyMem_RawFree(out);
        return PyErr_NoMemory();
    }
    uint64_t nkept = count < keep ? count : keep;
    PyObject *sols = solutions_list(out, nkept, mm->nc);
    PyMem_RawFree(out);
    if (!sols) return NULL;
    return Py_BuildValue("(KiNKK)", (unsigned long long)count, status, sols,
                         (unsigned long long)st.nodes, (unsigned long long)st.guesses);
}

PyDoc_STRVAR(Model_batch_doc,
"batch(data, *, limit=2, keep=1, nodes=-1, seconds=-1.0, fast=True)\n"
"    -> (counts, statuses, solutions, nodes, guesses)\n\n"
"Solve many puzzles in one call without holding the GIL. `data` is a bytes-like object\n"
"of k*n*n values 0..n (k puzzles back to back). Per puzzle: count up to `limit`, keep\n"
"the first `keep` solutions, stop at the per-puzzle budget. Returns a list of k counts,\n"
"k status bytes (EXHAUSTED, LIMIT, BUDGET, CONTRADICTORY, INVALID; INTERRUPTED for the\n"
"puzzle in flight and every later one after interrupt()), the solutions as\n"
"k*keep*n*n bytes (zeros where fewer were found), and total nodes and guesses.");

static PyObject *Model_batch(ModelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"data", "limit", "keep", "nodes", "seconds", "fast", NULL};
    PyObject *dobj;
    unsigned long long limit = 2, keep = 1;
    long long nodes = -1;
    double seconds = -1.0;
    int fast = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$KKLdp:batch", kwlist, &dobj, &limit,
                                     &keep, &nodes, &seconds, &fast))
        return NULL;
    if (!model_ready(self)) return NULL;
    if (keep > limit) keep = limit;
    if (keep > 64) {
        PyErr_SetString(PyExc_ValueError, "batch keeps at most 64 solutions per puzzle");
        return NULL;
    }
    const nb_model *mm = &self->m;
    const int nc = mm->nc;
    Py_buffer dv;
    if (PyObject_GetBuffer(dobj, &dv, PyBUF_SIMPLE) < 0) return NULL;
    if (dv.len % nc) {
        PyErr_Format(PyExc_ValueError, "batch data must be a multiple of %d bytes, got %zd",
                     nc, dv.len);
        PyBuffer_Release(&dv);
        return NULL;
    }
    Py_ssize_t k = dv.len / nc;
    uint32_t *counts = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)(k + 1));
    PyObject *statuses = PyBytes_FromStringAndSize(NULL, k);
    PyObject *sols = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(k * (Py_ssize_t)keep * nc));
    if (!counts || !statuses || !sols) {
        PyMem_RawFree(counts);
        Py_XDECREF(statuses);
        Py_XDECREF(sols);
        PyBuffer_Release(&dv);
        return PyErr_NoMemory();
    }
    uint8_t *stbuf = (uint8_t *)PyBytes_AS_STRING(statuses);
    uint8_t *solbuf = (uint8_t *)PyBytes_AS_STRING(sols);
    memset(solbuf, 0, (size_t)k * keep * nc);
    nb_model local = *mm;
    if (!fast) local.classic9 = 0;
    uint64_t tnodes = 0, tguesses = 0;
    int oom = 0;
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *g = dv.buf;
    for (Py_ssize_t i = 0; i < k; i++) {
        const uint8_t *gi = g + (size_t)i * nc;
        int bad = 0;
        for (int c = 0; c < nc; c++)
            if (gi[c] > local.n) { bad = 1; break; }
        if (bad) {
            counts[i] = 0;
            stbuf[i] = NB_INVALID;
            continue;
        }
        nb_budget budget;
        make_budget(&budget, nodes, seconds);
        uint64_t count = 0;
        nb_stats st = {0, 0};
        int status = nb_solve(&local, gi, NULL, 0, NULL, NULL, limit, solbuf + (size_t)i * keep * nc,
                              keep, &budget, &count, &st);
        if (status == NB_NOMEM) { oom = 1; break; }
        counts[i] = (uint32_t)(count > UINT32_MAX ? UINT32_MAX : count);
        stbuf[i] = (uint8_t)status;
        tnodes += st.nodes;
        tguesses += st.guesses;
        if (status == NB_INTERRUPTED) {
            /* the puzzles after it were not looked at: interrupted too, never "unknown" */
            for (Py_ssize_t j = i + 1; j < k; j++) {
                counts[j] = 0;
                stbuf[j] = NB_INTERRUPTED;
            }
            break;
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&dv);
    if (oom) {
        PyMem_RawFree(counts);
        Py_DECREF(statuses);
        Py_DECREF(sols);
        return PyErr_NoMemory();
    }
    PyObject *clist = PyList_New(k);
    if (!clist) {
        PyMem_RawFree(counts);
        Py_DECREF(statuses);
        Py_DECREF(sols);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *c = PyLong_FromUnsignedLong(counts[i]);
        if (!c) {
            PyMem_RawFree(counts);
            Py_DECREF(clist);
            Py_DECREF(statuses);
            Py_DECREF(sols);
            return NULL;
        }
        PyList_SET_ITEM(clist, i, c);
    }
    PyMem_RawFree(counts);
    return Py_BuildValue("(NNNKK)", clist, statuses, sols, (unsigned long long)tnodes,
                         (unsigned long long)tguesses);
}

PyDoc_STRVAR(Model_search_doc,
"search(givens, *, seed=None, forbidden=None, avoid=None) -> Search\n\n"
"A resumable search over `givens`: call Search.run(want) repeatedly for the next\n"
"solutions. A `seed` (int) randomises digit order and cell tie-breaks (random grids).");

static PyObject *Model_search(ModelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"givens", "seed", "forbidden", "avoid", NULL};
    PyObject *gobj, *seedobj = Py_None, *forbobj = Py_None, *avoidobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOO:search", kwlist, &gobj, &seedobj,
                                     &forbobj, &avoidobj))
        return NULL;
    if (!model_ready(self)) return NULL;
    uint64_t seed = 0;
    int randomise = 0;
    if (seedobj != Py_None) {
        seed = PyLong_AsUnsignedLongLongMask(seedobj);
        if (PyErr_Occurred()) return NULL;
        randomise = 1;
    }
    Py_buffer gv, av;
    if (!get_givens(&self->m, gobj, &gv, "givens")) return NULL;
    const uint8_t *avoid = NULL;
    if (avoidobj != Py_None) {
        if (!get_givens(&self->m, avoidobj, &av, "avoid")) {
            PyBuffer_Release(&gv);
            return NULL;
        }
        avoid = av.buf;
    }
    int32_t *forb = NULL;
    int nforb = get_forbidden(&self->m, forbobj, &forb);
    nb_search *s = NULL;
    if (nforb >= 0) {
        s = nb_search_new(&self->m, gv.buf, forb, nforb, avoid, randomise, seed);
        if (!s) PyErr_NoMemory();
    }
    PyBuffer_Release(&gv);
    if (avoid) PyBuffer_Release(&av);
    PyMem_RawFree(forb);
    if (!s) return NULL;
    SearchObject *so = PyObject_New(SearchObject, &SearchType);
    if (!so) {
        nb_search_free(s);
        return NULL;
    }
    Py_INCREF(self);
    so->model = (PyObject *)self;
    so->s = s;
    so->last_status = -1;
    so->busy = 0;
    so->nodes = so->guesses = 0;
    return (PyObject *)so;
}

static PyObject *Model_get_n(ModelObject *self, void *closure)
{
    return PyLong_FromLong(self->m.n);
}

static PyObject *Model_get_classic9(ModelObject *self, void *closure)
{
    return PyBool_FromLong(self->m.classic9);
}

static PyObject *Model_get_full_units(ModelObject *self, void *closure)
{
    return PyLong_FromLong(self->m.nfull);
}

static PyObject *Model_get_locked_pairs(ModelObject *self, void *closure)
{
    return PyLong_FromLong(self->m.nlocked);
}

/* removal.c: the clue-removal pass (it reaches the model through this wrapper). */
PyObject *nb_py_remove_clues(PyObject *self, const nb_model *m, PyObject *args, PyObject *kwds);
extern const char nb_remove_clues_doc[];

static PyObject *Model_remove_clues(ModelObject *self, PyObject *args, PyObject *kwds)
{
    if (!model_ready(self)) return NULL;
    return nb_py_remove_clues((PyObject *)self, &self->m, args, kwds);
}

/* pmremoval.c: the pencilmark generator's pass (same arrangement). */
PyObject *nb_py_restore_candidates(PyObject *self, const nb_model *m, PyObject *args,
                                   PyObject *kwds);
extern const char nb_restore_candidates_doc[];

static PyObject *Model_restore_candidates(ModelObject *self, PyObject *args, PyObject *kwds)
{
    if (!model_ready(self)) return NULL;
    return nb_py_restore_candidates((PyObject *)self, &self->m, args, kwds);
}

static PyMethodDef Model_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Model_solve, METH_VARARGS | METH_KEYWORDS,
     Model_solve_doc},
    {"batch", (PyCFunction)(void (*)(void))Model_batch, METH_VARARGS | METH_KEYWORDS,
     Model_batch_doc},
    {"search", (PyCFunction)(void (*)(void))Model_search, METH_VARARGS | METH_KEYWORDS,
     Model_search_doc},
    {"remove_clues", (PyCFunction)(void (*)(void))Model_remove_clues,
     METH_VARARGS | METH_KEYWORDS, nb_remove_clues_doc},
    {"restore_candidates", (PyCFunction)(void (*)(void))Model_restore_candidates,
     METH_VARARGS | METH_KEYWORDS, nb_restore_candidates_doc},
    {NULL}
};

static PyGetSetDef Model_getset[] = {
    {"n", (getter)Model_get_n, NULL, "grid size n", NULL},
    {"classic9", (getter)Model_get_classic9, NULL,
     "True when the rules are exactly classic 9x9, maybe with domains (the fast path applies)",
     NULL},
    {"full_units", (getter)Model_get_full_units, NULL,
     "number of units with n cells (used for hidden singles)", NULL},
    {"locked_pairs", (getter)Model_get_locked_pairs, NULL,
     "number of unit pairs checked for locked candidates (0 with locked=False)", NULL},
    {NULL}
};

PyDoc_STRVAR(Model_doc,
"Model(n, units, pairs, *, locked=True, relations=None, domains=None, sums=None,\n"
"      sandwiches=None, tables=None)\n\n"
"The rules of one puzzle family, compiled once: grid size n (4..25), all-different\n"
"units (sequences of cell indices; units of exactly n cells also get hidden singles)\n"
"and extra pairs of cells that must differ (a flat sequence or (a, b) tuples).\n"
"locked=False leaves out locked candidates in the generic path (singles only).\n"
"Extra constraints (the generic path; digits 1..n):\n"
"  relations: (pairs, allowed) tables: for each (a, b) in pairs, (digit at a, digit at\n"
"    b) is in allowed, a collection of digit pairs (a pair (a, a) keeps the digits d\n"
"    with (d, d) allowed);\n"
"  domains: (cell, digits): the cell's digit is one of digits;\n"
"  sums: (cells, weights, total, distinct): sum(weight * digit) == total; distinct\n"
"    cells also hold different digits (an all-different unit);\n"
"  sandwiches: (cells, total): the digits strictly between the first 1 and the first n\n"
"    of the line sum to total (a line without a 1 or an n has no solution);\n"
"  tables: (scopes, allowed): for each scope (a sequence of distinct cells), the digits\n"
"    of its cells in order form one of the allowed digit tuples (each as long as the\n"
"    scope, at most 32; no tuple: no solution).\n"
"Raises ValueError (naming the argument and index) for a cell outside the grid, a\n"
"digit outside 1..n, a weight beyond 2**30 or a malformed entry.\n"
"Immutable and safe to share between threads.");

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = NB_MODULE ".Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)Model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = Model_doc,
    .tp_methods = Model_methods,
    .tp_getset = Model_getset,
    .tp_init = (initproc)Model_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------- */
static void Search_dealloc(SearchObject *self)
{
    nb_search_free(self->s);
    Py_XDECREF(self->model);
    PyObject_Free(self);
}

PyDoc_STRVAR(Search_run_doc,
"run(want, *, nodes=-1, seconds=-1.0) -> (status, solutions)\n\n"
"Continue the search for up to `want` more solutions (list of n*n bytes). status:\n"
"EXHAUSTED (no more solutions exist), LIMIT (`want` found; call again for more),\n"
"BUDGET (this call's budget ran out; call again to continue), INTERRUPTED (see\n"
"interrupt(); call again to continue) or CONTRADICTORY. MemoryError when an allocation\n"
"fails (the solutions of this call are lost).");

static PyObject *Search_run(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"want", "nodes", "seconds", NULL};
    unsigned long long want;
    long long nodes = -1;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K|$Ld:run", kwlist, &want, &nodes, &seconds))
        return NULL;
    if (want > 1000000) {
        PyErr_SetString(PyExc_ValueError, "run() returns at most 1,000,000 solutions per call");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Search.run is already running in another thread");
        return NULL;
    }
    const int nc = ((ModelObject *)self->model)->m.nc;
    uint8_t *out = PyMem_RawMalloc((size_t)(want ? want : 1) * (size_t)nc);
    if (!out) return PyErr_NoMemory();
    nb_budget budget;
    uint64_t found = 0;
    int status;
    const uint64_t base_nodes = self->nodes;
    self->busy = 1;
    nb_stats st;
    Py_BEGIN_ALLOW_THREADS
    make_budget(&budget, nodes, seconds);
    if (budget.nodes_limit) budget.nodes_limit += base_nodes;  /* per call */
    status = nb_search_run(self->s, want, out, want, &budget, &found);
    nb_search_stats(self->s, &st);
    Py_END_ALLOW_THREADS
    self->nodes = st.nodes;
    self->guesses = st.guesses;
    self->busy = 0;
    self->last_status = status;
    if (status == NB_NOMEM) {
        /* the solutions of this call are lost; the search itself may be run again */
        PyMem_RawFree(out);
        return PyErr_NoMemory();
    }
    PyObject *sols = solutions_list(out, found, nc);
    PyMem_RawFree(out);
    if (!sols) return NULL;
    return Py_BuildValue("(iN)", status, sols);
}

static PyObject *Search_get_nodes(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyObject *Search_get_guesses(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->guesses);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     Search_run_doc},
    {NULL}
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL,
     "search nodes as of the end of the last run (a run in progress is not counted)", NULL},
    {"guesses", (getter)Search_get_guesses, NULL,
     "branching points as of the end of the last run", NULL},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = NB_MODULE ".Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A resumable search (from Model.search); not safe to share between threads.",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ---------------------------------------------------------------------------------- */
PyDoc_STRVAR(interrupt_doc,
"interrupt() -> None\n\n"
"Stop every search of this process in flight (any thread, batches included) at its next\n"
"poll (every 256 nodes): it returns the status INTERRUPTED. Searches started later stop\n"
"at once too, until clear_interrupt(). Only sets a flag: safe in a signal handler.");

static PyObject *mod_interrupt(PyObject *mod, PyObject *unused)
{
    nb_interrupt();
    Py_RETURN_NONE;
}

PyDoc_STRVAR(clear_interrupt_doc,
"clear_interrupt() -> None\n\nLet searches run again after interrupt().");

static PyObject *mod_clear_interrupt(PyObject *mod, PyObject *unused)
{
    nb_clear_interrupt();
    Py_RETURN_NONE;
}

PyDoc_STRVAR(interrupted_doc,
"interrupted() -> bool\n\nTrue between interrupt() and clear_interrupt().");

static PyObject *mod_interrupted(PyObject *mod, PyObject *unused)
{
    return PyBool_FromLong(nb_interrupted());
}

#ifdef NB_TESTING
PyDoc_STRVAR(fail_allocation_after_doc,
"fail_allocation_after(k) -> None\n\n"
"For tests: after k more successful allocations of the search code, the next one fails\n"
"(once); k < 0 disarms.");

static PyObject *mod_fail_allocation_after(PyObject *mod, PyObject *arg)
{
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    nb_fail_allocation_after(k);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(c9_isa_doc,
"c9_isa(name=None, /) -> str\n\n"
"For tests and benchmarks: the instruction set of the classic 9x9 search ('c', 'sse2',\n"
"'popcnt', 'avx2'; see classic9.c). With a name, switch to it first; ValueError when the\n"
"name is unknown or this CPU cannot run it. The environment variable SUDOKU_NATIVE_ISA\n"
"chooses the same way, when a module loads.");

static PyObject *mod_c9_isa(PyObject *mod, PyObject *args)
{
    const char *name = NULL;
    if (!PyArg_ParseTuple(args, "|z:c9_isa", &name)) return NULL;
    if (name && !c9_set_isa(name)) {
        PyErr_Format(PyExc_ValueError, "c9_isa: %s: unknown, or not supported by this CPU",
                     name);
        return NULL;
    }
    return PyUnicode_FromString(c9_isa());
}
#endif /* NB_TESTING */

PyDoc_STRVAR(grid_values_doc,
"grid_values(cells, /) -> tuple[int, ...]\n\n"
"The bytes of a grid as a tuple of ints, which the garbage collector does not track: it\n"
"holds only small ints, so it can be in no cycle (CPython untracks such a tuple itself,\n"
"but only once a collection has visited it). A count keeps up to 10,000 grids: tracked,\n"
"their tuples made the collector run over them while the answer was built, as long\n"
"again as building them (25x25: 5 us more per grid). TypeError for a non-buffer.");

static PyObject *mod_grid_values(PyObject *mod, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *cells = (const unsigned char *)view.buf;
    PyObject *t = PyTuple_New(view.len);
    if (t) {
        for (Py_ssize_t i = 0; i < view.len; i++) {
            PyObject *v = PyLong_FromLong(cells[i]); /* a cached small int: cannot fail */
            if (!v) {
                Py_CLEAR(t);
                break;
            }
            PyTuple_SET_ITEM(t, i, v);
        }
        if (t) PyObject_GC_UnTrack(t);
    }
    PyBuffer_Release(&view);
    return t;
}

/* The search for the other extension modules of the package (nb_capi.h): the bulk reader
 * (_bulk) calls it through this capsule, sharing the stop flag. */
static int capi_interrupted(void) { return nb_interrupted(); }
static const nb_capi capi_table = {NB_CAPI_VERSION, nb_model_prepare, nb_solve, nb_now,
                                   capi_interrupted};

static PyMethodDef module_methods[] = {
    {"grid_values", mod_grid_values, METH_O, grid_values_doc},
    {"interrupt", mod_interrupt, METH_NOARGS, interrupt_doc},
    {"clear_interrupt", mod_clear_interrupt, METH_NOARGS, clear_interrupt_doc},
    {"interrupted", mod_interrupted, METH_NOARGS, interrupted_doc},
#ifdef NB_TESTING
    {"fail_allocation_after", mod_fail_allocation_after, METH_O, fail_allocation_after_doc},
    {"c9_isa", mod_c9_isa, METH_VARARGS, c9_isa_doc},
#endif
    {NULL}
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, NB_MODULE,
#ifdef NB_TESTING
    "The native backtracker built with its test hooks (for tests and benchmarks only;\n"
    "the toolkit uses native_backtrack._core).",
#else
    "Compiled backtracking Sudoku solver (see native_backtrack for the typed wrapper).",
#endif
    -1, module_methods,
};

PyMODINIT_FUNC NB_MODULE_INIT(void)
{
    c9_init();
    if (PyType_Ready(&ModelType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&coremodule);
    if (!mod) return NULL;
    if (PyModule_AddObjectRef(mod, "Model", (PyObject *)&ModelType) < 0 ||
        PyModule_AddObjectRef(mod, "Search", (PyObject *)&SearchType) < 0)
        goto fail;
    if (PyModule_AddIntConstant(mod, "EXHAUSTED", NB_EXHAUSTED) < 0 ||
        PyModule_AddIntConstant(mod, "LIMIT", NB_LIMIT) < 0 ||
        PyModule_AddIntConstant(mod, "BUDGET", NB_BUDGET) < 0 ||
        PyModule_AddIntConstant(mod, "CONTRADICTORY", NB_CONTRADICTORY) < 0 ||
        PyModule_AddIntConstant(mod, "INVALID", NB_INVALID) < 0 ||
        PyModule_AddIntConstant(mod, "INTERRUPTED", NB_INTERRUPTED) < 0 ||
        PyModule_AddIntConstant(mod, "MAX_SIZE", NB_MAXN) < 0)
        goto fail;
    PyObject *capsule = PyCapsule_New((void *)&capi_table, NB_CAPI_NAME, NULL);
    if (!capsule || PyModule_AddObject(mod, "_C_API", capsule) < 0) {
        Py_XDECREF(capsule);
        goto fail;
    }
    return mod;
fail:
    Py_DECREF(mod);
    return NULL;
}
