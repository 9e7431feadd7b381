/* Aligned pair and triplet exclusion, a search of the SE rater (sudoku_model.se._core;
 * se_core.c tells the conventions), as tests/se_reference/aligned.py gives it. */
#include "se_scan.h"


/* ---- aligned pair and triplet exclusion (aligned.py) -------------------------------- */

/* aligned._exclusions: the candidates of `cells` that no combination allows; a
 * combination repeating a digit in a region, or covering every candidate of a common
 * excluder, is impossible. Returns the number of (cell, digit) written. */
static int exclusions(const int *cands, const int *cells, int n, u128 common, int *ec, int *ed)
{
    int masks[81], nm = 0;
    for (u128 x = common; x; x &= x - 1)
        masks[nm++] = cands[ctz128(x)];
    int want[3] = {0, 0, 0}, allowed[3] = {0, 0, 0}, sees[3][3];
    for (int i = 0; i < n; i++) {
        want[i] = cands[cells[i]];
        for (int j = 0; j < n; j++)
            sees[i][j] = (PEER[cells[i]] & BIT128(cells[j])) != 0;
    }
    /* every combination: the allowed sets do not depend on the order, and the search stops
     * once every candidate is allowed (then nothing goes) */
    int last = n == 3 ? 1 : 0;
    for (int m0 = want[0]; m0; m0 &= m0 - 1) {
        int b0 = m0 & -m0;
        int w1 = sees[0][1] ? want[1] & ~b0 : want[1];
        for (int m1 = w1; m1; m1 &= m1 - 1) {
            int b1 = m1 & -m1;
            int w2 = last ? want[2] : 1;
            if (last) {
                if (sees[0][2])
                    w2 &= ~b0;
                if (sees[1][2])
                    w2 &= ~b1;
            }
            for (int m2 = w2; m2; m2 &= m2 - 1) {
                int b2 = last ? (m2 & -m2) : 0;
                int mask = b0 | b1 | b2, ok = 1;
                for (int k = 0; k < nm; k++)
                    if ((masks[k] & ~mask) == 0) {
                        ok = 0;
                        break;
                    }
                if (!ok)
                    continue;
                allowed[0] |= b0;
                allowed[1] |= b1;
                allowed[2] |= b2;
                if (allowed[0] == want[0] && allowed[1] == want[1] &&
                    (!last || allowed[2] == want[2]))
                    return 0;
            }
        }
    }
    int ne = 0;
    for (int i = 0; i < n; i++)
        for (int d = 1; d <= 9; d++)
            if ((want[i] >> (d - 1) & 1) && !(allowed[i] >> (d - 1) & 1)) {
                ec[ne] = cells[i];
                ed[ne++] = d;
            }
    return ne;
}

int aligned_exclusion(const int *cands, int degree, PyObject *out, Py_ssize_t limit)
{
    int cand[81], nc = 0, excl[81][20], nexcl[81];
    u128 ex[81], candset = 0;
    for (int c = 0; c < 81; c++) {
        if (POP[cands[c]] < 2)
            continue;
        int single = 0, n = 0;
        u128 b = 0;
        for (int k = 0; k < 20; k++) {
            int p = PEERLIST[c][k], pop = POP[cands[p]];
            if (pop == 1)
                single = 1;
            else if (pop >= 2 && pop <= degree) {
                excl[c][n++] = p;
                b |= BIT128(p);
            }
        }
        if (!single && n) {
            cand[nc++] = c;
            nexcl[c] = n;
            ex[c] = b;
            candset |= BIT128(c);
        }
    }
    if (nc < degree)
        return 0;
    int kind = degree == 2 ? K_APE : K_ATE;
    double rating = degree == 2 ? 6.2 : 7.5;
    /* pairs in SE's order: increasing bitmask of the two indices */
    for (int i1 = 1; i1 < nc; i1++)
        for (int i0 = 0; i0 < i1; i0++) {
            int c0 = cand[i0], c1 = cand[i1];
            u128 common01 = ex[c0] & ex[c1];
            if ((common01 & (common01 - 1)) == 0)
                continue;
            int tail[40], nt = 1;
            if (degree == 3) {
                /* the third cell: a candidate among the excluders of c0, then of c1 */
                nt = 0;
                u128 taken = BIT128(c0) | BIT128(c1);
                for (int s = 0; s < 2; s++) {
                    int c = s ? c1 : c0;
                    for (int k = 0; k < nexcl[c]; k++) {
                        int t = excl[c][k];
                        if ((candset & BIT128(t)) && !(taken & BIT128(t))) {
                            taken |= BIT128(t);
                            tail[nt++] = t;
                        }
                    }
                }
            }
            for (int j = 0; j < nt; j++) {
                int cells[3] = {c0, c1, degree == 3 ? tail[j] : -1};
                u128 common = common01;
                if (degree == 3)
                    common &= ex[cells[2]];
                if ((common & (common - 1)) == 0)
                    continue;
                int ec[27], ed[27];
                int ne = exclusions(cands, cells, degree, common, ec, ed);
                if (!ne)
                    continue;
                if (emit(out, kind, rating, elims_tuple(ec, ed, ne), -1, 0, cells, degree, NULL, 0))
                    return -1;
                if (full(out, limit))
                    return 0;
            }
        }
    return 0;
}
