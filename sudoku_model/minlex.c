/* Minlex canonical form of a 9x9 grid (puzzle givens or a full solution).
 *
 * The canonical form is the lexicographically smallest row-major string over the 2 x 6^8
 * geometric transformations (transposition; bands, rows within bands, stacks, columns
 * within stacks), blank = 0, digits relabelled 1, 2, 3 ... in order of first appearance.
 *
 * Search (sudoku_model/canon.py is the reference, which walks the general path only):
 *   1. The first output row with a clue is known from clue counts alone: when no row
 *      repeats a digit, its digits read 1, 2, 3 ... whatever the order, so only where the
 *      blanks fall matters: stacks with fewer clues first, blanks first inside each stack.
 *      The minimum puts first as many blank rows as one band has (q; 17-clue puzzles often
 *      have one), then that band's clued row with the smallest such pattern. Only those
 *      (transposition, row) pairs are kept, and for each only the column orders that give
 *      that pattern (for a one-clue row 144 instead of 1,296; a blank first row used to
 *      leave all 1,296 open).
 *   2. Then rows are placed one at a time (same band until it is used up, then any unused
 *      band), each compared with the best string so far as it is built: a branch stops at
 *      the first cell that is greater, and a smaller cell makes it the new best.
 *   3. A full solution grid takes its own start (ml_full_grid): row 0 always reads 1..9,
 *      and the order of the first stack is forced by the others, so 216 column orders per
 *      (transposition, row 0, row 1) instead of 1,296 per (transposition, row 0).
 * Every transformation whose string equals the minimum reaches a leaf (the q! orders of
 * the leading blank rows are one leaf times q!), so counting the leaves counts the
 * automorphisms. A clashing grid (a row repeating a digit) takes every first row and
 * column order (ml_from_row); one with a blank band starts from each blank row under every
 * column order: slower, still exact.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    uint8_t g[2][9][9];      /* the grid and its transpose */
    uint8_t best[81];        /* best string so far; 0xFF = not yet set (after a cut) */
    uint64_t count;          /* leaves equal to best */
    /* the branch being explored */
    int t;
    uint8_t cols[9];
    uint8_t rows[9];
    /* the first leaf that reached best */
    int wt;
    uint8_t wrows[9], wcols[9], wlab[10];
    /* ml_from_distinct runs twice over the same column orders: pass 0 only lowers the
     * best string's next row to its minimum over all of them, pass 1 searches below the
     * column orders that reach it, so none is searched deep only to be beaten later */
    int pass;
} ml_ctx;

/* The input rows that may become output row p: any row of an unused band at a band's
 * first row, else the unused rows of the current band. Returns their number. */
static int ml_candidates(int p, int band, unsigned used_rows, unsigned used_bands, int *cand)
{
    int nc = 0;
    if (p % 3 == 0) {
        for (int b = 0; b < 3; b++)
            if (!(used_bands >> b & 1))
                for (int r = 3 * b; r < 3 * b + 3; r++) cand[nc++] = r;
    } else {
        for (int r = 3 * band; r < 3 * band + 3; r++)
            if (!(used_rows >> r & 1)) cand[nc++] = r;
    }
    return nc;
}

/* Reads n cells of row in the column order cols into seg, giving each digit without a
 * label in lab the next one (++*k), and compares seg with ref as it goes: -1, 0 or 1. It
 * stops at the first cell above ref (seg, lab and *k are then incomplete: the caller drops
 * them). */
static inline int ml_segment(const uint8_t *row, const uint8_t *cols, int n, uint8_t *lab,
                             int *k, const uint8_t *ref, uint8_t *seg)
{
    int cmp = 0;
    for (int j = 0; j < n; j++) {
        uint8_t v = row[cols[j]], y = 0;
        if (v) {
            y = lab[v];
            if (!y) y = lab[v] = (uint8_t)++*k;
        }
        seg[j] = y;
        if (!cmp) {
            if (y < ref[j]) cmp = -1;
            else if (y > ref[j]) return 1;
        }
    }
    return cmp;
}

static void ml_dfs(ml_ctx *x, int p, int band, unsigned used_rows, unsigned used_bands,
                   const uint8_t *lab, int next)
{
    if (p == 9) {
        if (x->count == 0) {
            x->wt = x->t;
            memcpy(x->wrows, x->rows, 9);
            memcpy(x->wcols, x->cols, 9);
            memcpy(x->wlab, lab, 10);
        }
        x->count++;
        return;
    }
    int cand[9];
    const int nc = ml_candidates(p, band, used_rows, used_bands, cand);
    uint8_t *bp = x->best + 9 * p;
    /* Every candidate row's segment first; only those equal to the smallest go on (a
     * larger sibling can never reach a leaf equal to the best), so a branch that a sibling
     * beats is never searched, whatever order the rows come in. */
    uint8_t segs[9][9], labs[9][10];
    int nexts[9], keep[9], nk = 0;
    for (int i = 0; i < nc; i++) {
        memcpy(labs[i], lab, 10);
        int k = next;
        /* against the best so far, then against the smallest sibling kept */
        const int cmp = ml_segment(x->g[x->t][cand[i]], x->cols, 9, labs[i], &k,
                                   nk ? segs[keep[0]] : bp, segs[i]);
        if (cmp > 0) continue;
        nexts[i] = k;
        if (cmp < 0) nk = 0;
        keep[nk++] = i;
    }
    if (!nk) return;
    if (memcmp(segs[keep[0]], bp, 9) < 0) {
        memcpy(bp, segs[keep[0]], 9);
        memset(bp + 9, 0xFF, (size_t)(81 - 9 * p - 9));
        x->count = 0;
    }
    for (int i = 0; i < nk; i++) {
        const int c = keep[i], r = cand[c];
        /* a deeper leaf may have lowered this row of the best: recheck */
        if (i && memcmp(segs[c], bp, 9) > 0) return;
        x->rows[p] = (uint8_t)r;
        ml_dfs(x, p + 1, r / 3, used_rows | 1u << r, used_bands | 1u << (r / 3), labs[c],
               nexts[c]);
    }
}

static const uint8_t PERM3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* Orders of 0 to 3 items: PERMS[n] lists NPERMS[n] orders of n items. */
static const uint8_t PERMS[4][6][3] = {
    {{0}},
    {{0}},
    {{0, 1}, {1, 0}},
    {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
static const int NPERMS[4] = {1, 1, 2, 6};

/* What ml_from_distinct fixed for row p (per output slot: its row-p-blank columns, whose
 * order is still open, and its clued columns in their chosen order) and the input row r1
 * being placed as row p+1. */
typedef struct {
    int p, r1;
    unsigned used_rows, used_bands;
    uint8_t nblank[3], blank[3][3], nclue[3], clues[3][3];
} ml_next;

/* Orders the row-p-blank columns of output slot s (any order reads 0 in row p) one slot at
 * a time, comparing row p+1 with the best string as its cells appear, so a column order
 * whose row p+1 is already greater is cut after one slot instead of after all nine
 * columns. At the end, pass 1 searches the rows below (pass 0 only lowers the best). */
static void ml_slots(ml_ctx *x, const ml_next *nx, int s, const uint8_t *lab, int k)
{
    const int p1 = nx->p + 1;
    if (s == 3) {
        if (x->pass == 0) return;
        x->rows[p1] = (uint8_t)nx->r1;
        ml_dfs(x, p1 + 1, nx->r1 / 3, nx->used_rows | 1u << nx->r1,
               nx->used_bands | 1u << (nx->r1 / 3), lab, k);
        return;
    }
    const uint8_t *row = x->g[x->t][nx->r1];
    uint8_t *bp = x->best + 9 * p1 + 3 * s;
    const int nb = nx->nblank[s];
    uint8_t *cols = x->cols + 3 * s;
    for (int i = 0; i < nx->nclue[s]; i++) cols[nb + i] = nx->clues[s][i];
    for (int o = 0; o < NPERMS[nb]; o++) {
        for (int i = 0; i < nb; i++) cols[i] = nx->blank[s][PERMS[nb][o][i]];
        uint8_t l2[10], seg[3];
        memcpy(l2, lab, 10);
        int k2 = k;
        const int cmp = ml_segment(row, cols, 3, l2, &k2, bp, seg);
        if (cmp > 0) continue;
        if (cmp < 0) {
            memcpy(bp, seg, 3);
            memset(bp + 3, 0xFF, (size_t)(81 - 9 * p1 - 3 * s - 3));
            x->count = 0;
        }
        ml_slots(x, nx, s + 1, l2, k2);
    }
}

/* The first clued output row p is input row r0 of grid x->t, and no row repeats a digit.
 * Only where row p's blanks fall matters to its string, so its smallest form has the
 * stacks in increasing clue count and blanks first inside each; its labels (1, 2, 3 ... in
 * order) depend only on the order of the stacks and of the clued columns inside each.
 * Those are enumerated here; the orders of the blank columns are left to ml_slots, which
 * places row p+1 one slot at a time. Each column order that gives row p its smallest form
 * reaches ml_dfs once when its rows p and p+1 equal the minimum. */
static void ml_from_distinct(ml_ctx *x, int p, int r0, unsigned used_rows, unsigned used_bands)
{
    const uint8_t *row = x->g[x->t][r0];
    uint8_t blank[3][3] = {{0}}, clue[3][3] = {{0}};
    int nb[3] = {0, 0, 0}, ncl[3] = {0, 0, 0};
    for (int s = 0; s < 3; s++)
        for (int q = 0; q < 3; q++) {
            const uint8_t c = (uint8_t)(3 * s + q);
            if (row[c]) clue[s][ncl[s]++] = c;
            else blank[s][nb[s]++] = c;
        }
    x->rows[p] = (uint8_t)r0;
    used_rows |= 1u << r0;
    used_bands |= 1u << (r0 / 3);
    /* row p's string is the same for every column order kept below */
    uint8_t *bp = x->best + 9 * p;
    {
        int cnt[3] = {ncl[0], ncl[1], ncl[2]};
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2 - a; b++)
                if (cnt[b] > cnt[b + 1]) { int z = cnt[b]; cnt[b] = cnt[b + 1]; cnt[b + 1] = z; }
        uint8_t seg[9];
        int k = 0;
        for (int s = 0; s < 3; s++)
            for (int q = 0; q < 3; q++) seg[3 * s + q] = q < 3 - cnt[s] ? 0 : (uint8_t)++k;
        const int cmp = memcmp(seg, bp, 9);
        if (cmp > 0) return;
        if (cmp < 0) {
            memcpy(bp, seg, 9);
            memset(bp + 9, 0xFF, (size_t)(72 - 9 * p));
            x->count = 0;
        }
    }
    int cand[9];
    const int nc = ml_candidates(p + 1, r0 / 3, used_rows, used_bands, cand);
    ml_next nx;
    memset(&nx, 0, sizeof nx);
    nx.p = p;
    nx.used_rows = used_rows;
    nx.used_bands = used_bands;
    for (int so = 0; so < 6; so++) {
        const uint8_t *st = PERM3[so];
        if (ncl[st[0]] > ncl[st[1]] || ncl[st[1]] > ncl[st[2]]) continue;
        int n[3];
        for (int s = 0; s < 3; s++) {
            n[s] = ncl[st[s]];
            nx.nblank[s] = (uint8_t)nb[st[s]];
            nx.nclue[s] = (uint8_t)n[s];
            memcpy(nx.blank[s], blank[st[s]], 3);
        }
        for (int a = 0; a < NPERMS[n[0]]; a++)
            for (int b = 0; b < NPERMS[n[1]]; b++)
                for (int c = 0; c < NPERMS[n[2]]; c++) {
                    const int pick[3] = {a, b, c};
                    uint8_t lab[10] = {0};
                    int k = 0;
                    for (int s = 0; s < 3; s++)
                        for (int i = 0; i < n[s]; i++) {
                            const uint8_t col = clue[st[s]][PERMS[n[s]][pick[s]][i]];
                            nx.clues[s][i] = col;
                            lab[row[col]] = (uint8_t)++k;
                        }
                    for (int i = 0; i < nc; i++) {
                        nx.r1 = cand[i];
                        ml_slots(x, &nx, 0, lab, k);
                    }
                }
    }
}

/* The general path (a row repeats a digit, or a band is blank): output row 0 is input row
 * r0 of grid x->t, and every one of its 1,296 column orders is tried, each searched below
 * as far as it stays no greater than the best. */
static void ml_from_row(ml_ctx *x, int r0)
{
    const uint8_t *row = x->g[x->t][r0];
    uint8_t *bp = x->best;
    x->rows[0] = (uint8_t)r0;
    for (int so = 0; so < 6; so++) {
        const uint8_t *st = PERM3[so];
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++)
                for (int c = 0; c < 6; c++) {
                    const int pick[3] = {a, b, c};
                    for (int s = 0; s < 3; s++)
                        for (int q = 0; q < 3; q++)
                            x->cols[3 * s + q] = (uint8_t)(3 * st[s] + PERM3[pick[s]][q]);
                    uint8_t lab[10] = {0}, seg[9];
                    int k = 0;
                    const int cmp = ml_segment(row, x->cols, 9, lab, &k, bp, seg);
                    if (cmp > 0) continue;
                    if (cmp < 0) {
                        memcpy(bp, seg, 9);
                        memset(bp + 9, 0xFF, 72);
                        x->count = 0;
                    }
                    ml_dfs(x, 1, r0 / 3, 1u << r0, 1u << (r0 / 3), lab, k);
                }
    }
}

/* A full grid whose rows, columns and boxes hold each digit once. Row 0 of the output
 * reads 1..9 whatever the column order, so the labels are the output positions of row 0's
 * digits and row 1 (a band-mate r1 of r0) decides. Its first three cells hold digits that
 * row r0 has in the other two stacks, so once the order of the stacks and the orders
 * inside the second and third output stacks are chosen their labels are known, and only
 * the order of the first stack that sorts them can be minimal: 6 x 36 column orders per
 * (transposition, r0, r1) instead of 1,296, each column order of a minimal string among
 * them exactly once (the automorphism count stays exact). */
static void ml_full_grid(ml_ctx *x)
{
    for (int j = 0; j < 9; j++) x->best[j] = (uint8_t)(j + 1);
    for (int t = 0; t < 2; t++) {
        x->t = t;
        for (int r0 = 0; r0 < 9; r0++) {
            const uint8_t *row0 = x->g[t][r0];
            uint8_t pos0[10]; /* digit -> its input column in row r0 */
            for (int c = 0; c < 9; c++) pos0[row0[c]] = (uint8_t)c;
            x->rows[0] = (uint8_t)r0;
            for (int r1 = 3 * (r0 / 3); r1 < 3 * (r0 / 3) + 3; r1++) {
                if (r1 == r0) continue;
                const uint8_t *row1 = x->g[t][r1];
                uint8_t src[9]; /* input column c -> input column of row1[c]'s digit in r0 */
                for (int c = 0; c < 9; c++) src[c] = pos0[row1[c]];
                x->rows[1] = (uint8_t)r1;
                for (int so = 0; so < 6; so++) {
                    const int s0 = PERM3[so][0], s1 = PERM3[so][1], s2 = PERM3[so][2];
                    for (int i1 = 0; i1 < 6; i1++)
                        for (int i2 = 0; i2 < 6; i2++) {
                            uint8_t outpos[9]; /* input column -> output label (1..9) */
                            for (int a = 0; a < 3; a++) {
                                outpos[3 * s1 + PERM3[i1][a]] = (uint8_t)(4 + a);
                                outpos[3 * s2 + PERM3[i2][a]] = (uint8_t)(7 + a);
                            }
                            /* labels of row1's first-stack cells, then their sorting order */
                            uint8_t v0 = outpos[src[3 * s0]], v1 = outpos[src[3 * s0 + 1]],
                                    v2 = outpos[src[3 * s0 + 2]];
                            uint8_t o0 = 0, o1 = 1, o2 = 2, z;
                            if (v0 > v1) { z = v0; v0 = v1; v1 = z; z = o0; o0 = o1; o1 = z; }
                            if (v1 > v2) { z = v1; v1 = v2; v2 = z; z = o1; o1 = o2; o2 = z; }
                            if (v0 > v1) { z = v0; v0 = v1; v1 = z; z = o0; o0 = o1; o1 = z; }
                            const uint8_t *bp = x->best + 9;
                            if (v0 != bp[0]) { if (v0 > bp[0]) continue; }
                            else if (v1 != bp[1]) { if (v1 > bp[1]) continue; }
                            else if (v2 > bp[2]) continue;
                            outpos[3 * s0 + o0] = 1;
                            outpos[3 * s0 + o1] = 2;
                            outpos[3 * s0 + o2] = 3;
                            x->cols[0] = (uint8_t)(3 * s0 + o0);
                            x->cols[1] = (uint8_t)(3 * s0 + o1);
                            x->cols[2] = (uint8_t)(3 * s0 + o2);
                            for (int a = 0; a < 3; a++) {
                                x->cols[3 + a] = (uint8_t)(3 * s1 + PERM3[i1][a]);
                                x->cols[6 + a] = (uint8_t)(3 * s2 + PERM3[i2][a]);
                            }
                            uint8_t seg[9];
                            int cmp = 0, j;
                            for (j = 0; j < 9; j++) {
                                uint8_t y = outpos[src[x->cols[j]]];
                                seg[j] = y;
                                if (!cmp) {
                                    if (y < bp[j]) cmp = -1;
                                    else if (y > bp[j]) { cmp = 1; break; }
                                }
                            }
                            if (cmp > 0) continue;
                            if (cmp < 0) {
                                memcpy(x->best + 9, seg, 9);
                                memset(x->best + 18, 0xFF, 63);
                                x->count = 0;
                            }
                            uint8_t lab[10];
                            lab[0] = 0;
                            for (int c = 0; c < 9; c++) lab[row0[c]] = outpos[c];
                            ml_dfs(x, 2, r0 / 3, 1u << r0 | 1u << r1, 1u << (r0 / 3), lab, 9);
                        }
                }
            }
        }
    }
}

/* True for a full grid whose rows, columns and boxes hold each digit once. */
static int ml_is_solution(const uint8_t *in)
{
    for (int u = 0; u < 27; u++) {
        unsigned seen = 0;
        for (int i = 0; i < 9; i++) {
            int r, c;
            if (u < 9) r = u, c = i;
            else if (u < 18) r = i, c = u - 9;
            else r = 3 * ((u - 18) / 3) + i / 3, c = 3 * ((u - 18) % 3) + i % 3;
            unsigned v = in[9 * r + c];
            if (!v || seen >> v & 1) return 0;
            seen |= 1u << v;
        }
    }
    return 1;
}

/* Canonicalise 81 values (0..9). Writes the canonical values to out, the transformation
 * (transpose flag, rows, cols: output index -> input index; digits: old -> new, a
 * permutation of 0..9) and returns the automorphism count. */
static uint64_t ml_minlex9(const uint8_t *in, uint8_t *out, int *transpose, uint8_t *rows,
                    uint8_t *cols, uint8_t *digits)
{
    ml_ctx x;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) x.g[0][r][c] = x.g[1][c][r] = in[9 * r + c];
    memset(x.best, 0xFF, 81);
    x.count = 0;
    x.wt = 0;
    uint64_t factor = 1;

    if (ml_is_solution(in)) {
        ml_full_grid(&x);
        goto done;
    }

    int distinct = 1;
    for (int t = 0; t < 2 && distinct; t++)
        for (int r = 0; r < 9 && distinct; r++) {
            unsigned seen = 0;
            for (int c = 0; c < 9; c++) {
                unsigned v = x.g[t][r][c];
                if (!v) continue;
                if (seen >> v & 1) { distinct = 0; break; }
                seen |= 1u << v;
            }
        }

    /* First-row pattern of each (t, r) as a 9-bit number, position 0 the high bit (blank
     * = 0 < clue = 1, so a smaller number is a smaller string); 0 for a blank row. Blank
     * rows per band. */
    int pattern[2][9], blanks[2][3] = {{0}};
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 9; r++) {
            int cnt[3];
            for (int s = 0; s < 3; s++)
                cnt[s] = (x.g[t][r][3 * s] != 0) + (x.g[t][r][3 * s + 1] != 0) +
                         (x.g[t][r][3 * s + 2] != 0);
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2 - a; b++)
                    if (cnt[b] > cnt[b + 1]) { int z = cnt[b]; cnt[b] = cnt[b + 1]; cnt[b + 1] = z; }
            int bits = 0;
            for (int s = 0; s < 3; s++) bits = (bits << 3) | ((1 << cnt[s]) - 1);
            pattern[t][r] = bits;
            blanks[t][r / 3] += bits == 0;
        }

    /* The minimum starts with as many blank rows as a band can put first (q), then the
     * band's clued row with the smallest pattern. A blank band (q = 3) starts below from
     * the blank rows; clashing rows take the general path below. The q blank rows can
     * come in any of q! orders, all giving the same string: one is searched and the count
     * multiplied. */
    int q = 0;
    for (int t = 0; t < 2; t++)
        for (int b = 0; b < 3; b++)
            if (blanks[t][b] > q) q = blanks[t][b];
    if (distinct && q > 0 && q < 3) {
        int top = 1 << 10;
        for (int t = 0; t < 2; t++)
            for (int r = 0; r < 9; r++)
                if (blanks[t][r / 3] == q && pattern[t][r] && pattern[t][r] < top)
                    top = pattern[t][r];
        memset(x.best, 0, (size_t)(9 * q));
        factor = q == 2 ? 2 : 1;
        for (x.pass = 0; x.pass < 2; x.pass++)
            for (int t = 0; t < 2; t++) {
                x.t = t;
                for (int r0 = 0; r0 < 9; r0++) {
                    const int b = r0 / 3;
                    if (blanks[t][b] != q || pattern[t][r0] != top) continue;
                    int p = 0;
                    for (int r = 3 * b; r < 3 * b + 3; r++)
                        if (!pattern[t][r]) x.rows[p++] = (uint8_t)r;
                    unsigned used = 0;
                    for (int i = 0; i < p; i++) used |= 1u << x.rows[i];
                    ml_from_distinct(&x, q, r0, used, 0);
                }
            }
        goto done;
    }

    int top = 1 << 10;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 9; r++)
            if (pattern[t][r] < top) top = pattern[t][r];
    if (distinct) {
        for (x.pass = 0; x.pass < 2; x.pass++)
            for (int t = 0; t < 2; t++) {
                x.t = t;
                for (int r0 = 0; r0 < 9; r0++)
                    if (pattern[t][r0] == top) ml_from_distinct(&x, 0, r0, 0, 0);
            }
    } else {
        for (int t = 0; t < 2; t++) {
            x.t = t;
            for (int r0 = 0; r0 < 9; r0++) ml_from_row(&x, r0);
        }
    }

done:
    memcpy(out, x.best, 81);
    *transpose = x.wt;
    memcpy(rows, x.wrows, 9);
    memcpy(cols, x.wcols, 9);
    /* Digits absent from the input take the unused labels in increasing order, so the
     * relabelling is a permutation. */
    unsigned used = 0;
    for (int d = 1; d <= 9; d++)
        if (x.wlab[d]) used |= 1u << x.wlab[d];
    int free_label = 1;
    digits[0] = 0;
    for (int d = 1; d <= 9; d++) {
        if (x.wlab[d]) { digits[d] = x.wlab[d]; continue; }
        while (used >> free_label & 1) free_label++;
        digits[d] = (uint8_t)free_label;
        used |= 1u << free_label;
    }
    return x.count * factor;
}

/* ---------------------------------------------------------------------------------- */
/* Python bindings: the module sudoku_model._minlex. */

static int ml_check(const uint8_t *v, Py_ssize_t len, Py_ssize_t *bad)
{
    for (Py_ssize_t i = 0; i < len; i++)
        if (v[i] > 9) { *bad = i; return 0; }
    return 1;
}

static PyObject *py_minlex9(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) < 0) return NULL;
    if (buf.len != 81) {
        PyBuffer_Release(&buf);
        PyErr_Format(PyExc_ValueError, "minlex9 takes 81 cell values, got %zd", buf.len);
        return NULL;
    }
    uint8_t in[81], out[81], rows[9], cols[9], digits[10];
    memcpy(in, buf.buf, 81);
    PyBuffer_Release(&buf);
    Py_ssize_t bad;
    if (!ml_check(in, 81, &bad)) {
        PyErr_Format(PyExc_ValueError, "cell %zd holds %d; values are 0..9", bad, (int)in[bad]);
        return NULL;
    }
    int transpose;
    uint64_t count;
    Py_BEGIN_ALLOW_THREADS
    count = ml_minlex9(in, out, &transpose, rows, cols, digits);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(y#KOy#y#y#)", (const char *)out, (Py_ssize_t)81,
                         (unsigned long long)count, transpose ? Py_True : Py_False,
                         (const char *)rows, (Py_ssize_t)9, (const char *)cols, (Py_ssize_t)9,
                         (const char *)digits, (Py_ssize_t)10);
}

static PyObject *py_minlex9_batch(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) < 0) return NULL;
    if (buf.len % 81) {
        Py_ssize_t len = buf.len;
        PyBuffer_Release(&buf);
        PyErr_Format(PyExc_ValueError, "minlex9_batch takes a multiple of 81 values, got %zd",
                     len);
        return NULL;
    }
    Py_ssize_t n = buf.len / 81, bad;
    if (!ml_check(buf.buf, buf.len, &bad)) {
        int v = ((const uint8_t *)buf.buf)[bad];
        PyBuffer_Release(&buf);
        PyErr_Format(PyExc_ValueError, "grid %zd cell %zd holds %d; values are 0..9", bad / 81,
                     bad % 81, v);
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, buf.len);
    PyObject *counts = PyList_New(n);
    uint64_t *tmp = PyMem_Malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    if (!out || !counts || !tmp) {
        Py_XDECREF(out);
        Py_XDECREF(counts);
        PyMem_Free(tmp);
        PyBuffer_Release(&buf);
        return PyErr_NoMemory();
    }
    const uint8_t *in = buf.buf;
    uint8_t *o = (uint8_t *)PyBytes_AS_STRING(out);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        uint8_t rows[9], cols[9], digits[10];
        int transpose;
        tmp[i] = ml_minlex9(in + 81 * i, o + 81 * i, &transpose, rows, cols, digits);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyLong_FromUnsignedLongLong(tmp[i]);
        if (!c) {
            PyMem_Free(tmp);
            Py_DECREF(out);
            Py_DECREF(counts);
            return NULL;
        }
        PyList_SET_ITEM(counts, i, c);
    }
    PyMem_Free(tmp);
    return Py_BuildValue("(NN)", out, counts);
}

static PyMethodDef module_methods[] = {
    {"minlex9", py_minlex9, METH_O,
     "minlex9(cells) -> (canonical, automorphisms, transpose, rows, cols, digits)\n\n"
     "The minlex form of one 9x9 grid (81 values 0..9, any buffer) with the automorphism\n"
     "count and the transformation that reaches it. ValueError for a wrong length or a\n"
     "value over 9. Releases the GIL."},
    {"minlex9_batch", py_minlex9_batch, METH_O,
     "minlex9_batch(cells) -> (canonical, automorphism counts), 81 values per grid\n\n"
     "minlex9 over many grids in one call (the GIL released). ValueError naming the grid\n"
     "and cell for a length that is not a multiple of 81 or a value over 9."},
    {NULL}
};

static struct PyModuleDef minlexmodule = {
    PyModuleDef_HEAD_INIT, "sudoku_model._minlex",
    "Minlex canonical form of 9x9 grids in C (sudoku_model.canon has the exact Python\n"
    "search for every shape and is the reference).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__minlex(void) { return PyModule_Create(&minlexmodule); }
