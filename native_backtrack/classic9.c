/* Classic 9x9 fast path: the generic solver's answers, faster, for the one model that
 * matters most in bulk work.
 *
 * Representation (the idea of JCZSolve's bands, written from scratch): the grid is three
 * bands of three rows; for each digit d and band b, F[3d+b] is a 27-bit mask of the cells
 * of the band where d may still go (bit 9*row + column). Within a band each digit sits
 * once per row and once per box, so the 3x3 "triads" (row, box) holding a digit form a
 * permutation: triads that belong to no permutation are removed by one table look-up
 * (this is box/line locked candidates), and a row left with one cell places the digit
 * (row and box hidden singles). Cells with a single digit left (naked singles) are found
 * with bit-parallel counting over the nine digits; column hidden singles from the three
 * bands' column folds. Branching takes a two-candidate cell
 * when there is one, else the cell with the fewest candidates.
 */
#define _POSIX_C_SOURCE 199309L
#include "nb.h"

#include <string.h>

#define BAND_ALL 0x7FFFFFFu

typedef struct {
    uint32_t F[27];        /* [3*digit + band] candidate cells */
    uint32_t prev[27];     /* F as last processed by the band rule */
    uint32_t unsolved[3];  /* cells not yet placed, per band */
    uint32_t rows[3];      /* per band: bit 3*digit + row set while that row lacks digit */
    uint32_t dirty;        /* bit 3*digit + band: F entry changed since the band rule ran */
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
static const uint32_t spread3[8] = {0, 1, 8, 9, 64, 65, 72, 73};  /* bit j -> bit 3j */
static uint32_t row_mask[3], box_mask[3], col_mask[9];
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
    }
    for (int r = 0; r < 3; r++) row_mask[r] = 0x1FFu << (9 * r);
    for (int k = 0; k < 3; k++) box_mask[k] = (7u << (3 * k)) * 0x40201u;  /* 3 rows */
    for (int c = 0; c < 9; c++) col_mask[c] = (1u << c) * 0x40201u;
    initialised = 1;
}

/* Place digit d (0-based) in band b at bit i. */
static inline void place(c9_state *s, int d, int b, int i)
{
    int r = i / 9, col = i - 9 * r;
    uint32_t bit = 1u << i;
    uint32_t own = (s->F[3 * d + b] & ~(row_mask[r] | box_mask[col / 3])) | bit;
    for (int d2 = 0; d2 < 9; d2++) s->F[3 * d2 + b] &= ~bit;
    s->F[3 * d + b] = own;
    for (int b2 = 0; b2 < 3; b2++)
        if (b2 != b) s->F[3 * d + b2] &= ~col_mask[col];
    s->unsolved[b] &= ~bit;
    s->rows[b] &= ~(1u << (3 * d + r));
    s->dirty |= (7u << (3 * d)) | (0x1249249u << b);
}

/* Propagate to a fixpoint; returns 0 on contradiction. */
static int propagate(c9_state *s)
{
    for (;;) {
        while (s->dirty) {
            int db = __builtin_ctz(s->dirty);
            s->dirty &= s->dirty - 1;
            uint32_t S = s->F[db];
            if (S == s->prev[db]) continue;
            uint32_t shrink = row_triads[S & 0x1FF] | (row_triads[(S >> 9) & 0x1FF] << 3) |
                              (row_triads[S >> 18] << 6);
            S &= triad_cells[perm_triads[shrink]];
            if (!S) return 0;
            s->F[db] = S;
            s->prev[db] = S;
            int d = db / 3, b = db - 3 * d;
            uint32_t open_rows = (s->rows[b] >> (3 * d)) & 7;
            while (open_rows) {
                int r = __builtin_ctz(open_rows);
                open_rows &= open_rows - 1;
                uint32_t rb = (s->F[db] >> (9 * r)) & 0x1FF;
                if (!rb) return 0;
                if (!(rb & (rb - 1))) place(s, d, b, 9 * r + __builtin_ctz(rb));
            }
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
                place(s, d, b, i);
                placed = 1;
            }
        }
        if (placed) continue;
        /* The same rule across the bands: in each stack the (column, band) triads of a
         * digit form a permutation too (column/box locked candidates); then hidden
         * singles in columns. */
        int narrowed = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t *f = s->F + 3 * d;
            uint32_t c0 = (f[0] | f[0] >> 9 | f[0] >> 18) & 0x1FF;
            uint32_t c1 = (f[1] | f[1] >> 9 | f[1] >> 18) & 0x1FF;
            uint32_t c2 = (f[2] | f[2] >> 9 | f[2] >> 18) & 0x1FF;
            if ((c0 | c1 | c2) != 0x1FF) return 0;
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
                    f[b] &= ~col_mask[st + j];
                    s->dirty |= 1u << (3 * d + b);
                }
                narrowed = 1;
                c0 = (f[0] | f[0] >> 9 | f[0] >> 18) & 0x1FF;
                c1 = (f[1] | f[1] >> 9 | f[1] >> 18) & 0x1FF;
                c2 = (f[2] | f[2] >> 9 | f[2] >> 18) & 0x1FF;
            }
            uint32_t only[3] = {c0 & ~(c1 | c2), c1 & ~(c0 | c2), c2 & ~(c0 | c1)};
            for (int b = 0; b < 3; b++) {
                uint32_t cand = only[b];
                if (!cand) continue;
                uint32_t done = f[b] & ~s->unsolved[b];
                cand &= ~((done | done >> 9 | done >> 18) & 0x1FF);
                while (cand) {
                    int c = __builtin_ctz(cand);
                    cand &= cand - 1;
                    uint32_t cells = (f[b] >> c) & 0x40201u;
                    if (!cells) return 0;
                    if (!(cells & (cells - 1))) {
                        place(s, d, b, c + 9 * (__builtin_ctz(cells) / 9));
                        placed = 1;
                    }
                }
            }
        }
        if (narrowed) continue;
        if (!placed) return 1;
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
    /* pick a cell: two candidates if any, else the fewest */
    int best_b = -1, best_i = -1;
    uint32_t r1[3], r2[3], r3[3];
    for (int b = 0; b < 3; b++) {
        uint32_t a = 0, c2 = 0, c3 = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t x = s->F[3 * d + b];
            c3 |= c2 & x;
            c2 |= a & x;
            a |= x;
        }
        r1[b] = a; r2[b] = c2; r3[b] = c3;
        uint32_t biv = s->unsolved[b] & c2 & ~c3;
        if (biv) {
            best_b = b;
            best_i = __builtin_ctz(biv);
            break;
        }
    }
    (void)r1; (void)r2;
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
    (void)r3;
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
            place(s, digits[k], best_b, best_i);
            if (propagate(s)) search(s, ctx);
            return;
        }
        c9_state t = *s;
        place(&t, digits[k], best_b, best_i);
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
    for (int b = 0; b < 3; b++) s.unsolved[b] = s.rows[b] = BAND_ALL;
    s.dirty = BAND_ALL;
    for (int k = 0; k < nforbidden; k++) {
        int c = forbidden[2 * k], d = forbidden[2 * k + 1];
        if (c >= 0 && c < 81 && d >= 1 && d <= 9) s.F[3 * (d - 1) + c / 27] &= ~(1u << (c % 27));
    }
    int ok = 1;
    for (int c = 0; c < 81 && ok; c++) {
        if (!givens[c]) continue;
        int d = givens[c] - 1, b = c / 27, i = c % 27;
        if (!(s.F[3 * d + b] & (1u << i))) ok = 0;  /* forbidden or already excluded */
        else place(&s, d, b, i);
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
