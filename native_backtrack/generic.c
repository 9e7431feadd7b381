/* Generic backtracker: any n (4..25), any all-different units, any "different" pairs,
 * binary relation tables, initial digit domains, linear sums, sandwich lines and tables of
 * allowed digit tuples.
 *
 * State per search node: one candidate mask per cell (bit d-1 = digit d possible) and the
 * value of each placed cell. Propagation, to a fixpoint: naked singles (placing a digit
 * removes it from every peer), hidden singles in every unit of exactly n cells (a digit
 * with one place left goes there), once singles are exhausted one revision of every
 * extra constraint (relations to arc consistency, sums through digit sets or bounds,
 * sandwiches once their 1 and n are placed, tables to generalised arc consistency: see
 * extra_sweep), then locked candidates
 * between two units sharing >= 2 cells (a digit that a full unit can only hold inside the
 * shared cells leaves the rest of the other unit: pointing and claiming for boxes and
 * lines; not in randomised searches, see nb_search_new). Branching: the unplaced cell with
 * the fewest candidates; digits in increasing order, random order from a seed, or a
 * preferred digit first (a known solution, when asking for another one).
 *
 * The depth-first search keeps an explicit stack of saved states, so it can stop after
 * any solution or when the budget runs out and resume later (streaming iteration).
 */
#define _POSIX_C_SOURCE 199309L  /* clock_gettime under -std=c99 */
#include "nb.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POPCOUNT(x) __builtin_popcount(x)
#define CTZ(x) __builtin_ctz(x)
#define CTZ64(x) __builtin_ctzll(x)

int nb_interrupt_flag = 0;

#ifdef NB_TESTING
/* Fault injection for the tests: allocations left before one fails (< 0: never). */
static long fail_countdown = -1;

void nb_fail_allocation_after(long k) { __atomic_store_n(&fail_countdown, k, __ATOMIC_SEQ_CST); }

static int allocation_fails(void)
{
    if (__atomic_load_n(&fail_countdown, __ATOMIC_RELAXED) < 0) return 0;
    return __atomic_fetch_sub(&fail_countdown, 1, __ATOMIC_SEQ_CST) == 0;
}
#else
#define allocation_fails() 0
#endif

void *nb_malloc(size_t size) { return allocation_fails() ? NULL : malloc(size); }
void *nb_calloc(size_t count, size_t size)
{
    return allocation_fails() ? NULL : calloc(count, size);
}
void *nb_realloc(void *ptr, size_t size) { return allocation_fails() ? NULL : realloc(ptr, size); }
void nb_free(void *ptr) { free(ptr); }

double nb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Frame: a header, then cand[nc] (uint32), then val[nc] (uint8). */
typedef struct {
    int32_t cell;       /* cell branched on in this frame */
    uint32_t mask;      /* digits still to try there */
    int32_t nassigned;  /* placed cells in the saved state */
    int32_t pad;
} frame_head;

enum { PH_START, PH_DESCEND, PH_BACKTRACK, PH_DONE };

struct nb_search {
    const nb_model *m;
    size_t fsize;          /* bytes per frame */
    int depth, cap;
    uint8_t *frames;
    uint8_t *cur;
    int16_t *queue;
    int qn;                /* pending queue entries for the first propagation */
    int phase;
    int final_status;
    uint64_t nodes, guesses, rng;
    int randomise;
    int locked;            /* use locked candidates (not in randomised searches) */
    uint8_t *avoid;        /* NULL or nc bytes */
    uint8_t *hint;         /* NULL or nc bytes: the digit to try first per cell */
    uint32_t *tab_seen;    /* NULL, or one mask per cell of each table scope (table_scope) */
    /* A randomised classic 9x9 search asked for one solution runs nb_fill9 (removal.c)
     * first; if it is run again, this search replays from the start up to where that
     * stopped, with no budget stop before node replay_nodes and the first `skip`
     * solutions (already returned) not reported, then goes on as it would have. */
    int fill9_tried;
    uint64_t replay_nodes, skip;
};

static inline uint32_t *f_cand(uint8_t *f) { return (uint32_t *)(f + sizeof(frame_head)); }
static inline uint8_t *f_val(uint8_t *f, int nc) { return f + sizeof(frame_head) + 4 * (size_t)nc; }

static inline uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: tiny, good enough for digit orders and tie-breaks */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void nb_model_release(nb_model *m)
{
    nb_free(m->lk_cells);
    nb_free(m->lk_start);
    nb_free(m->lk_full);
    m->lk_cells = NULL;
    m->lk_start = NULL;
    m->lk_full = NULL;
    m->nlocked = 0;
    nb_free(m->cu_mask);
    nb_free(m->lk_units);
    m->cu_mask = NULL;
    m->lk_units = NULL;
    m->dirty_words = 0;
    nb_free(m->lk_pmask);
    m->lk_pmask = NULL;
    nb_free(m->lk_rest);
    nb_free(m->lk_rest_start);
    nb_free(m->cs_start);
    nb_free(m->cs_list);
    m->lk_rest = NULL;
    m->lk_rest_start = NULL;
    m->cs_start = NULL;
    m->cs_list = NULL;
}

/* The segment recipes of the locked pairs (nb_model.lk_rest) and the segments of each
 * cell; left out (every run read cell by cell) above NB_SEG_MAX pairs. Each run is
 * covered greedily by the segments of at least two cells that lie inside it and are
 * disjoint from those taken, then by its remaining cells. 0 on allocation failure. */
static int index_segments(nb_model *m)
{
    const int np = m->nlocked, nc = m->nc;
    if (!np || np > NB_SEG_MAX) return 1;
    const int16_t *cells = m->lk_cells;
    const int32_t *st = m->lk_start;
    uint8_t *mark = nb_calloc((size_t)nc, 1);
    int32_t *rest_start = nb_malloc(sizeof(int32_t) * (size_t)(2 * np + 1));
    int32_t *cs_start = nb_calloc((size_t)nc + 1, sizeof(int32_t));
    int32_t *cs_list = nb_malloc(sizeof(int32_t) * (size_t)(st[3 * np] + 1));
    /* a run's recipe is never longer than the run */
    int32_t *rest = nb_malloc(sizeof(int32_t) * (size_t)(st[3 * np] + 1));
    int32_t *fill = NULL;
    if (!mark || !rest_start || !cs_start || !cs_list || !rest) goto fail;
    size_t len = 0;
    for (int k = 0; k < np; k++)
        for (int side = 0; side < 2; side++) {
            const int16_t *a = cells + st[3 * k + 1 + side], *e = cells + st[3 * k + 2 + side];
            rest_start[2 * k + side] = (int32_t)len;
            for (const int16_t *c = a; c < e; c++) mark[*c] = 1; /* 1: to cover */
            for (int sg = 0; sg < np; sg++) {
                const int16_t *sa = cells + st[3 * sg], *se = cells + st[3 * sg + 1];
                if (se - sa < 2) continue;
                int inside = 1;
                for (const int16_t *c = sa; c < se && inside; c++) inside = mark[*c] == 1;
                if (!inside) continue;
                for (const int16_t *c = sa; c < se; c++) mark[*c] = 2; /* 2: covered */
                rest[len++] = sg;
            }
            for (const int16_t *c = a; c < e; c++) {
                if (mark[*c] == 1) rest[len++] = -(int32_t)*c - 1;
                mark[*c] = 0;
            }
        }
    rest_start[2 * np] = (int32_t)len;
    for (int k = 0; k < np; k++)
        for (int32_t i = st[3 * k]; i < st[3 * k + 1]; i++) cs_start[cells[i] + 1]++;
    for (int c = 0; c < nc; c++) cs_start[c + 1] += cs_start[c];
    nb_free(mark);
    mark = NULL;
    fill = nb_malloc(sizeof(int32_t) * (size_t)nc);
    if (!fill) goto fail;
    memcpy(fill, cs_start, sizeof(int32_t) * (size_t)nc);
    for (int k = 0; k < np; k++)
        for (int32_t i = st[3 * k]; i < st[3 * k + 1]; i++) cs_list[fill[cells[i]]++] = k;
    nb_free(fill);
    m->lk_rest = rest;
    m->lk_rest_start = rest_start;
    m->cs_start = cs_start;
    m->cs_list = cs_list;
    return 1;
fail:
    nb_free(mark);
    nb_free(fill);
    nb_free(rest_start);
    nb_free(cs_start);
    nb_free(cs_list);
    nb_free(rest);
    return 0;
}

/* The full units of each cell as bit masks (cu_mask), for the dirty-unit sweeps of
 * hidden singles and locked candidates; left out (every unit swept) above NB_DIRTY_UNITS
 * full units. 0 on allocation failure. */
static int index_cell_units(nb_model *m)
{
    if (m->nfull > NB_DIRTY_UNITS || !m->nfull) return 1;
    const int nc = m->nc, n = m->n, words = (m->nfull + 63) / 64;
    uint64_t *mask = nb_calloc((size_t)nc * (size_t)words, sizeof *mask);
    if (!mask) return 0;
    for (int u = 0; u < m->nfull; u++)
        for (int i = 0; i < n; i++)
            mask[(size_t)m->unit_cells[(size_t)u * n + i] * words + (u >> 6)] |= 1ull << (u & 63);
    m->cu_mask = mask;
    m->dirty_words = words;
    if (words == 1 && m->nlocked) {
        uint64_t *pm = nb_malloc(sizeof *pm * (size_t)m->nlocked);
        if (!pm) return 0;
        for (int k = 0; k < m->nlocked; k++) {
            int u = m->lk_units[2 * k], v = m->lk_units[2 * k + 1];
            pm[k] = u < m->nfull && v < m->nfull ? (1ull << u) | (1ull << v) : ~0ull;
        }
        m->lk_pmask = pm;
    }
    return 1;
}

/* Append `x` to a growing int array; 0 on allocation failure. */
static int push16(int16_t **a, size_t *len, size_t *cap, int16_t x)
{
    if (*len == *cap) {
        size_t ncap = *cap ? 2 * *cap : 256;
        int16_t *na = nb_realloc(*a, ncap * sizeof **a);
        if (!na) return 0;
        *a = na;
        *cap = ncap;
    }
    (*a)[(*len)++] = x;
    return 1;
}

int nb_model_prepare(nb_model *m)
{
    nb_model_release(m);
    const int nc = m->nc, nu = m->nunits;
    uint8_t *mark = nb_calloc((size_t)nc, 1);
    int16_t *cells = NULL;
    size_t ncells = 0, capcells = 0;
    int32_t *starts = NULL;
    uint8_t *fullflags = NULL;
    int16_t *pairunits = NULL;
    size_t npairs = 0, cappairs = 0;
    if (!mark) return 0;
    for (int u = 0; u < nu; u++) {
        const int16_t *uc = m->unit_cells + m->unit_start[u];
        int ul = m->unit_start[u + 1] - m->unit_start[u];
        for (int i = 0; i < ul; i++) mark[uc[i]] = 1;
        for (int v = u + 1; v < nu; v++) {
            if (u >= m->nfull && v >= m->nfull) continue;  /* neither forces its digits */
            const int16_t *vc = m->unit_cells + m->unit_start[v];
            int vl = m->unit_start[v + 1] - m->unit_start[v];
            int shared = 0;
            for (int j = 0; j < vl; j++) shared += mark[vc[j]];
            if (shared < 2 || shared == ul || shared == vl) continue;  /* nothing outside */
            if (npairs == cappairs) {
                size_t ncap = cappairs ? 2 * cappairs : 64;
                int32_t *ns = nb_realloc(starts, (3 * ncap + 1) * sizeof *starts);
                if (!ns) goto fail;
                starts = ns;
                uint8_t *nf = nb_realloc(fullflags, ncap);
                if (!nf) goto fail;
                fullflags = nf;
                int16_t *nu2 = nb_realloc(pairunits, 2 * ncap * sizeof *pairunits);
                if (!nu2) goto fail;
                pairunits = nu2;
                cappairs = ncap;
            }
            size_t k = npairs++;
            fullflags[k] = (uint8_t)((u < m->nfull) | ((v < m->nfull) << 1));
            pairunits[2 * k] = (int16_t)u;
            pairunits[2 * k + 1] = (int16_t)v;
            starts[3 * k] = (int32_t)ncells;
            for (int j = 0; j < vl; j++)
                if (mark[vc[j]] && !push16(&cells, &ncells, &capcells, vc[j])) goto fail;
            starts[3 * k + 1] = (int32_t)ncells;
            for (int i = 0; i < ul; i++) {
                int in_v = 0;
                for (int j = 0; j < vl; j++) in_v |= vc[j] == uc[i];
                if (!in_v && !push16(&cells, &ncells, &capcells, uc[i])) goto fail;
            }
            starts[3 * k + 2] = (int32_t)ncells;
            for (int j = 0; j < vl; j++)
                if (!mark[vc[j]] && !push16(&cells, &ncells, &capcells, vc[j])) goto fail;
        }
        for (int i = 0; i < ul; i++) mark[uc[i]] = 0;
    }
    if (npairs) starts[3 * npairs] = (int32_t)ncells;
    nb_free(mark);
    m->nlocked = (int)npairs;
    m->lk_cells = cells;
    m->lk_start = starts;
    m->lk_full = fullflags;
    m->lk_units = pairunits;
    if (!index_cell_units(m) || !index_segments(m)) {
        nb_model_release(m);
        return 0;
    }
    return 1;
fail:
    nb_free(mark);
    nb_free(cells);
    nb_free(starts);
    nb_free(fullflags);
    nb_free(pairunits);
    return 0;
}

int nb_check_givens(const nb_model *m, const uint8_t *g)
{
    for (int c = 0; c < m->nc; c++)
        if (g[c] > m->n) return NB_INVALID;
    for (int c = 0; c < m->nc; c++) {
        if (!g[c]) continue;
        for (int k = m->peer_start[c]; k < m->peer_start[c + 1]; k++)
            if (g[m->peer_cells[k]] == g[c]) return NB_CONTRADICTORY;
    }
    return 0;
}

/* Dirty units: the full units that a change may have given new hidden singles (h) or
 * locked candidates (l) since their last sweep: a cell of theirs lost a candidate or was
 * placed. words = 0 on a model without tracking (every unit is swept, every pair
 * checked). */
typedef struct {
    uint64_t w[NB_DIRTY_UNITS / 64];
} dirty_set;

typedef struct {
    dirty_set h, l;
    int words;
} dirty_track;

static inline void touch(const nb_model *m, dirty_track *d, int c)
{
    const uint64_t *mk = m->cu_mask + (size_t)c * (size_t)d->words;
    for (int i = 0; i < d->words; i++) {
        d->h.w[i] |= mk[i];
        d->l.w[i] |= mk[i];
    }
}

static inline void touch_all(const nb_model *m, dirty_track *d)
{
    for (int u = 0; u < m->nfull && d->words; u++) {
        d->h.w[u >> 6] |= 1ull << (u & 63);
        d->l.w[u >> 6] |= 1ull << (u & 63);
    }
}

static inline int is_set(const dirty_set *d, int u) { return (int)((d->w[u >> 6] >> (u & 63)) & 1); }

/* The lowest unit of h, taken out of it; -1 when none. */
static inline int take_dirty(dirty_track *d)
{
    for (int i = 0; i < d->words; i++)
        if (d->h.w[i]) {
            int u = CTZ64(d->h.w[i]);
            d->h.w[i] &= d->h.w[i] - 1;
            return i * 64 + u;
        }
    return -1;
}

/* OR of the candidates of a run of cells (placed cells included: their digit is taken). */
static inline uint32_t or_cells(const uint32_t *cand, const int16_t *c, const int16_t *e)
{
    uint32_t x = 0;
    for (; c < e; c++) x |= cand[*c];
    return x;
}

/* The ORs of the segments (see nb_model.lk_rest) during one locked-candidates pass, each
 * computed when first asked and dropped when a cell of it loses a candidate: every OR
 * read is the one of the cells as they are, as if the run were read cell by cell. */
typedef struct {
    uint32_t or_[NB_SEG_MAX];
    uint8_t ok[NB_SEG_MAX];
} seg_cache;

static inline uint32_t seg_or(const nb_model *m, seg_cache *sc, const uint32_t *cand, int s)
{
    if (!sc->ok[s]) {
        sc->or_[s] = or_cells(cand, m->lk_cells + m->lk_start[3 * s],
                              m->lk_cells + m->lk_start[3 * s + 1]);
        sc->ok[s] = 1;
    }
    return sc->or_[s];
}

/* OR of the candidates of the run whose recipe is lk_rest[from .. to). */
static inline uint32_t or_recipe(const nb_model *m, seg_cache *sc, const uint32_t *cand,
                                 int32_t from, int32_t to)
{
    uint32_t x = 0;
    for (const int32_t *r = m->lk_rest + from, *e = m->lk_rest + to; r < e; r++)
        x |= *r >= 0 ? seg_or(m, sc, cand, *r) : cand[-*r - 1];
    return x;
}

/* Remove `b` from the open cells of a run; cells left with one candidate go to q.
 * Returns the new queue length, or -1 on a contradiction. *changed is set on a removal;
 * the segments of a cell that changed are dropped from sc (when not NULL). */
static inline int strip_cells(const nb_model *m, dirty_track *d, seg_cache *sc,
                              uint32_t *cand, const uint8_t *val, const int16_t *c,
                              const int16_t *e, uint32_t b, int16_t *q, int qn, int *changed)
{
    for (; c < e; c++) {
        uint32_t x = cand[*c];
        if (val[*c] || !(x & b)) continue;
        x &= ~b;
        if (!x) return -1;
        cand[*c] = x;
        *changed = 1;
        touch(m, d, *c);
        if (sc)
            for (int32_t i = m->cs_start[*c]; i < m->cs_start[*c + 1]; i++)
                sc->ok[m->cs_list[i]] = 0;
        if (!(x & (x - 1))) q[qn++] = *c;
    }
    return qn;
}

/* One pass of locked candidates over the unit pairs of the model: a digit that a unit of
 * n cells can only hold in the cells it shares with another unit is removed from the
 * other unit's remaining cells. With tracking, a pair of two full units neither of which
 * is dirty in d->l is left out: no cell of it changed since it was last checked. Cells
 * left with one candidate are queued in q (*qn entries). Returns -1 on a contradiction, 0
 * when nothing changed, 1 after a removal. */
static int locked_candidates(const nb_model *m, uint32_t *cand, const uint8_t *val,
                             int16_t *q, int *qn, dirty_track *d)
{
    int n = 0, changed = 0;
    const int16_t *cells = m->lk_cells;
    const int32_t *st = m->lk_start;
    const int nfull = m->nfull;
    dirty_set check = d->l;
    memset(&d->l, 0, sizeof d->l);
    seg_cache cache, *sc = m->lk_rest ? &cache : NULL;
    if (sc) memset(sc->ok, 0, (size_t)m->nlocked);
    for (int k = 0; k < m->nlocked; k++, st += 3) {
        if (m->lk_pmask) {
            if (!(check.w[0] & m->lk_pmask[k])) continue;
        } else if (d->words) {
            int u = m->lk_units[2 * k], v = m->lk_units[2 * k + 1];
            if (u < nfull && v < nfull && !is_set(&check, u) && !is_set(&check, v)) continue;
        }
        const int16_t *a = cells + st[0], *b = cells + st[1], *c = cells + st[2],
                      *e = cells + st[3];
        uint32_t in, u_rest, v_rest;
        if (sc) {
            const int32_t *rs = m->lk_rest_start + 2 * k;
            in = seg_or(m, sc, cand, k);
            u_rest = or_recipe(m, sc, cand, rs[0], rs[1]);
            v_rest = or_recipe(m, sc, cand, rs[1], rs[2]);
        } else {
            in = or_cells(cand, a, b);
            u_rest = or_cells(cand, b, c);
            v_rest = or_cells(cand, c, e);
        }
        int full = m->lk_full[k];
        /* digits that u holds only in the shared cells and v's other cells still allow */
        uint32_t from_v = (full & 1) ? in & ~u_rest & v_rest : 0;
        uint32_t from_u = (full & 2) ? in & ~v_rest & u_rest : 0;
        if (from_v && (n = strip_cells(m, d, sc, cand, val, c, e, from_v, q, n, &changed)) < 0)
            return -1;
        if (from_u && (n = strip_cells(m, d, sc, cand, val, b, c, from_u, q, n, &changed)) < 0)
            return -1;
    }
    *qn = n;
    return changed;
}

/* ---- extra constraints: relations, sums, sandwiches, tables ----
 *
 * They are revised in sweeps: once singles are exhausted, every extra constraint is
 * revised once (extra_sweep); a removal sends propagate() back to its singles. Each
 * revision only removes digits that no solution of that one constraint can use, so the
 * search stays exact; a full assignment is checked by the same sweep (it can then only
 * find a contradiction). */

/* Keep only `keep` in cell c: -1 when nothing is left, else 0 (*changed set on a
 * removal; a cell left with one candidate is queued). A placed cell holds one digit, so
 * it either keeps it or empties. */
static inline int narrow(uint32_t *cand, int c, uint32_t keep, int16_t *q, int *qn,
                         int *changed)
{
    uint32_t x = cand[c], y = x & keep;
    if (y == x) return 0;
    if (!y) return -1;
    cand[c] = y;
    *changed = 1;
    if (!(y & (y - 1))) q[(*qn)++] = (int16_t)c;
    return 0;
}

/* The digits (a mask) whose weighted value w*d lies in [lo, hi], among `x`. */
static inline uint32_t digits_in_range(uint32_t x, int64_t w, int64_t lo, int64_t hi)
{
    uint32_t keep = 0;
    while (x) {
        uint32_t b = x & (0u - x);
        x ^= b;
        int64_t v = w * (int64_t)(CTZ(b) + 1);
        if (v >= lo && v <= hi) keep |= b;
    }
    return keep;
}

/* Bounds reasoning on sum(w_i * d_i) == total over cells[0..len): each cell keeps the
 * digits whose term fits between the total and the others' smallest / largest terms. */
static int sum_bounds(const int16_t *cells, const int32_t *w, int len, int64_t total,
                      uint32_t *cand, const uint8_t *val, int16_t *q, int *qn, int *changed)
{
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < len; i++) {
        uint32_t x = cand[cells[i]];
        int64_t a = (int64_t)w[i] * (CTZ(x) + 1), b = (int64_t)w[i] * (32 - __builtin_clz(x));
        if (a <= b) { lo += a; hi += b; }
        else { lo += b; hi += a; }
    }
    if (total < lo || total > hi) return -1;
    if (lo == hi) return 0;
    for (int i = 0; i < len; i++) {
        int c = cells[i];
        uint32_t x = cand[c];
        if (val[c] || !(x & (x - 1))) continue;
        /* this cell's own bounds, from its mask at the start of the pass (a removal since
         * then only made the others' bounds looser than they are: still sound) */
        int64_t a = (int64_t)w[i] * (CTZ(x) + 1), b = (int64_t)w[i] * (32 - __builtin_clz(x));
        int64_t own_lo = a <= b ? a : b, own_hi = a <= b ? b : a;
        uint32_t keep = digits_in_range(x, w[i], total - (hi - own_hi), total - (lo - own_lo));
        if (narrow(cand, c, keep, q, qn, changed) < 0) return -1;
    }
    return 0;
}

/* A distinct group of unit weights through its digit sets: a set stays possible when
 * it holds every placed digit, its other digits each fit some open cell and every open
 * cell can take one of them. Open cells keep the union of the possible sets; a digit in
 * every possible set with one open cell left for it goes there. */
static int sum_combos(const nb_model *m, int g, uint32_t *cand, const uint8_t *val,
                      int16_t *q, int *qn, int *changed)
{
    const int16_t *cells = m->sum_cells + m->sum_start[g];
    const int len = m->sum_start[g + 1] - m->sum_start[g];
    const uint32_t *cb = m->combos + m->combo_start[g], *ce = m->combos + m->combo_start[g + 1];
    uint32_t placed = 0, open_union = 0;
    int nopen = 0;
    for (int i = 0; i < len; i++) {
        int c = cells[i];
        if (val[c]) placed |= cand[c];
        else { open_union |= cand[c]; nopen++; }
    }
    uint32_t allowed = 0, required = ~0u;
    int feasible = 0;
    for (; cb < ce; cb++) {
        uint32_t combo = *cb;
        if ((combo & placed) != placed) continue;
        uint32_t rest = combo & ~placed;
        if (rest & ~open_union) continue;
        int fits = 1;
        for (int i = 0; i < len && fits; i++) {
            int c = cells[i];
            if (!val[c] && !(cand[c] & rest)) fits = 0;
        }
        if (!fits) continue;
        feasible = 1;
        allowed |= rest;
        required &= rest;
    }
    if (!feasible) return -1;
    if (!nopen) return 0;
    for (int i = 0; i < len; i++)
        if (!val[cells[i]] && narrow(cand, cells[i], allowed, q, qn, changed) < 0) return -1;
    while (required) {
        uint32_t b = required & (0u - required);
        required ^= b;
        int home = -1, homes = 0;
        for (int i = 0; i < len; i++) {
            int c = cells[i];
            if (!val[c] && (cand[c] & b)) { home = c; homes++; }
        }
        if (!homes) return -1;
        if (homes == 1 && narrow(cand, home, b, q, qn, changed) < 0) return -1;
    }
    return 0;
}

/* A sandwich line: once the 1 and the n are placed and no open cell of the line can
 * still hold either (so "the" 1 and n are known), the cells between them get bounds
 * reasoning on their sum; a line with every cell placed is checked exactly. */
static int sandwich(const nb_model *m, int k, uint32_t *cand, const uint8_t *val,
                    int16_t *q, int *qn, int *changed)
{
    const int16_t *cells = m->sand_cells + m->sand_start[k];
    const int len = m->sand_start[k + 1] - m->sand_start[k];
    const uint32_t ends = 1u | (1u << (m->n - 1));
    int p1 = -1, pn = -1, open_ends = 0, nopen = 0;
    for (int i = 0; i < len; i++) {
        int c = cells[i];
        if (val[c]) {
            if (val[c] == 1 && p1 < 0) p1 = i;
            if (val[c] == m->n && pn < 0) pn = i;
        } else {
            nopen++;
            if (cand[c] & ends) open_ends = 1;
        }
    }
    if (p1 < 0 || pn < 0) return nopen ? 0 : -1;  /* complete without a 1 or an n */
    if (open_ends) return 0;
    int from = (p1 < pn ? p1 : pn) + 1, to = p1 < pn ? pn : p1;
    int64_t lo = 0, hi = 0;
    for (int i = from; i < to; i++) {
        uint32_t x = cand[cells[i]];
        lo += CTZ(x) + 1;
        hi += 32 - __builtin_clz(x);
    }
    const int64_t total = m->sand_total[k];
    if (total < lo || total > hi) return -1;
    if (lo == hi) return 0;
    for (int i = from; i < to; i++) {
        int c = cells[i];
        uint32_t x = cand[c];
        if (val[c] || !(x & (x - 1))) continue;
        int64_t own_lo = CTZ(x) + 1, own_hi = 32 - __builtin_clz(x);
        uint32_t keep = digits_in_range(x, 1, total - (hi - own_hi), total - (lo - own_lo));
        if (narrow(cand, c, keep, q, qn, changed) < 0) return -1;
    }
    return 0;
}

/* A table scope to generalised arc consistency: the tuples whose every digit is still a
 * candidate of its cell are kept, and each cell keeps the digits at its position in some
 * kept tuple (none kept: a contradiction). Only the tuples with a candidate at one
 * position are read (through the table's index, the position that leaves fewest), and the
 * scan stops once every cell has support for all of its candidates. `seen` (the scope's arity of masks, per search) holds the masks
 * the scope's cells had after its last revision that ended consistent: the result depends
 * on the masks alone, so a scope whose cells have not changed since is skipped. */
static int table_scope(const nb_model *m, int k, uint32_t *cand, uint32_t *seen, int16_t *q,
                       int *qn, int *changed)
{
    const int16_t *cells = m->tab_cells + m->tab_start[k];
    const int a = m->tab_start[k + 1] - m->tab_start[k];
    const uint32_t *row = m->tab_rows + m->tab_off[k];
    const int32_t nrows = m->tab_nrows[k];
    uint32_t cur[NB_TAB_MAXARITY], supp[NB_TAB_MAXARITY];
    int same = 1;
    for (int i = 0; i < a; i++) {
        cur[i] = cand[cells[i]];
        supp[i] = 0;
        same &= cur[i] == seen[i];
    }
    if (same) return 0;
    if (nrows == 0) return -1;
    /* only the tuples with a candidate digit at the position where that leaves fewest */
    const int n = m->n;
    const int32_t *buckets = m->tab_bucket + m->tab_boff[k];
    int best = 0;
    int32_t fewest = INT32_MAX;
    for (int i = 0; i < a; i++) {
        const int32_t *b = buckets + (size_t)i * (n + 1);
        int32_t count = 0;
        for (uint32_t x = cur[i]; x; x &= x - 1) count += b[CTZ(x) + 1] - b[CTZ(x)];
        if (count < fewest) {
            fewest = count;
            best = i;
        }
    }
    const int32_t *b = buckets + (size_t)best * (n + 1);
    const int32_t *idx = m->tab_idx + m->tab_ioff[k] + (size_t)best * nrows;
    int open = a;  /* cells with a candidate still unsupported */
    for (uint32_t x = cur[best]; x && open; x &= x - 1) {
        const int d = CTZ(x);
        for (int32_t j = b[d]; j < b[d + 1] && open; j++) {
            const uint32_t *t = row + (size_t)idx[j] * a;
            int i = 0;
            while (i < a && (t[i] & cur[i])) i++;
            if (i < a) continue;
            for (i = 0; i < a; i++) {
                if (t[i] & ~supp[i]) {
                    supp[i] |= t[i];
                    if (supp[i] == cur[i]) open--;
                }
            }
        }
    }
    if (open)
        for (int i = 0; i < a; i++)
            if (narrow(cand, cells[i], supp[i], q, qn, changed) < 0) return -1;
    for (int i = 0; i < a; i++) seen[i] = cand[cells[i]];
    return 0;
}

/* One revision of every extra constraint. Returns -1 on a contradiction, 0 when nothing
 * changed, 1 after a removal (cells left with one candidate are queued in q). */
static int extra_sweep(const nb_model *m, uint32_t *cand, const uint8_t *val,
                       uint32_t *tab_seen, int16_t *q, int *qn)
{
    int changed = 0;
    const int n = m->n;
    for (int k = 0; k < m->nrel; k++) {
        const int a = m->rel_cells[2 * k], b = m->rel_cells[2 * k + 1];
        const uint32_t *t = m->rel_masks + m->rel_table[k];
        uint32_t x = cand[a], support = 0;
        while (x) {
            uint32_t bit = x & (0u - x);
            x ^= bit;
            support |= t[CTZ(bit)];
        }
        if (narrow(cand, b, support, q, qn, &changed) < 0) return -1;
        x = cand[b];
        support = 0;
        while (x) {
            uint32_t bit = x & (0u - x);
            x ^= bit;
            support |= t[n + CTZ(bit)];
        }
        if (narrow(cand, a, support, q, qn, &changed) < 0) return -1;
    }
    for (int g = 0; g < m->nsum; g++) {
        int r;
        if (m->sum_mode[g])
            r = sum_combos(m, g, cand, val, q, qn, &changed);
        else {
            const int32_t st = m->sum_start[g];
            r = sum_bounds(m->sum_cells + st, m->sum_weights + st, m->sum_start[g + 1] - st,
                           m->sum_total[g], cand, val, q, qn, &changed);
        }
        if (r < 0) return -1;
    }
    for (int k = 0; k < m->nsand; k++)
        if (sandwich(m, k, cand, val, q, qn, &changed) < 0) return -1;
    for (int k = 0; k < m->ntab; k++)
        if (table_scope(m, k, cand, tab_seen + m->tab_start[k], q, qn, &changed) < 0) return -1;
    return changed;
}

static void combos_from(int next, int n, int k, int64_t total, uint32_t mask, uint32_t *out,
                        size_t cap, size_t *count)
{
    if (k == 0) {
        if (total == 0) {
            if (*count < cap) out[*count] = mask;
            (*count)++;
        }
        return;
    }
    for (int d = next; d <= n - k + 1 && *count <= cap; d++) {
        /* the smallest and largest sums of k digits from d up */
        int64_t least = (int64_t)k * d + (int64_t)k * (k - 1) / 2;
        int64_t most = (int64_t)k * n - (int64_t)k * (k - 1) / 2;
        if (least > total) return;
        if (most < total) return;
        combos_from(d + 1, n, k - 1, total - d, mask | (1u << (d - 1)), out, cap, count);
    }
}

size_t nb_combos(int n, int k, int64_t total, uint32_t *out, size_t cap)
{
    size_t count = 0;
    if (k < 0 || k > n || n > 32) return 0;
    combos_from(1, n, k, total, 0, out, cap, &count);
    return count > cap ? cap + 1 : count;
}

/* Hidden singles in the full unit u: a digit with one open place left goes there (the
 * cell is queued in q). Returns -1 on a contradiction (a digit with no place, or two
 * digits forced into one cell), else the new queue length. */
static inline int hidden_singles(const nb_model *m, int u, uint32_t *cand, const uint8_t *val,
                                 int16_t *q, int qn)
{
    const int n = m->n;
    const int16_t *uc = m->unit_cells + (size_t)u * n;
    uint32_t once = 0, twice = 0, placed = 0;
    for (int i = 0; i < n; i++) {
        int c = uc[i];
        uint32_t x = cand[c];
        /* without a branch: whether a cell is placed is close to random here */
        uint32_t open = val[c] ? 0u : ~0u, y = x & open;
        placed |= x & ~open;
        twice |= once & y;
        once |= y;
    }
    if ((once | placed) != m->full) return -1;
    uint32_t h = once & ~twice & ~placed;
    while (h) {
        uint32_t b = h & (0u - h);
        h ^= b;
        for (int i = 0; i < n; i++) {
            int c = uc[i];
            uint32_t x = cand[c];
            if (!val[c] && (x & b)) {
                if (x == b) break;              /* already forced, queued */
                if (!(x & (x - 1))) return -1;  /* forced to another digit */
                cand[c] = b;
                q[qn++] = (int16_t)c;
                break;
            }
        }
    }
    return qn;
}

/* Propagate the `qn` cells in q (each has a single candidate, not yet placed), from a
 * state where every rule held except around the queued cells (a branch from a saved
 * fixpoint), or with `all` from any state. Returns 0 on contradiction.
 *
 * Hidden singles are swept, and locked pairs of two full units checked, only where a
 * unit is dirty (a cell of it lost a candidate or was placed since that unit's last
 * sweep; every unit after an extra revision, which does not say where it removed): the
 * rules only remove candidates, so they reach the same fixpoint in any order, and a
 * contradiction in every order. The state after each propagation, hence nodes, guesses
 * and every seed's grids, is the one a sweep over every unit and pair reaches. */
static int propagate(const nb_model *m, uint32_t *cand, uint8_t *val, int32_t *nassigned,
                     uint32_t *tab_seen, int16_t *q, int qn, int locked, int all)
{
    const int nc = m->nc;
    dirty_track d;
    d.words = m->dirty_words;
    memset(&d.h, 0, sizeof d.h);
    memset(&d.l, 0, sizeof d.l);
    if (all) touch_all(m, &d);
    else
        for (int i = 0; i < qn; i++) touch(m, &d, q[i]);
    for (;;) {
        int qi = 0;
        while (qi < qn) {
            int c = q[qi++];
            if (val[c]) continue;
            uint32_t b = cand[c];
            if (!b) return 0;
            val[c] = (uint8_t)(CTZ(b) + 1);
            (*nassigned)++;
            const int16_t *p = m->peer_cells + m->peer_start[c];
            const int16_t *pe = m->peer_cells + m->peer_start[c + 1];
            for (; p < pe; p++) {
                uint32_t x = cand[*p];
                if (x & b) {
                    x &= ~b;
                    cand[*p] = x;
                    if (!x) return 0;
                    if (!(x & (x - 1))) q[qn++] = *p;
                    touch(m, &d, *p);
                }
            }
        }
        if (*nassigned == nc) {
            if (!m->has_extra) return 1;
            qn = 0;  /* a full assignment: the sweep can only find a contradiction */
            return extra_sweep(m, cand, val, tab_seen, q, &qn) == 0;
        }
        qn = 0;
        if (d.words) {
            /* placed before the next unit: their removals may settle other dirty units */
            int u;
            while (!qn && (u = take_dirty(&d)) >= 0) {
                qn = hidden_singles(m, u, cand, val, q, 0);
                if (qn < 0) return 0;
                for (int i = 0; i < qn; i++) touch(m, &d, q[i]); /* they lost digits */
            }
        } else {
            for (int u = 0; u < m->nfull; u++)
                if ((qn = hidden_singles(m, u, cand, val, q, qn)) < 0) return 0;
        }
        if (qn) continue;
        if (m->has_extra) {
            int ex = extra_sweep(m, cand, val, tab_seen, q, &qn);
            if (ex < 0) return 0;
            if (ex > 0) {  /* it does not say where it removed */
                touch_all(m, &d);
                continue;
            }
        }
        if (!locked) return 1;
        /* singles are exhausted: locked candidates, then singles again after a removal */
        int lc = locked_candidates(m, cand, val, q, &qn, &d);
        if (lc <= 0) return lc == 0;
    }
}

/* nb_search_new, or with `seen` (see nb_solve_seen) the givens taken as placed. */
static nb_search *search_new(const nb_model *m, const uint8_t *givens, const uint32_t *seen,
                             const int32_t *forbidden, int nforbidden, const uint8_t *avoid,
                             int randomise, uint64_t seed)
{
    nb_search *s = nb_calloc(1, sizeof *s);
    if (!s) return NULL;
    const int nc = m->nc;
    s->m = m;
    s->fsize = (sizeof(frame_head) + 5 * (size_t)nc + 15) & ~(size_t)15;
    s->cap = 16;
    s->frames = nb_malloc(s->fsize * (size_t)s->cap);
    s->cur = nb_malloc(s->fsize);
    s->queue = nb_malloc(sizeof(int16_t) * (size_t)(nc + 1));
    if (avoid) {
        s->avoid = nb_malloc((size_t)nc);
        if (s->avoid) memcpy(s->avoid, avoid, (size_t)nc);
    }
    if (m->ntab > 0) /* zeros: no cell has an empty mask, so every scope is revised first */
        s->tab_seen = nb_calloc((size_t)m->tab_start[m->ntab], sizeof(uint32_t));
    if (!s->frames || !s->cur || !s->queue || (avoid && !s->avoid) ||
        (m->ntab > 0 && !s->tab_seen)) {
        nb_search_free(s);
        return NULL;
    }
    s->randomise = randomise;
    /* Random full grids are found faster with singles alone (a near-empty grid has
     * nothing locked), and the same seed keeps giving the same grid as before. */
    s->locked = !randomise && m->nlocked > 0;
    s->rng = seed;
    s->phase = PH_START;

    int st = seen ? 0 : nb_check_givens(m, givens);
    if (st) {
        s->phase = PH_DONE;
        s->final_status = st;
        return s;
    }
    frame_head *h = (frame_head *)s->cur;
    uint32_t *cand = f_cand(s->cur);
    uint8_t *val = f_val(s->cur, nc);
    h->nassigned = 0;
    for (int c = 0; c < nc; c++) {
        cand[c] = m->domain ? m->domain[c] & m->full : m->full;
        val[c] = 0;
    }
    for (int k = 0; k < nforbidden; k++) {
        int c = forbidden[2 * k], d = forbidden[2 * k + 1];
        if (c >= 0 && c < nc && d >= 1 && d <= m->n) cand[c] &= ~(1u << (d - 1));
    }
    int qn = 0;
    for (int c = 0; c < nc; c++) {
        if (givens[c]) {
            uint32_t b = 1u << (givens[c] - 1);
            if (!(cand[c] & b)) {   /* a given that is forbidden: no solution */
                s->phase = PH_DONE;
                s->final_status = NB_EXHAUSTED;
                return s;
            }
            cand[c] = b;
            if (seen) { /* placed: its peers' masks already leave its digit out */
                val[c] = givens[c];
                h->nassigned++;
            } else
                s->queue[qn++] = (int16_t)c;
        } else {
            if (seen) cand[c] &= ~seen[c]; /* the givens' digits among its peers */
            if (!(cand[c] & (cand[c] - 1))) {
                if (!cand[c]) {
                    s->phase = PH_DONE;
                    s->final_status = NB_EXHAUSTED;
                    return s;
                }
                s->queue[qn++] = (int16_t)c;
            }
        }
    }
    s->qn = qn;
    return s;
}

nb_search *nb_search_new(const nb_model *m, const uint8_t *givens,
                         const int32_t *forbidden, int nforbidden,
                         const uint8_t *avoid, int randomise, uint64_t seed)
{
    return search_new(m, givens, NULL, forbidden, nforbidden, avoid, randomise, seed);
}

void nb_search_free(nb_search *s)
{
    if (!s) return;
    nb_free(s->frames);
    nb_free(s->cur);
    nb_free(s->queue);
    nb_free(s->avoid);
    nb_free(s->hint);
    nb_free(s->tab_seen);
    nb_free(s);
}

int nb_search_hint(nb_search *s, const uint8_t *hint)
{
    nb_free(s->hint);
    s->hint = NULL;
    if (!hint) return 1;
    s->hint = nb_malloc((size_t)s->m->nc);
    if (!s->hint) return 0;
    memcpy(s->hint, hint, (size_t)s->m->nc);
    return 1;
}

void nb_search_stats(const nb_search *s, nb_stats *st)
{
    st->nodes = s->nodes;
    st->guesses = s->guesses;
}

static int pick_cell(const nb_search *s, const uint32_t *cand, const uint8_t *val,
                     uint64_t *rng)
{
    const int nc = s->m->nc;
    int best = -1, bestc = 99;
    int start = s->randomise ? (int)(rng_next(rng) % (uint64_t)nc) : 0;
    for (int k = 0, c = start; k < nc; k++, c = (c + 1 == nc) ? 0 : c + 1) {
        if (val[c]) continue;
        int pc = POPCOUNT(cand[c]);
        if (pc < bestc) {
            bestc = pc;
            best = c;
            if (pc <= 2) break;
        }
    }
    return best;
}

static inline uint32_t pick_digit(nb_search *s, int cell, uint32_t mask)
{
    if (s->hint && s->hint[cell]) {
        /* A second solution usually agrees with the known one almost everywhere: trying
         * the known digit first finds it in a few nodes (and costs nothing when there is
         * none: every branch is visited anyway). */
        uint32_t h = 1u << (s->hint[cell] - 1);
        if (mask & h) return h;
    }
    if (!s->randomise) return mask & (0u - mask);
    int k = (int)(rng_next(&s->rng) % (uint64_t)POPCOUNT(mask));
    while (k--) mask &= mask - 1;
    return mask & (0u - mask);
}

/* 0 to go on, else the status to stop with. The stop flag and the clock are polled every
 * NB_POLL_NODES nodes: a relaxed load and a vDSO clock read, nothing next to 256 nodes. */
static int budget_spent(const nb_search *s, const nb_budget *b)
{
    if (s->nodes < s->replay_nodes) /* nb_fill9 went this far within the budget already */
        return (s->nodes & (NB_POLL_NODES - 1)) == 0 && nb_interrupted() ? NB_INTERRUPTED : 0;
    if (b && b->nodes_limit && s->nodes >= b->nodes_limit) return NB_BUDGET;
    if ((s->nodes & (NB_POLL_NODES - 1)) == 0) {
        if (nb_interrupted()) return NB_INTERRUPTED;
        if (b && b->deadline > 0 && nb_now() > b->deadline) return NB_BUDGET;
    }
    return 0;
}

int nb_search_run(nb_search *s, uint64_t want, uint8_t *out, uint64_t keep,
                  const nb_budget *budget, uint64_t *found)
{
    const nb_model *m = s->m;
    const int nc = m->nc;
    uint8_t *cur = s->cur;
    frame_head *ch = (frame_head *)cur;
    uint32_t *cand = f_cand(cur);
    uint8_t *val = f_val(cur, nc);
    uint64_t got = 0;
    *found = 0;
    if (s->phase == PH_DONE) return s->final_status;
    if (want == 0) return NB_LIMIT;
    if (nb_interrupted()) return NB_INTERRUPTED;
    if (budget && budget->deadline > 0 && nb_now() > budget->deadline) return NB_BUDGET;

    if (s->phase == PH_START && !s->fill9_tried && want == 1 && s->randomise && m->classic9 &&
        !s->avoid && !s->hint && !s->locked) {
        uint8_t grid[81];
        uint64_t rng = s->rng; /* a replay draws again from the start */
        s->fill9_tried = 1;
        int st = nb_fill9(cand, val, ch->nassigned, s->queue, s->qn, &rng, budget, &s->nodes,
                          &s->guesses, grid);
        if (st == NB_EXHAUSTED) {
            s->phase = PH_DONE;
            s->final_status = NB_EXHAUSTED;
            return NB_EXHAUSTED;
        }
        s->replay_nodes = s->nodes;
        if (st == NB_LIMIT) {
            s->skip = 1;
            if (keep && out) memcpy(out, grid, 81);
            *found = 1;
        }
        return st;
    }
    if (s->phase == PH_START) {
        if (s->fill9_tried) s->nodes = s->guesses = 0; /* the replay counts them again */
        s->nodes++;
        if (propagate(m, cand, val, &ch->nassigned, s->tab_seen, s->queue, s->qn, s->locked, 1))
            s->phase = PH_DESCEND;
        else {
            s->phase = PH_DONE;
            s->final_status = NB_EXHAUSTED;
            return NB_EXHAUSTED;
        }
    }
    for (;;) {
        if (s->phase == PH_DESCEND) {
            if (ch->nassigned == nc) {
                s->phase = PH_BACKTRACK;
                if (s->skip) {
                    s->skip--;
                } else if (!(s->avoid && memcmp(val, s->avoid, (size_t)nc) == 0)) {
                    if (got < keep && out) memcpy(out + got * (size_t)nc, val, (size_t)nc);
                    got++;
                    if (got >= want) {
                        *found = got;
                        return NB_LIMIT;
                    }
                }
            } else {
                int c = pick_cell(s, cand, val, &s->rng);
                if (s->depth == s->cap) {
                    int ncap = s->cap * 2;
                    uint8_t *nf = nb_realloc(s->frames, s->fsize * (size_t)ncap);
                    if (!nf) {  /* the state is intact: a later call may go on */
                        *found = got;
                        return NB_NOMEM;
                    }
                    s->frames = nf;
                    s->cap = ncap;
                }
                uint8_t *f = s->frames + s->fsize * (size_t)s->depth++;
                memcpy(f, cur, s->fsize);
                frame_head *fh = (frame_head *)f;
                fh->cell = c;
                fh->mask = cand[c];
                s->guesses++;
                s->phase = PH_BACKTRACK;
            }
        }
        /* PH_BACKTRACK: try the next digit of the top frame */
        for (;;) {
            if (s->depth == 0) {
                s->phase = PH_DONE;
                s->final_status = NB_EXHAUSTED;
                *found = got;
                return NB_EXHAUSTED;
            }
            uint8_t *f = s->frames + s->fsize * (size_t)(s->depth - 1);
            frame_head *fh = (frame_head *)f;
            if (!fh->mask) {
                s->depth--;
                continue;
            }
            int stop = budget_spent(s, budget);
            if (stop) {
                *found = got;
                return stop;
            }
            uint32_t b = pick_digit(s, fh->cell, fh->mask);
            fh->mask &= ~b;
            int c = fh->cell;
            if (fh->mask) memcpy(cur, f, s->fsize);
            else {  /* last alternative: take the frame's state and drop the frame */
                memcpy(cur, f, s->fsize);
                s->depth--;
            }
            s->nodes++;
            cand[c] = b;
            s->queue[0] = (int16_t)c;
            if (propagate(m, cand, val, &ch->nassigned, s->tab_seen, s->queue, 1, s->locked,
                          0)) {
                s->phase = PH_DESCEND;
                break;
            }
        }
    }
}

/* One search from search_new's state to a status (nb_solve's contract). */
static int solve_one(nb_search *s, const uint8_t *hint, uint64_t limit, uint8_t *out,
                     uint64_t keep, const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    if (s && !nb_search_hint(s, hint)) {
        nb_search_free(s);
        s = NULL;
    }
    if (!s) {
        *count = 0;
        st->nodes = st->guesses = 0;
        return NB_NOMEM;
    }
    int status = nb_search_run(s, limit, out, keep, budget, count);
    nb_search_stats(s, st);
    nb_search_free(s);
    return status;
}

int nb_solve_seen(const nb_model *m, const uint8_t *givens, const uint32_t *seen,
                  const int32_t *forbidden, int nforbidden, const uint8_t *avoid,
                  const uint8_t *hint, uint64_t limit, uint8_t *out, uint64_t keep,
                  const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    nb_search *s = search_new(m, givens, seen, forbidden, nforbidden, avoid, 0, 0);
    return solve_one(s, hint, limit, out, keep, budget, count, st);
}

int nb_solve(const nb_model *m, const uint8_t *givens, const int32_t *forbidden,
             int nforbidden, const uint8_t *avoid, const uint8_t *hint,
             uint64_t limit, uint8_t *out,
             uint64_t keep, const nb_budget *budget, uint64_t *count, nb_stats *st)
{
    if (m->classic9)  /* c9_solve checks the givens itself, faster */
        return c9_solve(givens, m->domain, forbidden, nforbidden, avoid, NULL, limit, out,
                        keep, budget, count, st);
    nb_search *s = nb_search_new(m, givens, forbidden, nforbidden, avoid, 0, 0);
    return solve_one(s, hint, limit, out, keep, budget, count, st);
}
