/* The strong-link searches of the SE rater (sudoku_model.se._core; se_core.c tells the
 * conventions): turbot fish and three strong links, grouped links included, sorted as SE
 * sorts them (tests/se_reference/strong_links.py). */
#include "se_scan.h"

#include <stdlib.h>

/* ---- strong links (strong_links.py) ------------------------------------------------- */

typedef struct {
    int n;
    int cell[3];
    int row, col, box; /* the region holding every cell, or -1 */
} Group;

typedef struct {
    Group g[2];
    int grouped;
    int heart; /* a three-link box link between two one-cell blades: its heart, else -1 */
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

void init_box_configs(void)
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
        links[0].heart = -1;
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
        if (three && nb1 == 1 && nb2 == 1) {
            /* Both blades one cell: the heart holds the digit too. SE's three strong
             * links take the two blade cells as a link all the same (a grouped one); it is
             * one where the chain leaves it through a region that sees the heart too,
             * which three_hint checks (a blade cell false: the heart or the other blade
             * cell holds the digit). */
            int a = cells[blade1[0]], b = cells[blade2[0]];
            group_init(&links[0].g[0], &a, 1);
            group_init(&links[0].g[1], &b, 1);
            links[0].grouped = 1;
            links[0].heart = cells[e];
            return 1;
        }
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
            links[nl].heart = -1;
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
    links[0].heart = -1;
    nl = 1;
    if (three && box && e >= 9 && n == 4 && nb1 == 2 && nb2 == 2) {
        int a = blade1[0], b = blade1[1], c = blade2[0], d = blade2[1];
        if ((a % 3 == c % 3 && b % 3 == d % 3) || (a / 3 == c / 3 && b / 3 == d / 3)) {
            int h1[2] = {cells[a], cells[c]}, h2[2] = {cells[b], cells[d]};
            group_init(&links[1].g[0], h1, 2);
            group_init(&links[1].g[1], h2, 2);
            links[1].grouped = 1;
            links[1].heart = -1;
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

/* The strong links of every digit in every region (region_links) and the regions' cells
 * holding the digit (found), for the digits not in `skip` (a mask of digits 1-9 at bits 0-8). */
static void digit_links(const int *cands, int three, int skip, Link links[9][27][2],
                        int nlinks[9][27], u128 found[9][27])
{
    for (int d = 1; d <= 9; d++)
        if (!(skip >> (d - 1) & 1))
            for (int r = 0; r < 27; r++)
                nlinks[d - 1][r] =
                    region_links(cands, r, d, three, links[d - 1][r], &found[d - 1][r]);
}

/* The digits a strong-link search found nothing for, with their cells then. Each search
 * (turbot fish, three strong links) reads one digit's cells at a time and nothing else, so
 * a digit whose cells are the same as then finds nothing again: the rater's next call, after
 * a step elsewhere, skips it. A pure function's memo, whatever puzzle asks (the searches
 * hold the GIL). */
typedef struct {
    u128 cells[9];
    int valid; /* a mask of digits 1-9 at bits 0-8 */
} NoHints;

static NoHints TURBOT_NONE, THREE_NONE;

/* The digits of `memo` whose cells are `dcells` now. */
static int no_hints_skip(const NoHints *memo, const u128 dcells[9])
{
    int skip = 0;
    for (int d = 0; d < 9; d++)
        if ((memo->valid >> d & 1) && memo->cells[d] == dcells[d])
            skip |= 1 << d;
    return skip;
}

/* After a search: the digits with no hint (a mask) and their cells. */
static void no_hints_keep(NoHints *memo, const u128 dcells[9], int none)
{
    memo->valid = none;
    for (int d = 0; d < 9; d++)
        memo->cells[d] = dcells[d];
}

PyObject *turbot_fish(const int *cands)
{
    SLHints h = {NULL, 0, 0};
    Link links[9][27][2];
    int nlinks[9][27], hinted = 0;
    u128 found[9][27], dcells[9];
    digit_boards(cands, dcells);
    int skip = no_hints_skip(&TURBOT_NONE, dcells);
    digit_links(cands, 0, skip, links, nlinks, found);
    for (int t = 0; t < 5; t++) {
        int bt = TURBOT_TYPES[t][0], ct = TURBOT_TYPES[t][1];
        for (int d = 1; d <= 9; d++) {
            if (skip >> (d - 1) & 1)
                continue;
            int before = h.n;
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
            if (h.n > before)
                hinted |= 1 << (d - 1);
        }
    }
    no_hints_keep(&TURBOT_NONE, dcells, 0x1ff & ~hinted);
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
    /* a link whose heart holds the digit (region_links): the next link's start cells, or
     * the victims after the last link, must see the heart too */
    for (int w = 0; w < 3; w++) {
        int heart = s->chosen[q[w]]->heart;
        if (heart < 0)
            continue;
        if (w == 2) {
            v &= PEER[heart];
            continue;
        }
        const Group *next = &s->chosen[q[w + 1]]->g[u[w + 1]];
        for (int i = 0; i < next->n; i++)
            if (!(PEER[heart] & BIT128(next->cell[i])))
                return;
    }
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
    int nlinks[9][27], hinted = 0;
    u128 found[9][27], dcells[9];
    if (links == NULL) {
        free(s);
        return PyErr_NoMemory();
    }
    digit_boards(cands, dcells);
    int skip = no_hints_skip(&THREE_NONE, dcells);
    digit_links(cands, 1, skip, links, nlinks, found);
    int regs[9][27][2];
    for (int d = 0; d < 9; d++)
        for (int r = 0; r < 27 && !(skip >> d & 1); r++)
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
            if (skip >> (d - 1) & 1)
                continue;
            int before = s->h.n;
            s->digit = d;
            s->dcells = dcells[d - 1];
            s->links = links[d - 1];
            s->nlinks = nlinks[d - 1];
            s->found = found[d - 1];
            s->regs = (const int (*)[2])regs[d - 1];
            three_build(s, 0, 0, 0);
            if (s->h.n > before)
                hinted |= 1 << (d - 1);
        }
    }
    free(links);
    PyObject *out;
    if (s->failed) {
        free(s->h.items);
        out = PyErr_NoMemory();
    } else {
        no_hints_keep(&THREE_NONE, dcells, 0x1ff & ~hinted);
        out = sl_finish(&s->h, K_THREE_STRONG_LINKS);
    }
    free(s);
    return out;
}
