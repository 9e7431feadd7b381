/* The SE rater's chains on the static grid (sudoku_model.se._core): cycles and forcing
 * chains, and what the dynamic chains share with them (the grid's links, the length
 * addition, the rank order, the CPU clock). */
#include "se_scan.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- cycles and forcing chains (chaining.cycles_and_forcing_chains) ------------------ */

/* SE's first chaining producer on the static grid: bidirectional X-, Y- and XY-cycles
 * and forcing X- and XY-chains, of which only the best hint (rating, complexity, kind)
 * is wanted. The searches, their order, the rounds of growing depth and the pruning by
 * the best hint so far are chaining.py's, step for step: a hint found earlier wins among
 * equals, so the order decides the answer.
 *
 * A potential is a key ((cell * 9 + digit - 1) << 1) | on. The implications of the grid
 * are built once per mode (y: a bivalue cell links its two digits; x: a region with two
 * places for a digit links them), in SE's order: an "on" implies the other digits of its
 * cell, then the peers holding its digit in box, row (outside the box), column (outside
 * the box) order; an "off" implies the naked single of its cell, then the hidden single
 * of its box, row, column. Static chains have one parent per node, so a chain is a walk
 * up a parent index. */

#define CH_POOL 65536
#define CH_PATHW 12 /* 729 off keys, one bit each */

typedef struct {
    int n_on[729], on_off[729][CH_ONOFF]; /* by candidate (key >> 1) of an on key */
    int n_off[729], off_on[729][CH_OFFON];
    char closing[CH_KEYS];
    Components scc; /* the forcing chains' targets are numbered by ChSearch.query */
} ChLinks;

typedef struct {
    int key, parent, path; /* path: index of the on node's path bitset, or -1 */
} ChNode;

typedef struct {
    const int *cands;
    u128 cand[9]; /* the cells of each digit */
    ChLinks *links;
    ChNode *nodes;
    int nnodes;
    uint64_t (*paths)[CH_PATHW];
    int npaths;
    int *mark_on, *mark_off, stamp; /* the search's visited keys: mark == stamp */
    int *queue_a, *queue_b;
    /* the best hint so far */
    int has_best, best_kind, best_sort, best_cx;
    double best_base, best_diff;
    int best_elims[729][2], best_nelims, best_cells[81], best_ncells, best_pc, best_pd;
} Chains;

double length_addition(int complexity)
{
    double added = 0.0;
    int ceil = 4, length = complexity - 2, odd = 0;
    while (length > ceil) {
        added += 0.1;
        ceil = odd ? (ceil * 4) / 3 : (ceil * 3) / 2;
        odd = !odd;
    }
    return added;
}

void se_build_links(const int *cands, const u128 board[9], int y, int x, int core,
                    int n_on[729], int n_mates[729], int on_off[729][CH_ONOFF], int n_off[729],
                    int off_on[729][CH_OFFON], int off_cause[729][CH_OFFON],
                    char closing[CH_KEYS])
{
    memset(n_on, 0, 729 * sizeof(int));
    memset(n_off, 0, 729 * sizeof(int));
    memset(closing, 0, CH_KEYS);
    /* the "off" side first: with `core`, the "on" rows list the off keys it gives links */
    int strong[81] = {0};
    for (int cell = 0; cell < 81; cell++)
        for (int cm = cands[cell]; cm; cm &= cm - 1) {
            int d0 = __builtin_ctz((unsigned)cm), bit = 1 << d0, cd = cell * 9 + d0, n = 0;
            if (y && POP[cands[cell]] == 2) {
                int other = cands[cell] & ~bit;
                if (off_cause)
                    off_cause[cd][n] = NAKED;
                int on_key = ((cell * 9 + __builtin_ctz((unsigned)other)) << 1) | 1;
                off_on[cd][n++] = on_key;
                closing[on_key] |= 1;
            }
            if (x) {
                u128 others = board[d0] & ~BIT128(cell);
                int seen = 0;
                for (int t = 0; t < 3; t++) {
                    u128 rest = others & REGMASK[CREG[cell][t]];
                    if (!rest || (rest & (rest - 1)))
                        continue; /* the digit's only other place in the region, if one */
                    int on_key = ((ctz128(rest) * 9 + d0) << 1) | 1, dup = 0;
                    if (seen)
                        for (int k = 0; k < n; k++)
                            dup |= off_on[cd][k] == on_key;
                    if (dup)
                        continue;
                    if (off_cause)
                        off_cause[cd][n] = CREG[cell][t];
                    off_on[cd][n++] = on_key;
                    closing[on_key] |= 2;
                    seen = 1;
                }
            }
            n_off[cd] = n;
            strong[cell] |= n ? bit : 0;
        }
    /* the digits of each cell an "on" row lists, and the cells each digit's come from */
    const int *listed = core ? strong : cands;
    u128 core_board[9];
    const u128 *from = board;
    if (core) {
        digit_boards(strong, core_board);
        from = core_board;
    }
    for (int cell = 0; cell < 81; cell++)
        for (int cm = cands[cell]; cm; cm &= cm - 1) {
            int d0 = __builtin_ctz((unsigned)cm), bit = 1 << d0, cd = cell * 9 + d0, n = 0;
            if (y)
                for (int m = listed[cell] & ~bit; m; m &= m - 1)
                    on_off[cd][n++] = (cell * 9 + __builtin_ctz((unsigned)m)) << 1;
            if (n_mates)
                n_mates[cd] = n;
            /* the peers holding the digit, in SE's order: the box, then the row and the
             * column outside it, each ascending */
            u128 b = from[d0] & ~BIT128(cell), box = REGMASK[CREG[cell][0]];
            if (b) {
                u128 parts[3] = {b & box, b & REGMASK[CREG[cell][1]] & ~box,
                                 b & REGMASK[CREG[cell][2]] & ~box};
                for (int t = 0; t < 3; t++)
                    for (u128 p = parts[t]; p; p &= p - 1)
                        on_off[cd][n++] = (ctz128(p) * 9 + d0) << 1;
            }
            n_on[cd] = n;
        }
}

static void ch_build(ChLinks *l, const int *cands, const u128 board[9], int y, int x)
{
    se_build_links(cands, board, y, x, 0, l->n_on, NULL, l->on_off, l->n_off, l->off_on, NULL,
                   l->closing);
}

/* SE's rank order: (difficulty, complexity, sort key), lexicographic. */
int rank_less(double d1, int c1, int s1, double d2, int c2, int s2)
{
    if (d1 != d2)
        return d1 < d2;
    if (c1 != c2)
        return c1 < c2;
    return s1 < s2;
}

/* _Best.max_complexity */
static int ch_max_complexity(const Chains *s, double base, int sort_key)
{
    if (!s->has_best)
        return 1 << 30;
    int c = 1;
    while (c < 4096) {
        if (!rank_less(base + length_addition(c + 1), c + 1, sort_key, s->best_diff, s->best_cx,
                       s->best_sort))
            return c;
        c++;
    }
    return c;
}

static int ch_new_node(Chains *s, int key, int parent)
{
    if (s->nnodes >= CH_POOL)
        return -1;
    ChNode *n = &s->nodes[s->nnodes];
    n->key = key;
    n->parent = parent;
    n->path = -1;
    return s->nnodes++;
}

/* The number of distinct potentials on the walk from node i to its root (_ancestors). */
static int ch_ancestors(const Chains *s, int i)
{
    int keys[CH_POOL > 1460 ? 1460 : CH_POOL], n = 0;
    for (; i >= 0; i = s->nodes[i].parent) {
        int k = s->nodes[i].key, dup = 0;
        for (int j = 0; j < n && !dup; j++)
            dup = keys[j] == k;
        if (!dup && n < 1460)
            keys[n++] = k;
    }
    return n;
}

/* _Best.offer of a hint whose eliminations are in elims[0..ne) (cell, digit), sorted. */
static void ch_offer(Chains *s, int kind, double base, int sort_key, int cx, int (*elims)[2],
                     int ne, const int *cells, int nc, int pc, int pd)
{
    if (ne == 0)
        return;
    double diff = base + length_addition(cx);
    if (s->has_best && !rank_less(diff, cx, sort_key, s->best_diff, s->best_cx, s->best_sort))
        return;
    s->has_best = 1;
    s->best_kind = kind;
    s->best_sort = sort_key;
    s->best_cx = cx;
    s->best_base = base;
    s->best_diff = diff;
    memcpy(s->best_elims, elims, sizeof(int) * 2 * ne);
    s->best_nelims = ne;
    memcpy(s->best_cells, cells, sizeof(int) * nc);
    s->best_ncells = nc;
    s->best_pc = pc;
    s->best_pd = pd;
}

/* _cycle_hint: the candidates that both the "on" and the "off" nodes of the cycle see
 * (outside its cells) go. Returns 1 when the cycle has eliminations. */
static int ch_cycle_hint(Chains *s, int dst, double base, int sort_key)
{
    u128 cells = 0, forw[9] = {0}, back[9] = {0}, both = 0;
    for (int i = dst; s->nodes[i].parent >= 0; i = s->nodes[i].parent)
        cells |= BIT128((s->nodes[i].key >> 1) / 9);
    for (int i = dst; s->nodes[i].parent >= 0; i = s->nodes[i].parent) {
        int key = s->nodes[i].key, cell = (key >> 1) / 9, d0 = (key >> 1) % 9;
        u128 seen = PEER[cell] & ~cells & s->cand[d0];
        if (key & 1)
            forw[d0] |= seen;
        else
            back[d0] |= seen;
    }
    for (int d0 = 0; d0 < 9; d0++)
        both |= forw[d0] & back[d0];
    if (!both)
        return 0; /* nothing goes: most cycles */
    int elims[729][2], ne = 0, cl[81], nc = 0;
    for (int c = 0; c < 81; c++) {
        if (cells & BIT128(c))
            cl[nc++] = c;
        if (both & BIT128(c))
            for (int d0 = 0; d0 < 9; d0++)
                if (forw[d0] & back[d0] & BIT128(c)) {
                    elims[ne][0] = c;
                    elims[ne++][1] = d0 + 1;
                }
    }
    ch_offer(s, 0, base, sort_key, ch_ancestors(s, dst), elims, ne, cl, nc, -1, 0);
    return 1;
}

static void ch_forcing_hint(Chains *s, int target, double base, int sort_key)
{
    int key = s->nodes[target].key, cell = (key >> 1) / 9, d = (key >> 1) % 9 + 1;
    int elims[9][2], ne = 0, pc = -1;
    if (key & 1) {
        for (int m = s->cands[cell] & ~(1 << (d - 1)); m; m &= m - 1) {
            elims[ne][0] = cell;
            elims[ne++][1] = __builtin_ctz((unsigned)m) + 1;
        }
        pc = cell;
    } else {
        elims[0][0] = cell;
        elims[0][1] = d;
        ne = 1;
    }
    ch_offer(s, 1, base, sort_key, ch_ancestors(s, target), elims, ne, &cell, 1, pc, d);
}

/* _cycles: 1 when cut at `cap` (and not by the best hint), -1 when out of nodes. */
static int ch_cycles(Chains *s, int src_key, double base, int sort_key, int cap)
{
    ChLinks *l = s->links;
    s->nnodes = s->npaths = 0;
    s->stamp++;
    int src = ch_new_node(s, src_key, -1);
    s->mark_on[src_key] = s->stamp;
    s->nodes[src].path = s->npaths++;
    memset(s->paths[0], 0, sizeof(s->paths[0]));
    int *pend_on = s->queue_a, non = 0, *pend_off = s->queue_b, noff;
    pend_on[non++] = src;
    int length = 0, bound = ch_max_complexity(s, base, sort_key);
    int limit = bound < cap ? bound : cap;
    /* a cycle through the source stays in its component: the other keys it reaches never
     * lead back (and no key of the component is first reached through them) */
    const int *comp = l->scc.comp, home = comp[src_key];
    while (non) {
        length++;
        noff = 0;
        int first_off = s->nnodes;
        for (int i = 0; i < non; i++) {
            int p = pend_on[i], cd = s->nodes[p].key >> 1;
            const uint64_t *path = s->paths[s->nodes[p].path];
            for (int k = 0; k < l->n_on[cd]; k++) {
                int off_key = l->on_off[cd][k], oc = off_key >> 1;
                if (comp[off_key] != home || path[oc >> 6] >> (oc & 63) & 1)
                    continue;
                if (ch_new_node(s, off_key, p) < 0)
                    return -1;
                noff++;
            }
        }
        length++;
        if (length > limit)
            return cap < bound;
        int nnew = 0, found = 0;
        int *new_on = pend_on; /* pend_on's entries are read through the off nodes now */
        for (int j = first_off; j < first_off + noff; j++) {
            int cd = s->nodes[j].key >> 1;
            for (int k = 0; k < l->n_off[cd]; k++) {
                int on_key = l->off_on[cd][k];
                if (length >= 4 && on_key == src_key) {
                    int dst = ch_new_node(s, on_key, j);
                    if (dst < 0)
                        return -1;
                    found |= ch_cycle_hint(s, dst, base, sort_key);
                }
                if (s->mark_on[on_key] != s->stamp && comp[on_key] == home) {
                    s->mark_on[on_key] = s->stamp;
                    int n = ch_new_node(s, on_key, j);
                    if (n < 0 || s->npaths >= 730)
                        return -1;
                    int parent_on = s->nodes[j].parent;
                    s->nodes[n].path = s->npaths;
                    memcpy(s->paths[s->npaths], s->paths[s->nodes[parent_on].path],
                           sizeof(s->paths[0]));
                    int oc = s->nodes[j].key >> 1;
                    s->paths[s->npaths][oc >> 6] |= (uint64_t)1 << (oc & 63);
                    s->npaths++;
                    new_on[nnew++] = n;
                }
            }
        }
        if (found)
            return 0;
        non = nnew;
    }
    (void)pend_off;
    return 0;
}

/* One half-step of ch_forcing: every node of `from` (on keys with the on->off table, or off
 * keys with the off->on table, rows of `width`) reaches its implied keys; a key not marked
 * yet becomes a node of `to` if it leads to the target at all (bit `query` of its
 * component's reach set): the keys that do not are no node's first parent on a way to the
 * target. 1 when the target is reached (its hint offered), -1 when out of nodes, else 0. */
static int ch_forcing_step(Chains *s, const int *from, int nfrom, const int *counts,
                           const int *table, int width, int *mark, int *to, int *nto,
                           int target_key, int query, double base, int sort_key)
{
    const Components *scc = &s->links->scc;
    for (int i = 0; i < nfrom; i++) {
        int p = from[i], cd = s->nodes[p].key >> 1;
        const int *row = table + cd * width;
        for (int k = 0; k < counts[cd]; k++) {
            int key = row[k];
            if (key == target_key) {
                int t = ch_new_node(s, key, p);
                if (t < 0)
                    return -1;
                ch_forcing_hint(s, t, base, sort_key);
                return 1;
            }
            if (mark[key] != s->stamp && se_reaches(scc, key, query)) {
                mark[key] = s->stamp;
                int n = ch_new_node(s, key, p);
                if (n < 0)
                    return -1;
                to[(*nto)++] = n;
            }
        }
    }
    return 0;
}

/* _forcing_chain: 1 when cut at `cap` (and not by the best hint), -1 when out of nodes. */
static int ch_forcing(Chains *s, int src_key, int query, double base, int sort_key, int cap)
{
    ChLinks *l = s->links;
    s->nnodes = 0;
    s->stamp++;
    int target_key = src_key ^ 1;
    int src = ch_new_node(s, src_key, -1);
    int *pend_on = s->queue_a, non = 0, *pend_off = s->queue_b, noff = 0;
    if (src_key & 1) {
        s->mark_on[src_key] = s->stamp;
        pend_on[non++] = src;
    } else {
        s->mark_off[src_key] = s->stamp;
        pend_off[noff++] = src;
    }
    int depth = src_key & 1 ? 0 : -1;
    int bound = ch_max_complexity(s, base, sort_key);
    int limit = bound < cap ? bound : cap;
    while (non || noff) {
        int r;
        if (non) {
            if (depth + 2 > limit)
                return cap < bound;
            r = ch_forcing_step(s, pend_on, non, l->n_on, &l->on_off[0][0], CH_ONOFF,
                                s->mark_off, pend_off, &noff, target_key, query, base, sort_key);
            if (r)
                return r < 0 ? -1 : 0;
            non = 0;
        }
        if (depth + 3 > limit)
            return cap < bound;
        r = ch_forcing_step(s, pend_off, noff, l->n_off, &l->off_on[0][0], CH_OFFON, s->mark_on,
                            pend_on, &non, target_key, query, base, sort_key);
        if (r)
            return r < 0 ? -1 : 0;
        noff = 0;
        depth += 2;
    }
    return 0;
}

static double clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The last read of the process's CPU clock, and the monotonic clock then. */
static double last_cpu = -1.0, last_wall;

int deadline_passed(double deadline)
{
    if (deadline < 0)
        return 0;
    double wall = clock_seconds(CLOCK_MONOTONIC);
    if (last_cpu >= 0 && wall >= last_wall && wall - last_wall < DEADLINE_WALL_SLACK &&
        last_cpu + (wall - last_wall) <= deadline)
        return 0;
    last_cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    last_wall = wall;
    return last_cpu > deadline;
}

typedef struct {
    unsigned char mode, kind, sort_key;
    short key, query; /* query: a forcing chain's target in ChLinks.scc */
    double base;
} ChSearch;

typedef struct {
    const int *n_on, (*on_off)[CH_ONOFF], *n_off, (*off_on)[CH_OFFON];
} Edges;

static inline int edges_of(const Edges *g, int key, const int **row)
{
    int cd = key >> 1;
    *row = key & 1 ? g->on_off[cd] : g->off_on[cd];
    return key & 1 ? g->n_on[cd] : g->n_off[cd];
}

void se_components(Components *r, const int n_on[729], const int on_off[729][CH_ONOFF],
                   const int n_off[729], const int off_on[729][CH_OFFON], const int *roots,
                   int nroots, const int *targets, int ntargets)
{
    const Edges g = {n_on, on_off, n_off, off_on};
    int words = (ntargets + 63) / 64, counter = 0, ncomp = 0, sp = 0, one = words == 1;
    int *comp = r->comp;
    uint64_t *acc = r->acc;
    memset(r->order, 0, sizeof(r->order));
    memset(r->query, -1, sizeof(r->query));
    for (int j = 0; j < ntargets; j++)
        r->query[targets[j]] = j;
    for (int j = 0; j < nroots; j++) {
        int root = roots[j];
        if (r->order[root])
            continue;
        int depth = 0;
        r->frame[0] = root;
        r->edge[0] = 0;
        r->nedge[0] = edges_of(&g, root, &r->row[0]);
        r->order[root] = r->low[root] = ++counter;
        comp[root] = -1;
        acc[root] = one && r->query[root] >= 0 ? (uint64_t)1 << r->query[root] : 0;
        r->stack[sp++] = root;
        while (depth >= 0) {
            int v = r->frame[depth];
            if (r->edge[depth] < r->nedge[depth]) {
                int w = r->row[depth][r->edge[depth]++];
                if (!r->order[w]) {
                    r->order[w] = r->low[w] = ++counter;
                    comp[w] = -1;
                    acc[w] = one && r->query[w] >= 0 ? (uint64_t)1 << r->query[w] : 0;
                    r->stack[sp++] = w;
                    depth++;
                    r->frame[depth] = w;
                    r->edge[depth] = 0;
                    r->nedge[depth] = edges_of(&g, w, &r->row[depth]);
                } else if (comp[w] >= 0) { /* a component done: what it reaches */
                    acc[v] |= one ? r->reach[comp[w]][0] : 0;
                } else if (r->order[w] < r->low[v]) {
                    r->low[v] = r->order[w];
                }
                continue;
            }
            if (r->low[v] == r->order[v]) { /* v roots a component: pop it */
                int first = sp;
                do
                    comp[r->stack[--first]] = ncomp;
                while (r->stack[first] != v);
                r->size[ncomp] = sp - first;
                if (one) {
                    /* With one word, each key's set grew as the search went: its targets,
                     * the sets of the components its links lead to once done, and those of
                     * the keys it led to first (the component's other keys among them). */
                    r->reach[ncomp][0] = acc[v];
                    r->wlo[ncomp] = 0;
                    r->whi[ncomp] = acc[v] != 0;
                } else if (words) { /* the components it leads to are complete */
                    uint64_t *set = r->reach[ncomp];
                    memset(set, 0, sizeof(uint64_t) * (size_t)words);
                    int lo = words, hi = 0, last = -1;
                    for (int i = first; i < sp; i++) {
                        int u = r->stack[i], j = r->query[u];
                        if (j >= 0) {
                            set[j >> 6] |= (uint64_t)1 << (j & 63);
                            lo = j >> 6 < lo ? j >> 6 : lo;
                            hi = (j >> 6) + 1 > hi ? (j >> 6) + 1 : hi;
                        }
                        const int *out;
                        int m = edges_of(&g, u, &out);
                        for (int e = 0; e < m; e++) {
                            int c = comp[out[e]];
                            if (c == ncomp || c == last)
                                continue;
                            last = c;
                            for (int w = r->wlo[c]; w < r->whi[c]; w++)
                                set[w] |= r->reach[c][w];
                            lo = r->wlo[c] < lo ? r->wlo[c] : lo;
                            hi = r->whi[c] > hi ? r->whi[c] : hi;
                        }
                    }
                    r->wlo[ncomp] = lo;
                    r->whi[ncomp] = hi;
                }
                sp = first;
                ncomp++;
            }
            depth--;
            if (depth >= 0) {
                int u = r->frame[depth];
                acc[u] |= acc[v];
                if (r->low[v] < r->low[u])
                    r->low[u] = r->low[v];
            }
        }
    }
}

/* The components of a mode's links from its searches' sources, each forcing chain's target
 * numbered (q[j].query); ok[j] = 0 for a forcing chain whose target is out of reach (it
 * finds nothing in any round), else 1. */
static void ch_reachable(ChLinks *l, ChSearch *q, int nq, int *roots, int *targets, char *ok)
{
    int nf = 0;
    for (int j = 0; j < nq; j++) {
        roots[j] = q[j].key;
        if (q[j].kind == 1) { /* distinct: each key is searched once a mode */
            q[j].query = (short)nf;
            targets[nf++] = q[j].key ^ 1;
        }
    }
    se_components(&l->scc, l->n_on, l->on_off, l->n_off, l->off_on, roots, nq, targets, nf);
    for (int j = 0; j < nq; j++)
        ok[j] = q[j].kind != 1 || se_reaches(&l->scc, q[j].key, q[j].query);
}

/* The search's buffers, made on first use and kept: about 2 MB that a call used to
 * allocate and free, each time from fresh pages (a page fault a page: a quarter of the
 * producer's time). One search at a time: it holds the GIL and calls no Python. */
typedef struct {
    ChLinks links[3];
    uint64_t (*reach)[CH_QWORDS]; /* the three modes' reach sets */
    ChNode *nodes;
    uint64_t (*paths)[CH_PATHW];
    int *mark_on, *mark_off, *queue_a, *queue_b, *roots;
    ChSearch *searches;
    char *ok;
} ChWork;

static ChWork *CH_WORK;

static ChWork *ch_work(void)
{
    if (CH_WORK)
        return CH_WORK;
    ChWork *w = calloc(1, sizeof(ChWork));
    if (!w)
        return NULL;
    w->reach = malloc(sizeof(*w->reach) * 3 * CH_KEYS);
    w->nodes = malloc(sizeof(ChNode) * CH_POOL);
    w->paths = malloc(sizeof(w->paths[0]) * 730);
    w->mark_on = malloc(sizeof(int) * CH_KEYS);
    w->mark_off = malloc(sizeof(int) * CH_KEYS);
    w->queue_a = malloc(sizeof(int) * CH_KEYS);
    w->queue_b = malloc(sizeof(int) * CH_KEYS);
    w->roots = malloc(sizeof(int) * 2 * 3 * 729);
    w->searches = malloc(sizeof(ChSearch) * 3 * 3 * 729);
    w->ok = malloc(3 * 729);
    if (!w->reach || !w->nodes || !w->paths || !w->mark_on || !w->mark_off || !w->queue_a ||
        !w->queue_b || !w->roots || !w->searches || !w->ok) {
        free(w->reach);
        free(w->nodes);
        free(w->paths);
        free(w->mark_on);
        free(w->mark_off);
        free(w->queue_a);
        free(w->queue_b);
        free(w->roots);
        free(w->searches);
        free(w->ok);
        free(w);
        return NULL;
    }
    for (int m = 0; m < 3; m++)
        w->links[m].scc.reach = w->reach + m * CH_KEYS;
    return CH_WORK = w;
}

/* Returns 0 (done), 1 (deadline passed) or -1 (out of memory / nodes). */
static int cycles_and_forcing(Chains *s, ChWork *work, double deadline)
{
    static const int MODES[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    static const int CAPS[4] = {6, 10, 16, 1 << 30};
    ChLinks *links = work->links;
    ChSearch *searches = work->searches;
    int *roots = work->roots;
    char *ok = work->ok;
    int ns = 0;
    for (int m = 0; m < 3; m++) {
        int first = ns;
        int y = MODES[m][0], x = MODES[m][1];
        double base_cycle = y && x ? 7.0 : 6.5, base_chain = y && x ? 7.0 : 6.6;
        int sort_key = y && x ? 4 : (y ? 3 : 2);
        ch_build(&links[m], s->cands, s->cand, y, x);
        /* only an "on" that an "off" implies closes a cycle or ends the forcing chain from
         * its "off": the searches from the others find no hint */
        const char *closing = links[m].closing;
        for (int cell = 0; cell < 81; cell++) {
            int cm = s->cands[cell], n = POP[cm];
            if (n < 2 || (!x && n > 2))
                continue;
            for (int mm = cm; mm; mm &= mm - 1) {
                int on_key = ((cell * 9 + __builtin_ctz((unsigned)mm)) << 1) | 1;
                if (closing[on_key])
                    searches[ns++] = (ChSearch){m, 0, sort_key, on_key, -1, base_cycle};
                if (x) {
                    searches[ns++] = (ChSearch){m, 1, sort_key, on_key, -1, base_chain};
                    if (closing[on_key])
                        searches[ns++] = (ChSearch){m, 1, sort_key, on_key ^ 1, -1, base_chain};
                }
            }
        }
        /* the components, for the cycles; leave out the forcing chains whose target no
         * chain reaches */
        ch_reachable(&links[m], searches + first, ns - first, roots, roots + 3 * 729, ok);
        int kept = first;
        for (int i = first; i < ns; i++)
            if (ok[i - first])
                searches[kept++] = searches[i];
        ns = kept;
    }
    int rc = 0;
    for (int round = 0; round < 4 && ns; round++) {
        int again = 0;
        for (int i = 0; i < ns; i++) {
            if (!(i & 15) && deadline_passed(deadline)) {
                rc = 1;
                goto done;
            }
            ChSearch q = searches[i];
            if (s->has_best && rank_less(s->best_diff, s->best_cx, s->best_sort, q.base, 0,
                                         q.sort_key))
                continue;
            s->links = &links[q.mode];
            int cap = CAPS[round];
            int cut = q.kind == 0 ? ch_cycles(s, q.key, q.base, q.sort_key, cap)
                                  : ch_forcing(s, q.key, q.query, q.base, q.sort_key, cap);
            if (cut < 0) {
                rc = -1;
                goto done;
            }
            if (cut)
                searches[again++] = q;
        }
        ns = again;
    }
done:
    return rc;
}

PyObject *py_cycles_and_forcing_chains(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pc;
    double deadline = -1.0;
    if (!PyArg_ParseTuple(args, "O|d", &pc, &deadline))
        return NULL;
    int cands[81];
    if (read81(pc, cands, 511, "cands"))
        return NULL;
    Chains *s = calloc(1, sizeof(Chains));
    ChWork *work = ch_work();
    PyObject *out = NULL;
    if (!s || !work) {
        PyErr_NoMemory();
        goto done;
    }
    s->nodes = work->nodes;
    s->paths = work->paths;
    s->mark_on = work->mark_on; /* the stamps start again at 1 */
    s->mark_off = work->mark_off;
    memset(s->mark_on, 0, sizeof(int) * CH_KEYS);
    memset(s->mark_off, 0, sizeof(int) * CH_KEYS);
    s->queue_a = work->queue_a;
    s->queue_b = work->queue_b;
    s->cands = cands;
    digit_boards(cands, s->cand);
    int rc = cycles_and_forcing(s, work, deadline);
    if (rc == 1) {
        PyErr_SetString(PyExc_TimeoutError, "deadline passed");
    } else if (rc < 0) {
        PyErr_SetString(PyExc_RuntimeError, "chain search out of nodes");
    } else if (!s->has_best) {
        out = Py_None;
        Py_INCREF(out);
    } else {
        int ec[729], ed[729];
        for (int i = 0; i < s->best_nelims; i++) {
            ec[i] = s->best_elims[i][0];
            ed[i] = s->best_elims[i][1];
        }
        PyObject *elims = elims_tuple(ec, ed, s->best_nelims);
        PyObject *placement = s->best_pc >= 0 ? pair_tuple(s->best_pc, s->best_pd) : Py_None;
        if (placement == Py_None)
            Py_INCREF(placement);
        PyObject *cells = int_tuple(s->best_cells, s->best_ncells);
        if (elims && placement && cells)
            out = Py_BuildValue("(iidiNNN)", s->best_kind, s->best_sort, s->best_base,
                                s->best_cx, elims, placement, cells);
        else {
            Py_XDECREF(elims);
            Py_XDECREF(placement);
            Py_XDECREF(cells);
        }
    }
done:
    free(s);
    return out;
}
