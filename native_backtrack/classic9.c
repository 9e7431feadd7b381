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
 * (AVX2, BMI1/2, popcnt), the latter two through __attribute__((target)). Each variant is
 * one row of one table (C9_ISAS: its settings, target attribute and CPU test), from which
 * its instantiation, its dispatch entry and its CPU check follow. c9_init picks
 * the best one the running CPU supports (__builtin_cpu_supports); the environment
 * variable SUDOKU_NATIVE_ISA=c|sse2|popcnt|avx2 read at that moment, or c9_set_isa,
 * chooses a lower one. Every variant runs the same algorithm: same counts, solutions,
 * nodes and guesses (tests/native_backtrack/test_classic9_isa.py). A fifth variant,
 * "avx512" (AVX-512 F/VL/BW/BITALG), serves the counting search below with one-instruction
 * word shuffles and per-lane popcounts.
 *
 * Counting (c9_solve with no `avoid`, no forbidden pairs and no candidate masks: the
 * batch, uniqueness and verify path) can hand a puzzle to a second search, the "box/band"
 * search (k9_* below), which needs fewer guesses on hard puzzles (top1465 9.1 against 11.8 per puzzle,
 * hardest 116 against 138) at about the same cost per guess, but whose propagation costs
 * more on puzzles that propagation alone solves (17-clue list: 3.2 against 2.2 us). So
 * the first search's propagation runs first; the box/band search takes over only when
 * at least 50 cells are left open after it (see count_body), and never on fewer than 17
 * givens. A unique solution is the same either way; which of several solutions is kept
 * may differ from solve_body's. It keeps the triad rule ("a minirow or
 * minicolumn holds exactly three digits") in the representation itself, so that it costs
 * no extra pass:
 *   - each box is a 4x4 matrix of 9-bit digit sets, one 256-bit vector: lane 4r+c the
 *     digits of cell (r, c), lane 4r+3 the digits ABSENT from minirow r, lane 12+c those
 *     absent from minicolumn c, lane 15 all digits (a filler that makes the rules below
 *     vacuous on row 3 and column 3). For each digit, every row and every column of the
 *     matrix holds it exactly once (in one of the three cells, or in the absent set);
 *     a cell needs one digit and an absent set six (exactly six: it is complete).
 *   - each band (three boxes in a row, or in a column) keeps, per digit, which of the six
 *     placements of that digit (a permutation: which element of each box holds it) are
 *     still possible: six lanes of 9-bit digit sets. A minirow whose possible digits are
 *     exactly three holds those three (the triad rule, one popcount per lane).
 * A box settles its rules to a fixpoint and tells its two bands which placements died; a
 * band drops them and tells its three boxes which digits each element may still hold.
 * Branching takes the band with the fewest placements left and, in it, a digit with two
 * placements (else three, else the first), trying its first placement, then the others.
 * (The algorithm is tdoku's "DPLL triad SIMD" as its source describes it; the code,
 * layout of the bands and scheduling here are our own.) The vector code is written with
 * GCC/clang vector extensions so that every variant compiles the same operations (the
 * plain C one as the compiler lowers them), with the shuffles as compile-time constants:
 * each box and band has a function of its own (DEF_BOX / DEF_BAND). Where the result
 * depends on the order of the search (`avoid`: a solution other than a known one;
 * forbidden pairs, which the removal pass of generation uses) the first search runs, so
 * that generated puzzles stay the same for a seed. Compilers without
 * __builtin_shufflevector (GCC < 12) build the first search only.
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
    const uint8_t *prefer; /* 81 digits tried first at a branch (first search), or NULL */
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

/* ---- the box/band counting search: types and tables shared by the variants ---- */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define K9_ON 1
/* The box and band functions pass 256-bit vectors by value; they are all static, so the
 * note that such an argument's ABI differs without AVX concerns no caller outside. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
typedef uint16_t k9v16 __attribute__((vector_size(32), aligned(32)));
typedef int16_t k9s16 __attribute__((vector_size(32), aligned(32)));
typedef uint16_t k9v8 __attribute__((vector_size(16), aligned(16)));
typedef int16_t k9s8 __attribute__((vector_size(16), aligned(16)));

typedef struct {
    k9v16 box[9];   /* a 4x4 matrix: lane 4r+c (r, c < 3) the cell's digits, 4r+3 the
                     * digits absent from minirow r, 12+c absent from minicol c, 15 all */
    k9v8 cfg[6];    /* bands 0..2 rows of boxes, 3..5 columns of boxes; lane k: the digits
                     * that may sit in the band by placement k (lanes 6, 7 zero) */
    k9v8 elim[6];   /* placements known impossible, applied on the band's next turn */
} k9_state;


/* placement k puts the digit in element K9_SIG(k, p) of the band's box p */
#define K9_SIG(k, p) ((k) < 3 ? ((p) + (k)) % 3 : ((k) - (p)) % 3)
#define K9_KA(p, e) (((e) - (p) + 3) % 3)
#define K9_KB(p, e) (3 + ((e) + (p)) % 3)

typedef struct { uint8_t b, l, hb, vb, hpe, vpe; } k9_cellinfo;
static k9_cellinfo k9_cells[81];
static k9v16 k9_peer[16], k9_own[16];  /* by lane: what a given there removes its digit from / keeps */
static k9v8 k9_notcfg[9];             /* 3p+e: placements that leave element e of box p out */
static void k9_init(void)
{
    for (int i = 0; i < 81; i++) {
        int R = i / 9, C = i % 9, r = R % 3, c = C % 3;
        k9_cells[i] = (k9_cellinfo){(uint8_t)(3 * (R / 3) + C / 3), (uint8_t)(4 * r + c),
                                    (uint8_t)(R / 3), (uint8_t)(3 + C / 3),
                                    (uint8_t)(3 * (C / 3) + r), (uint8_t)(3 * (R / 3) + c)};
    }
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int l = 4 * r + c;
            k9v16 peer = {0}, own = {0};
            for (int r2 = 0; r2 < 3; r2++)
                for (int c2 = 0; c2 < 3; c2++)
                    if (r2 != r || c2 != c) peer[4 * r2 + c2] = 0xFFFF;
            peer[4 * r + 3] = 0xFFFF;
            peer[12 + c] = 0xFFFF;
            own[l] = 0xFFFF;
            k9_peer[l] = peer;
            k9_own[l] = own;
        }
    for (int p = 0; p < 3; p++)
        for (int e = 0; e < 3; e++) {
            k9v8 m = {0};
            for (int k = 0; k < 6; k++)
                if (K9_SIG(k, p) != e) m[k] = 0x1FF;
            k9_notcfg[3 * p + e] = m;
        }
}

#define K9_F 0xFFFF
/* 256-bit values go to the helpers by address: a 32-byte vector argument has no AVX-free
 * calling convention that every GCC agrees on (it warns), and inlined it costs nothing */
#define K9_ZERO16(v) C9_FN(k9_zero16p)((k9v16[1]){v})
#define K9_PC16(v) C9_FN(k9_pc16p)((k9v16[1]){v})
#define K9_SH(x, ...) __builtin_shufflevector((x), (x), __VA_ARGS__)
#define K9_HL(e) (4 * (e) + 3)
#define K9_VL(e) (12 + (e))
#define K9_BMI(L, P, k, off) ((off) == 0 ? L(K9_SIG(k, P)) : 16 + L((K9_SIG(k, P) + (off)) % 3))
#define K9_BM(as, E, L, P, off)                                                             \
    __builtin_shufflevector(as, E, K9_BMI(L, P, 0, off), K9_BMI(L, P, 1, off), K9_BMI(L, P, 2, off), \
                            K9_BMI(L, P, 3, off), K9_BMI(L, P, 4, off), K9_BMI(L, P, 5, off), 31, 31)
#define K9_MSG(as, E, L, P) \
    (K9_BM(as, E, L, P, 0) | K9_BM(as, E, L, P, 1) | K9_BM(as, E, L, P, 2))
#define K9_BAND(J, from) (C9_FN(k9_zero8)(s->cfg[J] & s->elim[J]) || C9_FN(band##J)(s, from))
#define K9_BOX(B, allow, O) (K9_ZERO16(s->box[B] & ~(allow)) || C9_FN(box##B)(s, (k9v16[1]){allow}, O))
#define K9_ROT1 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12
#define K9_ROT2 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
#define K9_CROT1 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3
#define K9_CROT2 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7
#define K9_F 0xFFFF
#define K9_DEF_BOX(B, HB, VB)                                                                   \
    C9_TARGET static int C9_FN(box##B)(k9_state *s, const k9v16 *allowp, int from_v)                                \
    {                                                                                        \
        k9v16 x = s->box[B];                                                                 \
        k9v16 E = ~*allowp;                                                                  \
        if (K9_ZERO16(x & E)) return 1;                                                  \
        const k9s16 mins = {1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 1, 6, 6, 6, 6, 0};                 \
        const k9v16 cellm = {K9_F, K9_F, K9_F, 0, K9_F, K9_F, K9_F, 0, K9_F, K9_F, K9_F, 0, 0, 0, 0, 0};                \
        const k9v16 hm = {0, 0, 0, K9_F, 0, 0, 0, K9_F, 0, 0, 0, K9_F, 0, 0, 0, 0};                   \
        const k9v16 vm = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, K9_F, K9_F, K9_F, 0};                   \
        k9v16 as;                                                                            \
        do {                                                                                 \
            x &= ~E;                                                                         \
            k9s16 cnt = (k9s16)K9_PC16(x);                                               \
            if (!K9_ZERO16((k9v16)(cnt < mins))) return 0;                               \
            as = x & (k9v16)(cnt == mins);                                                   \
            k9v16 r = K9_SH(x, K9_ROT1);                                                         \
            k9v16 two = x & r, one = x | r;                                                  \
            r = K9_SH(r, K9_ROT1);                                                               \
            two |= one & r;                                                                  \
            one |= r;                                                                        \
            r = K9_SH(r, K9_ROT1);                                                               \
            two |= one & r;                                                                  \
            as |= x & ~two;                                                                  \
            r = K9_SH(x, K9_CROT1);                                                              \
            two = x & r;                                                                     \
            one = x | r;                                                                     \
            r = K9_SH(r, K9_CROT1);                                                              \
            two |= one & r;                                                                  \
            one |= r;                                                                        \
            r = K9_SH(r, K9_CROT1);                                                              \
            two |= one & r;                                                                  \
            as |= x & ~two;                                                                  \
            k9v16 ca = as & cellm;                                                           \
            k9v16 y = ca | (as & hm), z = ca | (as & vm), c = ca;                            \
            y |= K9_SH(y, K9_ROT1);                                                              \
            y |= K9_SH(y, K9_ROT2);                                                              \
            z |= K9_SH(z, K9_CROT1);                                                             \
            z |= K9_SH(z, K9_CROT2);                                                             \
            c |= K9_SH(c, K9_ROT1);                                                              \
            c |= K9_SH(c, K9_ROT2);                                                              \
            c |= K9_SH(c, K9_CROT1);                                                             \
            c |= K9_SH(c, K9_CROT2);                                                             \
            E = (y | z | ((c | (k9v16)(as != 0)) & cellm & 0x1FF)) & ~as;                    \
        } while (!K9_ZERO16(x & E));                                                     \
        s->box[B] = x;                                                                       \
        s->elim[HB] |= K9_MSG(as, E, K9_HL, (B) % 3);                                              \
        s->elim[VB] |= K9_MSG(as, E, K9_VL, (B) / 3);                                              \
        if (from_v) return K9_BAND(HB, (B) % 3) && K9_BAND(VB, (B) / 3);                     \
        return K9_BAND(VB, (B) / 3) && K9_BAND(HB, (B) % 3);                                 \
    }
#define K9_TRI(c)                                                                               \
    (__builtin_shufflevector(c, c, K9_KA(0, 0), K9_KA(0, 1), K9_KA(0, 2), 6, K9_KA(1, 0), K9_KA(1, 1),      \
                             K9_KA(1, 2), 6, K9_KA(2, 0), K9_KA(2, 1), K9_KA(2, 2), 6, 6, 6, 6, 6) |     \
     __builtin_shufflevector(c, c, K9_KB(0, 0), K9_KB(0, 1), K9_KB(0, 2), 6, K9_KB(1, 0), K9_KB(1, 1),      \
                             K9_KB(1, 2), 6, K9_KB(2, 0), K9_KB(2, 1), K9_KB(2, 2), 6, 6, 6, 6, 6))
#define K9_GP(G, P)                                                                             \
    __builtin_shufflevector(G, G, 4 * (P) + K9_SIG(0, P), 4 * (P) + K9_SIG(1, P),                  \
                            4 * (P) + K9_SIG(2, P), 4 * (P) + K9_SIG(3, P), 4 * (P) + K9_SIG(4, P),   \
                            4 * (P) + K9_SIG(5, P), 3, 3)
#define K9_AR(P, r, o) 4 * (P) + (r), 4 * (P) + (r), 4 * (P) + (r), 4 * (P) + ((r) + 1 + (o)) % 3
#define K9_AL0(T, P, o) K9_SH(T, K9_AR(P, 0, o), K9_AR(P, 1, o), K9_AR(P, 2, o), 4 * (P) + 3, 4 * (P) + 3, \
                          4 * (P) + 3, 4 * (P) + 3)
#define K9_AL1(T, P, o)                                                                         \
    K9_SH(T, 4 * (P), 4 * (P) + 1, 4 * (P) + 2, 4 * (P) + 3, 4 * (P), 4 * (P) + 1, 4 * (P) + 2, \
         4 * (P) + 3, 4 * (P), 4 * (P) + 1, 4 * (P) + 2, 4 * (P) + 3, 4 * (P) + (1 + o) % 3, \
         4 * (P) + (2 + o) % 3, 4 * (P) + (0 + o) % 3, 4 * (P) + 3)
#define K9_ALLOW(O, T, P) ((O) ? (K9_AL1(T, P, 0) | K9_AL1(T, P, 1)) : (K9_AL0(T, P, 0) | K9_AL0(T, P, 1)))
#define K9_DEF_BAND(J, O, B0, B1, B2)                                                           \
    C9_TARGET static int C9_FN(band##J)(k9_state *s, int from)                                            \
    {                                                                                        \
        k9v8 c = s->cfg[J], e = s->elim[J];                                                  \
        if (C9_FN(k9_zero8)(c & e)) return 1;                                                   \
        c &= ~e;                                                                             \
        k9v16 T = K9_TRI(c);                                                                    \
        k9s16 cnt = (k9s16)K9_PC16(T);                                                   \
        const k9s16 three = {3, 3, 3, 0, 3, 3, 3, 0, 3, 3, 3, 0, 0, 0, 0, 0};                \
        if (!K9_ZERO16((k9v16)(cnt < three))) return 0;                                  \
        k9v16 A = T & (k9v16)(cnt == three);                                                 \
        A &= (k9v16){K9_F, K9_F, K9_F, 0, K9_F, K9_F, K9_F, 0, K9_F, K9_F, K9_F, 0, 0, 0, 0, 0};                        \
        if (!K9_ZERO16(A)) {                                                             \
            k9v16 G = K9_SH(A, 1, 2, 0, 3, 5, 6, 4, 7, 9, 10, 8, 11, 12, 13, 14, 15) |        \
                      K9_SH(A, 2, 0, 1, 3, 6, 4, 5, 7, 10, 8, 9, 11, 12, 13, 14, 15);         \
            c &= ~(K9_GP(G, 0) | K9_GP(G, 1) | K9_GP(G, 2));                                          \
            T = K9_TRI(c);                                                                      \
        }                                                                                    \
        s->cfg[J] = c;                                                                       \
        T |= (k9v16){0, 0, 0, K9_F, 0, 0, 0, K9_F, 0, 0, 0, K9_F, 0, 0, 0, 0};                        \
        /* the box that called last: its message may be the freshest */                     \
        if (from == 0)                                                                       \
            return K9_BOX(B1, K9_ALLOW(O, T, 1), O) && K9_BOX(B2, K9_ALLOW(O, T, 2), O) && \
                   K9_BOX(B0, K9_ALLOW(O, T, 0), O);                                        \
        if (from == 1)                                                                       \
            return K9_BOX(B2, K9_ALLOW(O, T, 2), O) && K9_BOX(B0, K9_ALLOW(O, T, 0), O) && \
                   K9_BOX(B1, K9_ALLOW(O, T, 1), O);                                        \
        return K9_BOX(B0, K9_ALLOW(O, T, 0), O) && K9_BOX(B1, K9_ALLOW(O, T, 1), O) &&     \
               K9_BOX(B2, K9_ALLOW(O, T, 2), O);                                            \
    }
#else
#define K9_ON 0
#endif

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
#if K9_ON
    k9_init();
#endif
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
typedef int (*c9_solve_fn)(const uint8_t *, const uint32_t *, const int32_t *, int,
                           const uint8_t *, const uint8_t *, uint64_t, uint8_t *, uint64_t,
                           const nb_budget *, uint64_t *, nb_stats *);

#define C9_CAT2(a, b) a##_##b
#define C9_CAT(a, b) C9_CAT2(a, b)
#define C9_FN(name) C9_CAT(name, C9_VARIANT)
#define C9_JOIN2(a, b) a##b
#define C9_JOIN(a, b) C9_JOIN2(a, b)

/* The instruction sets, lowest first, one row each: X(name, simd, popcnt, avx2, bitalg,
 * borrow, target, cpu). Everything per variant follows from its row: the settings its
 * search is compiled with (C9_SIMD ... C9_TARGET below), its entry in the dispatch table
 * (c9_variants) and the test of the running CPU (c9_choose_isa).
 *   name    SUDOKU_NATIVE_ISA's value and the suffix of the variant's functions
 *   simd    the band-wide steps in SSE2
 *   popcnt  the popcnt instruction (else a bit count in plain C)
 *   avx2    the box/band search's 256-bit steps as AVX2 instructions
 *   bitalg  its word shuffles and per-lane popcounts as AVX-512 instructions
 *   borrow  1: runs the avx2 variant's first search instead of compiling its own, which
 *           measures slower (multi-solution list, plain C harness: 0.92-0.97 of the avx2
 *           speed)
 *   target  the function attribute the variant's code is compiled with
 *   cpu     whether the running CPU can run it (evaluated once, by c9_choose_isa) */
#define C9_CPU(feature) __builtin_cpu_supports(feature)
#define C9_ISA_c(X) X(c, 0, 0, 0, 0, 0, , 1)
#define C9_ISA_sse2(X) X(sse2, 1, 0, 0, 0, 0, , 1)
#define C9_ISA_popcnt(X)                                                                   \
    X(popcnt, 1, 1, 0, 0, 0, __attribute__((target("popcnt,sse4.2"))),                     \
      C9_CPU("popcnt") && C9_CPU("sse4.2"))
#define C9_ISA_avx2(X)                                                                     \
    X(avx2, 1, 1, 1, 0, 0, __attribute__((target("popcnt,sse4.2,avx2,bmi,bmi2"))),         \
      C9_CPU("popcnt") && C9_CPU("sse4.2") && C9_CPU("avx2") && C9_CPU("bmi") &&            \
          C9_CPU("bmi2"))
#define C9_ISA_avx512(X)                                                                   \
    X(avx512, 1, 1, 1, 1, 1,                                                               \
      __attribute__((target(                                                               \
          "popcnt,sse4.2,avx2,bmi,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg"))),        \
      C9_CPU("popcnt") && C9_CPU("sse4.2") && C9_CPU("avx2") && C9_CPU("bmi") &&            \
          C9_CPU("bmi2") && C9_CPU("avx512f") && C9_CPU("avx512vl") &&                    \
          C9_CPU("avx512bw") && C9_CPU("avx512bitalg"))
/* The rows this machine builds (plain C only where it is no x86_64). */
#if C9_X86
#define C9_ISAS(X) C9_ISA_c(X) C9_ISA_sse2(X) C9_ISA_popcnt(X) C9_ISA_avx2(X) C9_ISA_avx512(X)
#else
#define C9_ISAS(X) C9_ISA_c(X)
#endif

/* The columns of a row, and those of the variant being compiled (C9_VARIANT). */
#define C9_COL_SIMD(n, simd, pc, avx2, bitalg, borrow, target, cpu) simd
#define C9_COL_POPCNT(n, simd, pc, avx2, bitalg, borrow, target, cpu) pc
#define C9_COL_AVX2(n, simd, pc, avx2, bitalg, borrow, target, cpu) avx2
#define C9_COL_BITALG(n, simd, pc, avx2, bitalg, borrow, target, cpu) bitalg
#define C9_COL_BORROW(n, simd, pc, avx2, bitalg, borrow, target, cpu) borrow
#define C9_COL_TARGET(n, simd, pc, avx2, bitalg, borrow, target, cpu) target
#define C9_ROW(column) C9_JOIN(C9_ISA_, C9_VARIANT)(column)
#define C9_SIMD C9_ROW(C9_COL_SIMD)
#define C9_POPCNT C9_ROW(C9_COL_POPCNT)
#define C9_AVX2 C9_ROW(C9_COL_AVX2)
#define C9_BITALG C9_ROW(C9_COL_BITALG)
#define C9_FIRST_AVX2 C9_ROW(C9_COL_BORROW)
#define C9_TARGET C9_ROW(C9_COL_TARGET)

/* One instantiation per row of C9_ISAS (the preprocessor cannot generate an #include; a
 * row without its instantiation, or the reverse, does not compile). The variant section
 * ends by undefining C9_VARIANT. */
#define C9_VARIANT c
#include "classic9.c"
#if C9_X86
#define C9_VARIANT sse2
#include "classic9.c"
#define C9_VARIANT popcnt
#include "classic9.c"
#define C9_VARIANT avx2
#include "classic9.c"
#define C9_VARIANT avx512
#include "classic9.c"
#endif

/* The dispatch table, lowest first, from the rows; `usable` is filled by c9_init. */
#define C9_PICK_0(own, avx2) own
#define C9_PICK_1(own, avx2) avx2
#define C9_ENTRY(n, simd, pc, avx2, bitalg, borrow, target, cpu)                            \
    {#n, C9_JOIN(C9_PICK_, borrow)(solve_body_##n, solve_body_avx2), count_body_##n, 0},
static struct {
    const char *name;
    c9_solve_fn fn;
    c9_solve_fn count;  /* the box/band search, or fn where the compiler lacks it */
    int usable;
} c9_variants[] = {C9_ISAS(C9_ENTRY)};
#define C9_NVARIANTS ((int)(sizeof c9_variants / sizeof c9_variants[0]))
static int c9_current = C9_NVARIANTS - 1 - 3 * C9_X86;  /* sse2 on x86_64, else c */

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

#define C9_USABLE(n, simd, pc, avx2, bitalg, borrow, target, cpu) c9_variants[k++].usable = (cpu);
static void c9_choose_isa(void)
{
#if C9_X86
    __builtin_cpu_init();
#endif
    int k = 0;
    C9_ISAS(C9_USABLE)
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

int c9_solve(const uint8_t *givens, const uint32_t *domain, const int32_t *forbidden,
             int nforbidden, const uint8_t *avoid, const uint8_t *prefer, uint64_t limit,
             uint8_t *out, uint64_t keep, const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    int bad = c9_check_givens(givens);
    if (bad) {
        *count = 0;
        st->nodes = st->guesses = 0;
        return bad;
    }
    int v = __atomic_load_n(&c9_current, __ATOMIC_RELAXED);
    /* counting goes to the box/band search; see the head comment for the rest */
    if (avoid || nforbidden > 0 || prefer)
        return c9_variants[v].fn(givens, domain, forbidden, nforbidden, avoid, prefer, limit, out,
                                 keep, budget, count, st);
    c9_solve_fn fn = c9_variants[v].count;
    return fn(givens, domain, forbidden, nforbidden, avoid, prefer, limit, out, keep, budget,
              count, st);
}

#else /* C9_VARIANT: the search, compiled once per variant */

/* The first search's functions of this variant: the avx512 variant takes the avx2 ones,
 * which measure faster than the same code compiled for AVX-512 (multi-solution list,
 * plain C harness: 0.92-0.97 of the avx2 speed). */
#if C9_FIRST_AVX2
#define C9_OLD(name) C9_CAT(name, avx2)
#else
#define C9_OLD(name) C9_FN(name)
#endif

/* Bit count: the instruction where the variant has it, else without (the build targets
 * any x86_64, where __builtin_popcountll would be a libgcc call); both searches use it. */
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

#if !C9_FIRST_AVX2

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
    if (ctx->prefer) {  /* the preferred digit first, when it is a candidate */
        int want = ctx->prefer[27 * best_b + best_i] - 1;
        for (int k = 1; k < nd; k++)
            if (digits[k] == want) {
                digits[k] = digits[0];
                digits[0] = want;
            }
    }
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

/* The state for the givens (c9_solve has checked that no two clash) within the candidate
 * masks `domain` (81 masks, bit d-1 = digit d; NULL: every digit) less the forbidden
 * (cell, digit) pairs, before propagation; returns 0 when a given is forbidden. */
C9_TARGET static int C9_FN(setup)(c9_state *sp, const uint8_t *givens, const uint32_t *domain,
                                  const int32_t *forbidden, int nforbidden)
{
    c9_state s;
    for (int k = 0; k < 27; k++) {
        s.F[k] = BAND_ALL;
        s.locked[k] = 0;
    }
    for (int b = 0; b < 3; b++) s.unsolved[b] = BAND_ALL;
    s.dirty = BAND_ALL;
    s.stack_dirty = 0x1FF;
    if (domain)
        for (int c = 0; c < 81; c++)
            for (uint32_t out = ~domain[c] & 0x1FF; out; out &= out - 1)
                s.F[AT(__builtin_ctz(out), c / 27)] &= ~(1u << (c % 27));
    for (int k = 0; k < nforbidden; k++) {
        int c = forbidden[2 * k], d = forbidden[2 * k + 1];
        if (c >= 0 && c < 81 && d >= 1 && d <= 9) s.F[AT(d - 1, c / 27)] &= ~(1u << (c % 27));
    }
    /* The givens by digit and band, gathered without a branch per cell, then placed with
     * whole-mask operations. */
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
    *sp = s;
    return ok;
}

/* c9_solve for this variant. */
C9_TARGET static int C9_FN(solve_body)(const uint8_t *givens, const uint32_t *domain,
                                       const int32_t *forbidden, int nforbidden,
                                       const uint8_t *avoid, const uint8_t *prefer,
                                       uint64_t limit, uint8_t *out, uint64_t keep,
                                       const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    c9_ctx ctx = {limit, keep, 0, out, avoid, budget, 1, 0, 0, prefer};
    c9_state s;
    *count = 0;
    st->nodes = st->guesses = 0;
    if (limit == 0) return NB_LIMIT;
    int ok = C9_FN(setup)(&s, givens, domain, forbidden, nforbidden);
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


#endif /* !C9_FIRST_AVX2 */

/* ---- the box/band counting search (see the head comment) ---- */
#if K9_ON



C9_TARGET static inline int C9_FN(k9_zero16p)(const k9v16 *p)
{
    k9v16 x = *p;
#if C9_AVX2
    return _mm256_testz_si256((__m256i)x, (__m256i)x);
#else
    typedef uint64_t q4 __attribute__((vector_size(32)));
    q4 q = (q4)x;
    return (q[0] | q[1] | q[2] | q[3]) == 0;
#endif
}

C9_TARGET static inline int C9_FN(k9_zero8)(k9v8 x)
{
#if C9_AVX2
    return _mm_testz_si128((__m128i)x, (__m128i)x);
#else
    typedef uint64_t q2 __attribute__((vector_size(16)));
    q2 q = (q2)x;
    return (q[0] | q[1]) == 0;
#endif
}

C9_TARGET static inline k9v16 C9_FN(k9_pc16p)(const k9v16 *p)
{
    k9v16 x = *p;
#if C9_BITALG
    return (k9v16)_mm256_popcnt_epi16((__m256i)x);
#elif C9_AVX2
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    __m256i v = (__m256i)x, lo = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
    k9v16 b = (k9v16)_mm256_add_epi8(_mm256_shuffle_epi8(lut, lo), _mm256_shuffle_epi8(lut, hi));
    return (b + (b >> 8)) & 0x1F;
#else
    x = x - ((x >> 1) & 0x5555);
    x = (x & 0x3333) + ((x >> 2) & 0x3333);
    x = (x + (x >> 4)) & 0x0F0F;
    return (x + (x >> 8)) & 0x1F;
#endif
}

/* forward declarations of the per-band functions */
C9_TARGET static int C9_FN(band0)(k9_state *s, int from);
C9_TARGET static int C9_FN(band1)(k9_state *s, int from);
C9_TARGET static int C9_FN(band2)(k9_state *s, int from);
C9_TARGET static int C9_FN(band3)(k9_state *s, int from);
C9_TARGET static int C9_FN(band4)(k9_state *s, int from);
C9_TARGET static int C9_FN(band5)(k9_state *s, int from);


K9_DEF_BOX(0, 0, 3)
K9_DEF_BOX(1, 0, 4)
K9_DEF_BOX(2, 0, 5)
K9_DEF_BOX(3, 1, 3)
K9_DEF_BOX(4, 1, 4)
K9_DEF_BOX(5, 1, 5)
K9_DEF_BOX(6, 2, 3)
K9_DEF_BOX(7, 2, 4)
K9_DEF_BOX(8, 2, 5)


K9_DEF_BAND(0, 0, 0, 1, 2)
K9_DEF_BAND(1, 0, 3, 4, 5)
K9_DEF_BAND(2, 0, 6, 7, 8)
K9_DEF_BAND(3, 1, 0, 3, 6)
K9_DEF_BAND(4, 1, 1, 4, 7)
K9_DEF_BAND(5, 1, 2, 5, 8)

typedef int (*C9_FN(k9_band_fn))(k9_state *, int);
static const C9_FN(k9_band_fn) C9_FN(k9_bands)[6] = {C9_FN(band0), C9_FN(band1), C9_FN(band2),
                                               C9_FN(band3), C9_FN(band4), C9_FN(band5)};

C9_TARGET static void C9_FN(k9_extract)(const k9_state *s, uint8_t *out)
{
    for (int b = 0; b < 9; b++) {
        int base = 27 * (b / 3) + 3 * (b % 3);
        for (int l = 0; l < 9; l++)
            out[base + 9 * (l / 3) + l % 3] = (uint8_t)(__builtin_ctz(s->box[b][4 * (l / 3) + l % 3]) + 1);
    }
}

C9_TARGET static void C9_FN(k9_search)(k9_state *s, c9_ctx *ctx)
{
    /* the band with the fewest placements left, above 9 (9: each digit has one) */
    int best = -1, bestn = 1000;
    for (int j = 0; j < 6; j++) {
        typedef uint64_t q2 __attribute__((vector_size(16)));
        q2 q = (q2)s->cfg[j];
        int n = C9_FN(pop64)(q[0]) + C9_FN(pop64)(q[1]);
        if (n > 9 && n < bestn) {
            bestn = n;
            best = j;
        }
    }
    if (best < 0) {
        for (int j = 0; j < 6; j++) {
            k9v8 x = s->cfg[j];
            if ((x[0] | x[1] | x[2] | x[3] | x[4] | x[5]) != 0x1FF) return;
        }
        int kept = ctx->count < ctx->keep && ctx->out;
        if (ctx->avoid) {
            uint8_t grid[81];
            C9_FN(k9_extract)(s, grid);
            if (memcmp(grid, ctx->avoid, 81) == 0) return;
            if (kept) memcpy(ctx->out + 81 * ctx->count, grid, 81);
        } else if (kept) {
            C9_FN(k9_extract)(s, ctx->out + 81 * ctx->count);
        }
        if (++ctx->count >= ctx->limit) ctx->stop = 1;
        return;
    }
    /* its digit with the fewest placements: 2, else 3, else the first */
    uint32_t one = 0, two = 0, three = 0, four = 0;
    for (int k = 0; k < 6; k++) {
        uint32_t x = s->cfg[best][k];
        four |= three & x;
        three |= two & x;
        two |= one & x;
        one |= x;
    }
    uint32_t pick = two & ~three;
    if (!pick) pick = three & ~four;
    if (!pick) pick = four;
    uint16_t bit = (uint16_t)(pick & -pick);
    int k0 = 0;
    while (!(s->cfg[best][k0] & bit)) k0++;
    k9v8 mine = s->cfg[best] & bit;
    k9v8 first = {0};
    first[k0] = bit;
    ctx->guesses++;
    int stop = C9_OLD(budget_spent)(ctx);
    if (stop) {
        ctx->stop = stop;
        return;
    }
    ctx->nodes++;
    {
        k9_state t = *s;
        t.elim[best] |= mine & ~first;
        if (C9_FN(k9_bands)[best](&t, 0)) {
            C9_FN(k9_search)(&t, ctx);
            if (ctx->stop) return;
        }
    }
    stop = C9_OLD(budget_spent)(ctx);
    if (stop) {
        ctx->stop = stop;
        return;
    }
    ctx->nodes++;
    s->elim[best] |= first;
    if (C9_FN(k9_bands)[best](s, 0)) C9_FN(k9_search)(s, ctx);
}

/* the cells holding a given: bit i of lo (i < 64), bit i - 64 of hi */
C9_TARGET static inline void C9_FN(k9_given_cells)(const uint8_t *g, uint64_t *lo, uint32_t *hi)
{
#if C9_AVX2
    __m256i z = _mm256_setzero_si256();
    uint32_t a = ~(uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)g), z));
    uint32_t b = ~(uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(g + 32)), z));
    uint32_t c = ~(uint32_t)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(g + 65)), _mm_setzero_si128())) & 0xFFFF;
    *lo = a | ((uint64_t)b << 32);
    *hi = (uint32_t)(g[64] != 0) | (c << 1);
#else
    uint64_t l = 0;
    uint32_t h = 0;
    for (int i = 0; i < 64; i++) l |= (uint64_t)(g[i] != 0) << i;
    for (int i = 64; i < 81; i++) h |= (uint32_t)(g[i] != 0) << (i - 64);
    *lo = l;
    *hi = h;
#endif
}

C9_TARGET static inline void C9_FN(k9_place)(k9_state *s, int i, int g)
{
    uint16_t m = (uint16_t)(1u << (g - 1));
    const k9_cellinfo *ci = &k9_cells[i];
    s->box[ci->b] &= ~((k9_peer[ci->l] & m) | (k9_own[ci->l] & (uint16_t)~m));
    s->elim[ci->hb] |= k9_notcfg[ci->hpe] & m;
    s->elim[ci->vb] |= k9_notcfg[ci->vpe] & m;
}

/* c9_solve's counting path for this variant (no `avoid`, no forbidden pairs): the same
 * statuses, counts and kept solutions as solve_body, by the box/band search. */
/* Candidate masks (pencilmark puzzles) go to the first search: its choice of branch
 * needs far fewer guesses there (gurobi_hard: 2.0x the box/band search's speed, minisat
 * 020-029k: 1.6x, same machine, interleaved).
 * Fewer givens than this: the puzzle has no unique solution (no 16-clue Sudoku has one:
 * McGuire, Tugemann, Civario 2012), so propagation never fills it; counting to 2 there
 * stops at the second solution, and the first search gets there with as many guesses
 * as the box/band one (16.6 per puzzle on the multi-solution list) at a lower cost. */
#define K9_MIN_GIVENS 17
/* Open cells after the first search's propagation from which the box/band search takes
 * over: below, the search ahead is small and the box/band set-up does not pay (17-clue
 * list: 1.1 to 2.9 guesses per puzzle in the 10 to 49 bands either way); from 50 on,
 * its fewer guesses do (hardest list 124 against 140, 60-69: 5.6 against 14.6 on the
 * 17-clue list). */
#define K9_OPEN_CELLS 50

/* The result of a counting search from ctx. */
static int C9_FN(k9_finish)(const c9_ctx *ctx, uint64_t *count, nb_stats *st)
{
    *count = ctx->count;
    st->nodes = ctx->nodes;
    st->guesses = ctx->guesses;
    if (ctx->stop == 1) return NB_LIMIT;
    if (ctx->stop == 2) return NB_BUDGET;
    if (ctx->stop == 3) return NB_INTERRUPTED;
    return NB_EXHAUSTED;
}

/* c9_solve's counting path for this variant (no `avoid`, no forbidden pairs): the same
 * statuses and counts as solve_body, and the same solution where it is unique. The first
 * search's cheap propagation runs first (most easy puzzles end there); a large search
 * left after it goes to the box/band search, started from the cells propagation placed. */
C9_TARGET static int C9_FN(count_body)(const uint8_t *givens, const uint32_t *domain,
                                       const int32_t *forbidden, int nforbidden,
                                       const uint8_t *avoid, const uint8_t *prefer,
                                       uint64_t limit, uint8_t *out, uint64_t keep,
                                       const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    uint64_t glo;
    uint32_t ghi;
    C9_FN(k9_given_cells)(givens, &glo, &ghi);
    if (domain || C9_FN(pop64)(glo) + C9_FN(pop64)(ghi) < K9_MIN_GIVENS)
        return C9_OLD(solve_body)(givens, domain, forbidden, nforbidden, avoid, prefer, limit,
                                  out, keep, budget, count, st);
    c9_ctx ctx = {limit, keep, 0, out, avoid, budget, 1, 0, 0};
    *count = 0;
    st->nodes = st->guesses = 0;
    if (limit == 0) return NB_LIMIT;
    c9_state o;
    int ok = C9_OLD(setup)(&o, givens, NULL, NULL, 0);
    if (nb_interrupted()) return NB_INTERRUPTED;
    if (budget && budget->deadline > 0 && nb_now() > budget->deadline) {
        st->nodes = 0;
        return NB_BUDGET;
    }
    uint32_t biv[3];
    if (!ok || !C9_OLD(propagate)(&o, biv)) return C9_FN(k9_finish)(&ctx, count, st);
    int open = C9_FN(pop64)(o.unsolved[0] | (uint64_t)o.unsolved[1] << 27) +
               C9_FN(pop64)(o.unsolved[2]);
    if (open < K9_OPEN_CELLS) {
        C9_OLD(search)(&o, &ctx, biv);  /* solved (open == 0) included */
        return C9_FN(k9_finish)(&ctx, count, st);
    }
    k9_state s;
    for (int b = 0; b < 9; b++) s.box[b] = (k9v16){0} + 0x1FF;
    for (int j = 0; j < 6; j++) {
        s.cfg[j] = (k9v8){0x1FF, 0x1FF, 0x1FF, 0x1FF, 0x1FF, 0x1FF, 0, 0};
        s.elim[j] = (k9v8){0};
    }
    for (int b = 0; b < 3; b++)
        for (uint32_t placed = BAND_ALL & ~o.unsolved[b]; placed; placed &= placed - 1) {
            int i = __builtin_ctz(placed);
            uint32_t dm = C9_OLD(digits_at)(o.F + 9 * b, 1u << i);
            C9_FN(k9_place)(&s, 27 * b + i, __builtin_ctz(dm) + 1);
        }
    ok = 1;
    for (int j = 0; j < 6 && ok; j++) ok = C9_FN(k9_bands)[j](&s, (j + 1) % 3);
    if (ok) C9_FN(k9_search)(&s, &ctx);
    return C9_FN(k9_finish)(&ctx, count, st);
}

#else
/* no box/band search with this compiler: counting takes the first search */
C9_TARGET static int C9_FN(count_body)(const uint8_t *givens, const uint32_t *domain,
                                       const int32_t *forbidden, int nforbidden,
                                       const uint8_t *avoid, const uint8_t *prefer,
                                       uint64_t limit, uint8_t *out, uint64_t keep,
                                       const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    return C9_OLD(solve_body)(givens, domain, forbidden, nforbidden, avoid, prefer, limit, out,
                              keep, budget, count, st);
}
#endif

#undef C9_OLD
#undef C9_VARIANT
#endif /* C9_VARIANT */
