/* The nested dynamic forcing chains of the SE rater (SE's levels 2 and more), in C: what
 * sudoku_model.se.dynamic_chains._nested_advanced and its helpers do, hint for hint.
 *
 * A dynamic chain of nesting level L runs the engine of se_dynamic_chains.c (dyn_run) with "+";
 * when the "+" rules find nothing on the chain's grid, the nested chaining rules run on
 * that grid (level 2: forcing chains and cycles; 3: those and multiple forcing chains;
 * 4: dynamic forcing chains; 5 and more: those and dynamic forcing chains of level L - 3),
 * and the removals of the first rule with hints resting on the chain's own removals join
 * the chain. Each such hint has SE's rule parents (the removals of the units its inner
 * singles rest on) as parents, and adds its complexity to every hint whose chains pass
 * through it, once per distinct chain (SE's FullChain: the same potentials in the same
 * order).
 *
 * An inner rule's hints are wanted all, in SE's order (rating, complexity, kind, then
 * discovery), one per set of removals; of those, the ones with rule parents are kept as
 * records (removals, rule parents, complexity, signature) and cached per (rule, source
 * grid, chain grid): the chains of one step meet the same grids again and again. A node
 * of the outer chain names its record by its tag (se_chains.h). A chain's signature is
 * kept as two 64-bit hashes of its potentials in order. */
#include "se_scan.h"

#include <stdlib.h>
#include <string.h>

/* ---- hints and records --------------------------------------------------------------- */

typedef struct {
    double diff;
    int cx, sort, idx;
    int eoff, ne; /* removals in the arena: cell * 9 + digit - 1 */
    int poff, np; /* rule parents in the arena: off keys */
    uint64_t h1, h2;
} Rec;

typedef struct {
    Rec *r;
    int n, cap;
    int *a;
    int na, acap;
} Recs;

static int recs_push(Recs *R, Rec *rec)
{
    if (R->n == R->cap) {
        int cap = R->cap ? 2 * R->cap : 256;
        Rec *r = realloc(R->r, sizeof(Rec) * cap);
        if (!r)
            return -1;
        R->r = r;
        R->cap = cap;
    }
    R->r[R->n++] = *rec;
    return 0;
}

static int arena_put(Recs *R, int v)
{
    if (R->na == R->acap) {
        int cap = R->acap ? 2 * R->acap : 4096;
        int *a = realloc(R->a, sizeof(int) * cap);
        if (!a)
            return -1;
        R->a = a;
        R->acap = cap;
    }
    R->a[R->na++] = v;
    return 0;
}

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline void sig_add(uint64_t *h1, uint64_t *h2, uint64_t v)
{
    *h1 = mix64(*h1 ^ (v + 0x9e3779b97f4a7c15ULL));
    *h2 = mix64(*h2 + v * 0xd6e8feb86659fd93ULL + 0x632be59bd9b4e019ULL);
}

/* ---- the state of one producer's nesting ----------------------------------------------- */

enum { R_STATIC, R_MULTIPLE, R_DYNAMIC, R_NESTED };

typedef struct {
    uint64_t h;
    int rule, grid, start, n; /* grid: offset of source and chain grid in the grid store */
} Entry;

/* The records of nested hints and their cache. A top producer's store outlives its call:
 * on the same state, level 3 reads the static chains that level 2 found, level 5 the
 * dynamic ones of level 4 (what the Python reference's module-wide cache gives). */
typedef struct {
    Recs recs;
    Entry *tab;
    int tcap, tn;
    int *grids;
    int ng, gcap;
} Store;

typedef struct Nest {
    const int *values;
    double deadline;
    int level;
    /* nesting (level >= 2): the rules, their producers, the records and their cache */
    int nrules, rules[2];
    Dyn *inner[2];
    int icands[2][81];
    Store own, *st; /* st: own, or for a top producer the store its calls share */
    Recs tmp;      /* the hints of the rule being computed */
    int *out;      /* the removals of one nested call, as nodes */
    int nout, ocap;
    /* collecting (an inner producer): its hints go to `coll`, rule parents from `osrc` */
    Recs *coll;
    const int *osrc;
    int root_cause;
    /* scratch */
    int pmark[CH_KEYS], pstamp;
    uint64_t seen1[8192], seen2[8192];
    int seenst[8192], sstamp;
} Nest;

/* ---- walking a hint's chains ---------------------------------------------------------- */

/* A nested record's complexity, counted once per signature within one hint. */
static int nested_once(Nest *X, int tag)
{
    const Rec *r = &X->st->recs.r[tag];
    unsigned i = (unsigned)(r->h1 & 8191);
    for (int probe = 0; probe < 8192; probe++, i = (i + 1) & 8191) {
        if (X->seenst[i] != X->sstamp) {
            X->seenst[i] = X->sstamp;
            X->seen1[i] = r->h1;
            X->seen2[i] = r->h2;
            return r->cx;
        }
        if (X->seen1[i] == r->h1 && X->seen2[i] == r->h2)
            return 0;
    }
    return 0;
}

static void new_sstamp(Nest *X)
{
    if (++X->sstamp > (1 << 30)) {
        memset(X->seenst, 0, sizeof(X->seenst));
        X->sstamp = 1;
    }
}

static int new_pstamp(Nest *X)
{
    if (++X->pstamp > (1 << 30)) {
        memset(X->pmark, 0, sizeof(X->pmark));
        X->pstamp = 1;
    }
    return X->pstamp;
}

/* SE's rule parents of one "on" potential of an inner chain (cause: its unit), appended
 * to `R`'s arena unless already there (pmark). */
static int rule_parents_of(Nest *X, Recs *R, const int *src, const int *grid, int key,
                           int cause, int *np)
{
    if (cause == NAKED) {
        int cell = (key >> 1) / 9;
        for (int m = src[cell] & ~grid[cell]; m; m &= m - 1) {
            int k = cell * 18 + (__builtin_ctz((unsigned)m) << 1);
            if (X->pmark[k] != X->pstamp) {
                X->pmark[k] = X->pstamp;
                if (arena_put(R, k))
                    return -1;
                (*np)++;
            }
        }
    } else if (cause >= 0) {
        int d0 = (key >> 1) % 9, bit = 1 << d0;
        for (int i = 0; i < 9; i++) {
            int c = REG[cause][i];
            if ((src[c] & bit) && !(grid[c] & bit)) {
                int k = (c * 9 + d0) << 1;
                if (X->pmark[k] != X->pstamp) {
                    X->pmark[k] = X->pstamp;
                    if (arena_put(R, k))
                        return -1;
                    (*np)++;
                }
            }
        }
    }
    return 0;
}

/* The complexity of a hint of `D` with targets `targets` (chaining._complexity), or
 * limit + 1 once above `limit`. With `rec`, also its signature and (into X->coll's
 * arena) its rule parents. -1 when out of memory. */
static int dyn_walk(Dyn *D, const int *targets, int nt, int limit, Rec *rec)
{
    Nest *X = D->ext;
    int cx = 0;
    new_sstamp(X);
    if (rec) {
        rec->h1 = rec->h2 = (uint64_t)nt;
        rec->np = 0;
        rec->poff = X->coll->na;
        new_pstamp(X);
    }
    if (D->stamp > (1 << 30)) {
        memset(D->mark, 0, sizeof(D->mark));
        D->stamp = 0;
    }
    for (int t = 0; t < nt; t++) {
        int stamp = ++D->stamp, head = 0, tail = 0;
        D->mark[D->nodes[targets[t]].key] = stamp;
        D->bfs[tail++] = targets[t];
        if (rec)
            sig_add(&rec->h1, &rec->h2, 0x10000u + (unsigned)t);
        while (head < tail) {
            const DNode *n = &D->nodes[D->bfs[head++]];
            if (n->key & 1) {
                if (rec) {
                    int cause = n->tag == NO_CAUSE ? X->root_cause : n->tag;
                    if (rule_parents_of(X, X->coll, X->osrc, D->cands, n->key, cause, &rec->np))
                        return -1;
                }
            } else if (n->tag >= 0) {
                cx += nested_once(X, n->tag);
            }
            if (rec)
                sig_add(&rec->h1, &rec->h2, (uint64_t)n->key);
            for (int i = 0; i < n->npar; i++) {
                int q = D->par[n->par + i], k = D->nodes[q].key;
                if (D->mark[k] != stamp) {
                    D->mark[k] = stamp;
                    D->bfs[tail++] = q;
                }
            }
            if (!rec && cx + tail > limit)
                return limit + 1;
        }
        cx += tail;
        if (!rec && cx > limit)
            return limit + 1;
    }
    return cx;
}

static int hook_complexity(Dyn *D, const int *targets, int nt, int limit)
{
    int cx = dyn_walk(D, targets, nt, limit, NULL);
    return cx < 0 ? limit + 1 : cx;
}

/* A hint of an inner producer: its removals, complexity, signature and rule parents. */
static int hook_collect(Dyn *D, int kind, const int *targets, int nt, int sort_key, int key,
                        const int *cells, int nc)
{
    (void)kind;
    (void)cells;
    (void)nc;
    Nest *X = D->ext;
    Recs *R = X->coll;
    Rec rec;
    X->root_cause = kind == DK_CELL ? NAKED : kind == DK_REGION ? D->region : NO_CAUSE;
    int cx = dyn_walk(D, targets, nt, 1 << 30, &rec);
    if (cx < 0)
        return -1;
    rec.cx = cx;
    rec.diff = D->base + length_addition(cx);
    rec.sort = sort_key;
    rec.idx = R->n;
    rec.eoff = R->na;
    rec.ne = 0;
    int cell = (key >> 1) / 9, d0 = (key >> 1) % 9;
    if (key & 1) {
        for (int m = D->cands[cell] & ~(1 << d0); m; m &= m - 1, rec.ne++)
            if (arena_put(R, cell * 9 + __builtin_ctz((unsigned)m)))
                return -1;
    } else {
        if (arena_put(R, cell * 9 + d0))
            return -1;
        rec.ne = 1;
    }
    return recs_push(R, &rec);
}

/* ---- every static chain (static_chains._static_all) ---------------------------------- */

typedef struct {
    int key, parent, tag;
} SNode;

typedef struct {
    const int *cands, *osrc;
    Nest *X; /* whose pmark the rule parents use */
    Recs *dest;
    int n_on[729], on_off[729][CH_ONOFF];
    int n_off[729], off_on[729][CH_OFFON], off_cause[729][CH_OFFON];
    SNode *nodes;
    int nn, ncap;
    uint64_t (*paths)[23];
    int *pathof; /* path index of a node, by node */
    int mark[CH_KEYS], stamp;
    int onmark[CH_KEYS], onstamp;
    int par[CH_KEYS], cause[CH_KEYS];
    int pend[CH_KEYS], next[CH_KEYS];
    int walk[CH_KEYS * 2];
} Static;

static void st_build(Static *S, int y, int x)
{
    se_build_links(S->cands, y, x, S->n_on, S->on_off, S->n_off, S->off_on, S->off_cause);
}

/* A new stamp for a mark array of CH_KEYS (cleared before the counter could wrap). */
static int st_stamp(int *mark, int *stamp)
{
    if (*stamp >= (1 << 30)) {
        memset(mark, 0, sizeof(int) * CH_KEYS);
        *stamp = 0;
    }
    return ++*stamp;
}

static int st_node(Static *S, int key, int parent, int tag)
{
    if (S->nn == S->ncap) {
        int cap = S->ncap ? 2 * S->ncap : 32768;
        SNode *nodes = realloc(S->nodes, sizeof(SNode) * cap);
        int *pathof = realloc(S->pathof, sizeof(int) * cap);
        if (nodes)
            S->nodes = nodes;
        if (pathof)
            S->pathof = pathof;
        if (!nodes || !pathof)
            return -1;
        S->ncap = cap;
    }
    S->nodes[S->nn] = (SNode){key, parent, tag};
    S->pathof[S->nn] = -1;
    return S->nn++;
}

/* The unit of an off node's link from its on parent (static_chains._off_cause). */
static int off_cause(const Static *S, int i)
{
    const SNode *n = &S->nodes[i];
    if (n->parent < 0)
        return NO_CAUSE;
    int cell = (n->key >> 1) / 9, parent = (S->nodes[n->parent].key >> 1) / 9;
    if (cell == parent)
        return NAKED;
    for (int t = 0; t < 3; t++)
        if (CREG[cell][t] == CREG[parent][t])
            return CREG[cell][t];
    return NO_CAUSE;
}

/* A static hint into S->X->coll: removals ec/ed, the chain (nodes walk[0..nw), target
 * first) and, for a cycle, its reversal as the second chain. */
static int st_record(Static *S, double base, int sort_key, int cx, const int *elims, int ne,
                     int nw, int cycle)
{
    Nest *X = S->X;
    Recs *R = S->dest;
    Rec rec;
    rec.cx = cx;
    rec.diff = base + length_addition(cx);
    rec.sort = sort_key;
    rec.idx = R->n;
    rec.eoff = R->na;
    rec.ne = ne;
    for (int i = 0; i < ne; i++)
        if (arena_put(R, elims[i]))
            return -1;
    rec.poff = R->na;
    rec.np = 0;
    rec.h1 = rec.h2 = (uint64_t)(cycle ? 2 : 1);
    new_pstamp(X);
    /* the chain, target first: one node per potential, the first met */
    int stamp = st_stamp(S->mark, &S->stamp);
    sig_add(&rec.h1, &rec.h2, 0x10000u);
    for (int i = 0; i < nw; i++) {
        const SNode *n = &S->nodes[S->walk[i]];
        if (S->mark[n->key] == stamp)
            continue;
        S->mark[n->key] = stamp;
        sig_add(&rec.h1, &rec.h2, (uint64_t)n->key);
        if ((n->key & 1) && rule_parents_of(X, R, S->osrc, S->cands, n->key, n->tag, &rec.np))
            return -1;
    }
    if (cycle) {
        stamp = st_stamp(S->mark, &S->stamp);
        sig_add(&rec.h1, &rec.h2, 0x10001u);
        for (int i = nw - 1; i >= 0; i--) {
            int j = S->walk[i];
            const SNode *n = &S->nodes[j];
            int key = n->key ^ 1;
            if (S->mark[key] == stamp)
                continue;
            S->mark[key] = stamp;
            sig_add(&rec.h1, &rec.h2, (uint64_t)key);
            if ((key & 1) && rule_parents_of(X, R, S->osrc, S->cands, key, off_cause(S, j), &rec.np))
                return -1;
        }
    }
    return recs_push(R, &rec);
}

/* Walks from node i to its root into S->walk; returns the count. */
static int st_walk(Static *S, int i)
{
    int n = 0;
    for (; i >= 0; i = S->nodes[i].parent)
        S->walk[n++] = i;
    return n;
}

static int st_distinct(Static *S, int nw)
{
    int stamp = st_stamp(S->mark, &S->stamp), n = 0;
    for (int i = 0; i < nw; i++) {
        int k = S->nodes[S->walk[i]].key;
        if (S->mark[k] != stamp) {
            S->mark[k] = stamp;
            n++;
        }
    }
    return n;
}

static int st_cycle_hint(Static *S, int dst, double base, int sort_key)
{
    const int *cands = S->cands;
    u128 cells = 0, forw[9] = {0}, back[9] = {0};
    int nw = st_walk(S, dst);
    for (int i = 0; i < nw - 1; i++)
        cells |= BIT128((S->nodes[S->walk[i]].key >> 1) / 9);
    for (int i = 0; i < nw - 1; i++) {
        int key = S->nodes[S->walk[i]].key, cell = (key >> 1) / 9, d0 = (key >> 1) % 9;
        u128 seen = 0;
        for (u128 b = PEER[cell] & ~cells; b; b &= b - 1)
            if (cands[ctz128(b)] & (1 << d0))
                seen |= b & -b;
        if (key & 1)
            forw[d0] |= seen;
        else
            back[d0] |= seen;
    }
    u128 both = 0;
    for (int d0 = 0; d0 < 9; d0++)
        both |= forw[d0] & back[d0];
    if (!both)
        return 0; /* nothing goes: most cycles */
    int elims[729], ne = 0;
    for (int c = 0; c < 81; c++)
        if (both & BIT128(c))
            for (int d0 = 0; d0 < 9; d0++)
                if (forw[d0] & back[d0] & BIT128(c))
                    elims[ne++] = c * 9 + d0;
    return st_record(S, base, sort_key, st_distinct(S, nw), elims, ne, nw, 1);
}

/* static_chains._all_cycles, each hint recorded. */
static int st_cycles(Static *S, int src_key, double base, int sort_key)
{
    S->nn = 0;
    int stamp = st_stamp(S->onmark, &S->onstamp), npath = 0;
    int src = st_node(S, src_key, -1, NO_CAUSE);
    if (src < 0)
        return -1;
    S->onmark[src_key] = stamp;
    S->pathof[src] = npath;
    memset(S->paths[npath], 0, sizeof(S->paths[0]));
    S->paths[npath][src_key >> 6] |= (uint64_t)1 << (src_key & 63);
    npath++;
    int *pend = S->pend, np = 1;
    pend[0] = src;
    int length = 0;
    while (np) {
        length += 2;
        int first = S->nn;
        for (int i = 0; i < np; i++) {
            int p = pend[i], cd = S->nodes[p].key >> 1;
            const uint64_t *path = S->paths[S->pathof[p]];
            for (int k = 0; k < S->n_on[cd]; k++) {
                int off_key = S->on_off[cd][k];
                if (path[off_key >> 6] >> (off_key & 63) & 1)
                    continue;
                if (st_node(S, off_key, p, NO_CAUSE) < 0)
                    return -1;
            }
        }
        int last = S->nn, nnext = 0;
        for (int j = first; j < last; j++) {
            int cd = S->nodes[j].key >> 1;
            for (int k = 0; k < S->n_off[cd]; k++) {
                int on_key = S->off_on[cd][k], cause = S->off_cause[cd][k];
                if (length >= 4 && on_key == src_key) {
                    int dst = st_node(S, on_key, j, cause);
                    if (dst < 0 || st_cycle_hint(S, dst, base, sort_key) < 0)
                        return -1;
                }
                if (S->onmark[on_key] != stamp) {
                    S->onmark[on_key] = stamp;
                    int n = st_node(S, on_key, j, cause);
                    if (n < 0 || npath >= 730)
                        return -1;
                    int off_key = S->nodes[j].key;
                    S->pathof[n] = npath;
                    memcpy(S->paths[npath], S->paths[S->pathof[S->nodes[j].parent]],
                           sizeof(S->paths[0]));
                    S->paths[npath][off_key >> 6] |= (uint64_t)1 << (off_key & 63);
                    S->paths[npath][on_key >> 6] |= (uint64_t)1 << (on_key & 63);
                    npath++;
                    S->next[nnext++] = n;
                }
            }
        }
        memcpy(pend, S->next, sizeof(int) * nnext);
        np = nnext;
    }
    return 0;
}

/* static_chains._first_forcing from src_key, recorded when it removes something. */
static int st_forcing(Static *S, int src_key, double base, int sort_key)
{
    int stamp = st_stamp(S->onmark, &S->onstamp), target_key = src_key ^ 1;
    int *pon = S->pend, non = 0, *poff = S->next, noff = 0;
    int qa[CH_KEYS];
    S->onmark[src_key] = stamp;
    S->par[src_key] = -1;
    S->cause[src_key] = NO_CAUSE;
    if (src_key & 1)
        pon[non++] = src_key;
    else
        poff[noff++] = src_key;
    int found = -1, last = -1, fcause = NO_CAUSE;
    while ((non || noff) && found < 0) {
        for (int i = 0; i < non && found < 0; i++) {
            int key = pon[i], cd = key >> 1;
            for (int k = 0; k < S->n_on[cd]; k++) {
                int off_key = S->on_off[cd][k];
                if (off_key == target_key) {
                    found = off_key;
                    last = key;
                    break;
                }
                if (S->onmark[off_key] != stamp) {
                    S->onmark[off_key] = stamp;
                    S->par[off_key] = key;
                    S->cause[off_key] = NO_CAUSE;
                    poff[noff++] = off_key;
                }
            }
        }
        if (found >= 0)
            break;
        non = 0;
        int nq = 0;
        for (int i = 0; i < noff && found < 0; i++) {
            int key = poff[i], cd = key >> 1;
            for (int k = 0; k < S->n_off[cd]; k++) {
                int on_key = S->off_on[cd][k], cause = S->off_cause[cd][k];
                if (on_key == target_key) {
                    found = on_key;
                    last = key;
                    fcause = cause;
                    break;
                }
                if (S->onmark[on_key] != stamp) {
                    S->onmark[on_key] = stamp;
                    S->par[on_key] = key;
                    S->cause[on_key] = cause;
                    qa[nq++] = on_key;
                }
            }
        }
        noff = 0;
        memcpy(pon, qa, sizeof(int) * nq);
        non = nq;
    }
    if (found < 0)
        return 0;
    /* the chain as nodes, target first */
    S->nn = 0;
    int n = 0, keys[CH_KEYS];
    for (int k = last; k >= 0; k = S->par[k])
        keys[n++] = k;
    int prev = -1;
    for (int i = n - 1; i >= 0; i--) {
        int k = keys[i];
        prev = st_node(S, k, prev, (k & 1) && k != src_key ? S->cause[k] : NO_CAUSE);
        if (prev < 0)
            return -1;
    }
    int t = st_node(S, found, prev, fcause);
    if (t < 0)
        return -1;
    int tc = (found >> 1) / 9, td0 = (found >> 1) % 9, elims[9], ne = 0;
    if (found & 1) {
        for (int m = S->cands[tc] & ~(1 << td0); m; m &= m - 1)
            elims[ne++] = tc * 9 + __builtin_ctz((unsigned)m);
    } else {
        elims[ne++] = tc * 9 + td0;
    }
    if (!ne)
        return 0;
    int nw = st_walk(S, t);
    return st_record(S, base, sort_key, st_distinct(S, nw), elims, ne, nw, 0);
}

/* static_chains._static_all on `cands`, every hint into X->coll: 0, 1 when the deadline
 * passed, -1 when out of memory. */
static int static_all(Static *S, double deadline)
{
    static const int MODES[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    for (int m = 0; m < 3; m++) {
        int y = MODES[m][0], x = MODES[m][1];
        double base_cycle = y && x ? 7.0 : 6.5, base_chain = y && x ? 7.0 : 6.6;
        int sort_key = y && x ? 4 : (y ? 3 : 2);
        st_build(S, y, x);
        static char closing[CH_KEYS];
        memset(closing, 0, sizeof(closing));
        for (int cd = 0; cd < 729; cd++)
            for (int k = 0; k < S->n_off[cd]; k++)
                closing[S->off_on[cd][k]] = 1;
        for (int cell = 0; cell < 81; cell++) {
            int cm = S->cands[cell], n = POP[cm];
            if (n < 2 || (!x && n > 2))
                continue;
            if (deadline >= 0 && cpu_seconds() > deadline)
                return 1;
            for (int mm = cm; mm; mm &= mm - 1) {
                int on_key = ((cell * 9 + __builtin_ctz((unsigned)mm)) << 1) | 1;
                if (closing[on_key] && st_cycles(S, on_key, base_cycle, sort_key) < 0)
                    return -1;
                /* the chain from the "off" ends at the "on": one that nothing implies
                 * ends none */
                if (x && (st_forcing(S, on_key, base_chain, sort_key) < 0 ||
                          (closing[on_key] && st_forcing(S, on_key ^ 1, base_chain, sort_key) < 0)))
                    return -1;
            }
        }
    }
    return 0;
}

/* ---- SE's order of an inner rule's hints, and the records kept ------------------------ */

static const Recs *SORT_RECS;

static int rec_cmp(const void *pa, const void *pb)
{
    const Rec *a = &SORT_RECS->r[*(const int *)pa], *b = &SORT_RECS->r[*(const int *)pb];
    if (a->diff != b->diff)
        return a->diff < b->diff ? -1 : 1;
    if (a->cx != b->cx)
        return a->cx < b->cx ? -1 : 1;
    if (a->sort != b->sort)
        return a->sort < b->sort ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static uint64_t elims_hash(const Recs *T, const Rec *r)
{
    uint64_t h = (uint64_t)r->ne;
    for (int i = 0; i < r->ne; i++)
        h = mix64(h ^ (uint64_t)(T->a[r->eoff + i] + 1));
    return h;
}

/* static_chains._sorted_unique of the hints in X->tmp, then the ones with rule parents
 * (dynamic_chains._inner_results) appended to X->st->recs; *start and *n say where. */
static int finish(Nest *X, int *start, int *n)
{
    Recs *T = &X->tmp;
    *start = X->st->recs.n;
    *n = 0;
    if (T->n == 0)
        return 0;
    int *order = malloc(sizeof(int) * T->n);
    int hcap = 1;
    while (hcap < 2 * T->n)
        hcap <<= 1;
    int *slot = malloc(sizeof(int) * hcap);
    uint64_t *hs = malloc(sizeof(uint64_t) * hcap);
    if (!order || !slot || !hs) {
        free(order);
        free(slot);
        free(hs);
        return -1;
    }
    for (int i = 0; i < T->n; i++)
        order[i] = i;
    SORT_RECS = T;
    qsort(order, T->n, sizeof(int), rec_cmp);
    memset(slot, 0xff, sizeof(int) * hcap);
    int rc = 0;
    for (int o = 0; o < T->n && !rc; o++) {
        const Rec *r = &T->r[order[o]];
        uint64_t h = elims_hash(T, r);
        unsigned i = (unsigned)h & (hcap - 1);
        int dup = 0;
        for (; slot[i] >= 0; i = (i + 1) & (hcap - 1)) {
            const Rec *q = &T->r[slot[i]];
            if (hs[i] == h && q->ne == r->ne &&
                !memcmp(T->a + q->eoff, T->a + r->eoff, sizeof(int) * r->ne)) {
                dup = 1;
                break;
            }
        }
        if (dup)
            continue;
        slot[i] = order[o];
        hs[i] = h;
        if (!r->np)
            continue;
        Rec k = *r;
        k.eoff = X->st->recs.na;
        for (int j = 0; j < r->ne && !rc; j++)
            rc = arena_put(&X->st->recs, T->a[r->eoff + j]);
        k.poff = X->st->recs.na;
        for (int j = 0; j < r->np && !rc; j++)
            rc = arena_put(&X->st->recs, T->a[r->poff + j]);
        if (!rc)
            rc = recs_push(&X->st->recs, &k);
        (*n)++;
    }
    free(order);
    free(slot);
    free(hs);
    return rc;
}

/* ---- the producers and their nesting ------------------------------------------------- */

static void nest_free(Dyn *D);

static void store_free(Store *S)
{
    free(S->recs.r);
    free(S->recs.a);
    free(S->tab);
    free(S->grids);
    memset(S, 0, sizeof(Store));
}

static int hook_cell_start(Dyn *D);
static int hook_nested(Dyn *D, DChain *ch, int *toff);

/* A producer of the given kind and nesting level on `cands` (both arrays outlive it),
 * collecting every hint when `collect`. NULL when out of memory. */
static Dyn *nest_new(const int *values, const int *cands, int multiple, int dynamic, int level,
                     double deadline, int collect)
{
    Dyn *D = dyn_new(values, cands, 0, multiple, dynamic, level >= 1);
    Nest *X = calloc(1, sizeof(Nest));
    if (!D || !X) {
        dyn_free(D);
        free(X);
        return NULL;
    }
    D->ext = X;
    X->st = &X->own;
    X->values = values;
    X->deadline = deadline;
    X->level = level;
    if (level >= 1)
        D->base = 8.5 + 0.5 * level;
    if (collect)
        D->on_hint = hook_collect;
    if (level >= 2) {
        D->nested = hook_nested;
        D->complexity = hook_complexity;
        D->cell_start = hook_cell_start;
        if (level < 4) {
            X->rules[X->nrules++] = R_STATIC;
            if (level >= 3)
                X->rules[X->nrules++] = R_MULTIPLE;
        } else {
            X->rules[X->nrules++] = R_DYNAMIC;
            if (level >= 5)
                X->rules[X->nrules++] = R_NESTED;
        }
        for (int i = 0; i < X->nrules; i++) {
            int rule = X->rules[i];
            if (rule == R_STATIC)
                continue;
            X->inner[i] = nest_new(values, X->icands[i], 1, rule != R_MULTIPLE,
                                   rule == R_NESTED ? level - 3 : 0, deadline, 1);
            if (!X->inner[i]) {
                nest_free(D);
                return NULL;
            }
        }
    }
    return D;
}

static void nest_free(Dyn *D)
{
    if (!D)
        return;
    Nest *X = D->ext;
    if (X) {
        for (int i = 0; i < 2; i++)
            nest_free(X->inner[i]);
        store_free(&X->own);
        free(X->tmp.r);
        free(X->tmp.a);
        free(X->out);
        free(X);
    }
    dyn_free(D);
}

static void cache_clear(Store *S)
{
    S->recs.n = S->recs.na = 0;
    S->tn = 0;
    S->ng = 0;
    if (S->tab)
        memset(S->tab, 0xff, sizeof(Entry) * S->tcap);
}

/* Before a cell's chains: the cache is cleared when large (1: cleared, the nodes that
 * name its records are dropped). */
static int hook_cell_start(Dyn *D)
{
    Nest *X = D->ext;
    if (X->st->tn <= 4096 && X->st->recs.na <= (1 << 23))
        return 0;
    cache_clear(X->st);
    return 1;
}

static uint64_t grid_hash(int rule, const int *src, const int *grid)
{
    uint64_t h = (uint64_t)rule + 1;
    for (int i = 0; i < 81; i++)
        h = mix64(h ^ ((uint64_t)src[i] << 9 | (uint64_t)grid[i]));
    return h;
}

static Static *static_get(void);

/* The records of rule i on the chain grid of D (source D->cands): cached, else computed.
 * 0, or -1 with D->failed set. */
static int inner_results(Dyn *D, int i, int *start, int *n)
{
    Nest *X = D->ext;
    int rule = X->rules[i];
    int id = rule == R_NESTED ? R_NESTED + X->level - 3 : rule; /* the rule and its level */
    uint64_t h = grid_hash(id, D->cands, D->grid);
    if (X->st->tcap == 0 || 2 * (X->st->tn + 1) > X->st->tcap) {
        int cap = X->st->tcap ? 2 * X->st->tcap : 1024;
        Entry *tab = malloc(sizeof(Entry) * cap);
        if (!tab)
            return D->failed = -1;
        memset(tab, 0xff, sizeof(Entry) * cap);
        for (int j = 0; j < X->st->tcap; j++)
            if (X->st->tab[j].rule >= 0) {
                unsigned s = (unsigned)X->st->tab[j].h & (cap - 1);
                while (tab[s].rule >= 0)
                    s = (s + 1) & (cap - 1);
                tab[s] = X->st->tab[j];
            }
        free(X->st->tab);
        X->st->tab = tab;
        X->st->tcap = cap;
    }
    unsigned s = (unsigned)h & (X->st->tcap - 1);
    for (; X->st->tab[s].rule >= 0; s = (s + 1) & (X->st->tcap - 1)) {
        const Entry *e = &X->st->tab[s];
        const int *g = X->st->grids + e->grid;
        if (e->h == h && e->rule == id && !memcmp(g, D->cands, sizeof(int) * 81) &&
            !memcmp(g + 81, D->grid, sizeof(int) * 81)) {
            *start = e->start;
            *n = e->n;
            return 0;
        }
    }
    /* compute */
    X->tmp.n = X->tmp.na = 0;
    int rc;
    if (rule == R_STATIC) {
        Static *S = static_get();
        if (!S)
            return D->failed = -1;
        S->cands = D->grid;
        S->X = X;
        S->dest = &X->tmp;
        S->osrc = D->cands;
        rc = static_all(S, X->deadline);
    } else {
        Dyn *I = X->inner[i];
        Nest *IX = I->ext;
        memcpy(X->icands[i], D->grid, sizeof(int) * 81);
        dyn_places(I);
        IX->coll = &X->tmp;
        IX->osrc = D->cands;
        I->failed = 0;
        rc = dyn_hints(I, X->deadline);
        if (rc < 0 && I->failed == 1)
            rc = 1;
    }
    if (rc)
        return D->failed = rc == 1 ? 1 : -1;
    if (finish(X, start, n))
        return D->failed = -1;
    if (X->st->ng + 162 > X->st->gcap) {
        int cap = X->st->gcap ? 2 * X->st->gcap : 162 * 256;
        int *g = realloc(X->st->grids, sizeof(int) * cap);
        if (!g)
            return D->failed = -1;
        X->st->grids = g;
        X->st->gcap = cap;
    }
    memcpy(X->st->grids + X->st->ng, D->cands, sizeof(int) * 81);
    memcpy(X->st->grids + X->st->ng + 81, D->grid, sizeof(int) * 81);
    X->st->tab[s] = (Entry){h, id, X->st->ng, *start, *n};
    X->st->ng += 162;
    X->st->tn++;
    return 0;
}

/* dynamic_chains._nested_advanced past "+": the removals of the first nested rule with
 * hints resting on the chain's removals, added to the chain (those it lacks) and queued
 * at qoff[*toff..]. The number added, -1 on failure (D->failed says which). */
static int hook_nested(Dyn *D, DChain *ch, int *toff)
{
    Nest *X = D->ext;
    X->nout = 0;
    for (int i = 0; i < X->nrules && X->nout == 0; i++) {
        int start, n;
        if (inner_results(D, i, &start, &n))
            return -1;
        for (int j = start; j < start + n; j++) {
            const Rec *r = &X->st->recs.r[j];
            const int *keys = X->st->recs.a + r->poff;
            int ok = 1;
            for (int k = 0; k < r->np && ok; k++)
                ok = ch->idx[keys[k]] >= 0;
            if (!ok)
                continue;
            int pstart = D->np;
            for (int k = 0; k < r->np; k++)
                if (dyn_par(D, ch->idx[keys[k]]) < 0)
                    return D->failed = -1;
            for (int e = 0; e < r->ne; e++) {
                int node = dyn_node(D, X->st->recs.a[r->eoff + e] << 1, pstart, r->np, j);
                if (node < 0)
                    return D->failed = -1;
                if (X->nout == X->ocap) {
                    int cap = X->ocap ? 2 * X->ocap : 1024;
                    int *out = realloc(X->out, sizeof(int) * cap);
                    if (!out)
                        return D->failed = -1;
                    X->out = out;
                    X->ocap = cap;
                }
                X->out[X->nout++] = node;
            }
        }
    }
    return chain_add_new(D, ch, X->out, X->nout, toff);
}

/* The static search (one at a time: it nests nothing), made on first use. */
static Static *STATIC;

static Static *static_get(void)
{
    if (STATIC)
        return STATIC;
    Static *S = calloc(1, sizeof(Static));
    if (!S)
        return NULL;
    S->paths = malloc(sizeof(S->paths[0]) * 730);
    if (!S->paths) {
        free(S);
        return NULL;
    }
    STATIC = S;
    return S;
}

/* ---- Python entry point -------------------------------------------------------------- */

/* The store of the top producers, for the state SHARED_STATE (values, then candidates). */
static Store SHARED;
static int SHARED_STATE[162] = {-1};

PyObject *py_nested_chains(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pv, *pc;
    int level;
    double deadline = -1.0;
    if (!PyArg_ParseTuple(args, "OOi|d", &pv, &pc, &level, &deadline))
        return NULL;
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    if (level < 2 || level > 64) {
        PyErr_SetString(PyExc_ValueError, "a nesting level is 2 or more");
        return NULL;
    }
    Dyn *D = nest_new(values, cands, 1, 1, level, deadline, 0);
    if (!D)
        return PyErr_NoMemory();
    if (memcmp(SHARED_STATE, values, sizeof(int) * 81) ||
        memcmp(SHARED_STATE + 81, cands, sizeof(int) * 81)) {
        cache_clear(&SHARED);
        memcpy(SHARED_STATE, values, sizeof(int) * 81);
        memcpy(SHARED_STATE + 81, cands, sizeof(int) * 81);
    }
    ((Nest *)D->ext)->st = &SHARED;
    PyObject *out = dyn_best(D, deadline);
    nest_free(D);
    return out;
}
