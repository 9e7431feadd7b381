/* Bulk verification of plain classic 9x9 lines (issue 18): `sudoku verify`'s common case
 * without a Python object per puzzle.
 *
 * Two calls per chunk of lines, both without the GIL for their loops:
 *   bulk9_solve(text, count, nodes=, seconds=)
 *       splits `text` at '\n' into `count` lines, reads every plain line (exactly 81
 *       characters of 1-9, '.' and '0'), answers each uniqueness question as the batch of
 *       NativeBackend.check_unique_batch does (count up to 2 keeping one solution; the
 *       "multiple" ones again keeping two witnesses; per-puzzle budget; the same entry
 *       point, nb_solve, so the same verdicts and counters), and checks the evidence (a full
 *       grid without a clash that keeps the givens is a solution).
 *   bulk9_records(answers, lines, first_position, head, middle, tail, inserts)
 *       writes one JSONL verify record per line in input order: the plain lines from the
 *       answers, every other line from `inserts` (the text the general path made for it).
 * Lines that are not plain, and contradictory ones (their record names the clash, which
 * the Python model describes), are left to the caller; the record layout of the pieces in
 * between (puzzle, clues, verdict, solution, witnesses, differing cells) is that of
 * sudoku_model.verify.VerifyResult.to_json_line, and a test compares the bytes.
 *
 * The search is reached only through nb.h's entry points (nb_solve on a classic 9x9 model
 * built here once), so the solver's internals can change under it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "nb.h"

/* Verdict codes of bulk9_solve (one byte per line; sudoku_model.verify reads them). */
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
    if (!nb_model_prepare(&m9)) return 0;
    m9_ready = 1;
    return 1;
}

/* Budget of one puzzle, as core.c's batch makes it: nodes < 0, seconds < 0 = none. */
static void bv_budget(nb_budget *b, long long nodes, double seconds)
{
    b->nodes_limit = nodes < 0 ? 0 : (nodes == 0 ? 1 : (uint64_t)nodes);
    b->deadline = seconds < 0 ? 0.0 : nb_now() + seconds;
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

/* Plain line: exactly 81 characters of 1-9, '.', '0' (blanks). */
static int bv_read(const char *s, Py_ssize_t len, uint8_t *givens)
{
    if (len != 81) return 0;
    unsigned bad = 0;
    for (int c = 0; c < 81; c++) {
        unsigned v = bv_value[(unsigned char)s[c]];
        bad |= v;
        givens[c] = (uint8_t)v;
    }
    return !(bad & 0x80u);
}

/* The bulk path streams chunk after chunk of records (about 0.4 MB of text each, made in
 * worker threads and freed by the main thread once written) through malloc. glibc's
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

const char nb_bulk9_solve_doc[] =
"bulk9_solve(text, count, *, nodes=-1, seconds=-1.0)\n"
"    -> (status, codes, givens, solutions, witnesses, size, nodes, guesses, seconds,\n"
"        evidence_ok)\n\n"
"Answer the plain classic 9x9 lines of `text` (`count` lines joined by '\\n') without the\n"
"GIL. status: 0, or 1 when `text` does not hold `count` lines (nothing answered), or\n"
"INTERRUPTED. codes: one verdict code per line (0 unique, 1 multiple with witnesses,\n"
"2 multiple without, 3 unsolvable, 4 unknown, 5 contradictory, 6 not a plain line);\n"
"givens/solutions: 81 values per line; witnesses: 162 per line; size: the puzzles\n"
"answered (plain lines); nodes, guesses, seconds (wall) summed over both passes;\n"
"evidence_ok: every solution and witness pair checked out.";

PyObject *nb_py_bulk9_solve(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"text", "count", "nodes", "seconds", NULL};
    Py_buffer tv;
    Py_ssize_t count;
    long long nodes = -1;
    double seconds = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*n|$Ld:bulk9_solve", kwlist, &tv, &count,
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
    if (!codes || !givens || !sols || !wits) {
        Py_XDECREF(codes);
        Py_XDECREF(givens);
        Py_XDECREF(sols);
        Py_XDECREF(wits);
        PyBuffer_Release(&tv);
        return PyErr_NoMemory();
    }
    uint8_t *cd = (uint8_t *)PyBytes_AS_STRING(codes);
    uint8_t *gv = (uint8_t *)PyBytes_AS_STRING(givens);
    uint8_t *sl = (uint8_t *)PyBytes_AS_STRING(sols);
    uint8_t *wt = (uint8_t *)PyBytes_AS_STRING(wits);
    int status = 0, oom = 0, evidence_ok = 1;
    Py_ssize_t size = 0;
    uint64_t tnodes = 0, tguesses = 0;
    double elapsed = 0.0;

    Py_BEGIN_ALLOW_THREADS
    memset(gv, 0, (size_t)count * 81);
    memset(sl, 0, (size_t)count * 81);
    memset(wt, 0, (size_t)count * 162);
    /* lines first: a text that does not split into `count` lines is answered by nobody */
    const char *s = tv.buf, *end = s + tv.len;
    Py_ssize_t lines = tv.len ? 1 : 0, i;
    for (const char *scan = s; (scan = memchr(scan, '\n', (size_t)(end - scan))) != NULL; scan++)
        lines++;
    if (lines != count && !(count == 1 && tv.len == 0)) status = 1;
    for (i = 0; i < count && !status; i++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *stop = nl ? nl : end;
        if (bv_read(s, stop - s, gv + (size_t)i * 81)) {
            cd[i] = BV_UNIQUE; /* to be answered */
            size++;
        } else {
            cd[i] = BV_OTHER;
        }
        s = nl ? nl + 1 : end;
    }
    if (status == 0) {
        /* pass 1: count up to 2 keeping one solution (NativeBackend.check_unique_batch) */
        double t0 = nb_now();
        for (i = 0; i < count && !status; i++) {
            if (cd[i] == BV_OTHER) continue;
            nb_budget b;
            bv_budget(&b, nodes, seconds);
            uint64_t found = 0;
            nb_stats st = {0, 0};
            int r = nb_solve(&m9, gv + (size_t)i * 81, NULL, 0, NULL, NULL, 2, sl + (size_t)i * 81,
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
        double t1 = nb_now();
        elapsed = t1 - t0;
        /* pass 2: the multiple ones again, keeping two witnesses */
        for (i = 0; i < count && !status; i++) {
            if (cd[i] != BV_MULTIPLE) continue;
            nb_budget b;
            bv_budget(&b, nodes, seconds);
            uint64_t found = 0;
            nb_stats st = {0, 0};
            int r = nb_solve(&m9, gv + (size_t)i * 81, NULL, 0, NULL, NULL, 2, wt + (size_t)i * 162,
                             2, &b, &found, &st);
            tnodes += st.nodes;
            tguesses += st.guesses;
            if (r == NB_NOMEM) oom = 1, status = NB_NOMEM;
            else if (r == NB_INTERRUPTED) status = NB_INTERRUPTED;
            else if (found < 2) cd[i] = BV_MULTIPLE_BARE;
        }
        elapsed += nb_now() - t1;
        /* an interrupt that came after the last poll still loses the chunk: no verdict
         * is recorded once a stop was asked for */
        if (!status && nb_interrupted()) status = NB_INTERRUPTED;
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
        return PyErr_NoMemory();
    }
    return Py_BuildValue("(iNNNNnKKdO)", status, codes, givens, sols, wits, size,
                         (unsigned long long)tnodes, (unsigned long long)tguesses, elapsed,
                         evidence_ok ? Py_True : Py_False);
}

/* ---- writing ---- */
/* Records are written twice over the same code: a first pass with no buffer only counts
 * the bytes (buf NULL), a second writes them into the result, allocated once at its exact
 * size (no growing buffer copied on each doubling, and for ASCII text, the usual case, no
 * decoding pass: the bytes go straight into the str). */
typedef struct {
    char *buf;
    size_t len;
} bv_out;

static inline void bv_put(bv_out *o, const char *s, size_t n)
{
    if (o->buf) memcpy(o->buf + o->len, s, n);
    o->len += n;
}

#define BV_LIT(o, s) bv_put(o, s, sizeof(s) - 1)

static inline void bv_int(bv_out *o, long long v)
{
    char tmp[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[n++] = '-';
    if (o->buf)
        for (int k = 0; k < n; k++) o->buf[o->len + (size_t)k] = tmp[n - 1 - k];
    o->len += (size_t)n;
}

static inline void bv_grid(bv_out *o, const uint8_t *g)
{
    if (o->buf) {
        char *p = o->buf + o->len;
        for (int c = 0; c < 81; c++) p[c] = g[c] ? (char)('0' + g[c]) : '.';
    }
    o->len += 81;
}

typedef struct {
    const char *s;
    Py_ssize_t n;
} bv_piece;

/* The records of a chunk (see nb_py_bulk9_records) into `o`: its bytes, or their count. */
static void bv_write(bv_out *o, Py_ssize_t count, const uint8_t *cd, const uint8_t *g,
                     const uint8_t *sl, const uint8_t *wt, const int64_t *ln, Py_ssize_t first,
                     const bv_piece *ph, const bv_piece *pm, const bv_piece *pt,
                     const bv_piece *ins)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        if (ins[i].s) {
            bv_put(o, ins[i].s, (size_t)ins[i].n);
            continue;
        }
        const uint8_t *gi = g + (size_t)i * 81;
        bv_put(o, ph->s, (size_t)ph->n);
        bv_int(o, ln[i]);
        bv_put(o, pm->s, (size_t)pm->n);
        bv_int(o, first + i);
        BV_LIT(o, ",\"puzzle\":\"");
        bv_grid(o, gi);
        BV_LIT(o, "\",\"clues\":");
        int clues = 0;
        for (int c = 0; c < 81; c++) clues += gi[c] != 0;
        bv_int(o, clues);
        switch (cd[i]) {
        case BV_UNIQUE:
            BV_LIT(o, ",\"verdict\":\"unique\",\"solution\":\"");
            bv_grid(o, sl + (size_t)i * 81);
            BV_LIT(o, "\"");
            break;
        case BV_MULTIPLE: {
            const uint8_t *w = wt + (size_t)i * 162;
            BV_LIT(o, ",\"verdict\":\"multiple\",\"witnesses\":[\"");
            bv_grid(o, w);
            BV_LIT(o, "\",\"");
            bv_grid(o, w + 81);
            BV_LIT(o, "\"],\"differing_cells\":[");
            int any = 0;
            for (int c = 0; c < 81; c++) {
                if (w[c] == w[81 + c]) continue;
                char cell[7] = {',', '"', 'r', (char)('1' + c / 9), 'c', (char)('1' + c % 9), '"'};
                bv_put(o, any ? cell : cell + 1, any ? 7 : 6);
                any = 1;
            }
            BV_LIT(o, "]");
            break;
        }
        case BV_MULTIPLE_BARE:
            BV_LIT(o, ",\"verdict\":\"multiple\"");
            break;
        case BV_UNSOLVABLE:
            BV_LIT(o, ",\"verdict\":\"unsolvable\"");
            break;
        default:
            BV_LIT(o, ",\"verdict\":\"unknown\"");
            break;
        }
        bv_put(o, pt->s, (size_t)pt->n);
    }
}

const char nb_bulk9_records_doc[] =
"bulk9_records(codes, givens, solutions, witnesses, lines, first_position, head, middle,\n"
"              tail, inserts) -> str\n\n"
"The JSONL verify records of a chunk answered by bulk9_solve, in order: for line i,\n"
"inserts[i] when it is a str (required for codes 5 and 6), else head + line number +\n"
"middle + position + the puzzle's fields + tail. `lines`: one int64 line number per line;\n"
"positions count up from `first_position`. Writing runs without the GIL.";

PyObject *nb_py_bulk9_records(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer cv, gv, sv, wv, lv;
    Py_ssize_t first;
    PyObject *head, *middle, *tail, *inserts;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nUUUO!:bulk9_records", &cv, &gv, &sv, &wv, &lv, &first,
                          &head, &middle, &tail, &PyList_Type, &inserts))
        return NULL;
    PyObject *result = NULL;
    bv_piece *ins = NULL;
    Py_ssize_t count = cv.len;
    bv_piece ph, pm, pt;
    ph.s = PyUnicode_AsUTF8AndSize(head, &ph.n);
    pm.s = ph.s ? PyUnicode_AsUTF8AndSize(middle, &pm.n) : NULL;
    pt.s = pm.s ? PyUnicode_AsUTF8AndSize(tail, &pt.n) : NULL;
    if (!pt.s) goto done;
    if (gv.len != count * 81 || sv.len != count * 81 || wv.len != count * 162 ||
        lv.len != count * (Py_ssize_t)sizeof(int64_t) || PyList_GET_SIZE(inserts) != count) {
        PyErr_SetString(PyExc_ValueError, "bulk9_records: the columns differ in length");
        goto done;
    }
    ins = PyMem_Malloc(sizeof(bv_piece) * (size_t)(count ? count : 1));
    if (!ins) {
        PyErr_NoMemory();
        goto done;
    }
    const uint8_t *cd = cv.buf;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *x = PyList_GET_ITEM(inserts, i);
        if (PyUnicode_Check(x)) {
            ins[i].s = PyUnicode_AsUTF8AndSize(x, &ins[i].n);
            if (!ins[i].s) goto done;
        } else if (cd[i] >= BV_CONTRADICTORY) {
            PyErr_Format(PyExc_ValueError, "bulk9_records: line %zd needs its record text", i);
            goto done;
        } else {
            ins[i].s = NULL;
        }
    }
    /* ASCII pieces (JSON escapes every other character, so this is the usual case): the
     * records go straight into the str; otherwise into a buffer decoded as UTF-8 */
    int ascii = PyUnicode_IS_ASCII(head) && PyUnicode_IS_ASCII(middle) && PyUnicode_IS_ASCII(tail);
    for (Py_ssize_t i = 0; i < count && ascii; i++) {
        PyObject *x = PyList_GET_ITEM(inserts, i);
        if (ins[i].s && !PyUnicode_IS_ASCII(x)) ascii = 0;
    }
    bv_out o = {NULL, 0};
    const int64_t *ln = lv.buf;
    Py_BEGIN_ALLOW_THREADS
    bv_write(&o, count, cd, gv.buf, sv.buf, wv.buf, ln, first, &ph, &pm, &pt, ins);
    Py_END_ALLOW_THREADS
    size_t size = o.len;
    if (size > (size_t)PY_SSIZE_T_MAX) {
        PyErr_NoMemory();
        goto done;
    }
    char *raw = NULL;
    if (ascii) {
        result = PyUnicode_New((Py_ssize_t)size, 127);
        if (!result) goto done;
        o.buf = (char *)PyUnicode_1BYTE_DATA(result);
    } else {
        raw = PyMem_RawMalloc(size ? size : 1);
        if (!raw) {
            PyErr_NoMemory();
            goto done;
        }
        o.buf = raw;
    }
    o.len = 0;
    Py_BEGIN_ALLOW_THREADS
    bv_write(&o, count, cd, gv.buf, sv.buf, wv.buf, ln, first, &ph, &pm, &pt, ins);
    Py_END_ALLOW_THREADS
    if (raw) {
        result = PyUnicode_DecodeUTF8(raw, (Py_ssize_t)size, "strict");
        PyMem_RawFree(raw);
    }
    if (result && o.len != size) { /* the two passes disagree: a bug, never silent */
        Py_CLEAR(result);
        PyErr_SetString(PyExc_SystemError, "bulk9_records: record sizes differ between passes");
    }
done:
    PyMem_Free(ins);
    PyBuffer_Release(&cv);
    PyBuffer_Release(&gv);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&wv);
    PyBuffer_Release(&lv);
    return result;
}
