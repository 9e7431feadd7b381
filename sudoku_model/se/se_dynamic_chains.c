/* The SE rater's dynamic chain engine (sudoku_model.se._core): dynamic and multiple
 * forcing chains, Nishio, and the "+" rules, levels 0 and 1; the nested levels run it
 * through the hooks of se_chains.h (se_nested.c). */
#include "se_scan.h"

#include <stdlib.h>
#include <string.h>

/* ---- dynamic and multiple forcing chains (chaining._do_chaining, chaining._Multiple) --
 *
 * One chain is what chaining._do_chaining completes: the "on" and "off" potentials that
 * follow from its assumptions, each with the parents SE records, in SE's order. A node
 * may have several parents (a dynamic single rests on the earlier removals that made it
 * single; a "+" removal on the removals its pattern needs), so parents live in a pool and
 * a node names a slice of it. The multiple-chain producers (Nishio, cell and region
 * forcing chains, dynamic ones, "+") keep only their best hint: SE sorts its hints by
 * (rating, complexity, kind) keeping discovery order among equals, so a later hint
 * counts only when strictly better, and its complexity is counted only up to the largest
 * one that could still be. The nested levels (2 and more) run this engine through the
 * hooks of se_chains.h (se_nested.c): nodes keep their cause or nested hint as a tag. */


int PEERSCAN[81][20];
int POSIDX[81][3];

void init_peerscan(void)
{
    for (int cell = 0; cell < 81; cell++) {
        int n = 0;
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < 9; i++) {
                int c = REG[CREG[cell][t]][i];
                if (c == cell || (t > 0 && CREG[c][0] == CREG[cell][0]))
                    continue;
                PEERSCAN[cell][n++] = c;
            }
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < 9; i++)
                if (REG[CREG[cell][t]][i] == cell)
                    POSIDX[cell][t] = i;
    }
}

/* The places of each digit in `cands`, per region. */
void dyn_places(Dyn *D)
{
    memset(D->rpos0, 0, sizeof(D->rpos0));
    for (int c = 0; c < 81; c++)
        for (int m = D->cands[c]; m; m &= m - 1) {
            int d0 = __builtin_ctz((unsigned)m);
            for (int t = 0; t < 3; t++)
                D->rpos0[CREG[c][t]][d0] |= (uint16_t)(1 << POSIDX[c][t]);
        }
}

int dyn_grow_nodes(Dyn *D)
{
    int cap = D->ncap ? 2 * D->ncap : 65536;
    DNode *nodes = realloc(D->nodes, sizeof(DNode) * cap);
    if (nodes == NULL)
        return -1;
    D->nodes = nodes;
    D->ncap = cap;
    return 0;
}

int dyn_grow_pars(Dyn *D)
{
    int cap = D->pcap ? 2 * D->pcap : 262144;
    int *par = realloc(D->par, sizeof(int) * cap);
    if (par == NULL)
        return -1;
    D->par = par;
    D->pcap = cap;
    return 0;
}

/* A chain made empty: the entries of its keys cleared (a new chain is cleared whole once,
 * by chain_init). */
static void chain_reset(DChain *ch)
{
    for (int i = 0; i < ch->n_on; i++)
        ch->idx[ch->order_on[i]] = -1;
    for (int i = 0; i < ch->n_off; i++)
        ch->idx[ch->order_off[i]] = -1;
    ch->n_on = ch->n_off = 0;
}

static void chain_init(DChain *ch)
{
    memset(ch->idx, 0xff, sizeof(ch->idx));
    ch->n_on = ch->n_off = 0;
}

void chain_add(DChain *ch, int key, int node)
{
    ch->idx[key] = node;
    if (key & 1)
        ch->order_on[ch->n_on++] = (short)key;
    else
        ch->order_off[ch->n_off++] = (short)key;
}

int chain_add_new(Dyn *D, DChain *ch, const int *nodes, int n, int *toff)
{
    int added = 0;
    for (int i = 0; i < n; i++) {
        int node = nodes[i], key = D->nodes[node].key;
        if (ch->idx[key] < 0) {
            chain_add(ch, key, node);
            D->koff[*toff] = key;
            D->qoff[(*toff)++] = node;
            added++;
        }
    }
    return added;
}

/* A chain's first potential: an assumption, without parents. -1: out of memory. */
static int chain_root(Dyn *D, DChain *ch, int key)
{
    chain_reset(ch);
    int n = dyn_node(D, key, 0, 0, NO_CAUSE);
    if (n < 0)
        return -1;
    chain_add(ch, key, n);
    return 0;
}

/* chaining._rule_parents of a "+" pattern: the off keys of the candidates the chain
 * removed and the pattern needs gone. */
static int rule_parents(const RawHint *h, const int *grid, const int *src, int *out)
{
    int n = 0;
    if (h->kind == K_POINTING || h->kind == K_CLAIMING || h->kind == K_X_WING) {
        int d = h->ed[0], bit = 1 << (d - 1), k = h->nr / 2;
        u128 cover = 0;
        for (int i = k; i < h->nr; i++)
            cover |= REGMASK[h->regions[i]];
        for (int i = 0; i < k; i++)
            for (int j = 0; j < 9; j++) {
                int c = REG[h->regions[i]][j];
                if ((src[c] & bit) && !(grid[c] & bit) && !(cover & BIT128(c)))
                    out[n++] = (c * 9 + d - 1) << 1;
            }
        return n;
    }
    int values = 0;
    for (int i = 0; i < h->nc; i++)
        values |= grid[h->cells[i]];
    if (h->kind == K_HIDDEN_PAIR) {
        for (int i = 0; i < h->ne; i++)
            values &= ~(1 << (h->ed[i] - 1));
        for (int j = 0; j < 9; j++) {
            int c = REG[h->regions[0]][j], inside = 0;
            for (int i = 0; i < h->nc; i++)
                inside |= h->cells[i] == c;
            if (inside)
                continue;
            for (int m = src[c] & values; m; m &= m - 1)
                out[n++] = (c * 9 + __builtin_ctz((unsigned)m)) << 1;
        }
    } else { /* a naked pair */
        for (int i = 0; i < h->nc; i++) {
            int c = h->cells[i];
            for (int m = src[c] & ~values & 511; m; m &= m - 1)
                out[n++] = (c * 9 + __builtin_ctz((unsigned)m)) << 1;
        }
    }
    return n;
}

/* chaining._plus_advanced: the removals of the first "+" rule with a pattern resting on
 * the chain's removals, added to the chain (those it lacks) and queued at qoff[*toff..].
 * Returns the number added, -1 when out of memory. */
static int dyn_plus(Dyn *D, DChain *ch, int *toff)
{
    const int *grid = D->grid, *src = D->cands;
    /* The digits each region lost to the chain, or since the chain's last call that found
     * nothing: a pattern that rests on neither existed then (see Dyn.plus_base). */
    const int *base = D->plus_have ? D->plus_base : src;
    int nout = 0, rem[27];
    for (int r = 0; r < 27; r++) {
        rem[r] = 0;
        for (int i = 0; i < 9; i++)
            rem[r] |= base[REG[r][i]] & ~grid[REG[r][i]];
    }
    D->sink.rem = rem;
    D->sink.rpos = (const uint16_t(*)[9])D->rpos; /* the chain's grid's (dynamic) */
    for (int rule = 0; rule < 4 && nout == 0; rule++) {
        D->sink.nraw = 0;
        int rc;
        switch (rule) {
        case 0:
            rc = locking(grid, 0, &D->sink);
            break;
        case 1:
            rc = hidden_sets(D->values, grid, 2, 0, &D->sink);
            break;
        case 2:
            rc = naked_sets(D->values, grid, 2, &D->sink);
            break;
        default:
            rc = fish(D->values, grid, 2, &D->sink);
            break;
        }
        if (rc)
            return -1;
        for (int i = 0; i < D->sink.nraw; i++) {
            const RawHint *h = &D->sink.raw[i];
            int keys[81], nk = rule_parents(h, grid, src, keys), ok = nk > 0;
            for (int j = 0; j < nk && ok; j++)
                ok = ch->idx[keys[j]] >= 0;
            if (!ok)
                continue;
            int start = D->np;
            for (int j = 0; j < nk; j++)
                if (dyn_par(D, ch->idx[keys[j]]) < 0)
                    return -1;
            for (int j = 0; j < h->ne && nout < CH_KEYS; j++) {
                int n = dyn_node(D, (h->ec[j] * 9 + h->ed[j] - 1) << 1, start, nk, NO_CAUSE);
                if (n < 0)
                    return -1;
                D->plus_out[nout++] = n;
            }
        }
    }
    D->plus_nout = nout;
    if (nout == 0) {
        memcpy(D->plus_base, grid, sizeof(D->plus_base));
        D->plus_have = 1;
    }
    return chain_add_new(D, ch, D->plus_out, nout, toff);
}

/* Whether a new node of `on_key` would be dropped unseen: the chain has that potential
 * already, and not its negation (no contradiction). No such node is made. */
static inline int dyn_dropped(const DChain *ch, int on_key)
{
    return ch->idx[on_key] >= 0 && ch->idx[on_key ^ 1] < 0;
}

/* chaining._do_chaining on `ch`: 1 with (*a_on, *a_off) the first potential found both
 * on and off, 0 when the chain is complete, -1 when out of memory. */
static int dyn_run(Dyn *D, DChain *ch, int *a_on, int *a_off)
{
    /* A dynamic chain's grid loses candidates as it goes (a copy); a static one reads the
     * puzzle's. */
    int *grid = D->grid;
    const int *src = D->dynamic ? D->cands : NULL, *cells = D->cands;
    const uint16_t(*rpos)[9] = D->rpos0;
    if (D->dynamic) {
        memcpy(grid, D->cands, sizeof(int) * 81);
        memcpy(D->rpos, D->rpos0, sizeof(D->rpos));
        cells = grid;
        rpos = (const uint16_t(*)[9])D->rpos;
    }
    int hon = 0, ton = 0, hoff = 0, toff = 0;
    D->plus_have = 0;
    for (int i = 0; i < ch->n_on; i++)
        D->kon[ton] = ch->order_on[i], D->qon[ton++] = ch->idx[ch->order_on[i]];
    for (int i = 0; i < ch->n_off; i++)
        D->koff[toff] = ch->order_off[i], D->qoff[toff++] = ch->idx[ch->order_off[i]];
    for (;;) {
        if (hon < ton) {
            int key = D->kon[hon], p = D->qon[hon++];
            int cell = (key >> 1) / 9, d0 = (key >> 1) % 9, bit = 1 << d0;
            int offs[28], no = 0;
            if (D->y)
                for (int m = cells[cell] & ~bit; m; m &= m - 1)
                    offs[no++] = (cell * 9 + __builtin_ctz((unsigned)m)) << 1;
            /* the peers holding the digit, in SE's order */
            for (int i = 0; i < 20; i++) {
                int c = PEERSCAN[cell][i];
                offs[no] = (c * 9 + d0) << 1;
                no += cells[c] >> d0 & 1;
            }
            for (int i = 0; i < no; i++) {
                int off_key = offs[i], conj = off_key | 1;
                if (ch->idx[conj] >= 0 || ch->idx[off_key] < 0) {
                    int n = dyn_node(D, off_key, p, ONE_PARENT, NO_CAUSE);
                    if (n < 0)
                        return -1;
                    if (ch->idx[conj] >= 0) {
                        *a_on = ch->idx[conj];
                        *a_off = n;
                        return 1;
                    }
                    chain_add(ch, off_key, n);
                    D->koff[toff] = off_key;
                    D->qoff[toff++] = n;
                }
            }
            continue;
        }
        if (hoff < toff) {
            int key = D->koff[hoff], p = D->qoff[hoff++];
            int cell = (key >> 1) / 9, d0 = (key >> 1) % 9, bit = 1 << d0;
            int m = cells[cell], made[4], nm = 0;
            int naked_key = -1;
            if (D->y && POP[m] == 2) {
                int other = m & ~bit;
                other = other == m ? (m & -m) : (other & -other);
                naked_key = ((cell * 9 + __builtin_ctz((unsigned)other)) << 1) | 1;
            }
            if (naked_key >= 0 && !dyn_dropped(ch, naked_key)) {
                int on_key = naked_key;
                /* a dynamic chain adds the removals it rests on (the cell's) */
                int start = p, npar = ONE_PARENT;
                if (src) {
                    if ((start = dyn_par(D, p)) < 0)
                        return -1;
                    npar = 1;
                    for (int h = src[cell] & ~m; h; h &= h - 1) {
                        int q = ch->idx[cell * 18 + (__builtin_ctz((unsigned)h) << 1)];
                        if (q < 0 || dyn_par(D, q) < 0)
                            return -1;
                        npar++;
                    }
                }
                int n = dyn_node(D, on_key, start, npar, NAKED);
                if (n < 0)
                    return -1;
                made[nm++] = n;
            }
            int seen = 0;
            for (int t = 0; t < 3; t++) {
                int region = CREG[cell][t];
                int others = rpos[region][d0] & ~(1 << POSIDX[cell][t]);
                if (!others || (others & (others - 1)))
                    continue; /* not one other place */
                int found = REG[region][__builtin_ctz((unsigned)others)];
                int on_key = ((found * 9 + d0) << 1) | 1, dup = 0;
                if (seen)
                    for (int k = 0; k < nm; k++)
                        dup |= D->nodes[made[k]].key == on_key;
                if (dup || dyn_dropped(ch, on_key))
                    continue;
                int start = p, npar = ONE_PARENT; /* as above: the region's removals */
                if (src) {
                    if ((start = dyn_par(D, p)) < 0)
                        return -1;
                    npar = 1;
                    for (int h = D->rpos0[region][d0] & ~D->rpos[region][d0]; h; h &= h - 1) {
                        int c = REG[region][__builtin_ctz((unsigned)h)];
                        int q = ch->idx[(c * 9 + d0) << 1];
                        if (q < 0 || dyn_par(D, q) < 0)
                            return -1;
                        npar++;
                    }
                }
                int n = dyn_node(D, on_key, start, npar, region);
                if (n < 0)
                    return -1;
                made[nm++] = n;
                seen = 1;
            }
            if (D->dynamic && (grid[cell] & bit)) {
                grid[cell] &= ~bit;
                for (int t = 0; t < 3; t++)
                    D->rpos[CREG[cell][t]][d0] &= (uint16_t)~(1 << POSIDX[cell][t]);
            }
            for (int i = 0; i < nm; i++) {
                int n = made[i], on_key = D->nodes[n].key, conj = on_key & ~1;
                if (ch->idx[conj] >= 0) {
                    *a_on = n;
                    *a_off = ch->idx[conj];
                    return 1;
                }
                if (ch->idx[on_key] < 0) {
                    chain_add(ch, on_key, n);
                    D->kon[ton] = on_key;
                    D->qon[ton++] = n;
                }
            }
            continue;
        }
        if (D->plus) {
            int added = dyn_plus(D, ch, &toff);
            if (added < 0)
                return -1;
            if (added)
                continue;
            if (D->nested && D->plus_nout == 0) {
                added = D->nested(D, ch, &toff);
                if (added < 0)
                    return -1;
                if (added)
                    continue;
            }
        }
        return 0;
    }
}

/* The number of distinct potentials among the ancestors of `node` (chaining._complexity
 * of one target: a breadth-first walk that expands the first node met of each
 * potential), or limit + 1 once it exceeds `limit`. */
static int dyn_count(Dyn *D, int node, int limit)
{
    int stamp = next_stamp(D->mark, CH_KEYS, &D->stamp), head = 0, tail = 0;
    D->mark[D->nodes[node].key] = stamp;
    D->bfs[tail++] = node;
    while (head < tail) {
        const DNode *n = &D->nodes[D->bfs[head++]];
        const int *ps = dnode_parents(D, n);
        for (int i = 0, np = dnode_npar(n); i < np; i++) {
            int q = ps[i], k = D->nodes[q].key;
            if (D->mark[k] != stamp) {
                D->mark[k] = stamp;
                D->bfs[tail++] = q;
                if (tail > limit)
                    return limit + 1;
            }
        }
    }
    return tail;
}

static void dyn_bounds(Dyn *D)
{
    for (int sk = 0; sk < 8; sk++) {
        int c = 0;
        while (c < (1 << 20) && rank_less(D->base + length_addition(c + 1), c + 1, sk,
                                          D->best_diff, D->best_cx, D->best_sort))
            c++;
        D->bound[sk] = c;
    }
}

/* A hint of the producer (chaining._Multiple._hint), kept when it removes something and
 * beats the best so far. */
static void dyn_offer(Dyn *D, int kind, const int *targets, int nt, int sort_key, int key,
                      const int *cells, int nc)
{
    int cell = (key >> 1) / 9, bit = 1 << ((key >> 1) % 9);
    if ((key & 1) && !(D->cands[cell] & ~bit))
        return; /* no eliminations */
    if (D->on_hint) {
        if (D->on_hint(D, kind, targets, nt, sort_key, key, cells, nc))
            D->failed = D->failed ? D->failed : -1;
        return;
    }
    int limit = D->has_best ? D->bound[sort_key] : (1 << 30), cx = 0;
    if (D->complexity)
        cx = D->complexity(D, targets, nt, limit);
    else
        for (int i = 0; i < nt && cx <= limit; i++)
            cx += dyn_count(D, targets[i], limit - cx);
    if (cx > limit)
        return;
    D->has_best = 1;
    D->best_kind = kind;
    D->best_cx = cx;
    D->best_sort = sort_key;
    D->best_key = key;
    D->best_diff = D->base + length_addition(cx);
    D->best_nc = nc;
    memcpy(D->best_cells, cells, sizeof(int) * nc);
    dyn_bounds(D);
}

/* Candidate cd's kept chain, if any, goes back to the spares. */
static void memo_release(Dyn *D, int cd)
{
    if (D->memo[cd]) {
        D->spare[D->nspare++] = D->memo[cd];
        D->memo[cd] = NULL;
        D->nlive--;
    }
}

/* Drops every kept chain (their nodes may go). */
static void memo_drop(Dyn *D)
{
    for (int cd = 0; cd < 729 && D->nlive; cd++)
        memo_release(D, cd);
}

/* The "on" chain of candidate cd, made once and kept until its cell's turn ends (dyn_run's
 * result in the memo); NULL when out of memory. */
static DChain *memo_chain(Dyn *D, int cd)
{
    if (D->memo[cd])
        return D->memo[cd];
    DChain *ch;
    if (D->nspare)
        ch = D->spare[--D->nspare];
    else if ((ch = malloc(sizeof(DChain))) != NULL)
        chain_init(ch);
    if (ch == NULL)
        return NULL;
    D->memo[cd] = ch;
    D->nlive++;
    if (chain_root(D, ch, (cd << 1) | 1) < 0)
        return NULL;
    int rc = dyn_run(D, ch, &D->memo_a[cd], &D->memo_b[cd]);
    if (rc < 0)
        return NULL;
    D->memo_rc[cd] = rc;
    return ch;
}

/* chaining._Multiple._regions: the region forcing chains of `d` in the regions whose
 * first place for it is `cell` (`ch` the chain of cell = d). The chains of the other places
 * are made here, before their own cell's turn. */
static int dyn_regions(Dyn *D, int cell, int d0, DChain *ch)
{
    for (int t = 0; t < 3; t++) {
        int r = CREG[cell][t], places = D->rpos0[r][d0], pos[9], n = 0;
        if (!(places >> POSIDX[cell][t] & 1) || (places & ((1 << POSIDX[cell][t]) - 1)))
            continue; /* the cell is not the region's first place */
        for (int m = places; m; m &= m - 1)
            pos[n++] = REG[r][__builtin_ctz((unsigned)m)];
        if (!(n == 2 || (D->multiple && n > 2)))
            continue;
        DChain *others[8];
        for (int i = 1; i < n; i++)
            if ((others[i - 1] = memo_chain(D, pos[i] * 9 + d0)) == NULL)
                return -1;
        D->region = r;
        for (int side = 1; side >= 0; side--) {
            int count = side ? ch->n_on : ch->n_off;
            const short *order = side ? ch->order_on : ch->order_off;
            for (int j = 0; j < count; j++) {
                int k = order[j], ends[9], ok = 1;
                ends[0] = ch->idx[k];
                for (int i = 1; i < n && ok; i++)
                    ok = (ends[i] = others[i - 1]->idx[k]) >= 0;
                if (ok)
                    dyn_offer(D, DK_REGION, ends, n, 6, k, pos, n);
            }
        }
    }
    return 0;
}

static int dyn_cells(Dyn *D, int cell, int nd, DChain *const *mine);

/* chaining._Multiple._cell. 0, or -1 when out of memory. */
static int dyn_cell(Dyn *D, int cell, int n)
{
    /* The nodes go when no chain is kept, or too many are kept (or what their tags name
     * went): the kept chains go too, to be made again. */
    int dropped = D->cell_start && D->cell_start(D);
    if (dropped || D->nn > (1 << 21) || D->np > (1 << 23))
        memo_drop(D);
    if (D->nlive == 0)
        D->nn = D->np = 0;
    int do_double = n >= 3 && !D->nishio && D->dynamic;
    int do_contradiction = D->dynamic || D->nishio;
    int nd = 0;
    DChain *mine[9];
    for (int m = D->cands[cell]; m; m &= m - 1, nd++) {
        int d0 = __builtin_ctz((unsigned)m);
        int on_key = ((cell * 9 + d0) << 1) | 1, off_key = on_key ^ 1, pair[2];
        DChain *ch = mine[nd] = memo_chain(D, on_key >> 1);
        if (ch == NULL)
            return -1;
        int rc = D->memo_rc[on_key >> 1];
        pair[0] = D->memo_a[on_key >> 1];
        pair[1] = D->memo_b[on_key >> 1];
        int kind = D->nishio ? DK_NISHIO : DK_CONTRADICTION;
        if (do_contradiction && rc == 1)
            dyn_offer(D, kind, pair, 2, 7, off_key, &cell, 1);
        if (do_contradiction || do_double) {
            int nn = D->nn, np = D->np;
            DChain *o = D->off;
            if (chain_root(D, o, off_key))
                return -1;
            rc = dyn_run(D, o, &pair[0], &pair[1]);
            if (rc < 0)
                return -1;
            if (do_contradiction && rc == 1)
                dyn_offer(D, kind, pair, 2, 7, on_key, &cell, 1);
            if (do_double) {
                for (int j = 0; j < ch->n_on; j++) {
                    int k = ch->order_on[j];
                    if (o->idx[k] >= 0) {
                        int ends[2] = {ch->idx[k], o->idx[k]};
                        dyn_offer(D, DK_DOUBLE, ends, 2, 1, k, &cell, 1);
                    }
                }
                for (int j = 0; j < ch->n_off; j++) {
                    int k = ch->order_off[j];
                    if (o->idx[k] >= 0) {
                        int ends[2] = {ch->idx[k], o->idx[k]};
                        dyn_offer(D, DK_DOUBLE, ends, 2, 1, k, &cell, 1);
                    }
                }
            }
            D->nn = nn;
            D->np = np;
        }
        if (!D->nishio && dyn_regions(D, cell, d0, ch))
            return -1;
    }
    int rc = 0;
    if (!D->nishio && (n == 2 || (D->multiple && n > 2)))
        rc = dyn_cells(D, cell, nd, mine);
    /* this cell's kept chains have served */
    for (int m = D->cands[cell]; m; m &= m - 1)
        memo_release(D, cell * 9 + __builtin_ctz((unsigned)m));
    return rc;
}

/* chaining._Multiple._cell's cell forcing chains, from the "on" chains of its nd digits. */
static int dyn_cells(Dyn *D, int cell, int nd, DChain *const *mine)
{
    const DChain *first = mine[0];
    for (int side = 1; side >= 0; side--) {
        int count = side ? first->n_on : first->n_off;
        const short *order = side ? first->order_on : first->order_off;
        for (int j = 0; j < count; j++) {
            int k = order[j], ends[9], ok = 1;
            for (int i = 0; i < nd && ok; i++)
                ok = (ends[i] = mine[i]->idx[k]) >= 0;
            if (ok)
                dyn_offer(D, DK_CELL, ends, nd, 5, k, &cell, 1);
        }
    }
    return 0;
}

/* chaining._Multiple.hints, the best one: 0 done, 1 deadline passed, -1 out of memory. */
int dyn_hints(Dyn *D, double deadline)
{
    memo_drop(D);
    for (int cell = 0; cell < 81; cell++) {
        int n = POP[D->cands[cell]];
        if (n > 2 || (n > 1 && D->dynamic)) {
            if (deadline_passed(deadline))
                return 1;
            if (dyn_cell(D, cell, n) || D->failed)
                return D->failed == 1 ? 1 : -1;
        }
    }
    return 0;
}

Dyn *dyn_new(const int *values, const int *cands, int nishio, int multiple, int dynamic,
             int plus)
{
    Dyn *D = calloc(1, sizeof(Dyn));
    if (D) {
        D->off = malloc(sizeof(DChain));
        D->spare = malloc(sizeof(DChain *) * 729);
    }
    if (!D || !D->off || !D->spare) {
        if (D) {
            free(D->off);
            free(D->spare);
        }
        free(D);
        return NULL;
    }
    chain_init(D->off);
    D->values = values;
    D->cands = cands;
    D->nishio = nishio;
    D->multiple = multiple;
    D->dynamic = dynamic;
    D->plus = plus;
    D->y = !nishio;
    D->base = plus ? 9.0 : nishio ? 7.5 : dynamic ? 8.5 : 8.0;
    return D;
}

void dyn_free(Dyn *D)
{
    if (!D)
        return;
    free(D->nodes);
    free(D->par);
    free(D->off);
    memo_drop(D);
    for (int i = 0; i < D->nspare; i++)
        free(D->spare[i]);
    free(D->spare);
    free(D->sink.raw);
    free(D);
}

PyObject *dyn_result(Dyn *D)
{
    if (!D->has_best)
        Py_RETURN_NONE;
    const int *cands = D->cands;
    int key = D->best_key, cell = (key >> 1) / 9, d = (key >> 1) % 9 + 1;
    int ec[9], ed[9], ne = 0;
    if (key & 1) {
        for (int m = cands[cell] & ~(1 << (d - 1)); m; m &= m - 1) {
            ec[ne] = cell;
            ed[ne++] = __builtin_ctz((unsigned)m) + 1;
        }
    } else {
        ec[ne] = cell;
        ed[ne++] = d;
    }
    PyObject *out = NULL, *elims = elims_tuple(ec, ed, ne);
    PyObject *placement = key & 1 ? pair_tuple(cell, d) : Py_None;
    if (placement == Py_None)
        Py_INCREF(placement);
    PyObject *cells = int_tuple(D->best_cells, D->best_nc);
    if (elims && placement && cells)
        out = Py_BuildValue("(idiiNNN)", D->best_kind, D->base, D->best_cx, D->best_sort, elims,
                            placement, cells);
    else {
        Py_XDECREF(elims);
        Py_XDECREF(placement);
        Py_XDECREF(cells);
    }
    return out;
}

PyObject *dyn_best(Dyn *D, double deadline)
{
    dyn_places(D);
    int rc = dyn_hints(D, deadline);
    if (rc == 1) {
        PyErr_SetString(PyExc_TimeoutError, "deadline passed");
        return NULL;
    }
    if (rc < 0)
        return PyErr_NoMemory();
    return dyn_result(D);
}

PyObject *py_multiple_chains(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pv, *pc;
    int nishio, multiple, dynamic, plus;
    double deadline = -1.0;
    if (!PyArg_ParseTuple(args, "OOpppp|d", &pv, &pc, &nishio, &multiple, &dynamic, &plus,
                          &deadline))
        return NULL;
    int values[81], cands[81];
    if (read81(pv, values, 9, "values") || read81(pc, cands, 511, "cands"))
        return NULL;
    if (plus && !dynamic) {
        PyErr_SetString(PyExc_ValueError, "a chain \"+\" is dynamic");
        return NULL;
    }
    Dyn *D = dyn_new(values, cands, nishio, multiple, dynamic, plus);
    if (!D)
        return PyErr_NoMemory();
    PyObject *out = dyn_best(D, deadline);
    dyn_free(D);
    return out;
}
