/* The basic scanning searches of the SE rater (sudoku_model.se._core; se_core.c tells the
 * conventions): singles, intersections, subsets, basic fish, XY- and XYZ-wings, in the
 * order and form of tests/se_reference/basic.py. */
#include "se_scan.h"

#include <string.h>

/* The mask of positions (bit i: position i of the region) that hold `bit`. */
static inline int position_mask(const int *cands, int region, int bit)
{
    int m = 0;
    for (int i = 0; i < 9; i++)
        if (cands[REG[region][i]] & bit)
            m |= 1 << i;
    return m;
}

static inline int empty_count(const int *values, int region)
{
    int n = 0;
    for (int i = 0; i < 9; i++)
        n += values[REG[region][i]] == 0;
    return n;
}

/* SE scans boxes, then columns, then rows for singles and subsets. */
static const int SCAN_TYPES[3] = {0, 2, 1};

/* ---- singles (basic.hidden_singles, basic.naked_singles) ----------------------------- */

int hidden_singles(const int *values, const int *cands, PyObject *out, Py_ssize_t limit)
{
    for (int alone_only = 1; alone_only >= 0; alone_only--)
        for (int t = 0; t < 3; t++) {
            int rtype = SCAN_TYPES[t];
            for (int r = 9 * rtype; r < 9 * rtype + 9; r++) {
                int empty = empty_count(values, r);
                if (empty == 0)
                    continue;
                int alone = empty == 1;
                if (alone != alone_only)
                    continue;
                int once = 0, twice = 0; /* the digits with one place, with two or more */
                for (int i = 0; i < 9; i++) {
                    int m = cands[REG[r][i]];
                    twice |= once & m;
                    once |= m;
                }
                for (int m = once & ~twice; m; m &= m - 1) {
                    int d = __builtin_ctz((unsigned)m) + 1, bit = m & -m, found = -1;
                    for (int i = 0; i < 9; i++)
                        if (cands[REG[r][i]] & bit) {
                            found = REG[r][i];
                            break;
                        }
                    int kind = alone ? K_FULL_HOUSE : K_HIDDEN_SINGLE;
                    double rating = alone ? 1.0 : (rtype == 0 ? 1.2 : 1.5);
                    if (emit(out, kind, rating, PyTuple_New(0), found, d, &found, 1, NULL, 0))
                        return -1;
                    if (full(out, limit))
                        return 0;
                }
            }
        }
    return 0;
}

int naked_singles(const int *cands, PyObject *out, Py_ssize_t limit)
{
    for (int c = 0; c < 81; c++) {
        int m = cands[c];
        if (m && POP[m] == 1) {
            if (emit(out, K_NAKED_SINGLE, 2.3, PyTuple_New(0), c, lowest_digit(m), &c, 1, NULL,
                     0))
                return -1;
            if (full(out, limit))
                return 0;
        }
    }
    return 0;
}

/* ---- intersections (basic._locking) ------------------------------------------------- */

static const int LOCKING_PAIRS[4][2] = {{0, 2}, {0, 1}, {2, 0}, {1, 0}};

/* CROSS[r][t]: the regions of type t that share cells with region r, ascending (NCROSS of
 * them: 3 between a box and a line, 0 or 9 between two lines, 1 for r's own type). */
static int CROSS[27][3][9], NCROSS[27][3];

void init_crossing(void)
{
    for (int r1 = 0; r1 < 27; r1++)
        for (int t = 0; t < 3; t++) {
            NCROSS[r1][t] = 0;
            for (int r2 = 9 * t; r2 < 9 * t + 9; r2++)
                if (REGMASK[r1] & REGMASK[r2])
                    CROSS[r1][t][NCROSS[r1][t]++] = r2;
        }
}

/* The cells of each digit as boards (board[d - 1]). */
void digit_boards(const int *cands, u128 board[9])
{
    /* each half of the board in its own word (cells 0-63, 64-80): no 128-bit shifts */
    uint64_t lo[9] = {0}, hi[9] = {0};
    for (int c = 0; c < 64; c++)
        for (int m = cands[c]; m; m &= m - 1)
            lo[__builtin_ctz((unsigned)m)] |= (uint64_t)1 << c;
    for (int c = 64; c < 81; c++)
        for (int m = cands[c]; m; m &= m - 1)
            hi[__builtin_ctz((unsigned)m)] |= (uint64_t)1 << (c - 64);
    for (int d = 0; d < 9; d++)
        board[d] = (u128)hi[d] << 64 | lo[d];
}

/* The cells of a board, ascending (a region's order is ascending too); their count. */
static int board_cells(u128 b, int *cells)
{
    int n = 0;
    while (b) {
        cells[n++] = ctz128(b);
        b &= b - 1;
    }
    return n;
}

int locking(const int *cands, int direct, Sink *out)
{
    u128 board[9];
    digit_boards(cands, board);
    /* the regions of each type to look at for each digit: for a chain "+" (see Sink), the
     * ones that lost the digit to the chain (a bit a region of the type, ascending) */
    int look[3][9];
    for (int t = 0; t < 3; t++)
        for (int d0 = 0; d0 < 9; d0++) {
            look[t][d0] = out->rem ? 0 : 511;
            for (int i = 0; i < 9 && out->rem; i++)
                look[t][d0] |= (out->rem[9 * t + i] >> d0 & 1) << i;
        }
    for (int p = 0; p < 4; p++) {
        int t1 = LOCKING_PAIRS[p][0], t2 = LOCKING_PAIRS[p][1];
        for (int d = 1; d <= 9; d++) {
            u128 bd = board[d - 1];
            for (int m1 = look[t1][d - 1]; m1; m1 &= m1 - 1) {
                int r1 = 9 * t1 + __builtin_ctz((unsigned)m1);
                u128 b1 = bd & REGMASK[r1];
                if (!b1 || !(b1 & (b1 - 1)))
                    continue; /* fewer than two places */
                for (int k = 0; k < NCROSS[r1][t2]; k++) {
                    int r2 = CROSS[r1][t2][k];
                    if (b1 & ~REGMASK[r2])
                        continue;
                    u128 victims = bd & REGMASK[r2] & ~REGMASK[r1];
                    if (!victims)
                        continue;
                    int ec[9], ed[9], ne = board_cells(victims, ec), pos1[9],
                        n1 = board_cells(b1, pos1);
                    for (int i = 0; i < ne; i++)
                        ed[i] = d;
                    if (direct) {
                        int kind = t1 == 0 ? K_DIRECT_POINTING : K_DIRECT_CLAIMING;
                        double rating = t1 == 0 ? 1.7 : 1.9;
                        for (int j = 0; j < NCROSS[r2][t1]; j++) {
                            int r3 = CROSS[r2][t1][j];
                            if (r3 == r1)
                                continue;
                            u128 b3 = bd & REGMASK[r3], rest = b3 & ~REGMASK[r2];
                            /* two places or more, one of them outside r2 */
                            if (!(b3 & (b3 - 1)) || !rest || (rest & (rest - 1)))
                                continue;
                            if (emit_s(out, kind, rating, ec, ed, ne, ctz128(rest), d, pos1,
                                       n1, NULL, 0))
                                return -1;
                            if (full_s(out))
                                return 0;
                        }
                    } else {
                        int kind = t1 == 0 ? K_POINTING : K_CLAIMING;
                        double rating = t1 == 0 ? 2.6 : 2.8;
                        int regions[2] = {r1, r2};
                        if (emit_s(out, kind, rating, ec, ed, ne, -1, 0, pos1, n1, regions, 2))
                            return -1;
                        if (full_s(out))
                            return 0;
                    }
                }
            }
        }
    }
    return 0;
}

/* ---- subsets (basic._hidden_sets, basic.naked_sets) --------------------------------- */

int hidden_sets(const int *values, const int *cands, int degree, int direct, Sink *out)
{
    static const int KIND[5] = {0, 0, K_HIDDEN_PAIR, K_HIDDEN_TRIPLET, K_HIDDEN_QUAD};
    static const double RATING[5] = {0, 0, 3.4, 4.0, 5.4};
    for (int t = 0; t < 3; t++) {
        int rtype = SCAN_TYPES[t];
        for (int r = 9 * rtype; r < 9 * rtype + 9; r++) {
            if (out->rem && !out->rem[r])
                continue; /* a chain "+" (see Sink): nothing lost in the region */
            int empty = empty_count(values, r);
            if (!(empty > 2 * degree || (direct && empty > degree)))
                continue;
            int pos[9] = {0}, usable = 0; /* digits with 2..degree places */
            if (out->rpos)
                for (int d0 = 0; d0 < 9; d0++)
                    pos[d0] = out->rpos[r][d0];
            else
                for (int i = 0; i < 9; i++)
                    for (int m = cands[REG[r][i]]; m; m &= m - 1)
                        pos[__builtin_ctz((unsigned)m)] |= 1 << i;
            for (int i = 0; i < 9; i++)
                if (POP[pos[i]] > 1 && POP[pos[i]] <= degree)
                    usable |= 1 << i;
            if (POP[usable] < degree)
                continue;
            /* SE's combinations, by increasing mask value: those of `usable` (a digit with
             * one place, or more than `degree`, fails the test below) */
            for (int vmask = usable & -usable; vmask; vmask = (vmask - usable) & usable) {
                if (POP[vmask] != degree)
                    continue;
                if (out->rem && !(out->rem[r] & vmask))
                    continue; /* no chain removal of these digits in the region */
                int uni = 0;
                for (int m = vmask; m; m &= m - 1)
                    uni |= pos[__builtin_ctz((unsigned)m)];
                if (POP[uni] != degree)
                    continue;
                int set_cells[9], ns = 0, ec[81], ed[81], ne = 0;
                for (int i = 0; i < 9; i++)
                    if (uni >> i & 1)
                        set_cells[ns++] = REG[r][i];
                for (int k = 0; k < ns; k++) {
                    int rest = cands[set_cells[k]] & ~vmask;
                    for (int d = 1; d <= 9; d++)
                        if (rest >> (d - 1) & 1) {
                            ec[ne] = set_cells[k];
                            ed[ne++] = d;
                        }
                }
                if (direct) {
                    for (int d = 1; d <= 9; d++) {
                        if (vmask >> (d - 1) & 1)
                            continue;
                        int m = pos[d - 1];
                        if (POP[m] > 1) {
                            int rest = m & ~uni;
                            if (POP[rest] == 1) {
                                if (ne) {
                                    int target = REG[r][__builtin_ctz((unsigned)rest)];
                                    int kind = degree == 2 ? K_DIRECT_HIDDEN_PAIR
                                                           : K_DIRECT_HIDDEN_TRIPLET;
                                    if (emit_s(out, kind, degree == 2 ? 2.0 : 2.5,
                                             ec, ed, ne, target, d, set_cells, ns,
                                             NULL, 0))
                                        return -1;
                                    if (full_s(out))
                                        return 0;
                                }
                                break;
                            }
                        }
                    }
                    continue;
                }
                if (ne) {
                    if (emit_s(out, KIND[degree], RATING[degree], ec, ed, ne, -1, 0,
                             set_cells, ns, &r, 1))
                        return -1;
                    if (full_s(out))
                        return 0;
                }
            }
        }
    }
    return 0;
}

int naked_sets(const int *values, const int *cands, int degree, Sink *out)
{
    static const int KIND[5] = {0, 0, K_NAKED_PAIR, K_NAKED_TRIPLET, K_NAKED_QUAD};
    static const double RATING[5] = {0, 0, 3.0, 3.6, 5.0};
    for (int t = 0; t < 3; t++) {
        int rtype = SCAN_TYPES[t];
        for (int r = 9 * rtype; r < 9 * rtype + 9; r++) {
            if (empty_count(values, r) < 2 * degree)
                continue;
            if (out->rem && !out->rem[r])
                continue; /* no chain removal in the region */
            /* the positions a set can use: 2..degree candidates */
            int usable = 0;
            for (int i = 0; i < 9; i++) {
                int n = POP[cands[REG[r][i]]];
                if (n > 1 && n <= degree)
                    usable |= 1 << i;
            }
            if (POP[usable] < degree)
                continue;
            /* the subsets of `usable` of `degree` positions, by increasing mask value (SE's
             * order of combinations; the others fail the test below) */
            for (int combo = usable & -usable; combo; combo = (combo - usable) & usable) {
                if (POP[combo] != degree)
                    continue;
                int uni = 0;
                for (int m = combo; m; m &= m - 1)
                    uni |= cands[REG[r][__builtin_ctz((unsigned)m)]];
                if (POP[uni] != degree)
                    continue;
                int ec[81], ed[81], ne = 0;
                u128 chosen = 0;
                for (int i = 0; i < 9; i++)
                    if (combo >> i & 1)
                        chosen |= BIT128(REG[r][i]);
                for (int i = 0; i < 9; i++) {
                    int c = REG[r][i];
                    if (chosen & BIT128(c))
                        continue;
                    int m = cands[c] & uni;
                    for (int d = 1; d <= 9; d++)
                        if (m >> (d - 1) & 1) {
                            ec[ne] = c;
                            ed[ne++] = d;
                        }
                }
                if (!ne)
                    continue;
                int cells[9], nc = 0;
                while (chosen) {
                    cells[nc++] = ctz128(chosen);
                    chosen &= chosen - 1;
                }
                if (emit_s(out, KIND[degree], RATING[degree], ec, ed, ne, -1, 0, cells,
                         nc, &r, 1))
                    return -1;
                if (full_s(out))
                    return 0;
            }
        }
    }
    return 0;
}

/* ---- basic fish (basic.fish) -------------------------------------------------------- */

int fish(const int *values, const int *cands, int degree, Sink *out)
{
    static const int KIND[5] = {0, 0, K_X_WING, K_SWORDFISH, K_JELLYFISH};
    static const double RATING[5] = {0, 0, 3.2, 3.8, 5.2};
    int placed[10] = {0};
    for (int c = 0; c < 81; c++)
        placed[values[c]]++;
    static const int TYPES[2][2] = {{2, 1}, {1, 2}};
    for (int p = 0; p < 2; p++) {
        int bt = TYPES[p][0], ct = TYPES[p][1];
        /* the digits worth a look: few enough placed, and for a chain "+" (see Sink) lost
         * to the chain in some line of the base type */
        int want = 0, lines_lost = 0, pos[10][9];
        for (int i = 0; i < 9; i++)
            lines_lost |= out->rem ? out->rem[9 * bt + i] : 511;
        for (int d = 1; d <= 9; d++)
            if (placed[d] + degree * 2 <= 9 && (lines_lost >> (d - 1) & 1)) {
                want |= 1 << (d - 1);
                for (int i = 0; i < 9; i++)
                    pos[d][i] = out->rpos ? out->rpos[9 * bt + i][d - 1]
                                          : position_mask(cands, 9 * bt + i, 1 << (d - 1));
            }
        /* per digit, the base lines a fish can use (2..degree places), and all of them */
        int usable[10] = {0}, any = 0;
        for (int d = 1; d <= 9; d++)
            if (want >> (d - 1) & 1) {
                for (int i = 0; i < 9; i++)
                    if (POP[pos[d][i]] > 1 && POP[pos[d][i]] <= degree)
                        usable[d] |= 1 << i;
                if (POP[usable[d]] >= degree)
                    any |= usable[d];
            }
        for (int ci = 0; ci < NCOMBO[degree]; ci++) {
            int base_mask = COMBO[degree][ci], lost = 511;
            if (base_mask & ~any)
                continue;
            if (out->rem) { /* a chain "+": a base line must have lost d to the chain */
                lost = 0;
                for (int i = 0; i < 9; i++)
                    if (base_mask >> i & 1)
                        lost |= out->rem[9 * bt + i];
            }
            for (int d = 1; d <= 9; d++) {
                if (!(want & lost & (1 << (d - 1))) || (base_mask & ~usable[d]))
                    continue;
                int uni = 0;
                for (int m = base_mask; m; m &= m - 1)
                    uni |= pos[d][__builtin_ctz((unsigned)m)];
                if (POP[uni] != degree)
                    continue;
                int bit = 1 << (d - 1), ec[81], ed[81], ne = 0;
                for (int j = 0; j < 9; j++)
                    if (uni >> j & 1)
                        for (int i = 0; i < 9; i++) {
                            int c = REG[9 * ct + j][i];
                            if (!(base_mask >> i & 1) && (cands[c] & bit)) {
                                ec[ne] = c;
                                ed[ne++] = d;
                            }
                        }
                if (!ne)
                    continue;
                int cells[16], nc = 0, lines[8], nl = 0;
                for (int i = 0; i < 9; i++)
                    if (base_mask >> i & 1) {
                        for (int j = 0; j < 9; j++) {
                            int c = REG[9 * bt + i][j];
                            if ((uni >> j & 1) && (cands[c] & bit))
                                cells[nc++] = c;
                        }
                        lines[nl++] = 9 * bt + i;
                    }
                for (int j = 0; j < 9; j++)
                    if (uni >> j & 1)
                        lines[nl++] = 9 * ct + j;
                if (emit_s(out, KIND[degree], RATING[degree], ec, ed, ne, -1, 0, cells,
                         nc, lines, nl))
                    return -1;
                if (full_s(out))
                    return 0;
            }
        }
    }
    return 0;
}

/* ---- XY- and XYZ-wings (basic.xy_wings) --------------------------------------------- */

int xy_wings(const int *cands, int xyz, PyObject *out, Py_ssize_t limit)
{
    int target = xyz ? 3 : 2;
    for (int xy = 0; xy < 81; xy++) {
        int xyv = cands[xy];
        if (POP[xyv] != target)
            continue;
        for (int a = 0; a < 20; a++) {
            int xz = PEERLIST[xy][a], xzv = cands[xz];
            if (POP[xzv] != 2 || POP[xyv & ~xzv] != 1)
                continue;
            for (int b = 0; b < 20; b++) {
                int yz = PEERLIST[xy][b], yzv = cands[yz];
                if (POP[yzv] != 2)
                    continue;
                int uni = xyv | xzv | yzv, inter = xyv & xzv & yzv;
                if (POP[uni] != 3)
                    continue;
                if (xyz ? POP[inter] != 1 : inter != 0)
                    continue;
                int zd = lowest_digit(xzv & yzv), zbit = 1 << (zd - 1);
                u128 victims = PEER[xz] & PEER[yz];
                if (xyz)
                    victims &= PEER[xy];
                victims &= ~(BIT128(xy) | BIT128(xz) | BIT128(yz));
                u128 hit = 0;
                for (u128 v = victims; v; v &= v - 1) {
                    int c = ctz128(v);
                    if (cands[c] & zbit)
                        hit |= BIT128(c);
                }
                if (!hit)
                    continue;
                int cells[3] = {xy, xz, yz};
                if (emit(out, xyz ? K_XYZ_WING : K_XY_WING, xyz ? 4.4 : 4.2,
                         board_elims(hit, zd, NULL), -1, 0, cells, 3, NULL, 0))
                    return -1;
                if (full(out, limit))
                    return 0;
            }
        }
    }
    return 0;
}
