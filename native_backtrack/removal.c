/* The clue-removal pass of the generator in one C call: Model.remove_clues (and, at the
 * end of this file, nb_fill9: the generator's random classic 9x9 grid, for generic.c).
 *
 * A full grid S is known; the puzzle `givens` (S with some cells emptied) is unique. The
 * groups of cells (the orbits of a symmetry, or single cells) are visited in the order the
 * caller drew, so seeds, symmetries, patterns and clue targets stay the caller's. Emptying
 * a group keeps the puzzle unique exactly when no solution differs from S in one of its
 * cells: for each cell c of a small group, one search with (c, S[c]) forbidden (the cells
 * already asked are put back to S's digit, since a solution differing there was ruled
 * out); a group of more than GROUP_LIMIT cells is one search that skips S itself. Before
 * any search, a cheap test: when every emptied cell is forced by the givens alone (its
 * peers show every other digit, or a full unit has no other place for its digit), the
 * puzzle stays unique; and on classic 9x9, when the givens left keep no cell of a set
 * where two digits of S can swap (find_swaps), it is not unique. Every test answers the
 * same yes/no, so the result does not depend on which one answered; this is the Python loop of sudoku_model.generate and of
 * RemovalOracle.remove_groups, with the Python overhead per clue gone.
 *
 * Modes: "remove" (a group that can go stays empty; stop before a group once the clue count
 * is at most `target`) and "probe" (every group is put back; stop at the first one that
 * could go: the minimality test). Each search gets its own budget (nodes, seconds), like
 * one still_unique call; a search that spends it answers "unknown" (the group stays), or,
 * with stop_on_budget, ends the pass at that group so that the caller can ask a stronger
 * engine (the SAT fallback of large grids) and resume after it.
 *
 * The searches go through nb_solve (nb.h): the classic 9x9 fast path when the model is
 * classic 9x9 and `fast`, the generic path otherwise, with S as the value order hint.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "nb.h"

/* Above this many cells, one "another solution than S?" search beats one per cell (the
 * same constant as backends/native.py: NativeRemovalOracle.GROUP_LIMIT). */
#define GROUP_LIMIT 6

enum { ANS_NECESSARY = 0, ANS_REMOVABLE = 1, ANS_UNKNOWN = 2 };

/* At most 36 digit pairs x 4 components of at least 4 cells (each pair's 18 cells). */
#define UA_MAX 160

typedef struct {
    const nb_model *m;
    const uint8_t *known;   /* S */
    int32_t *ufirst;        /* per cell: offsets into ulist (nc + 1) */
    int16_t *ulist;         /* full units of each cell (unit indices) */
    long long nodes;        /* per search; < 0: none */
    double seconds;         /* per search; < 0: none */
    nb_stats total;
    uint8_t scratch[NB_MAXC];
    uint8_t was[NB_MAXC];   /* the values of the group in flight before it was emptied */
    uint32_t seen[NB_MAXC]; /* per cell: the digits its peers show (bit d-1) */
    uint16_t *count;        /* per cell and digit: how many of its peers show it */
    /* Classic 9x9: the unavoidable sets of S made by swapping two digits (see
     * find_swaps), as 81-bit masks (cells 0..63, 64..80), and the givens as one. */
    int nua;
    uint64_t ua_lo[UA_MAX], ua_hi[UA_MAX];
    uint64_t given_lo, given_hi;
} pass_ctx;

/* The givens changed at `cell` (digit d placed: +1, emptied: -1): the peers' counts of d
 * and masks of the digits they see follow, so that the tests below read one mask per
 * cell instead of walking its peers. */
static void show(pass_ctx *x, int cell, int d, int delta)
{
    const nb_model *m = x->m;
    uint32_t bit = 1u << (d - 1);
    for (int32_t k = m->peer_start[cell]; k < m->peer_start[cell + 1]; k++) {
        int p = m->peer_cells[k];
        uint16_t *count = x->count + (size_t)p * (size_t)m->n + (d - 1);
        if (delta > 0) {
            if ((*count)++ == 0) x->seen[p] |= bit;
        } else if (--(*count) == 0) {
            x->seen[p] &= ~bit;
        }
    }
}

/* True when the givens alone force S's digit into the empty `cell`: a naked single, or a
 * hidden single in one of its full units (every other cell of it is given or sees the
 * digit among its peers' givens). Sound for every model: peers must differ, and a full
 * unit holds each digit once; the other constraints can only force more. */
static int forced(const pass_ctx *x, const uint8_t *values, int cell)
{
    const nb_model *m = x->m;
    uint32_t bit = 1u << (x->known[cell] - 1);
    if ((x->seen[cell] | bit) == m->full) return 1;
    for (int32_t k = x->ufirst[cell]; k < x->ufirst[cell + 1]; k++) {
        int u = x->ulist[k], place = 0;
        for (int32_t j = m->unit_start[u]; j < m->unit_start[u + 1] && !place; j++) {
            int other = m->unit_cells[j];
            if (other != cell && !values[other] && !(x->seen[other] & bit)) place = 1;
        }
        if (!place) return 1;
    }
    return 0;
}

static inline void mark_given(pass_ctx *x, int cell, int on)
{
    uint64_t *word = cell < 64 ? &x->given_lo : &x->given_hi;
    uint64_t bit = 1ull << (cell & 63);
    *word = on ? *word | bit : *word & ~bit;
}

/* The unavoidable sets of a classic 9x9 grid S that a swap of two digits makes: for the
 * digits a, b, start from one cell of either and add, for each cell added, the cell of
 * the other digit in its row, its column and its box, until closed. Swapping a and b on
 * that set gives another solution (every row, column and box it touches gets both
 * digits back), so a puzzle that keeps none of its cells as givens is not unique. Found
 * once per pass (a few hundred look-ups); a third of the necessary clues of a minimal
 * puzzle are shown so without a search. */
static void find_swaps(pass_ctx *x)
{
    const uint8_t *s = x->known;
    uint8_t in_row[10][9], in_col[10][9], in_box[10][9];
    for (int c = 0; c < 81; c++) {
        int r = c / 9, k = c % 9, b = (r / 3) * 3 + k / 3;
        in_row[s[c]][r] = (uint8_t)c;
        in_col[s[c]][k] = (uint8_t)c;
        in_box[s[c]][b] = (uint8_t)c;
    }
    x->nua = 0;
    for (int a = 1; a <= 9; a++)
        for (int b = a + 1; b <= 9; b++) {
            uint64_t done_lo = 0, done_hi = 0;
            for (int r0 = 0; r0 < 9; r0++) {
                int start = in_row[a][r0];
                if ((start < 64 ? done_lo >> start : done_hi >> (start - 64)) & 1) continue;
                uint64_t lo = 0, hi = 0;
                uint8_t todo[18];
                int n = 0;
                todo[n++] = (uint8_t)start;
                if (start < 64) lo |= 1ull << start; else hi |= 1ull << (start - 64);
                while (n) {
                    int c = todo[--n], r = c / 9, k = c % 9, other = s[c] == a ? b : a;
                    int next[3] = {in_row[other][r], in_col[other][k],
                                   in_box[other][(r / 3) * 3 + k / 3]};
                    for (int j = 0; j < 3; j++) {
                        int y = next[j];
                        uint64_t *w = y < 64 ? &lo : &hi, bit = 1ull << (y & 63);
                        if (!(*w & bit)) {
                            *w |= bit;
                            todo[n++] = (uint8_t)y;
                        }
                    }
                }
                done_lo |= lo;
                done_hi |= hi;
                if (x->nua < UA_MAX) {
                    x->ua_lo[x->nua] = lo;
                    x->ua_hi[x->nua] = hi;
                    x->nua++;
                }
            }
        }
}

/* True when the givens keep no cell of a known unavoidable set: not unique. */
static int misses_a_swap(const pass_ctx *x)
{
    for (int k = 0; k < x->nua; k++)
        if (!((x->ua_lo[k] & x->given_lo) | (x->ua_hi[k] & x->given_hi))) return 1;
    return 0;
}

static void budget_of(const pass_ctx *x, nb_budget *b)
{
    b->nodes_limit = x->nodes < 0 ? 0 : (x->nodes == 0 ? 1 : (uint64_t)x->nodes);
    b->deadline = x->seconds < 0 ? 0.0 : nb_now() + x->seconds;
    if (x->seconds >= 0 && b->deadline <= 0) b->deadline = 1e-9;
}

/* One search; returns 1 when a solution was found, 0 when none exists, or
 * -NB_BUDGET / -NB_INTERRUPTED / -NB_NOMEM. */
static int search(pass_ctx *x, const uint8_t *values, const int32_t *forbidden, int nforbidden,
                  const uint8_t *avoid)
{
    nb_budget b;
    nb_stats st = {0, 0};
    uint64_t count = 0;
    budget_of(x, &b);
    /* The givens are a subset of S, checked once per pass: the classic path is entered
     * directly, without nb_solve's clash check of every given (a third of a search here). */
    int status = x->m->classic9 ? c9_solve(values, x->m->domain, forbidden, nforbidden, avoid,
                                           NULL, 1, x->scratch, 0, &b, &count, &st)
                                : nb_solve_seen(x->m, values, x->seen, forbidden, nforbidden,
                                                avoid, x->known, 1, x->scratch, 0, &b, &count,
                                                &st);
    x->total.nodes += st.nodes;
    x->total.guesses += st.guesses;
    if (count) return 1;
    if (status == NB_BUDGET || status == NB_INTERRUPTED || status == NB_NOMEM) return -status;
    return 0; /* exhausted (or a clash, which a subset of S cannot have) */
}

/* The answer for the group cells[0..len-1], already emptied in values (and left so):
 * ANS_* or -NB_INTERRUPTED / -NB_NOMEM. */
static int test_group(pass_ctx *x, uint8_t *values, const int32_t *cells, int len)
{
    int all_forced = 1;
    for (int i = 0; i < len && all_forced; i++) all_forced = forced(x, values, cells[i]);
    if (all_forced) return ANS_REMOVABLE;
    if (misses_a_swap(x)) return ANS_NECESSARY;
    if (len > GROUP_LIMIT) {
        int r = search(x, values, NULL, 0, x->known);
        if (r == 1) return ANS_NECESSARY;
        if (r == -NB_BUDGET) return ANS_UNKNOWN;
        return r < 0 ? r : ANS_REMOVABLE;
    }
    int answer = ANS_REMOVABLE, i = 0;
    for (; i < len; i++) {
        int32_t pair[2] = {cells[i], x->known[cells[i]]};
        int r = search(x, values, pair, 1, NULL);
        if (r != 0) {
            answer = r == 1 ? ANS_NECESSARY : (r == -NB_BUDGET ? ANS_UNKNOWN : r);
            break;
        }
        values[cells[i]] = x->known[cells[i]]; /* solutions differing here are ruled out */
        show(x, cells[i], x->known[cells[i]], 1);     /* (seen stays exact for the search) */
    }
    for (int j = 0; j < i; j++) {
        values[cells[j]] = 0;
        show(x, cells[j], x->known[cells[j]], -1);
    }
    return answer;
}

/* Per cell, the full units holding it (for hidden singles), and room for the peers'
 * counts. 0 on allocation failure. */
static int index_units(pass_ctx *x)
{
    const nb_model *m = x->m;
    x->ufirst = PyMem_RawCalloc((size_t)m->nc + 1, sizeof(int32_t));
    x->ulist = PyMem_RawMalloc(sizeof(int16_t) * (size_t)(m->nfull * m->n + 1));
    x->count = PyMem_RawCalloc((size_t)m->nc * (size_t)m->n, sizeof(uint16_t));
    if (!x->ufirst || !x->ulist || !x->count) return 0;
    for (int u = 0; u < m->nfull; u++)
        for (int32_t j = m->unit_start[u]; j < m->unit_start[u + 1]; j++)
            x->ufirst[m->unit_cells[j] + 1]++;
    for (int c = 0; c < m->nc; c++) x->ufirst[c + 1] += x->ufirst[c];
    int32_t *fill = PyMem_RawMalloc(sizeof(int32_t) * (size_t)m->nc);
    if (!fill) return 0;
    memcpy(fill, x->ufirst, sizeof(int32_t) * (size_t)m->nc);
    for (int u = 0; u < m->nfull; u++)
        for (int32_t j = m->unit_start[u]; j < m->unit_start[u + 1]; j++)
            x->ulist[fill[m->unit_cells[j]]++] = (int16_t)u;
    PyMem_RawFree(fill);
    return 1;
}

/* The groups: a sequence of sequences of cell indices, flattened. -1 with an exception. */
static Py_ssize_t read_groups(PyObject *obj, int nc, int32_t **cells, int32_t **starts)
{
    *cells = NULL;
    *starts = NULL;
    PyObject *fast = PySequence_Fast(obj, "groups must be a sequence of sequences of cells");
    if (!fast) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast), total = 0;
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < k; i++) {
        Py_ssize_t len = PyObject_Length(items[i]);
        if (len < 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "groups[%zd] is not a sequence of cells", i);
            Py_DECREF(fast);
            return -1;
        }
        total += len;
    }
    *cells = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(total + 1));
    *starts = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(k + 1));
    if (!*cells || !*starts) {
        PyErr_NoMemory();
        goto fail;
    }
    uint8_t seen[NB_MAXC];
    memset(seen, 0, sizeof seen);
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        (*starts)[i] = (int32_t)at;
        PyObject *group = PySequence_Fast(items[i], "a group must be a sequence of cells");
        if (!group) goto fail;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(group);
        for (Py_ssize_t j = 0; j < len && at < total; j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(group, j));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(group);
                goto fail;
            }
            if (c < 0 || c >= nc) {
                PyErr_Format(PyExc_ValueError, "groups[%zd] names cell %ld, outside 0..%d", i, c,
                             nc - 1);
                Py_DECREF(group);
                goto fail;
            }
            if (seen[c]) {
                PyErr_Format(PyExc_ValueError, "cell %ld is in two groups (or twice in one)", c);
                Py_DECREF(group);
                goto fail;
            }
            seen[c] = 1;
            (*cells)[at++] = (int32_t)c;
        }
        Py_DECREF(group);
        if (len > total - (*starts)[i]) { /* a group that grew while being read */
            PyErr_SetString(PyExc_ValueError, "the groups changed while being read");
            goto fail;
        }
    }
    (*starts)[k] = (int32_t)at;
    Py_DECREF(fast);
    return k;
fail:
    Py_DECREF(fast);
    PyMem_RawFree(*cells);
    PyMem_RawFree(*starts);
    *cells = *starts = NULL;
    return -1;
}

/* An nc-byte buffer; for `known`, every value 1..n, else 0..n and agreeing with known. */
static int read_grid(const nb_model *m, PyObject *obj, Py_buffer *view, const char *what,
                     const uint8_t *known)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return 0;
    if (view->len != m->nc) {
        PyErr_Format(PyExc_ValueError, "%s must be %d bytes (one value per cell), got %zd", what,
                     m->nc, view->len);
        PyBuffer_Release(view);
        return 0;
    }
    const uint8_t *g = view->buf;
    for (int c = 0; c < m->nc; c++) {
        int bad = known ? (g[c] && g[c] != known[c]) : (g[c] < 1 || g[c] > m->n);
        if (bad) {
            if (known)
                PyErr_Format(PyExc_ValueError, "%s: cell %d holds %d where the known grid has %d",
                             what, c, g[c], known[c]);
            else
                PyErr_Format(PyExc_ValueError, "%s: cell %d holds %d, outside 1..%d", what, c, g[c],
                             m->n);
            PyBuffer_Release(view);
            return 0;
        }
    }
    return 1;
}

PyObject *nb_py_remove_clues(PyObject *self, const nb_model *model, PyObject *args,
                             PyObject *kwds)
{
    static char *kwlist[] = {"givens", "known", "groups", "start", "target", "probe",
                             "stop_on_budget", "nodes", "seconds", "fast", NULL};
    PyObject *gobj, *kobj, *groupsobj;
    Py_ssize_t start = 0;
    long long target = -1, nodes = -1;
    int probe = 0, stop_on_budget = 0, fast = 1;
    double seconds = -1.0;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO|$nLppLdp:remove_clues", kwlist, &gobj, &kobj,
                                     &groupsobj, &start, &target, &probe, &stop_on_budget, &nodes,
                                     &seconds, &fast))
        return NULL;
    Py_buffer kv, gv;
    if (!read_grid(model, kobj, &kv, "known", NULL)) return NULL;
    if (!read_grid(model, gobj, &gv, "givens", kv.buf)) {
        PyBuffer_Release(&kv);
        return NULL;
    }
    int32_t *cells = NULL, *starts = NULL;
    Py_ssize_t ngroups = read_groups(groupsobj, model->nc, &cells, &starts);
    pass_ctx *x = NULL;
    PyObject *values = NULL, *answers = NULL, *result = NULL;
    if (ngroups < 0) goto done;
    if (start < 0 || start > ngroups) {
        PyErr_Format(PyExc_ValueError, "start must be in 0..%zd, got %zd", ngroups, start);
        goto done;
    }
    x = PyMem_RawCalloc(1, sizeof(pass_ctx));
    values = PyBytes_FromStringAndSize(gv.buf, model->nc);
    answers = PyBytes_FromStringAndSize(NULL, ngroups - start);
    if (!x || !values || !answers) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    nb_model local = *model;
    if (!fast) local.classic9 = 0;
    x->m = &local;
    x->known = kv.buf;
    x->nodes = nodes;
    x->seconds = seconds;
    if (!index_units(x)) {
        PyErr_NoMemory();
        goto done;
    }
    /* The peers' counts of S, which also tell whether two cells of S clash; then the
     * cells empty in the givens are taken out. */
    const uint8_t *known = kv.buf, *given = gv.buf;
    for (int c = 0; c < model->nc; c++) show(x, c, known[c], 1);
    for (int c = 0; c < model->nc; c++)
        if (x->seen[c] & (1u << (known[c] - 1))) {
            PyErr_SetString(PyExc_ValueError, "known is not a solution: two of its cells clash");
            goto done;
        }
    for (int c = 0; c < model->nc; c++)
        if (!given[c]) show(x, c, known[c], -1);
    /* the model's, whichever search path runs; a domain may forbid a swap */
    const int swaps = model->classic9 && !model->domain;
    if (swaps) {
        find_swaps(x);
        for (int c = 0; c < 81; c++)
            if (given[c]) mark_given(x, c, 1);
    }
    uint8_t *v = (uint8_t *)PyBytes_AS_STRING(values), *a = (uint8_t *)PyBytes_AS_STRING(answers);
    Py_ssize_t k = start, stopped = -1;
    int status = NB_EXHAUSTED;
    Py_BEGIN_ALLOW_THREADS
    long long clues = 0;
    for (int c = 0; c < model->nc; c++) clues += v[c] != 0;
    for (; k < ngroups; k++) {
        if (!probe && target >= 0 && clues <= target) break;
        if (nb_interrupted()) { /* polled here too: most searches end before their first poll */
            status = NB_INTERRUPTED;
            break;
        }
        const int32_t *g = cells + starts[k];
        int len = starts[k + 1] - starts[k], emptied = 0;
        for (int i = 0; i < len; i++) {
            x->was[g[i]] = v[g[i]];
            if (v[g[i]]) {
                emptied++;
                show(x, g[i], v[g[i]], -1);
                if (swaps) mark_given(x, g[i], 0);
                v[g[i]] = 0;
            }
        }
        int answer = test_group(x, v, g, len);
        if (probe || answer != ANS_REMOVABLE)
            for (int i = 0; i < len; i++)
                if (x->was[g[i]]) {
                    v[g[i]] = x->was[g[i]];
                    show(x, g[i], v[g[i]], 1);
                    if (swaps) mark_given(x, g[i], 1);
                }
        if (answer < 0) {
            status = -answer;
            break;
        }
        if (answer == ANS_UNKNOWN && stop_on_budget) {
            stopped = k;
            break;
        }
        a[k - start] = (uint8_t)answer;
        if (answer == ANS_REMOVABLE) {
            if (probe) {
                k++;
                break;
            }
            clues -= emptied;
        }
    }
    Py_END_ALLOW_THREADS
    if (status == NB_NOMEM) {
        PyErr_NoMemory();
        goto done;
    }
    if (_PyBytes_Resize(&answers, k - start) < 0) goto done;
    result = Py_BuildValue("(NNniKK)", values, answers, stopped, status,
                           (unsigned long long)x->total.nodes,
                           (unsigned long long)x->total.guesses);
    values = answers = NULL; /* N: the tuple owns them (or released them on failure) */
done: /* success and failure alike: result is NULL on failure */
    Py_XDECREF(values);
    Py_XDECREF(answers);
    if (x) {
        PyMem_RawFree(x->ufirst);
        PyMem_RawFree(x->ulist);
        PyMem_RawFree(x->count);
        PyMem_RawFree(x);
    }
    PyMem_RawFree(cells);
    PyMem_RawFree(starts);
    PyBuffer_Release(&gv);
    PyBuffer_Release(&kv);
    return result;
}

const char nb_remove_clues_doc[] =
    "remove_clues(givens, known, groups, *, start=0, target=-1, probe=False,\n"
    "             stop_on_budget=False, nodes=-1, seconds=-1.0, fast=True)\n"
    "    -> (values, answers, stopped, status, nodes, guesses)\n\n"
    "The clue-removal pass over one full grid `known` (n*n bytes, 1..n) in one call, GIL\n"
    "released. `givens` (n*n bytes) is `known` with some cells emptied and must be unique.\n"
    "`groups` (disjoint sequences of cells) are visited from index `start` in order: a group\n"
    "is emptied and stays empty when the puzzle stays unique without it (no solution differs\n"
    "from `known` in one of its cells). Before a group, the pass stops once at most `target`\n"
    "clues remain (target < 0: never). probe=True puts every group back and stops after the\n"
    "first one that could go. Each search gets the budget `nodes` / `seconds` (< 0: none);\n"
    "one that spends it answers unknown and its group stays, or with stop_on_budget the pass\n"
    "ends there (`stopped` is that group's index, else -1; its group is not emptied).\n"
    "Returns the values after the pass, one answer byte per visited group (0 necessary,\n"
    "1 removable, 2 unknown), `stopped`, a status (EXHAUSTED, or INTERRUPTED after\n"
    "interrupt()), and the nodes and guesses of every search. `fast=False` disables the\n"
    "classic 9x9 path. Raises ValueError for grids of the wrong length, a value of `givens`\n"
    "that differs from `known`, a cell outside the grid or in two groups, or a bad start;\n"
    "MemoryError when an allocation fails.";

/* ---- The random full grid of the generator, classic 9x9 (nb_fill9) ------------------------
 *
 * generic.c's randomised search (naked and hidden singles, no locked candidates; the
 * unplaced cell with the fewest candidates, scanning from a random cell, first one with
 * at most two; a random digit of it, then the others in random order) is what
 * Model.search(seed=...) runs, and its grids are the generator's stream. This is the same
 * search for the one model that matters, with fixed sizes: 9-bit candidate masks, a
 * popcount table, a frame of 81 masks, and hidden singles swept only in the units that
 * changed since their last sweep. Singles reach one fixpoint whatever order they run in
 * (every rule only removes candidates, and a contradiction stays one), so the states
 * after each propagation are generic.c's, the cells and digits drawn are its draws from
 * the same splitmix64 stream, and nodes and guesses are counted as it counts them: the
 * same grid, node count and budget stops (tests/native_backtrack/test_fill9.py compares
 * them seed by seed). */

static uint8_t f9_peer[81][20];
static uint32_t f9_units[81];  /* bit r: row r, 9 + c: column c, 18 + b: box b */
static uint8_t f9_unit_cells[27][9];
static uint8_t f9_pop[512];
static int f9_ready;

static void f9_init(void)
{
    if (__atomic_load_n(&f9_ready, __ATOMIC_ACQUIRE)) return;
    for (int c = 0; c < 81; c++) {
        int r = c / 9, k = c % 9, b = (r / 3) * 3 + k / 3, n = 0;
        f9_units[c] = (1u << r) | (1u << (9 + k)) | (1u << (18 + b));
        f9_unit_cells[r][k] = (uint8_t)c;
        f9_unit_cells[9 + k][r] = (uint8_t)c;
        f9_unit_cells[18 + b][(r % 3) * 3 + k % 3] = (uint8_t)c;
        for (int p = 0; p < 81; p++) {
            int pr = p / 9, pk = p % 9, pb = (pr / 3) * 3 + pk / 3;
            if (p != c && (pr == r || pk == k || pb == b)) f9_peer[c][n++] = (uint8_t)p;
        }
    }
    for (int m = 1; m < 512; m++) f9_pop[m] = (uint8_t)(f9_pop[m >> 1] + (m & 1));
    __atomic_store_n(&f9_ready, 1, __ATOMIC_RELEASE); /* tables are the same in every thread */
}

typedef struct {
    uint16_t cand[81];
    uint8_t val[81];
    uint8_t nassigned;
    uint8_t cell;  /* the frame's branching cell */
    uint16_t mask; /* its digits still to try */
} f9_state;

static inline uint64_t f9_rng(uint64_t *s)
{
    /* splitmix64, as generic.c draws */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Place the queued cells (each with one candidate) and sweep hidden singles in the
 * units marked dirty, to the fixpoint; 0 on a contradiction. */
static int f9_propagate(f9_state *s, uint8_t *q, int qn, uint32_t dirty)
{
    for (;;) {
        while (qn) {
            int c = q[--qn];
            if (s->val[c]) continue;
            uint16_t b = s->cand[c];
            if (!b) return 0;
            s->val[c] = (uint8_t)(__builtin_ctz(b) + 1);
            s->nassigned++;
            for (int i = 0; i < 20; i++) {
                int p = f9_peer[c][i];
                uint16_t x = s->cand[p];
                if (x & b) {
                    x &= (uint16_t)~b;
                    s->cand[p] = x;
                    if (!x) return 0;
                    dirty |= f9_units[p];
                    if (!(x & (x - 1))) q[qn++] = (uint8_t)p;
                }
            }
        }
        if (s->nassigned == 81) return 1;
        if (!dirty) return 1;
        while (dirty) {
            int u = __builtin_ctz(dirty);
            dirty &= dirty - 1;
            uint16_t once = 0, twice = 0, placed = 0;
            for (int i = 0; i < 9; i++) {
                int c = f9_unit_cells[u][i];
                uint16_t x = s->cand[c];
                if (s->val[c]) placed |= x;
                else {
                    twice |= once & x;
                    once |= x;
                }
            }
            if ((once | placed) != 0x1FF) return 0;
            uint16_t h = once & (uint16_t)~twice & (uint16_t)~placed;
            while (h) {
                uint16_t b = h & (uint16_t)(0u - h);
                h ^= b;
                for (int i = 0; i < 9; i++) {
                    int c = f9_unit_cells[u][i];
                    uint16_t x = s->cand[c];
                    if (!s->val[c] && (x & b)) {
                        if (x != b) {
                            s->cand[c] = b;
                            q[qn++] = (uint8_t)c;
                            dirty |= f9_units[c]; /* u too: c lost other digits */
                        }
                        break;
                    }
                }
            }
            if (qn) break; /* place them first: they may settle other dirty units */
        }
    }
}

int nb_fill9(const uint32_t *cand, const uint8_t *val, int nassigned, const int16_t *queue,
             int qn, uint64_t *rng, const nb_budget *budget, uint64_t *nodes,
             uint64_t *guesses, uint8_t *out)
{
    f9_init();
    f9_state cur, stack[82];
    uint8_t q[82];
    int depth = 0;
    for (int c = 0; c < 81; c++) {
        cur.cand[c] = (uint16_t)(cand[c] & 0x1FF);
        cur.val[c] = val[c];
    }
    cur.nassigned = (uint8_t)nassigned;
    for (int i = 0; i < qn; i++) q[i] = (uint8_t)queue[i];
    ++*nodes;
    if (!f9_propagate(&cur, q, qn, 0x7FFFFFF)) return NB_EXHAUSTED;
    for (;;) {
        if (cur.nassigned == 81) {
            for (int c = 0; c < 81; c++) out[c] = cur.val[c];
            return NB_LIMIT;
        }
        /* generic.c's pick_cell */
        int start = (int)(f9_rng(rng) % 81u), best = -1, bestc = 99;
        for (int k = 0, c = start; k < 81; k++, c = c == 80 ? 0 : c + 1) {
            if (cur.val[c]) continue;
            int pc = f9_pop[cur.cand[c]];
            if (pc < bestc) {
                bestc = pc;
                best = c;
                if (pc <= 2) break;
            }
        }
        stack[depth] = cur;
        stack[depth].cell = (uint8_t)best;
        stack[depth].mask = cur.cand[best];
        depth++;
        ++*guesses;
        for (;;) { /* try the next digit of the top frame */
            if (depth == 0) return NB_EXHAUSTED;
            f9_state *f = &stack[depth - 1];
            if (!f->mask) {
                depth--;
                continue;
            }
            /* generic.c's budget_spent */
            if (budget && budget->nodes_limit && *nodes >= budget->nodes_limit) return NB_BUDGET;
            if ((*nodes & (NB_POLL_NODES - 1)) == 0) {
                if (nb_interrupted()) return NB_INTERRUPTED;
                if (budget && budget->deadline > 0 && nb_now() > budget->deadline) return NB_BUDGET;
            }
            uint16_t mask = f->mask;
            int k = (int)(f9_rng(rng) % (uint64_t)f9_pop[mask]);
            while (k--) mask &= (uint16_t)(mask - 1);
            uint16_t b = mask & (uint16_t)(0u - mask);
            f->mask &= (uint16_t)~b;
            int c = f->cell;
            cur = *f;
            if (!f->mask) depth--;
            ++*nodes;
            cur.cand[c] = b;
            q[0] = (uint8_t)c;
            if (f9_propagate(&cur, q, 1, f9_units[c])) break;
        }
    }
}
