/* Every static chain of a grid as records, for the nested chains (se_nested.c): what
 * sudoku_model.se.static_chains._static_all does, hint for hint. On a chain's grid, the
 * cycles and forcing chains of levels 2 and 3 are an inner rule: each hint is wanted with
 * its complexity, signature and rule parents (se_nested.h's records), not only the best
 * one (se_static_chains.c). */
#include "se_nested.h"

#include <stdlib.h>
#include <string.h>

/* ---- every static chain (static_chains._static_all) ---------------------------------- */

typedef struct {
    int key, parent, tag;
} SNode;

/* The xy links of a grid (se_build_links). The x and y links are theirs in part: a cell's
 * links come first in a row, so the y links are those, the x links the rest. */
typedef struct {
    int n_on[729], n_mates[729], on_off[729][CH_ONOFF];
    int n_off[729], off_on[729][CH_OFFON], off_cause[729][CH_OFFON];
    char closing[CH_KEYS];
} StLinks;

typedef struct {
    const int *cands, *osrc;
    Nest *X; /* whose pmark the rule parents use */
    Recs *dest;
    StLinks xy;
    int x_only, y_only; /* the mode searched: the x links, the y links, or both */
    char mode_closing;  /* the bits of xy.closing that the mode's links set */
    SNode *nodes;
    int nn, ncap;
    uint64_t (*paths)[23];
    int *pathof; /* path index of a node, by node */
    int mark[CH_KEYS], stamp;
    int onmark[CH_KEYS], onstamp;
    int par[CH_KEYS], cause[CH_KEYS];
    int pend[CH_KEYS], next[CH_KEYS];
    int walk[CH_KEYS * 2];
    Components scc; /* of the xy links, for every mode (static_all) */
    int roots[2 * CH_KEYS], targets[CH_KEYS];
    char fok[CH_KEYS]; /* a forcing chain may start at the key (static_all) */
    int narrow;        /* a forcing chain's search keeps to the keys that reach its target */
    /* the source grid (osrc) of source_free's last answer, that answer, and the boards of
     * each digit's cells in that grid and in this one (cands) */
    int src[81], src_known, src_free;
    u128 sboard[9], board[9];
} Static;

/* The mode to search: the y links (y), the x links (x) or both. */
static void st_mode(Static *S, int y, int x)
{
    S->x_only = x && !y;
    S->y_only = y && !x;
    S->mode_closing = (char)((y ? 1 : 0) | (x ? 2 : 0));
}

/* Where the mode's "on" links of candidate cd start in S->xy's row: past the cell's other
 * digits for the x links. */
static inline int st_mates(const Static *S, int cd)
{
    return S->x_only ? S->xy.n_mates[cd] : 0;
}

/* Whether the mode's "on" of candidate y implies the "off" of candidate x (the cell's
 * other digits, but for the x links; the peers that hold the digit): whether x's "off" is
 * in y's full row. */
static inline int st_implies_off(const Static *S, int y, int x)
{
    int cy = y / 9, cx = x / 9;
    if (cy == cx)
        return y != x && !S->x_only;
    return y % 9 == x % 9 && (PEER[cy] & BIT128(cx)) != 0;
}

/* The mode's "off" links of candidate cd in S->xy's row: [*lo, return). A bivalue cell's
 * link comes first: the y links are that one, the x links the others. */
static inline int st_offs(const Static *S, int cd, int *lo)
{
    int naked = POP[S->cands[cd / 9]] == 2;
    *lo = S->x_only ? naked : 0;
    return S->y_only ? naked : S->xy.n_off[cd];
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
    rec.dead = 0;
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
    next_stamp(X->pmark, CH_KEYS, &X->pstamp);
    /* the chain, target first: one node per potential, the first met */
    int stamp = next_stamp(S->mark, CH_KEYS, &S->stamp);
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
        stamp = next_stamp(S->mark, CH_KEYS, &S->stamp);
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
    int stamp = next_stamp(S->mark, CH_KEYS, &S->stamp), n = 0;
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
    u128 cells = 0, forw[9] = {0}, back[9] = {0};
    int nw = st_walk(S, dst);
    for (int i = 0; i < nw - 1; i++)
        cells |= BIT128((S->nodes[S->walk[i]].key >> 1) / 9);
    for (int i = 0; i < nw - 1; i++) {
        int key = S->nodes[S->walk[i]].key, cell = (key >> 1) / 9, d0 = (key >> 1) % 9;
        u128 seen = PEER[cell] & ~cells & S->board[d0];
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
    int stamp = next_stamp(S->onmark, CH_KEYS, &S->onstamp), npath = 0;
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
    const int *comp = S->scc.comp, home = comp[src_key]; /* see se_components */
    while (np) {
        length += 2;
        int first = S->nn;
        for (int i = 0; i < np; i++) {
            int p = pend[i], cd = S->nodes[p].key >> 1;
            const uint64_t *path = S->paths[S->pathof[p]];
            const int *row = S->xy.on_off[cd];
            for (int k = st_mates(S, cd); k < S->xy.n_on[cd]; k++) {
                int off_key = row[k];
                if (comp[off_key] != home || path[off_key >> 6] >> (off_key & 63) & 1)
                    continue;
                if (st_node(S, off_key, p, NO_CAUSE) < 0)
                    return -1;
            }
        }
        int last = S->nn, nnext = 0;
        for (int j = first; j < last; j++) {
            int cd = S->nodes[j].key >> 1;
            int lo, hi = st_offs(S, cd, &lo);
            for (int k = lo; k < hi; k++) {
                int on_key = S->xy.off_on[cd][k], cause = S->xy.off_cause[cd][k];
                if (length >= 4 && on_key == src_key) {
                    int dst = st_node(S, on_key, j, cause);
                    if (dst < 0 || st_cycle_hint(S, dst, base, sort_key) < 0)
                        return -1;
                }
                if (S->onmark[on_key] != stamp && comp[on_key] == home) {
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

/* static_chains._first_forcing from src_key, recorded when it removes something; with
 * S->narrow, `query` numbers its target in S->scc (the keys that do not lead there are left
 * out). */
static int st_forcing(Static *S, int src_key, int query, double base, int sort_key)
{
    const Components *scc = &S->scc;
    if (!S->fok[src_key])
        return 0; /* no chain gets there (st_filter) */
    int narrow = S->narrow;
    int stamp = next_stamp(S->onmark, CH_KEYS, &S->onstamp), target_key = src_key ^ 1;
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
            if (!(target_key & 1) && st_implies_off(S, cd, target_key >> 1)) {
                found = target_key; /* where the row has it, or would without `core` */
                last = key;
                break;
            }
            const int *row = S->xy.on_off[cd];
            for (int k = st_mates(S, cd); k < S->xy.n_on[cd]; k++) {
                int off_key = row[k];
                if (off_key == target_key) {
                    found = off_key;
                    last = key;
                    break;
                }
                if (S->onmark[off_key] != stamp && (!narrow || se_reaches(scc, off_key, query))) {
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
            int lo, hi = st_offs(S, cd, &lo);
            for (int k = lo; k < hi; k++) {
                int on_key = S->xy.off_on[cd][k], cause = S->xy.off_cause[cd][k];
                if (on_key == target_key) {
                    found = on_key;
                    last = key;
                    fcause = cause;
                    break;
                }
                if (S->onmark[on_key] != stamp && (!narrow || se_reaches(scc, on_key, query))) {
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

/* The chains' sources in `cands` (links `closing`): each candidate's "on" in a cell of two
 * or more, and its "off" when some "off" implies that "on" (S->roots), with the forcing
 * chain's target of each (S->targets: the other side). Returns their number. */
static int st_roots(Static *S, const int *cands, const char *closing)
{
    int n = 0;
    for (int cell = 0; cell < 81; cell++) {
        int cm = cands[cell];
        if (POP[cm] < 2)
            continue;
        for (int mm = cm; mm; mm &= mm - 1) {
            int on_key = ((cell * 9 + __builtin_ctz((unsigned)mm)) << 1) | 1;
            S->roots[n] = on_key;
            S->targets[n++] = on_key ^ 1;
            if (closing[on_key]) {
                S->roots[n] = on_key ^ 1;
                S->targets[n++] = on_key;
            }
        }
    }
    return n;
}

/* Whether the source grid (S->osrc) has no forcing chain under its xy links: no source
 * leads to its target. Made once a source; it uses S->xy, S->roots, S->targets and S->scc. */
static int source_free(Static *S)
{
    if (S->src_known && !memcmp(S->src, S->osrc, sizeof(S->src)))
        return S->src_free;
    memcpy(S->src, S->osrc, sizeof(S->src));
    S->src_known = 1;
    digit_boards(S->osrc, S->sboard);
    StLinks *l = &S->xy;
    se_build_links(S->osrc, S->sboard, 1, 1, 0, l->n_on, NULL, l->on_off, l->n_off, l->off_on,
                   NULL, l->closing);
    int n = st_roots(S, S->osrc, l->closing);
    se_components(&S->scc, l->n_on, l->on_off, l->n_off, l->off_on, S->roots, n, S->targets, n);
    int none = 1;
    for (int j = 0; j < n && none; j++)
        none = !se_reaches(&S->scc, S->roots[j], j);
    return S->src_free = none;
}

/* The components of the xy links and S->fok, the sources from which a forcing chain may
 * exist (S->roots, n of them; source_is_free: source_free's answer). Every forcing chain
 * lies within the xy links, those of the x mode and the y mode too, so a source that
 * cannot reach its target under them is left out in every mode.
 *
 * When the source grid has no forcing chain (as where the rater runs the nested chains:
 * the static chains came first and found nothing), every chain of this grid passes a
 * strong link that the source lacks, a "new" one: a cell or region that lost candidates
 * now has two. (This grid's other links are the source's, so a chain without a new link
 * would be the source's.) A new link between a and b ("off" a implies "on" b, and "off" b
 * implies "on" a) lies on a chain from x to its other side x' exactly when x leads to both
 * "off" a and "off" b: x leads to "off" a, then "on" b; and as the links come in pairs
 * ("p implies q" goes with "q' implies p'"), x leading to "off" b means "on" b leads to
 * x'. So the components carry, per key, the "off" ends of the new links it reaches (often
 * one word), not every source's target (about six words), and a search goes everywhere
 * (S->narrow is 0): the same chains, found the same way.
 *
 * Otherwise the components carry every source's target: a source is kept when it reaches
 * its own, and its search keeps to the keys that reach its target (S->narrow). */
static void st_filter(Static *S, int n, int source_is_free)
{
    const StLinks *xy = &S->xy;
    if (!source_is_free) {
        se_components(&S->scc, xy->n_on, xy->on_off, xy->n_off, xy->off_on, S->roots, n,
                      S->targets, n);
        for (int j = 0; j < n; j++)
            S->fok[S->roots[j]] = (char)se_reaches(&S->scc, S->roots[j], j);
        S->narrow = 1;
        return;
    }
    int tail[729], ntails = 0, pa[CH_KEYS], pb[CH_KEYS], np = 0, *tails = S->targets;
    const int *grid = S->cands, *src = S->osrc;
    const u128 *board = S->board, *sboard = S->sboard;
    memset(tail, 0xff, sizeof(tail));
    for (int cell = 0; cell < 81; cell++) {
        int lost = src[cell] & ~grid[cell];
        if (!lost)
            continue;
        int la[28], lb[28], nl = 0; /* the new links this cell's removals make */
        if (POP[grid[cell]] == 2) { /* a cell now of two digits: the source had more */
            int d0 = __builtin_ctz((unsigned)grid[cell]);
            la[nl] = cell * 9 + d0;
            lb[nl++] = cell * 9 + __builtin_ctz((unsigned)(grid[cell] & ~(1 << d0)));
        }
        for (int m = lost; m; m &= m - 1) { /* a region now of two places for a digit */
            int d0 = __builtin_ctz((unsigned)m);
            for (int t = 0; t < 3; t++) {
                u128 places = board[d0] & REGMASK[CREG[cell][t]];
                if (!two_bits(places))
                    continue;
                int p = ctz128(places), q = ctz128(places & (places - 1)), old = 0;
                for (int k = 0; k < 3 && !old; k++) /* a region of the source has just p, q */
                    old = two_bits(sboard[d0] & REGMASK[CREG[p][k]]) &&
                          (REGMASK[CREG[p][k]] & BIT128(q));
                if (old)
                    continue;
                la[nl] = p * 9 + d0;
                lb[nl++] = q * 9 + d0;
            }
        }
        for (int i = 0; i < nl; i++) {
            int dup = 0;
            for (int j = 0; j < np && !dup; j++) /* met from another region or cell */
                dup = tails[pa[j]] == la[i] << 1 && tails[pb[j]] == lb[i] << 1;
            if (dup)
                continue;
            int ends[2] = {la[i], lb[i]};
            for (int e = 0; e < 2; e++)
                if (tail[ends[e]] < 0) {
                    tail[ends[e]] = ntails;
                    tails[ntails++] = ends[e] << 1;
                }
            pa[np] = tail[la[i]];
            pb[np++] = tail[lb[i]];
        }
    }
    se_components(&S->scc, xy->n_on, xy->on_off, xy->n_off, xy->off_on, S->roots, n, tails,
                  ntails);
    uint64_t pm[CH_KEYS]; /* with one word: the two ends of each new link */
    for (int i = 0; i < np && ntails <= 64; i++)
        pm[i] = (uint64_t)1 << pa[i] | (uint64_t)1 << pb[i];
    signed char known[CH_KEYS]; /* by component: -1 not yet, else the answer */
    memset(known, -1, sizeof(known));
    for (int j = 0; j < n; j++) {
        int r = S->roots[j], c = S->scc.comp[r], ok = known[c];
        if (ok < 0) {
            ok = 0;
            if (ntails <= 64) { /* one word */
                uint64_t got = S->scc.whi[c] ? S->scc.reach[c][0] : 0;
                for (int i = 0; i < np && (got & (got - 1)) && !ok; i++)
                    ok = (got & pm[i]) == pm[i]; /* (both ends: two bits at least) */
            } else {
                for (int i = 0; i < np && !ok; i++)
                    ok = se_reaches(&S->scc, r, pa[i]) && se_reaches(&S->scc, r, pb[i]);
            }
            known[c] = (signed char)ok;
        }
        S->fok[r] = (char)ok;
    }
    S->narrow = 0;
}

/* static_chains._static_all on `cands`, every hint into X->coll: 0, 1 when the deadline
 * passed, -1 when out of memory.
 *
 * One set of components serves the three modes: those of the xy links, which hold the x
 * links and the y links. A key that cannot get back to a source under the xy links cannot
 * under the others either, so the cycles of every mode leave it out (se_components), and a
 * forcing chain is searched only from where one may start (st_filter). */
static int static_all(Static *S, double deadline)
{
    static const int MODES[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    int source_is_free = source_free(S); /* before S->roots take this grid's */
    digit_boards(S->cands, S->board);
    StLinks *xy = &S->xy;
    se_build_links(S->cands, S->board, 1, 1, source_is_free, xy->n_on, xy->n_mates, xy->on_off,
                   xy->n_off, xy->off_on, xy->off_cause, xy->closing);
    st_filter(S, st_roots(S, S->cands, xy->closing), source_is_free);
    const int *query = S->scc.query;
    for (int m = 0; m < 3; m++) {
        int y = MODES[m][0], x = MODES[m][1];
        double base_cycle = y && x ? 7.0 : 6.5, base_chain = y && x ? 7.0 : 6.6;
        int sort_key = y && x ? 4 : (y ? 3 : 2);
        if (deadline_passed(deadline))
            return 1;
        st_mode(S, y, x);
        const char *closing = S->xy.closing, cmask = S->mode_closing;
        for (int cell = 0; cell < 81; cell++) {
            int cm = S->cands[cell], n = POP[cm];
            if (n < 2 || (!x && n > 2))
                continue;
            for (int mm = cm; mm; mm &= mm - 1) {
                int on_key = ((cell * 9 + __builtin_ctz((unsigned)mm)) << 1) | 1;
                /* a cycle has two "on" and two "off" at least, all in its component */
                if ((closing[on_key] & cmask) && S->scc.size[S->scc.comp[on_key]] >= 4 &&
                    st_cycles(S, on_key, base_cycle, sort_key) < 0)
                    return -1;
                /* the chain from the "off" ends at the "on": one that nothing implies
                 * ends none */
                if (x && st_forcing(S, on_key, query[on_key ^ 1], base_chain, sort_key) < 0)
                    return -1;
                if (x && (closing[on_key] & cmask) &&
                    st_forcing(S, on_key ^ 1, query[on_key], base_chain, sort_key) < 0)
                    return -1;
            }
        }
    }
    return 0;
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
    S->scc.reach = malloc(sizeof(S->scc.reach[0]) * CH_KEYS);
    if (!S->paths || !S->scc.reach) {
        free(S->paths);
        free(S->scc.reach);
        free(S);
        return NULL;
    }
    STATIC = S;
    return S;
}

int static_hints(const int *cands, const int *osrc, Nest *X, Recs *dest, double deadline)
{
    Static *S = static_get();
    if (!S)
        return -1;
    S->cands = cands;
    S->X = X;
    S->dest = dest;
    S->osrc = osrc;
    return static_all(S, deadline);
}
