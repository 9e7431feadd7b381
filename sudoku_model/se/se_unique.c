/* The uniqueness techniques of the SE rater, in C: unique rectangles and loops (types 1-4)
 * and the bivalue universal grave (BUG types 1-4), hint for hint as the Python reference
 * (tests/se_reference/unique.py) gives them: the same hints in the same order, the same
 * eliminations in the same order, the same ratings to the bit. Both techniques assume
 * that the puzzle has one solution, as SE does. */
#include "se_scan.h"

#include <stdlib.h>
#include <string.h>

static inline int bit(int d) { return 1 << (d - 1); }

static inline int popcount128(u128 x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

/* The regions (box, row, column order) that two cells share: how many, in `out`. */
static int shared_regions(int c1, int c2, int out[3])
{
    int n = 0;
    for (int k = 0; k < 3; k++)
        if (CREG[c1][k] == CREG[c2][k])
            out[n++] = CREG[c1][k];
    return n;
}

static inline int index_in(int region, int cell)
{
    for (int i = 0; i < 9; i++)
        if (REG[region][i] == cell)
            return i;
    return -1;
}

/* ---- unique loops ---------------------------------------------------------------------- */

typedef struct {
    int kind, n, ne;
    double rating;
    u128 set;           /* the loop's cells (the duplicate test) */
    int loop[81];
    int ec[81], ed[81]; /* eliminations in the order found */
    int key[81];        /* ... as cell * 10 + digit, ascending (the duplicate test) */
} ULHint;

typedef struct {
    const int *values, *cands;
    int v1, v2, both;
    int loop[81], len;
    u128 in_loop;
    ULHint *hints;
    int nh, cap;
    int failed;
} Loops;

static double loop_rating(int size)
{
    double result = 4.5;
    if (size >= 10)
        result += 0.3;
    if (size >= 8)
        result += 0.2;
    else if (size >= 6)
        result += 0.1;
    return result;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* unique.unique_loops' add: a hint unless it has no eliminations or repeats one found
 * (same type, same cells, same eliminations). */
static void loop_add(Loops *s, int kind, double rating, const int *ec, const int *ed, int ne)
{
    if (ne == 0 || s->failed)
        return;
    u128 set = 0;
    for (int i = 0; i < s->len; i++)
        set |= BIT128(s->loop[i]);
    int key[81];
    for (int i = 0; i < ne; i++)
        key[i] = ec[i] * 10 + ed[i];
    qsort(key, ne, sizeof(int), int_cmp);
    for (int h = 0; h < s->nh; h++) {
        const ULHint *o = &s->hints[h];
        if (o->kind == kind && o->set == set && o->ne == ne &&
            !memcmp(o->key, key, sizeof(int) * ne))
            return;
    }
    if (s->nh == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        ULHint *hints = realloc(s->hints, sizeof(ULHint) * cap);
        if (hints == NULL) {
            s->failed = 1;
            return;
        }
        s->hints = hints;
        s->cap = cap;
    }
    ULHint *u = &s->hints[s->nh++];
    u->kind = kind;
    u->rating = rating;
    u->set = set;
    u->n = s->len;
    memcpy(u->loop, s->loop, sizeof(int) * s->len);
    u->ne = ne;
    memcpy(u->ec, ec, sizeof(int) * ne);
    memcpy(u->ed, ed, sizeof(int) * ne);
    memcpy(u->key, key, sizeof(int) * ne);
}

/* unique._type2: one extra digit (the lowest of the first extra cell's) off the cells
 * that see every extra cell. */
static int type2(const int *cands, const int *extra, int nx, int both, int *ec, int *ed)
{
    int value = lowest_digit(cands[extra[0]] & ~both), b = bit(value), ne = 0;
    u128 common = PEER[extra[0]];
    for (int i = 1; i < nx; i++)
        common &= PEER[extra[i]];
    for (int i = 0; i < nx; i++)
        common &= ~BIT128(extra[i]);
    while (common) {
        int c = ctz128(common);
        common &= common - 1;
        if (cands[c] & b) {
            ec[ne] = c;
            ed[ne++] = value;
        }
    }
    return ne;
}

/* unique._type3: every naked or hidden set that the loop's two extra cells c1, c2 form
 * with other cells of a region they share, in the reference's order; each becomes a hint
 * rated base + (size - 1) * 0.1. */
static void type3(Loops *s, double base, int c1, int c2, int extra)
{
    const int *cands = s->cands, *values = s->values;
    int regions[3], nr = shared_regions(c1, c2, regions);
    int ec[81], ed[81];
    for (int degree = 2; degree < 8; degree++) {
        for (int k = 0; k < nr; k++) {
            const int *cells = REG[regions[k]];
            int empty = 0;
            for (int i = 0; i < 9; i++)
                empty += values[cells[i]] == 0;
            int i1 = index_in(regions[k], c1), i2 = index_in(regions[k], c2);
            if (degree * 2 <= empty && degree >= POP[extra]) {
                for (int combo = 0; combo < 512; combo++) {
                    if (POP[combo] != degree || !(combo >> i1 & 1) || (combo >> i2 & 1))
                        continue;
                    int naked = extra & cands[c1] & cands[c2], uni = 0, ok = 1;
                    u128 skip = BIT128(c1) | BIT128(c2);
                    for (int i = 0; i < 9; i++) {
                        if (!(combo >> i & 1))
                            continue;
                        int m = i == i1 ? extra : cands[cells[i]];
                        if (i != i1) {
                            naked |= m;
                            skip |= BIT128(cells[i]);
                        }
                        if (POP[m] <= 1)
                            ok = 0;
                        uni |= m;
                    }
                    if (POP[naked] != degree || !ok || POP[uni] != degree)
                        continue;
                    int ne = 0;
                    for (int i = 0; i < 9; i++) {
                        int c = cells[i];
                        if (skip & BIT128(c))
                            continue;
                        for (int m = cands[c] & uni; m; m &= m - 1) {
                            ec[ne] = c;
                            ed[ne++] = lowest_digit(m);
                        }
                    }
                    if (ne)
                        loop_add(s, 3, base + (degree - 1) * 0.1, ec, ed, ne);
                }
            }
            if (degree * 2 < empty) {
                int rem[9], nrem = 0;
                for (int d = 1; d <= 9; d++)
                    if (d != s->v1 && d != s->v2 && !(extra & bit(d)))
                        rem[nrem++] = d;
                if (degree - 2 > nrem)
                    continue;
                for (int pick = 0; pick < 1 << nrem; pick++) {
                    if (POP[pick] != degree - 2)
                        continue;
                    int digits[9], nd = 0;
                    for (int i = 0; i < nrem; i++)
                        if (pick >> i & 1)
                            digits[nd++] = rem[i];
                    digits[nd++] = s->v1;
                    digits[nd++] = s->v2;
                    int uni = 0, ok = 1;
                    for (int j = 0; j < nd && ok; j++) {
                        int pos = 0, b = bit(digits[j]);
                        for (int i = 0; i < 9; i++)
                            if (i != i2 && (cands[cells[i]] & b))
                                pos |= 1 << i;
                        uni |= pos;
                        ok = pos != 0;
                    }
                    if (!ok || POP[uni] != degree)
                        continue;
                    uni &= ~((1 << i1) | (1 << i2));
                    int hidden = 0;
                    for (int j = 0; j < nd; j++)
                        hidden |= bit(digits[j]);
                    int ne = 0;
                    for (int i = 0; i < 9; i++) {
                        if (!(uni >> i & 1))
                            continue;
                        for (int m = cands[cells[i]] & ~hidden; m; m &= m - 1) {
                            ec[ne] = cells[i];
                            ed[ne++] = lowest_digit(m);
                        }
                    }
                    if (ne)
                        loop_add(s, 3, base + (POP[uni] - 1) * 0.1, ec, ed, ne);
                }
            }
        }
    }
}

/* unique._type4: a region shared by the two extra cells where one loop digit has no
 * other place: the other digit leaves both cells. */
static int type4(const int *cands, int c1, int c2, int v1, int v2, int *ec, int *ed)
{
    int regions[3], nr = shared_regions(c1, c2, regions), r1 = -1, r2 = -1;
    for (int k = 0; k < nr; k++) {
        int has1 = 0, has2 = 0;
        for (int i = 0; i < 9; i++) {
            int c = REG[regions[k]][i];
            if (c != c1 && c != c2) {
                has1 |= (cands[c] & bit(v1)) != 0;
                has2 |= (cands[c] & bit(v2)) != 0;
            }
        }
        if (!has1)
            r1 = regions[k];
        if (!has2)
            r2 = regions[k];
    }
    int d = r1 >= 0 ? v2 : r2 >= 0 ? v1 : 0;
    if (!d)
        return 0;
    ec[0] = c1;
    ec[1] = c2;
    ed[0] = ed[1] = d;
    return 2;
}

/* The hints of one loop (s->loop), unique.unique_loops' analysis. */
static void loop_hints(Loops *s)
{
    const int *cands = s->cands;
    double base = loop_rating(s->len);
    int extra[81], nx = 0, ec[81], ed[81], ne;
    for (int i = 0; i < s->len; i++)
        if (POP[cands[s->loop[i]]] > 2)
            extra[nx++] = s->loop[i];
    if (nx == 1) {
        ec[0] = ec[1] = extra[0];
        ed[0] = s->v1;
        ed[1] = s->v2;
        loop_add(s, 1, base, ec, ed, 2);
    } else if (nx > 2) {
        ne = type2(cands, extra, nx, s->both, ec, ed);
        loop_add(s, 2, base, ec, ed, ne);
    } else if (nx == 2) {
        int c1 = extra[0], c2 = extra[1];
        int more = (cands[c1] | cands[c2]) & ~s->both;
        if (POP[more] == 1) {
            ne = type2(cands, extra, nx, s->both, ec, ed);
            loop_add(s, 2, base, ec, ed, ne);
        } else if (POP[more] >= 2) {
            type3(s, base, c1, c2, more);
        }
        ne = type4(cands, c1, c2, s->v1, s->v2, ec, ed);
        loop_add(s, 4, base, ec, ed, ne);
    }
}

/* The cells alternate between two sets of regions, each cell's three regions new to its
 * set, and both sets end equal. */
static int valid_loop(const int *loop, int n)
{
    uint32_t odd = 0, even = 0;
    for (int i = 0; i < n; i++) {
        uint32_t *target = i & 1 ? &odd : &even;
        for (int k = 0; k < 3; k++) {
            uint32_t b = (uint32_t)1 << CREG[loop[i]][k];
            if (*target & b)
                return 0;
            *target |= b;
        }
    }
    return odd == even;
}

/* Closed paths through cells holding both loop digits, changing region type at every
 * step, with at most two cells carrying extra digits unless all extras are one digit;
 * each valid one is analysed when found. */
static void loop_walk(Loops *s, int cell, int allowed, int extra, int last_type)
{
    s->loop[s->len++] = cell;
    s->in_loop |= BIT128(cell);
    for (int rtype = 0; rtype < 3 && !s->failed; rtype++) {
        if (rtype == last_type)
            continue;
        const int *cells = REG[CREG[cell][rtype]];
        for (int i = 0; i < 9 && !s->failed; i++) {
            int nxt = cells[i];
            if (nxt == s->loop[0] && s->len >= 4) {
                if (valid_loop(s->loop, s->len))
                    loop_hints(s);
            } else if (!(s->in_loop & BIT128(nxt))) {
                int m = s->cands[nxt];
                if ((m & s->both) == s->both) {
                    int new_extra = (extra | m) & ~s->both, n = POP[m];
                    if (n == 2 || POP[new_extra] == 1 || allowed > 0)
                        loop_walk(s, nxt, n > 2 ? allowed - 1 : allowed, new_extra, rtype);
                }
            }
        }
    }
    s->len--;
    s->in_loop &= ~BIT128(cell);
}

static int hint_cmp(const void *a, const void *b)
{
    const ULHint *x = *(ULHint *const *)a, *y = *(ULHint *const *)b;
    if (x->rating != y->rating)
        return x->rating < y->rating ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    return x < y ? -1 : x > y; /* stable: the order found */
}

int unique_loop_hints(const int *values, const int *cands, PyObject *out, Py_ssize_t limit)
{
    Loops *s = calloc(1, sizeof(Loops));
    if (s == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->values = values;
    s->cands = cands;
    for (int start = 0; start < 81 && !s->failed; start++) {
        int m = cands[start];
        if (POP[m] != 2)
            continue;
        s->v1 = lowest_digit(m);
        s->v2 = lowest_digit(m & (m - 1));
        s->both = m;
        loop_walk(s, start, 2, 0, -1);
    }
    int rc = 0;
    ULHint **order = s->failed ? NULL : malloc(sizeof(ULHint *) * (s->nh ? s->nh : 1));
    if (order == NULL) {
        PyErr_NoMemory();
        rc = -1;
    } else {
        for (int h = 0; h < s->nh; h++)
            order[h] = &s->hints[h];
        qsort(order, s->nh, sizeof(ULHint *), hint_cmp);
        for (int h = 0; h < s->nh && !rc && !full(out, limit); h++) {
            const ULHint *u = order[h];
            rc = emit(out, K_UNIQUE_LOOP_1 + u->kind - 1, u->rating,
                      elims_tuple(u->ec, u->ed, u->ne), -1, 0, u->loop, u->n, NULL, 0);
        }
    }
    free(order);
    free(s->hints);
    free(s);
    return rc;
}

/* ---- bivalue universal grave ------------------------------------------------------------ */

typedef struct {
    int cells[81], values[81], n; /* the BUG cells in order found, and their BUG digits */
    int all_values;
    u128 common;                  /* the cells that see every BUG cell */
    int has_common;
} Bug;

static int bug_index(const Bug *b, int cell)
{
    for (int i = 0; i < b->n; i++)
        if (b->cells[i] == cell)
            return i;
    return -1;
}

/* unique.bug's add_bug_cell: narrow the common peers; 0 when no BUG of type 1, 2 or 3
 * can remain. */
static int bug_narrow(Bug *b, int cell)
{
    b->common = b->has_common ? b->common & PEER[cell] : PEER[cell];
    b->has_common = 1;
    for (int i = 0; i < b->n; i++)
        b->common &= ~BIT128(b->cells[i]);
    return !(b->n > 1 && POP[b->all_values] > 1 && !b->common);
}

/* unique._bug4: the two BUG cells' one common non-BUG digit stays, their other
 * candidates (not their BUG digits) go; once per region they share. */
static int bug4(const int *cands, const Bug *b, PyObject *out, Py_ssize_t limit)
{
    int c1 = b->cells[0], c2 = b->cells[1];
    int shared = cands[c1] & cands[c2] & ~b->all_values;
    if (POP[shared] != 1)
        return 0;
    int regions[3], nr = shared_regions(c1, c2, regions);
    for (int k = 0; k < nr && !full(out, limit); k++) {
        int ec[18], ed[18], ne = 0;
        for (int j = 0; j < 2; j++)
            for (int m = cands[b->cells[j]] & ~b->values[j] & ~shared; m; m &= m - 1) {
                ec[ne] = b->cells[j];
                ed[ne++] = lowest_digit(m);
            }
        if (ne && emit(out, K_BUG_4, 5.7, elims_tuple(ec, ed, ne), -1, 0, b->cells, 2, NULL, 0))
            return -1;
    }
    return 0;
}

/* unique._bug3: a naked set of the BUG digits with common peers in the one region (of
 * some type) that holds every BUG cell. */
static int bug3(const int *cands, const Bug *b, PyObject *out, Py_ssize_t limit)
{
    for (int degree = 2; degree < 7; degree++) {
        for (int rtype = 0; rtype < 3; rtype++) {
            int r = CREG[b->cells[0]][rtype], one = 1;
            for (int i = 1; i < b->n; i++)
                one &= CREG[b->cells[i]][rtype] == r;
            if (!one)
                continue;
            int rc[9], nrc = 0;
            u128 common = b->common & REGMASK[r];
            while (common) {
                rc[nrc++] = ctz128(common);
                common &= common - 1;
            }
            if (nrc < degree)
                continue;
            for (int pick = 0; pick < 1 << nrc; pick++) {
                if (POP[pick] != degree - 1)
                    continue;
                int other = 0, ok = POP[b->all_values] >= 2, cells[81 + 9];
                memcpy(cells, b->cells, sizeof(int) * b->n);
                int nc = b->n;
                for (int i = 0; i < nrc; i++)
                    if (pick >> i & 1) {
                        other |= cands[rc[i]];
                        if (POP[cands[rc[i]]] <= 1)
                            ok = 0;
                        cells[nc++] = rc[i];
                    }
                if (POP[other] != degree || !ok)
                    continue;
                int naked = other | b->all_values;
                if (POP[naked] != degree)
                    continue;
                int ec[81], ed[81], ne = 0;
                for (int i = 0; i < nrc; i++)
                    if (!(pick >> i & 1))
                        for (int m = cands[rc[i]] & naked; m; m &= m - 1) {
                            ec[ne] = rc[i];
                            ed[ne++] = lowest_digit(m);
                        }
                if (full(out, limit))
                    return 0;
                if (ne && emit(out, K_BUG_3, 5.7 + (POP[naked] - 1) * 0.1,
                               elims_tuple(ec, ed, ne), -1, 0, cells, nc, NULL, 0))
                    return -1;
            }
        }
    }
    return 0;
}

/* The BUG cells of the grid: 1 when found (and the grid is a BUG once their BUG digits
 * go), 0 when not. */
static int bug_find(const int *values, const int *cands, Bug *b)
{
    int temp[81], only_value = 0, one_value = 1, has_extra = 0;
    u128 all_extra = 0;
    memcpy(temp, cands, sizeof temp);
    for (int r = 0; r < 27; r++) {
        for (int d = 1; d <= 9; d++) {
            int bd = bit(d), n = 0, nn = 0, cell = -1;
            u128 news = 0;
            for (int i = 0; i < 9; i++) {
                int c = REG[r][i];
                if (cands[c] & bd) {
                    n++;
                    if (POP[cands[c]] >= 3) {
                        nn++;
                        news |= BIT128(c);
                        cell = c;
                    }
                }
            }
            if (n == 0 || n == 2)
                continue;
            if (!has_extra) {
                has_extra = 1;
                all_extra = news;
                only_value = d;
            } else if (one_value) {
                if (only_value == d)
                    all_extra |= news;
                else
                    one_value = 0;
            }
            if (nn == 1) {
                int i = bug_index(b, cell);
                if (i < 0) {
                    i = b->n++;
                    b->cells[i] = cell;
                    b->values[i] = 0;
                }
                b->values[i] |= bd;
                b->all_values |= bd;
                temp[cell] &= ~bd;
                if (!bug_narrow(b, cell))
                    return 0;
            }
            if (nn == 0)
                return 0;
        }
    }
    if (one_value && has_extra && popcount128(all_extra) > b->n) {
        u128 rest = all_extra;
        for (int i = 0; i < b->n; i++)
            rest &= ~BIT128(b->cells[i]);
        while (rest) {
            int cell = ctz128(rest);
            rest &= rest - 1;
            b->cells[b->n] = cell;
            b->values[b->n++] = bit(only_value);
            temp[cell] &= ~bit(only_value);
            if (!bug_narrow(b, cell))
                return 0;
        }
    }
    if (b->n == 0)
        return 0;
    for (int c = 0; c < 81; c++)
        if (!values[c] && POP[temp[c]] != 2)
            return 0;
    for (int r = 0; r < 27; r++)
        for (int d = 1; d <= 9; d++) {
            int n = 0;
            for (int i = 0; i < 9; i++)
                n += (temp[REG[r][i]] & bit(d)) != 0;
            if (n != 0 && n != 2)
                return 0;
        }
    return 1;
}

int bug_hints(const int *values, const int *cands, PyObject *out, Py_ssize_t limit)
{
    Bug b;
    memset(&b, 0, sizeof b);
    if (!bug_find(values, cands, &b) || full(out, limit))
        return 0;
    int ec[81], ed[81], ne = 0;
    if (b.n == 1) {
        int cell = b.cells[0];
        for (int m = cands[cell] & ~b.all_values; m; m &= m - 1) {
            ec[ne] = cell;
            ed[ne++] = lowest_digit(m);
        }
        if (ne)
            return emit(out, K_BUG_1, 5.6, elims_tuple(ec, ed, ne), -1, 0, b.cells, 1, NULL, 0);
    } else if (POP[b.all_values] == 1) {
        int value = lowest_digit(b.all_values);
        for (u128 common = b.common; common; common &= common - 1) {
            int c = ctz128(common);
            if (cands[c] & b.all_values) {
                ec[ne] = c;
                ed[ne++] = value;
            }
        }
        if (ne && emit(out, K_BUG_2, 5.7, elims_tuple(ec, ed, ne), -1, 0, b.cells, b.n, NULL, 0))
            return -1;
        if (b.n == 2)
            return bug4(cands, &b, out, limit);
    } else if (b.common) {
        if (b.n == 2 && bug4(cands, &b, out, limit))
            return -1;
        return bug3(cands, &b, out, limit);
    }
    return 0;
}

/* ---- Python entry points ------------------------------------------------------------- */

typedef int (*UniqueSearch)(const int *, const int *, PyObject *, Py_ssize_t);

static PyObject *call_search(PyObject *args, PyObject *kwargs, UniqueSearch search)
{
    static char *kwlist[] = {"values", "cands", "limit", NULL};
    PyObject *pv, *pc;
    Py_ssize_t limit = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|n", kwlist, &pv, &pc, &limit))
        return NULL;
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    PyObject *out = PyList_New(0);
    if (out && search(values, cands, out, limit))
        Py_CLEAR(out);
    return out;
}

PyObject *py_unique_loop_hints(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    return call_search(args, kwargs, unique_loop_hints);
}

PyObject *py_bug(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    return call_search(args, kwargs, bug_hints);
}
