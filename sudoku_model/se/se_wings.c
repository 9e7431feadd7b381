/* The WXYZ- to TUVWXYZ-wings (almost locked set wings) of the SE rater
 * (sudoku_model.se._core; se_core.c tells the conventions), sorted as SE sorts them
 * (tests/se_reference/wings.py). */
#include "se_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static u128 FORWARD[81];

void init_forward(void)
{
    /* the peers of a cell with a higher index (SE's "forward visible" cells) */
    for (int c = 0; c < 81; c++)
        FORWARD[c] = PEER[c] & ~((BIT128(c) << 1) - 1);
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
