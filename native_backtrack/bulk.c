/* The bulk reader of native_backtrack (extension module native_backtrack._bulk): plain
 * classic 9x9 lines read and answered without a Python object per puzzle.
 *
 *   solve_lines(text, count, nodes=, seconds=)
 *       splits `text` at '\n' into `count` lines, reads every plain line (exactly 81
 *       characters of 1-9, '.' and '0'), answers each uniqueness question as the batch of
 *       NativeBackend.check_unique_batch does (count up to 2 keeping one solution; the
 *       "multiple" ones again keeping two witnesses; per-puzzle budget; the same entry
 *       point, nb_solve, so the same verdicts and counters), and checks the evidence (a full
 *       grid without a clash that keeps the givens is a solution).
 *
 * It returns columns of values (a status per line, givens, solutions, witnesses,
 * counters) and writes no text: the records are Python's to write. The search is _core's,
 * reached through the capsule of nb_capi.h (one backtracker, one stop flag), on a classic
 * 9x9 model built here once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "nb_capi.h"

/* The backtracker of native_backtrack._core (set when the module is imported). */
static const nb_capi *nb;

/* Status of each line (one byte per line; exported as module constants). */
enum {
    BV_UNIQUE = 0,
    BV_MULTIPLE = 1,        /* with two witnesses */
    BV_MULTIPLE_BARE = 2,   /* multiple, but the second search ran out before two again */
    BV_UNSOLVABLE = 3,
    BV_UNKNOWN = 4,         /* budget spent */
    BV_CONTRADICTORY = 5,   /* the caller writes the record (it names the clash) */
    BV_OTHER = 6            /* not a plain line: the caller writes the record */
};

/* ---- the classic 9x9 model, built once (under the GIL, at the first call) ---- */
static nb_model m9;
static int16_t m9_units[27 * 9];
static int32_t m9_ustart[28];
static int16_t m9_peers[81 * 20];
static int32_t m9_pstart[82];
static int m9_ready;

static int m9_build(void)
{
    if (m9_ready) return 1;
    int k = 0;
    for (int u = 0; u < 27; u++) {
        m9_ustart[u] = k;
        for (int i = 0; i < 9; i++) {
            int r, c;
            if (u < 9) {
                r = u, c = i;
            } else if (u < 18) {
                r = i, c = u - 9;
            } else {
                int b = u - 18;
                r = 3 * (b / 3) + i / 3, c = 3 * (b % 3) + i % 3;
            }
            m9_units[k++] = (int16_t)(9 * r + c);
        }
    }
    m9_ustart[27] = k;
    k = 0;
    for (int cell = 0; cell < 81; cell++) {
        int r = cell / 9, c = cell % 9;
        m9_pstart[cell] = k;
        for (int o = 0; o < 81; o++) {
            int r2 = o / 9, c2 = o % 9;
            if (o != cell && (r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3)))
                m9_peers[k++] = (int16_t)o;
        }
    }
    m9_pstart[81] = k;
    memset(&m9, 0, sizeof m9);
    m9.n = 9;
    m9.nc = 81;
    m9.full = 0x1FF;
    m9.nunits = 27;
    m9.nfull = 27;
    m9.unit_cells = m9_units;
    m9.unit_start = m9_ustart;
    m9.peer_cells = m9_peers;
    m9.peer_start = m9_pstart;
    m9.classic9 = 1;
    if (!nb->model_prepare(&m9)) return 0;
    m9_ready = 1;
    return 1;
}

/* Budget of one puzzle, as core.c's batch makes it: nodes < 0, seconds < 0 = none. */
static void bv_budget(nb_budget *b, long long nodes, double seconds)
{
    b->nodes_limit = nodes < 0 ? 0 : (nodes == 0 ? 1 : (uint64_t)nodes);
    b->deadline = seconds < 0 ? 0.0 : nb->now() + seconds;
    if (seconds >= 0 && b->deadline <= 0) b->deadline = 1e-9;
}

/* The box of each cell: the evidence check below runs for every answer of a bulk chunk
 * and was 6% of a 17-clue run with the index computed per cell. */
static const uint8_t bv_box[81] = {
    0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2,
    3, 3, 3, 4, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 4, 5, 5, 5,
    6, 6, 6, 7, 7, 7, 8, 8, 8, 6, 6, 6, 7, 7, 7, 8, 8, 8, 6, 6, 6, 7, 7, 7, 8, 8, 8};

/* A full grid that keeps the givens and repeats no digit in a unit: a solution. One pass
 * over the cells without a branch per cell: a value outside 1..9 sets no bit, and nine
 * cells show the nine digits 1..9 only when each holds one of them, so a bad value shows
 * in the final test. */
static int bv_solves(const uint8_t *grid, const uint8_t *givens)
{
    unsigned rows[9] = {0}, cols[9] = {0}, boxes[9] = {0}, kept = 0;
    for (int r = 0, c = 0; r < 9; r++) {
        unsigned row = 0;
        for (int k = 0; k < 9; k++, c++) {
            unsigned v = grid[c], g = givens[c];
            unsigned bit = v - 1u <= 8u ? 1u << v : 0u; /* a select, not a branch */
            kept |= (unsigned)(g != 0) & (unsigned)(g != v); /* a given not kept */
            row |= bit;
            cols[k] |= bit;
            boxes[bv_box[c]] |= bit;
        }
        rows[r] = row;
    }
    if (kept) return 0;
    for (int u = 0; u < 9; u++)
        if ((rows[u] & cols[u] & boxes[u]) != 0x3FEu) return 0;
    return 1;
}

/* Value of each character of a plain line: 1-9 themselves, '.' and '0' blank (0), any
 * other 0x80 (the line is not plain). A table instead of two comparisons per cell. */
static uint8_t bv_value[256];

static void bv_value_build(void)
{
    if (bv_value['x']) return; /* built (under the GIL, at the first call) */
    memset(bv_value, 0x80, sizeof bv_value);
    bv_value['.'] = 0;
    for (int d = 0; d <= 9; d++) bv_value['0' + d] = (uint8_t)d;
}

/* Plain line: exactly 81 characters of 1-9, '.', '0' (blanks); *clues gets the givens. */
static int bv_read(const char *s, Py_ssize_t len, uint8_t *givens, uint8_t *clues)
{
    if (len != 81) return 0;
    unsigned bad = 0, blanks = 0;
    for (int c = 0; c < 81; c++) {
        unsigned v = bv_value[(unsigned char)s[c]];
        bad |= v;
        blanks += v == 0;
        givens[c] = (uint8_t)v;
    }
    if (bad & 0x80u) return 0;
    *clues = (uint8_t)(81 - blanks);
    return 1;
}

/* The bulk path streams chunk after chunk of columns and records (about 0.4 MB each, made
 * in worker threads and freed by the main thread once written) through malloc. glibc's
 * defaults hand such blocks back to the kernel (mmap above 128 KB, arenas trimmed above
 * 128 KB free) and fault them in again for the next chunk: on a 17-clue run that was
 * 5,000 page faults, more CPU than writing the records. Keep them: blocks below 4 MB come
 * from the heap, and up to 32 MB of free heap stays mapped. Once per process, at the first
 * bulk call (a process that verifies in bulk streams); other C libraries are unaffected. */
static void bv_keep_memory(void)
{
#ifdef __GLIBC__
    static int done;
    if (done) return;
    done = 1;
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
}

static const char solve_lines_doc[] =
"solve_lines(text, count, *, nodes=-1, seconds=-1.0)\n"
"    -> (status, codes, givens, solutions, witnesses, clues, size, nodes, guesses,\n"
"        seconds, evidence_ok)\n\n"
"Answer the plain classic 9x9 lines of `text` (`count` lines joined by '\\n') without the\n"
"GIL. status: 0, or 1 when `text` does not hold `count` lines (nothing answered), or\n"
"INTERRUPTED. codes: one status per line (UNIQUE, MULTIPLE with witnesses,\n"
"MULTIPLE_BARE without, UNSOLVABLE, UNKNOWN, CONTRADICTORY, OTHER: not a plain line);\n"
"givens/solutions: 81 values per line; witnesses: 162 per line; clues: the givens\n"
"of each line (0 when not plain); size: the puzzles\n"
"answered (plain lines); nodes, guesses, seconds (wall) summed over both passes;\n"
"evidence_ok: every solution and witness pair checked out.";

static PyObject *solve_lines(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"text", "count", "nodes", "seconds", NULL};
    Py_buffer tv;
    Py_ssize_t count;
    long long nodes = -1;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*n|$Ld:solve_lines", kwlist, &tv, &count,
                                     &nodes, &seconds))
        return NULL;
    if (count < 0) {
        PyBuffer_Release(&tv);
        PyErr_SetString(PyExc_ValueError, "count must be >= 0");
        return NULL;
    }
    if (!m9_build()) {
        PyBuffer_Release(&tv);
        return PyErr_NoMemory();
    }
    bv_value_build();
    bv_keep_memory();
    PyObject *codes = PyBytes_FromStringAndSize(NULL, count);
    PyObject *givens = PyBytes_FromStringAndSize(NULL, count * 81);
    PyObject *sols = PyBytes_FromStringAndSize(NULL, count * 81);
    PyObject *wits = PyBytes_FromStringAndSize(NULL, count * 162);
    PyObject *clues = PyBytes_FromStringAndSize(NULL, count);
    if (!codes || !givens || !sols || !wits || !clues) {
        Py_XDECREF(codes);
        Py_XDECREF(givens);
        Py_XDECREF(sols);
        Py_XDECREF(wits);
        Py_XDECREF(clues);
        PyBuffer_Release(&tv);
        return PyErr_NoMemory();
    }
    uint8_t *cd = (uint8_t *)PyBytes_AS_STRING(codes);
    uint8_t *gv = (uint8_t *)PyBytes_AS_STRING(givens);
    uint8_t *sl = (uint8_t *)PyBytes_AS_STRING(sols);
    uint8_t *wt = (uint8_t *)PyBytes_AS_STRING(wits);
    uint8_t *cl = (uint8_t *)PyBytes_AS_STRING(clues);
    int status = 0, oom = 0, evidence_ok = 1;
    Py_ssize_t size = 0;
    uint64_t tnodes = 0, tguesses = 0;
    double elapsed = 0.0;

    Py_BEGIN_ALLOW_THREADS
    memset(gv, 0, (size_t)count * 81);
    memset(sl, 0, (size_t)count * 81);
    memset(wt, 0, (size_t)count * 162);
    memset(cl, 0, (size_t)count);
    /* lines first: a text that does not split into `count` lines is answered by nobody */
    const char *s = tv.buf, *end = s + tv.len;
    Py_ssize_t lines = tv.len ? 1 : 0, i;
    for (const char *scan = s; (scan = memchr(scan, '\n', (size_t)(end - scan))) != NULL; scan++)
        lines++;
    if (lines != count && !(count == 1 && tv.len == 0)) status = 1;
    for (i = 0; i < count && !status; i++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *stop = nl ? nl : end;
        if (bv_read(s, stop - s, gv + (size_t)i * 81, cl + i)) {
            cd[i] = BV_UNIQUE; /* to be answered */
            size++;
        } else {
            cd[i] = BV_OTHER;
        }
        s = nl ? nl + 1 : end;
    }
    if (status == 0) {
        /* pass 1: count up to 2 keeping one solution (NativeBackend.check_unique_batch) */
        double t0 = nb->now();
        for (i = 0; i < count && !status; i++) {
            if (cd[i] == BV_OTHER) continue;
            nb_budget b;
            bv_budget(&b, nodes, seconds);
            uint64_t found = 0;
            nb_stats st = {0, 0};
            int r = nb->solve(&m9, gv + (size_t)i * 81, NULL, 0, NULL, NULL, 2, sl + (size_t)i * 81,
                             1, &b, &found, &st);
            tnodes += st.nodes;
            tguesses += st.guesses;
            if (r == NB_NOMEM) oom = 1, status = NB_NOMEM;
            else if (r == NB_INTERRUPTED) status = NB_INTERRUPTED;
            else if (r == NB_CONTRADICTORY) cd[i] = BV_CONTRADICTORY;
            else if (found >= 2) cd[i] = BV_MULTIPLE;
            else if (r != NB_EXHAUSTED) cd[i] = BV_UNKNOWN;
            else cd[i] = found ? BV_UNIQUE : BV_UNSOLVABLE;
        }
        double t1 = nb->now();
        elapsed = t1 - t0;
        /* pass 2: the multiple ones again, keeping two witnesses */
        for (i = 0; i < count && !status; i++) {
            if (cd[i] != BV_MULTIPLE) continue;
            nb_budget b;
            bv_budget(&b, nodes, seconds);
            uint64_t found = 0;
            nb_stats st = {0, 0};
            int r = nb->solve(&m9, gv + (size_t)i * 81, NULL, 0, NULL, NULL, 2, wt + (size_t)i * 162,
                             2, &b, &found, &st);
            tnodes += st.nodes;
            tguesses += st.guesses;
            if (r == NB_NOMEM) oom = 1, status = NB_NOMEM;
            else if (r == NB_INTERRUPTED) status = NB_INTERRUPTED;
            else if (found < 2) cd[i] = BV_MULTIPLE_BARE;
        }
        elapsed += nb->now() - t1;
        /* an interrupt that came after the last poll still loses the chunk: no verdict
         * is recorded once a stop was asked for */
        if (!status && nb->interrupted()) status = NB_INTERRUPTED;
        for (i = 0; i < count && !status; i++) {
            const uint8_t *g = gv + (size_t)i * 81;
            if (cd[i] == BV_UNIQUE) {
                if (!bv_solves(sl + (size_t)i * 81, g)) evidence_ok = 0;
            } else if (cd[i] == BV_MULTIPLE) {
                const uint8_t *w = wt + (size_t)i * 162;
                if (!bv_solves(w, g) || !bv_solves(w + 81, g) || !memcmp(w, w + 81, 81))
                    evidence_ok = 0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&tv);
    if (oom) {
        Py_DECREF(codes);
        Py_DECREF(givens);
        Py_DECREF(sols);
        Py_DECREF(wits);
        Py_DECREF(clues);
        return PyErr_NoMemory();
    }
    return Py_BuildValue("(iNNNNNnKKdO)", status, codes, givens, sols, wits, clues, size,
                         (unsigned long long)tnodes, (unsigned long long)tguesses, elapsed,
                         evidence_ok ? Py_True : Py_False);
}

/* ---- the module ---- */
static PyMethodDef bulk_methods[] = {
    {"solve_lines", (PyCFunction)(void (*)(void))solve_lines, METH_VARARGS | METH_KEYWORDS,
     solve_lines_doc},
    {NULL}
};

static struct PyModuleDef bulkmodule = {
    PyModuleDef_HEAD_INIT, "sudoku_model.native_backtrack._bulk",
    "Plain classic 9x9 lines read and answered in bulk by the native backtracker (columns, "
    "no text).",
    -1, bulk_methods,
};

PyMODINIT_FUNC PyInit__bulk(void)
{
    nb = (const nb_capi *)PyCapsule_Import(NB_CAPI_NAME, 0);
    if (!nb) return NULL;
    if (nb->version != NB_CAPI_VERSION) {
        PyErr_Format(PyExc_ImportError, "sudoku_model.native_backtrack._core exports C API version %d, "
                     "_bulk needs %d: rebuild the package", nb->version, NB_CAPI_VERSION);
        return NULL;
    }
    PyObject *mod = PyModule_Create(&bulkmodule);
    if (!mod) return NULL;
    if (PyModule_AddIntConstant(mod, "UNIQUE", BV_UNIQUE) < 0 ||
        PyModule_AddIntConstant(mod, "MULTIPLE", BV_MULTIPLE) < 0 ||
        PyModule_AddIntConstant(mod, "MULTIPLE_BARE", BV_MULTIPLE_BARE) < 0 ||
        PyModule_AddIntConstant(mod, "UNSOLVABLE", BV_UNSOLVABLE) < 0 ||
        PyModule_AddIntConstant(mod, "UNKNOWN", BV_UNKNOWN) < 0 ||
        PyModule_AddIntConstant(mod, "CONTRADICTORY", BV_CONTRADICTORY) < 0 ||
        PyModule_AddIntConstant(mod, "OTHER", BV_OTHER) < 0 ||
        PyModule_AddIntConstant(mod, "INTERRUPTED", NB_INTERRUPTED) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
