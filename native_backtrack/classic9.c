/* Classic 9x9 fast path: the generic solver's answers, faster, for the one model that
 * matters most in bulk work.
 *
 * Representation (the idea of JCZSolve's bands, written from scratch): the grid is three
 * bands of three rows; for each digit d and band b, F[3d+b] is a 27-bit mask of the cells
 * of the band where d may still go (bit 9*row + column).
 *
 * Propagation is driven by one rule per (digit, band) entry, run whenever the entry
 * changed: within a band a digit sits once per row and once per box, so the 3x3 "triads"
 * (row, box) holding it form a permutation, and triads on no permutation are removed by
 * one table look-up (box/line locked candidates, row and box hidden singles). A row left
 * with one cell places the digit there (the cell is removed from the other digits), and
 * a box whose cells lie in one column takes that column away from the other two bands
 * (this also carries placements down the columns). The same permutation rule across
 * the bands of a stack (column/box locked candidates, column hidden singles) and naked
 * singles (bit-parallel counting over the nine digits) run when the entry rule is
 * exhausted. Branching takes the first two-candidate cell, else the cell with the fewest
 * candidates.
 */
#define _POSIX_C_SOURCE 199309L
#include "nb.h"

#include <string.h>

#define BAND_ALL 0x7FFFFFFu
#define COLS3 0x40201u  /* column bit c -> that column in the three rows of a band */

typedef struct {
    uint32_t F[27];        /* [3*digit + band] candidate cells */
    uint32_t prev[27];     /* F as last processed by the band rule */
    uint32_t unsolved[3];  /* cells not yet placed, per band */
    uint32_t dirty;        /* bit 3*digit + band: F entry may have changed since processed */
    uint32_t stack_dirty;  /* bit digit: changed since the stack rule last looked at it */
} c9_state;

typedef struct {
    uint64_t limit, keep, count;
    uint8_t *out;
    const uint8_t *avoid;
    const nb_budget *budget;
    uint64_t nodes, guesses;
    int stop;              /* 1: limit reached, 2: budget spent */
} c9_ctx;

static uint16_t perm_triads[512];  /* triad set -> triads lying on a full permutation */
static uint32_t triad_cells[512];  /* triad set -> its 27-bit cell mask */
static uint8_t row_triads[512];    /* 9 bits of a row -> which of its 3 triads are used */
static uint16_t row_single[512];   /* 9 bits of a row -> the bit if it is alone, else 0 */
static uint16_t locked_cols[512];  /* column fold -> columns alone in their stack */
static const uint32_t spread3[8] = {0, 1, 8, 9, 64, 65, 72, 73};  /* bit j -> bit 3j */
static uint32_t peers_in_band[27]; /* cell -> its row and box in its band, itself kept */
static uint32_t unit_in_band[27]; /* cell -> its row, box and column cells in its band */
static uint8_t entry_digit[27], entry_band[27];
static const uint8_t other_band[3][2] = {{1, 2}, {0, 2}, {0, 1}};
static int initialised;

void c9_init(void)
{
    if (initialised) return;
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int t = 0; t < 512; t++) {
        uint16_t keep = 0;
        for (int p = 0; p < 6; p++) {
            uint16_t m = 0;
            for (int r = 0; r < 3; r++) m |= (uint16_t)(1u << (3 * r + perms[p][r]));
            if ((t & m) == m) keep |= m;
        }
        perm_triads[t] = keep;
        uint32_t cells = 0;
        for (int k = 0; k < 9; k++)
            if (t & (1 << k)) cells |= 7u << (9 * (k / 3) + 3 * (k % 3));
        triad_cells[t] = cells;
        row_triads[t] = (uint8_t)(((t & 7) ? 1 : 0) | ((t & 070) ? 2 : 0) | ((t & 0700) ? 4 : 0));
        row_single[t] = (uint16_t)((t && !(t & (t - 1))) ? t : 0);
        uint16_t lock = 0;
        for (int st = 0; st < 9; st += 3) {
            int g = (t >> st) & 7;
            if (g && !(g & (g - 1))) lock |= (uint16_t)(g << st);
        }
        locked_cols[t] = lock;
    }
    for (int i = 0; i < 27; i++) {
        int r = i / 9, col = i % 9;
        uint32_t box = (7u << (3 * (col / 3))) * COLS3;
        peers_in_band[i] = ~((0x1FFu << (9 * r)) | box) | (1u << i);
        unit_in_band[i] = ~peers_in_band[i] | (COLS3 << col) | (1u << i);
        entry_digit[i] = (uint8_t)(i / 3);
        entry_band[i] = (uint8_t)(i % 3);
    }
    initialised = 1;
}

/* Bit count without the popcnt instruction (the build targets any x86_64). */
static inline int pop64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

/* The entry rule for F[db] (digit db/3, band db%3); returns 0 on contradiction. */
static inline int band_rule(c9_state *s, int db)
{
    uint32_t A = s->F[db];
    if (A == s->prev[db]) return 1;
    uint32_t shrink = row_triads[A & 0x1FF] | (row_triads[(A >> 9) & 0x1FF] << 3) |
                      (row_triads[A >> 18] << 6);
    A &= triad_cells[perm_triads[shrink]];
    if (!A) return 0;
    int d = entry_digit[db], b = entry_band[db];
    s->F[db] = s->prev[db] = A;
    s->stack_dirty |= 1u << d;
    uint32_t placed = (row_single[A & 0x1FF] | (row_single[(A >> 9) & 0x1FF] << 9) |
                       ((uint32_t)row_single[A >> 18] << 18)) & s->unsolved[b];
    if (placed) {
        /* those cells are now d: no other digit may go there */
        s->unsolved[b] &= ~placed;
        uint32_t *f = s->F + b;
        uint32_t changed = 0;
        for (int k = 0; k < 27; k += 3) {  /* branch-free: the changed ones become dirty */
            uint32_t o = f[k];
            f[k] = o & ~placed;
            changed |= (uint32_t)((o & placed) != 0) << k;
        }
        f[3 * d] = A;
        s->dirty |= (changed << b) & ~(1u << db);
    }
    uint32_t lock = locked_cols[(A | A >> 9 | A >> 18) & 0x1FF];
    if (lock) {
        uint32_t cut = lock * COLS3;
        uint32_t *f = s->F + 3 * d;
        int b1 = other_band[b][0], b2 = other_band[b][1];
        uint32_t o1 = f[b1], o2 = f[b2];
        f[b1] = o1 & ~cut;
        f[b2] = o2 & ~cut;
        s->dirty |= ((uint32_t)((o1 & cut) != 0) << (3 * d + b1)) |
                    ((uint32_t)((o2 & cut) != 0) << (3 * d + b2));
    }
    return 1;
}

/* Give cell i of band b the digit d (its row and box peers in the band lose d; the entry
 * rule does the rest). */
static inline void assign(c9_state *s, int d, int b, int i)
{
    s->F[3 * d + b] &= peers_in_band[i];
    s->dirty |= 1u << (3 * d + b);
}

/* Propagate to a fixpoint; returns 0 on contradiction. */
static int propagate(c9_state *s)
{
    for (;;) {
        while (s->dirty) {
            int db = __builtin_ctz(s->dirty);
            s->dirty &= s->dirty - 1;
            if (!band_rule(s, db)) return 0;
        }
        /* naked singles and empty cells */
        int placed = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t open = s->unsolved[b];
            if (!open) continue;
            uint32_t r1 = 0, r2 = 0;
            for (int d = 0; d < 9; d++) {
                uint32_t x = s->F[3 * d + b];
                r2 |= r1 & x;
                r1 |= x;
            }
            if (open & ~r1) return 0;
            uint32_t singles = open & ~r2;
            while (singles) {
                int i = __builtin_ctz(singles);
                singles &= singles - 1;
                uint32_t bit = 1u << i;
                int d = 0;
                while (d < 9 && !(s->F[3 * d + b] & bit)) d++;
                if (d == 9) return 0;  /* emptied by a placement in this sweep */
                assign(s, d, b, i);
                placed = 1;
            }
        }
        if (placed) continue;
        /* The same permutation rule across the bands: in each stack the (column, band)
         * triads of a digit form a permutation too (column/box locked candidates, and
         * with the entry rule, column hidden singles). */
        uint32_t digits = s->stack_dirty;
        s->stack_dirty = 0;
        while (digits) {
            int d = __builtin_ctz(digits);
            digits &= digits - 1;
            uint32_t *f = s->F + 3 * d;
            uint32_t c0 = (f[0] | f[0] >> 9 | f[0] >> 18) & 0x1FF;
            uint32_t c1 = (f[1] | f[1] >> 9 | f[1] >> 18) & 0x1FF;
            uint32_t c2 = (f[2] | f[2] >> 9 | f[2] >> 18) & 0x1FF;
            for (int st = 0; st < 9; st += 3) {
                uint32_t t = spread3[(c0 >> st) & 7] | (spread3[(c1 >> st) & 7] << 1) |
                             (spread3[(c2 >> st) & 7] << 2);
                uint32_t gone = t & ~perm_triads[t];
                if (!gone) continue;
                if (gone == t) return 0;
                while (gone) {
                    int k = __builtin_ctz(gone);
                    gone &= gone - 1;
                    int j = k / 3, b = k - 3 * j;
                    f[b] &= ~(COLS3 << (st + j));
                    s->dirty |= 1u << (3 * d + b);
                }
            }
        }
        if (!s->dirty) return 1;
    }
}

static void extract(const c9_state *s, uint8_t *out)
{
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++) {
            uint32_t x = s->F[3 * d + b];
            while (x) {
                int i = __builtin_ctz(x);
                x &= x - 1;
                out[27 * b + i] = (uint8_t)(d + 1);
            }
        }
}

static int budget_spent(c9_ctx *ctx)
{
    const nb_budget *b = ctx->budget;
    if (!b) return 0;
    if (b->nodes_limit && ctx->nodes >= b->nodes_limit) return 1;
    if (b->deadline > 0 && (ctx->nodes & 1023) == 0 && nb_now() > b->deadline) return 1;
    return 0;
}

static void solved(c9_state *s, c9_ctx *ctx)
{
    uint8_t grid[81];
    extract(s, grid);
    if (ctx->avoid && memcmp(grid, ctx->avoid, 81) == 0) return;
    if (ctx->count < ctx->keep && ctx->out) memcpy(ctx->out + 81 * ctx->count, grid, 81);
    if (++ctx->count >= ctx->limit) ctx->stop = 1;
}

/* s is propagated and consistent. */
static void search(c9_state *s, c9_ctx *ctx)
{
    if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
        solved(s, ctx);
        return;
    }
    /* Pick a cell: among the two-candidate cells the one whose digits have the most
     * candidates left in its row, column and box (the choice that removes the most, on
     * either branch); with no such cell, the one with the fewest candidates. */
    int best_b = -1, best_i = -1;
    uint32_t biv[3];
    for (int b = 0; b < 3; b++) {
        uint32_t a = 0, c2 = 0, c3 = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t x = s->F[3 * d + b];
            c3 |= c2 & x;
            c2 |= a & x;
            a |= x;
        }
        biv[b] = s->unsolved[b] & c2 & ~c3;
    }
    if (biv[0] | biv[1] | biv[2]) {
        uint8_t score[81];
        memset(score, 0, sizeof score);
        for (int d = 0; d < 9; d++) {
            const uint32_t *f = s->F + 3 * d;
            for (int b = 0; b < 3; b++) {
                uint32_t x = f[b] & biv[b];
                while (x) {
                    int i = __builtin_ctz(x);
                    x &= x - 1;
                    uint32_t col = COLS3 << (i % 9);
                    uint32_t across = (f[other_band[b][0]] & col) | ((f[other_band[b][1]] & col) << 1);
                    score[27 * b + i] += (uint8_t)pop64((uint64_t)(f[b] & unit_in_band[i]) |
                                                        ((uint64_t)across << 27));
                }
            }
        }
        int best = -1;
        for (int b = 0; b < 3; b++) {
            uint32_t x = biv[b];
            while (x) {
                int i = __builtin_ctz(x);
                x &= x - 1;
                if (score[27 * b + i] > best) {
                    best = score[27 * b + i];
                    best_b = b;
                    best_i = i;
                }
            }
        }
    }
    if (best_b < 0) {
        int bestc = 10;
        for (int b = 0; b < 3 && bestc > 3; b++) {
            uint32_t open = s->unsolved[b];
            while (open) {
                int i = __builtin_ctz(open);
                open &= open - 1;
                int cnt = 0;
                for (int d = 0; d < 9; d++) cnt += (s->F[3 * d + b] >> i) & 1;
                if (cnt < bestc) {
                    bestc = cnt;
                    best_b = b;
                    best_i = i;
                    if (cnt <= 3) break;
                }
            }
        }
    }
    ctx->guesses++;
    uint32_t bit = 1u << best_i;
    int digits[9], nd = 0;
    for (int d = 0; d < 9; d++)
        if (s->F[3 * d + best_b] & bit) digits[nd++] = d;
    for (int k = 0; k < nd; k++) {
        if (budget_spent(ctx)) {
            ctx->stop = 2;
            return;
        }
        ctx->nodes++;
        if (k == nd - 1) {  /* last alternative: reuse this frame's state */
            assign(s, digits[k], best_b, best_i);
            if (propagate(s)) search(s, ctx);
            return;
        }
        c9_state t = *s;
        assign(&t, digits[k], best_b, best_i);
        if (propagate(&t)) {
            search(&t, ctx);
            if (ctx->stop) return;
        }
    }
}

int c9_solve(const uint8_t *givens, const int32_t *forbidden, int nforbidden,
             const uint8_t *avoid, uint64_t limit, uint8_t *out, uint64_t keep,
             const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    c9_ctx ctx = {limit, keep, 0, out, avoid, budget, 1, 0, 0};
    c9_state s;
    *count = 0;
    st->nodes = st->guesses = 0;
    if (limit == 0) return NB_LIMIT;
    for (int k = 0; k < 27; k++) {
        s.F[k] = BAND_ALL;
        s.prev[k] = 0xFFFFFFFFu;
    }
    for (int b = 0; b < 3; b++) s.unsolved[b] = BAND_ALL;
    s.dirty = BAND_ALL;
    s.stack_dirty = 0x1FF;
    for (int k = 0; k < nforbidden; k++) {
        int c = forbidden[2 * k], d = forbidden[2 * k + 1];
        if (c >= 0 && c < 81 && d >= 1 && d <= 9) s.F[3 * (d - 1) + c / 27] &= ~(1u << (c % 27));
    }
    int ok = 1;
    for (int c = 0; c < 81 && ok; c++) {
        if (!givens[c]) continue;
        int d = givens[c] - 1, b = c / 27, i = c % 27;
        uint32_t bit = 1u << i;
        if (!(s.F[3 * d + b] & bit)) {  /* forbidden or already excluded */
            ok = 0;
            break;
        }
        /* a full placement, so that clashing givens show at once */
        for (int d2 = 0; d2 < 9; d2++) s.F[3 * d2 + b] &= ~bit;
        s.F[3 * d + b] |= bit;
        s.F[3 * d + b] &= peers_in_band[i];
        for (int b2 = 0; b2 < 3; b2++)
            if (b2 != b) s.F[3 * d + b2] &= ~(COLS3 << (i % 9));
    }
    if (budget && budget->deadline > 0 && nb_now() > budget->deadline) {
        st->nodes = 0;
        return NB_BUDGET;
    }
    if (ok && propagate(&s)) search(&s, &ctx);
    *count = ctx.count;
    st->nodes = ctx.nodes;
    st->guesses = ctx.guesses;
    if (ctx.stop == 1) return NB_LIMIT;
    if (ctx.stop == 2) return NB_BUDGET;
    return NB_EXHAUSTED;
}
