/* Classic 9x9 fast path: the generic solver's answers, faster, for the one model that
 * matters most in bulk work.
 *
 * Representation (the idea of JCZSolve's bands, written from scratch): the grid is three
 * bands of three rows; for each digit d and band b, F[9b+d] is a 27-bit mask of the cells
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
 * exhausted.
 *
 * Branching takes the two-candidate cell whose two digits have the most candidates left
 * in its row, column and box, i.e. the guess that removes the most on either branch
 * (halves the guesses on the hardest sets against "first two-candidate cell"); with no
 * two-candidate cell, the cell with the fewest candidates.
 *
 * A band's nine entries sit side by side, so the few band-wide steps (dropping placed
 * cells from every digit, counting candidates per cell, finding a cell's digits) use
 * SSE2, which every x86_64 has; other machines take the plain C loops next to them.
 *
 * Runtime CPU dispatch: the build targets any x86_64 (no -march flag), yet the search
 * gains from popcnt and the VEX encodings. So the search (everything from remove_cells to
 * solve_body below) is compiled once per instruction set by including this file into
 * itself with C9_VARIANT set: "c" (plain C: what non-x86 machines run, kept on x86 so
 * that it is tested there), "sse2" (any x86_64), "popcnt" (SSE4.2 + popcnt) and "avx2"
 * (AVX2, BMI1/2, popcnt), the latter two through __attribute__((target)). c9_init picks
 * the best one the running CPU supports (__builtin_cpu_supports); the environment
 * variable SUDOKU_NATIVE_ISA=c|sse2|popcnt|avx2 read at that moment, or c9_set_isa,
 * chooses a lower one. Every variant runs the same algorithm: same counts, solutions,
 * nodes and guesses (tests/native_backtrack/test_classic9_isa.py).
 */
#ifndef C9_VARIANT
#define _POSIX_C_SOURCE 199309L
#include "nb.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define C9_X86 1
#include <immintrin.h>
#else
#define C9_X86 0
#endif

#define BAND_ALL 0x7FFFFFFu
#define COLS3 0x40201u  /* column bit c -> that column in the three rows of a band */
#define AT(d, b) (9 * (b) + (d))  /* index of digit d, band b in F */

typedef struct {
    uint32_t F[27];        /* [9*band + digit] candidate cells (a band's digits side by side) */
    uint32_t unsolved[3];  /* cells not yet placed, per band */
    uint32_t dirty;        /* bit 9*band + digit: F entry may have changed since processed */
    uint32_t stack_dirty;  /* bit digit: changed since the stack rule last looked at it */
    uint16_t locked[27];   /* columns already taken from the other bands by this entry */
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
static uint32_t perm_cells[512];   /* triad set -> cells of the triads on a permutation */
static uint16_t row_triads[3][512]; /* bits of row r -> which of its triads are used, << 3r */
static uint32_t row_single[3][512]; /* bits of row r -> the cell if it is alone, else 0 */
static uint16_t locked_cols[512];  /* column fold -> columns alone in their stack */
static const uint32_t spread3[8] = {0, 1, 8, 9, 64, 65, 72, 73};  /* bit j -> bit 3j */
static uint32_t peers_in_band[27]; /* cell -> its row and box in its band, itself kept */
static uint32_t unit_in_band[27]; /* cell -> its row, box and column cells in its band */
static uint32_t col_cells[27];    /* cell -> its column in its band */
static uint8_t entry_digit[27], entry_band[27];
static const uint8_t other_band[3][2] = {{1, 2}, {0, 2}, {0, 1}};
static int initialised;
static void c9_choose_isa(void);

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
        uint32_t used = ((t & 7) ? 1u : 0) | ((t & 070) ? 2u : 0) | ((t & 0700) ? 4u : 0);
        uint32_t alone = (t && !(t & (t - 1))) ? (uint32_t)t : 0;
        for (int r = 0; r < 3; r++) {
            row_triads[r][t] = (uint16_t)(used << (3 * r));
            row_single[r][t] = alone << (9 * r);
        }
        uint16_t lock = 0;
        for (int st = 0; st < 9; st += 3) {
            int g = (t >> st) & 7;
            if (g && !(g & (g - 1))) lock |= (uint16_t)(g << st);
        }
        locked_cols[t] = lock;
    }
    for (int t = 0; t < 512; t++) perm_cells[t] = triad_cells[perm_triads[t]];
    for (int i = 0; i < 27; i++) {
        int r = i / 9, col = i % 9;
        uint32_t box = (7u << (3 * (col / 3))) * COLS3;
        peers_in_band[i] = ~((0x1FFu << (9 * r)) | box) | (1u << i);
        unit_in_band[i] = ~peers_in_band[i] | (COLS3 << col) | (1u << i);
        col_cells[i] = COLS3 << col;
        entry_digit[i] = (uint8_t)(i % 9);
        entry_band[i] = (uint8_t)(i / 9);
    }
    c9_choose_isa();
    initialised = 1;
}

/* The poll itself, out of the search's way (see budget_spent). */
static __attribute__((noinline)) int budget_poll(const nb_budget *b)
{
    if (nb_interrupted()) return 3;
    if (b && b->deadline > 0 && nb_now() > b->deadline) return 2;
    return 0;
}


/* One solve_body per instruction set (see the head comment). */
typedef int (*c9_solve_fn)(const uint8_t *, const int32_t *, int, const uint8_t *, uint64_t,
                           uint8_t *, uint64_t, const nb_budget *, uint64_t *, nb_stats *);

#define C9_CAT2(a, b) a##_##b
#define C9_CAT(a, b) C9_CAT2(a, b)
#define C9_FN(name) C9_CAT(name, C9_VARIANT)

#define C9_VARIANT c
#define C9_SIMD 0
#define C9_POPCNT 0
#define C9_TARGET
#include "classic9.c"
#undef C9_VARIANT
#undef C9_SIMD
#undef C9_POPCNT
#undef C9_TARGET

#if C9_X86
#define C9_VARIANT sse2
#define C9_SIMD 1
#define C9_POPCNT 0
#define C9_TARGET
#include "classic9.c"
#undef C9_VARIANT
#undef C9_SIMD
#undef C9_POPCNT
#undef C9_TARGET

#define C9_VARIANT popcnt
#define C9_SIMD 1
#define C9_POPCNT 1
#define C9_TARGET __attribute__((target("popcnt,sse4.2")))
#include "classic9.c"
#undef C9_VARIANT
#undef C9_SIMD
#undef C9_POPCNT
#undef C9_TARGET

#define C9_VARIANT avx2
#define C9_SIMD 1
#define C9_POPCNT 1
#define C9_TARGET __attribute__((target("popcnt,sse4.2,avx2,bmi,bmi2")))
#include "classic9.c"
#undef C9_VARIANT
#undef C9_SIMD
#undef C9_POPCNT
#undef C9_TARGET
#endif

/* The variants, lowest first; `usable` is filled by c9_init. */
static struct {
    const char *name;
    c9_solve_fn fn;
    int usable;
} c9_variants[] = {
    {"c", solve_body_c, 1},
#if C9_X86
    {"sse2", solve_body_sse2, 1},
    {"popcnt", solve_body_popcnt, 0},
    {"avx2", solve_body_avx2, 0},
#endif
};
#define C9_NVARIANTS ((int)(sizeof c9_variants / sizeof c9_variants[0]))
static int c9_current = C9_NVARIANTS - 1 - 2 * C9_X86;  /* sse2 on x86_64, else c */

int c9_set_isa(const char *name)
{
    for (int k = 0; k < C9_NVARIANTS; k++)
        if (strcmp(name, c9_variants[k].name) == 0) {
            if (!c9_variants[k].usable) return 0;
            __atomic_store_n(&c9_current, k, __ATOMIC_RELAXED);
            return 1;
        }
    return 0;
}

const char *c9_isa(void) { return c9_variants[__atomic_load_n(&c9_current, __ATOMIC_RELAXED)].name; }

static void c9_choose_isa(void)
{
#if C9_X86
    __builtin_cpu_init();
    int popcnt = __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse4.2");
    c9_variants[2].usable = popcnt;
    c9_variants[3].usable = popcnt && __builtin_cpu_supports("avx2") &&
                            __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#endif
    int best = 0;
    for (int k = 0; k < C9_NVARIANTS; k++)
        if (c9_variants[k].usable) best = k;
    c9_current = best;
    const char *env = getenv("SUDOKU_NATIVE_ISA");
    if (!env || !*env) return;
    /* a lower variant only: asking for more than the CPU has keeps the best it has */
    for (int k = 0; k < best; k++)
        if (strcmp(env, c9_variants[k].name) == 0) c9_current = k;
}

/* nb_check_givens for the classic 9x9 model, with a digit mask per row, column and box
 * instead of the generic peer lists (a visible share of the time per puzzle on easy
 * lists): NB_INVALID for a value over 9, else NB_CONTRADICTORY for two equal givens in a
 * unit, else 0. */
static int c9_check_givens(const uint8_t *g)
{
    uint8_t top = 0;
    for (int c = 0; c < 81; c++) top |= (uint8_t)(g[c] > 9);
    if (top) return NB_INVALID;
    /* no branch on blank cells (which a 17-clue grid mispredicts about once per clue): a
     * blank's bit 0 is masked off and never clashes */
    uint32_t row[9] = {0}, col[9] = {0}, box[9] = {0}, clash = 0;
    for (int r = 0; r < 9; r++)
        for (int k = 0; k < 9; k++) {
            int x = (r / 3) * 3 + k / 3;
            uint32_t bit = (1u << g[9 * r + k]) & ~1u;
            clash |= (row[r] | col[k] | box[x]) & bit;
            row[r] |= bit;
            col[k] |= bit;
            box[x] |= bit;
        }
    return clash ? NB_CONTRADICTORY : 0;
}

int c9_solve(const uint8_t *givens, const int32_t *forbidden, int nforbidden,
             const uint8_t *avoid, uint64_t limit, uint8_t *out, uint64_t keep,
             const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    int bad = c9_check_givens(givens);
    if (bad) {
        *count = 0;
        st->nodes = st->guesses = 0;
        return bad;
    }
    c9_solve_fn fn = c9_variants[__atomic_load_n(&c9_current, __ATOMIC_RELAXED)].fn;
    return fn(givens, forbidden, nforbidden, avoid, limit, out, keep, budget, count, st);
}

#else /* C9_VARIANT: the search, compiled once per variant */

/* Remove `cells` from the nine entries g[0..8] of a band; returns the bits of those that
 * changed. */
C9_TARGET static inline uint32_t C9_FN(remove_cells)(uint32_t *g, uint32_t cells)
{
#if C9_SIMD
    __m128i c = _mm_set1_epi32((int)cells), zero = _mm_setzero_si128();
    __m128i v0 = _mm_loadu_si128((const __m128i *)g);
    __m128i v1 = _mm_loadu_si128((const __m128i *)(g + 4));
    _mm_storeu_si128((__m128i *)g, _mm_andnot_si128(c, v0));
    _mm_storeu_si128((__m128i *)(g + 4), _mm_andnot_si128(c, v1));
    uint32_t same = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
                        _mm_cmpeq_epi32(_mm_and_si128(v0, c), zero))) |
                    ((uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
                        _mm_cmpeq_epi32(_mm_and_si128(v1, c), zero))) << 4);
    uint32_t o = g[8];
    g[8] = o & ~cells;
    return (~same & 0xFF) | ((uint32_t)((o & cells) != 0) << 8);
#else
    uint32_t changed = 0;
    for (int k = 0; k < 9; k++) {
        uint32_t o = g[k];
        g[k] = o & ~cells;
        changed |= (uint32_t)((o & cells) != 0) << k;
    }
    return changed;
#endif
}

/* The digits (bit d) whose entry g[d] in a band holds `cell`. */
C9_TARGET static inline uint32_t C9_FN(digits_at)(const uint32_t *g, uint32_t cell)
{
#if C9_SIMD
    __m128i c = _mm_set1_epi32((int)cell), zero = _mm_setzero_si128();
    __m128i v0 = _mm_loadu_si128((const __m128i *)g);
    __m128i v1 = _mm_loadu_si128((const __m128i *)(g + 4));
    uint32_t none = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
                        _mm_cmpeq_epi32(_mm_and_si128(v0, c), zero))) |
                    ((uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
                        _mm_cmpeq_epi32(_mm_and_si128(v1, c), zero))) << 4);
    return (~none & 0xFF) | ((uint32_t)((g[8] & cell) != 0) << 8);
#else
    uint32_t dm = 0;
    for (int d = 0; d < 9; d++) dm |= (uint32_t)((g[d] & cell) != 0) << d;
    return dm;
#endif
}

/* For the nine entries of a band: the cells with at least one, two, three candidates. */
C9_TARGET static inline void C9_FN(count_digits)(const uint32_t *g, uint32_t *one, uint32_t *two, uint32_t *three)
{
#if C9_SIMD
    /* lanes k hold digits k, k+4 (and 8 in lane 0), then the lanes are merged pairwise */
    __m128i v0 = _mm_loadu_si128((const __m128i *)g);
    __m128i v1 = _mm_loadu_si128((const __m128i *)(g + 4));
    __m128i v2 = _mm_cvtsi32_si128((int)g[8]);
    __m128i a1 = _mm_or_si128(v0, v1), a2 = _mm_and_si128(v0, v1);
    __m128i a3 = _mm_and_si128(a2, v2);
    a2 = _mm_or_si128(a2, _mm_and_si128(a1, v2));
    a1 = _mm_or_si128(a1, v2);
    for (int step = 0; step < 2; step++) {
        __m128i b1, b2, b3;
        if (step == 0) {
            b1 = _mm_shuffle_epi32(a1, 0x4E);
            b2 = _mm_shuffle_epi32(a2, 0x4E);
            b3 = _mm_shuffle_epi32(a3, 0x4E);
        } else {
            b1 = _mm_shuffle_epi32(a1, 0xB1);
            b2 = _mm_shuffle_epi32(a2, 0xB1);
            b3 = _mm_shuffle_epi32(a3, 0xB1);
        }
        a3 = _mm_or_si128(_mm_or_si128(a3, b3),
                          _mm_or_si128(_mm_and_si128(a2, b1), _mm_and_si128(a1, b2)));
        a2 = _mm_or_si128(_mm_or_si128(a2, b2), _mm_and_si128(a1, b1));
        a1 = _mm_or_si128(a1, b1);
    }
    *one = (uint32_t)_mm_cvtsi128_si32(a1);
    *two = (uint32_t)_mm_cvtsi128_si32(a2);
    *three = (uint32_t)_mm_cvtsi128_si32(a3);
#else
    uint32_t c1 = 0, c2 = 0, c3 = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t x = g[d];
        c3 |= c2 & x;
        c2 |= c1 & x;
        c1 |= x;
    }
    *one = c1;
    *two = c2;
    *three = c3;
#endif
}

/* Bit count: the instruction where the variant has it, else without (the build targets
 * any x86_64, where __builtin_popcountll would be a libgcc call). */
C9_TARGET static inline int C9_FN(pop64)(uint64_t x)
{
#if C9_POPCNT
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* The entry rule for F[db] (digit db%9, band db/9); returns 0 on contradiction. */
C9_TARGET static inline int C9_FN(band_rule)(c9_state *s, int db)
{
    uint32_t A = s->F[db];
    A &= perm_cells[row_triads[0][A & 0x1FF] | row_triads[1][(A >> 9) & 0x1FF] |
                    row_triads[2][A >> 18]];
    if (!A) return 0;
    int d = entry_digit[db], b = entry_band[db];
    s->F[db] = A;
    s->stack_dirty |= 1u << d;
    uint32_t placed = (row_single[0][A & 0x1FF] | row_single[1][(A >> 9) & 0x1FF] |
                       row_single[2][A >> 18]) & s->unsolved[b];
    if (placed) {
        /* those cells are now d: no other digit may go there */
        s->unsolved[b] &= ~placed;
        s->dirty |= (C9_FN(remove_cells)(s->F + 9 * b, placed) << (9 * b)) & ~(1u << db);
        s->F[db] = A;
    }
    /* candidates only shrink: columns taken away once never come back */
    uint32_t lock = locked_cols[(A | A >> 9 | A >> 18) & 0x1FF] & ~(uint32_t)s->locked[db];
    if (lock) {
        s->locked[db] |= (uint16_t)lock;
        uint32_t cut = lock * COLS3;
        int e1 = AT(d, other_band[b][0]), e2 = AT(d, other_band[b][1]);
        uint32_t o1 = s->F[e1], o2 = s->F[e2];
        s->F[e1] = o1 & ~cut;
        s->F[e2] = o2 & ~cut;
        s->dirty |= ((uint32_t)((o1 & cut) != 0) << e1) | ((uint32_t)((o2 & cut) != 0) << e2);
    }
    return 1;
}

/* Give cell i of band b the digit d (its row and box peers in the band lose d; the entry
 * rule does the rest). */
C9_TARGET static inline void C9_FN(assign)(c9_state *s, int d, int b, int i)
{
    s->F[AT(d, b)] &= peers_in_band[i];
    s->dirty |= 1u << AT(d, b);
}

/* Propagate to a fixpoint; returns 0 on contradiction. On success biv[b] holds the
 * two-candidate cells of band b. */
C9_TARGET static int C9_FN(propagate)(c9_state *s, uint32_t *biv)
{
    for (;;) {
        while (s->dirty) {
            int db = __builtin_ctz(s->dirty);
            s->dirty &= s->dirty - 1;
            if (!C9_FN(band_rule)(s, db)) return 0;
        }
        /* naked singles and empty cells */
        int placed = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t open = s->unsolved[b];
            biv[b] = 0;
            if (!open) continue;
            uint32_t r1, r2, r3;
            C9_FN(count_digits)(s->F + 9 * b, &r1, &r2, &r3);
            if (open & ~r1) return 0;
            /* the two-candidate cells, for the search: the grid is not changed again
             * after the last sweep when propagate succeeds */
            biv[b] = open & r2 & ~r3;
            uint32_t singles = open & ~r2;
            while (singles) {
                int i = __builtin_ctz(singles);
                singles &= singles - 1;
                uint32_t bit = 1u << i;
                int d = 0;
                while (d < 9 && !(s->F[AT(d, b)] & bit)) d++;
                if (d == 9) return 0;  /* emptied by a placement in this sweep */
                C9_FN(assign)(s, d, b, i);
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
            uint32_t *f = s->F + d;  /* f[9*b]: band b */
            uint32_t c0 = (f[0] | f[0] >> 9 | f[0] >> 18) & 0x1FF;
            uint32_t c1 = (f[9] | f[9] >> 9 | f[9] >> 18) & 0x1FF;
            uint32_t c2 = (f[18] | f[18] >> 9 | f[18] >> 18) & 0x1FF;
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
                    f[9 * b] &= ~(COLS3 << (st + j));
                    s->dirty |= 1u << AT(d, b);
                }
            }
        }
        if (!s->dirty) return 1;
    }
}

C9_TARGET static void C9_FN(extract)(const c9_state *s, uint8_t *out)
{
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++) {
            uint32_t x = s->F[AT(d, b)];
            while (x) {
                int i = __builtin_ctz(x);
                x &= x - 1;
                out[27 * b + i] = (uint8_t)(d + 1);
            }
        }
}

/* 0 to go on, else the ctx->stop code (2 budget, 3 interrupted); polled as in generic.c.
 * Kept small enough to inline: the search calls it before every alternative. */
C9_TARGET static inline int C9_FN(budget_spent)(c9_ctx *ctx)
{
    const nb_budget *b = ctx->budget;
    if (b && b->nodes_limit && ctx->nodes >= b->nodes_limit) return 2;
    if ((ctx->nodes & (NB_POLL_NODES - 1)) != 0) return 0;
    return budget_poll(b);
}

C9_TARGET static void C9_FN(solved)(c9_state *s, c9_ctx *ctx)
{
    /* the grid is read out only when it is kept or compared (a count to 2 keeps one) */
    int kept = ctx->count < ctx->keep && ctx->out;
    if (ctx->avoid) {
        uint8_t grid[81];
        C9_FN(extract)(s, grid);
        if (memcmp(grid, ctx->avoid, 81) == 0) return;
        if (kept) memcpy(ctx->out + 81 * ctx->count, grid, 81);
    } else if (kept) {
        C9_FN(extract)(s, ctx->out + 81 * ctx->count);
    }
    if (++ctx->count >= ctx->limit) ctx->stop = 1;
}

/* s is propagated and consistent; biv[b]: its two-candidate cells in band b, as the
 * propagation's last sweep found them (saves counting them again). */
C9_TARGET static void C9_FN(search)(c9_state *s, c9_ctx *ctx, const uint32_t *biv)
{
    if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
        C9_FN(solved)(s, ctx);
        return;
    }
    /* Pick a cell: among the two-candidate cells the one whose digits have the most
     * candidates left in its row, column and box (the choice that removes the most, on
     * either branch); with no such cell, the one with the fewest candidates. */
    int best_b = -1, best_i = -1;
    if (biv[0] | biv[1] | biv[2]) {
        int best = -1;
        for (int b = 0; b < 3; b++) {
            const uint32_t *g = s->F + 9 * b;
            const uint32_t *g1 = s->F + 9 * other_band[b][0], *g2 = s->F + 9 * other_band[b][1];
            uint32_t x = biv[b];
            while (x) {
                int i = __builtin_ctz(x);
                x &= x - 1;
                uint32_t dm = C9_FN(digits_at)(g, 1u << i);
                int d1 = __builtin_ctz(dm), d2 = __builtin_ctz(dm & (dm - 1));
                uint32_t unit = unit_in_band[i], col = col_cells[i];
                uint32_t across = (g1[d1] & col) | ((g2[d1] & col) << 1) |
                                  ((g1[d2] & col) << 2) | ((g2[d2] & col) << 3);
                int score = C9_FN(pop64)((uint64_t)(g[d1] & unit) | ((uint64_t)(g[d2] & unit) << 27)) +
                            C9_FN(pop64)(across);
                if (score > best) {
                    best = score;
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
                for (int d = 0; d < 9; d++) cnt += (s->F[AT(d, b)] >> i) & 1;
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
    for (uint32_t dm = C9_FN(digits_at)(s->F + 9 * best_b, bit); dm; dm &= dm - 1)
        digits[nd++] = __builtin_ctz(dm);
    uint32_t nbiv[3];
    for (int k = 0; k < nd; k++) {
        int stop = C9_FN(budget_spent)(ctx);
        if (stop) {
            ctx->stop = stop;
            return;
        }
        ctx->nodes++;
        if (k == nd - 1) {  /* last alternative: reuse this frame's state */
            C9_FN(assign)(s, digits[k], best_b, best_i);
            if (C9_FN(propagate)(s, nbiv)) C9_FN(search)(s, ctx, nbiv);
            return;
        }
        c9_state t = *s;
        C9_FN(assign)(&t, digits[k], best_b, best_i);
        if (C9_FN(propagate)(&t, nbiv)) {
            C9_FN(search)(&t, ctx, nbiv);
            if (ctx->stop) return;
        }
    }
}

/* c9_solve for this variant. */
C9_TARGET static int C9_FN(solve_body)(const uint8_t *givens, const int32_t *forbidden,
                                       int nforbidden, const uint8_t *avoid, uint64_t limit,
                                       uint8_t *out, uint64_t keep, const nb_budget *budget,
                                       uint64_t *count, nb_stats *st)
{
    c9_ctx ctx = {limit, keep, 0, out, avoid, budget, 1, 0, 0};
    c9_state s;
    *count = 0;
    st->nodes = st->guesses = 0;
    if (limit == 0) return NB_LIMIT;
    for (int k = 0; k < 27; k++) {
        s.F[k] = BAND_ALL;
        s.locked[k] = 0;
    }
    for (int b = 0; b < 3; b++) s.unsolved[b] = BAND_ALL;
    s.dirty = BAND_ALL;
    s.stack_dirty = 0x1FF;
    for (int k = 0; k < nforbidden; k++) {
        int c = forbidden[2 * k], d = forbidden[2 * k + 1];
        if (c >= 0 && c < 81 && d >= 1 && d <= 9) s.F[AT(d - 1, c / 27)] &= ~(1u << (c % 27));
    }
    /* The givens by digit and band, gathered without a branch per cell (c9_solve has
     * checked that no two clash), then placed with whole-mask operations. */
    uint32_t at[10][3] = {{0}};
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < 27; i++) at[givens[27 * b + i]][b] |= 1u << i;
    uint32_t cols[9];
    for (int d = 0; d < 9; d++) {
        const uint32_t *m = at[d + 1];
        uint32_t all = m[0] | m[1] | m[2];
        cols[d] = (all | all >> 9 | all >> 18) & 0x1FF;
    }
    int ok = 1;
    for (int b = 0; b < 3; b++) {
        uint32_t placed = BAND_ALL & ~at[0][b];
        for (int d = 0; d < 9; d++) {
            uint32_t m = at[d + 1][b];
            uint32_t rows = ((m & 0x1FF) ? 0x1FFu : 0) | ((m & 0x3FE00) ? 0x3FE00u : 0) |
                            ((m & 0x7FC0000) ? 0x7FC0000u : 0);
            uint32_t c = (m | m >> 9 | m >> 18) & 0x1FF;
            uint32_t boxes = (((c & 7) ? 7u : 0) | ((c & 070) ? 070u : 0) |
                              ((c & 0700) ? 0700u : 0)) * COLS3;
            uint32_t f = s.F[AT(d, b)];
            ok &= (f & m) == m;  /* else a given is forbidden */
            s.F[AT(d, b)] = (f & ~(placed | rows | boxes | (cols[d] & ~c) * COLS3)) | m;
        }
    }
    if (nb_interrupted()) return NB_INTERRUPTED;
    if (budget && budget->deadline > 0 && nb_now() > budget->deadline) {
        st->nodes = 0;
        return NB_BUDGET;
    }
    uint32_t biv[3];
    if (ok && C9_FN(propagate)(&s, biv)) C9_FN(search)(&s, &ctx, biv);
    *count = ctx.count;
    st->nodes = ctx.nodes;
    st->guesses = ctx.guesses;
    if (ctx.stop == 1) return NB_LIMIT;
    if (ctx.stop == 2) return NB_BUDGET;
    if (ctx.stop == 3) return NB_INTERRUPTED;
    return NB_EXHAUSTED;
}

#endif /* C9_VARIANT */
