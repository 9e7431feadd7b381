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
#include "se_nested.h"

#include <stdlib.h>
#include <string.h>

/* ---- hints and records --------------------------------------------------------------- */

int recs_push(Recs *R, Rec *rec)
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

int arena_put(Recs *R, int v)
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

int rule_parents_of(Nest *X, Recs *R, const int *src, const int *grid, int key, int cause,
                    int *np)
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
    next_stamp(X->seenst, 8192, &X->sstamp);
    if (rec) {
        rec->h1 = rec->h2 = (uint64_t)nt;
        rec->np = 0;
        rec->poff = X->coll->na;
        next_stamp(X->pmark, CH_KEYS, &X->pstamp);
    }
    for (int t = 0; t < nt; t++) {
        int stamp = next_stamp(D->mark, CH_KEYS, &D->stamp), head = 0, tail = 0;
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
            const int *ps = dnode_parents(D, n);
            for (int i = 0, np = dnode_npar(n); i < np; i++) {
                int q = ps[i], k = D->nodes[q].key;
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

/* The set of removals of a dynamic hint on `key` as one number: an "off" key removes its
 * candidate, an "on" key the cell's other candidates (one of them when the cell has two:
 * the same set as that one's "off"). */
static int removal_set(const int *cands, int key)
{
    int cell = (key >> 1) / 9, d0 = (key >> 1) % 9;
    if (!(key & 1))
        return cell * 9 + d0;
    int rest = cands[cell] & ~(1 << d0);
    return POP[rest] == 1 ? cell * 9 + __builtin_ctz((unsigned)rest) : 729 + cell * 9 + d0;
}

/* A hint of an inner producer: its removals, complexity, signature and rule parents.
 * SE keeps one hint per set of removals, the first in its order (rating, complexity, kind,
 * discovery; a producer's rating grows with the complexity): a hint that does not beat the
 * best so far of its set is left after a walk bounded by that one's complexity, and one
 * that does marks that one dead. */
static int hook_collect(Dyn *D, int kind, const int *targets, int nt, int sort_key, int key,
                        const int *cells, int nc)
{
    (void)cells;
    (void)nc;
    Nest *X = D->ext;
    Recs *R = X->coll;
    int set = removal_set(D->cands, key);
    int best = X->bstamp[set] == X->bround ? X->best[set] : -1;
    if (best >= 0) {
        const Rec *o = &R->r[best];
        int limit = sort_key < o->sort ? o->cx : o->cx - 1;
        if (limit < 0 || dyn_walk(D, targets, nt, limit, NULL) > limit)
            return 0;
    }
    Rec rec;
    rec.dead = 0;
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
    if (best >= 0)
        R->r[best].dead = 1;
    X->best[set] = R->n;
    X->bstamp[set] = X->bround;
    return recs_push(R, &rec);
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
        if (r->dead)
            continue;
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
        rc = static_hints(D->grid, D->cands, X, &X->tmp, X->deadline);
    } else {
        Dyn *I = X->inner[i];
        Nest *IX = I->ext;
        memcpy(X->icands[i], D->grid, sizeof(int) * 81);
        dyn_places(I);
        IX->coll = &X->tmp;
        IX->osrc = D->cands;
        next_stamp(IX->bstamp, 1458, &IX->bround);
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
