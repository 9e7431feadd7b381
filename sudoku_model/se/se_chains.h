/* What the nested chains (se_nested.c) share with the other C files of the SE rater: the
 * grid's tables (se_core.c), the "+" rules' raw hints, the static chains' links and rank
 * order (se_static_chains.c), and the dynamic chain engine (chaining._do_chaining,
 * chaining._Multiple; se_dynamic_chains.c), whose hooks let a chain nest other chaining
 * rules. */
#ifndef SE_CHAINS_H
#define SE_CHAINS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
#define BIT128(c) ((u128)1 << (c))

extern int REG[27][9];  /* the cells of each region: 0-8 boxes, 9-17 rows, 18-26 columns */
extern int CREG[81][3]; /* a cell's box, row and column */
extern u128 REGMASK[27];
extern int POP[512];
extern int POSIDX[81][3]; /* a cell's index in its box, row and column */
/* A cell's 20 peers in SE's order: the box, the row outside the box, the column outside
 * the box, each ascending. */
extern int PEERSCAN[81][20];

/* Where a scanning search puts its hints: a Python list (the module's functions), or,
 * with list NULL, a C array (what a dynamic chain "+" reads, without Python objects). */
typedef struct {
    int kind, ne, nc, nr;
    int ec[81], ed[81], cells[16], regions[8];
} RawHint;

typedef struct {
    PyObject *list;
    Py_ssize_t limit;
    RawHint *raw;
    int nraw, cap;
    /* A dynamic chain "+" wants only the patterns that rest on its removals: with rem
     * set (the digits each region lost to the chain), the searches skip the regions and
     * digits whose hints could rest on none (chaining._rule_parents would be empty). */
    const int *rem;
    /* With rem: the places of each digit in each region of the grid searched (bit i:
     * REG[r][i]), kept by the chain as it goes; NULL: the searches count them. */
    const uint16_t (*rpos)[9];
} Sink;

#define CH_KEYS 1458

/* Causes of an "on" node (a node's tag): its region 0-26 (a hidden single), NAKED (a
 * naked single), NO_CAUSE (an assumption). An "off" node's tag is NO_CAUSE, or the
 * index of the nested hint that removed it (se_nested.c's records). */
#define NAKED 27
#define NO_CAUSE (-1)

typedef struct {
    int key, par, npar; /* parents: par[par .. par + npar) of the pool, or with npar
                         * ONE_PARENT the one parent node `par` itself */
    int tag;
} DNode;

#define ONE_PARENT (-1)

typedef struct {
    int idx[CH_KEYS]; /* node of each potential, -1: none (the dicts to_on and to_off) */
    short order_on[729], order_off[729]; /* keys in insertion order (dict order) */
    int n_on, n_off;
} DChain;

enum { DK_CONTRADICTION, DK_DOUBLE, DK_CELL, DK_REGION, DK_NISHIO };

typedef struct Dyn Dyn;

struct Dyn {
    const int *values, *cands;
    int nishio, multiple, dynamic, plus, y;
    double base;
    DNode *nodes;
    int nn, ncap;
    int *par;
    int np, pcap;
    DChain *off; /* the "off" chain of the digit being tried */
    int grid[81];
    /* the grid's places of each digit per region (bit i: REG[r][i]), for the puzzle (…0)
     * and for the chain's grid as it loses candidates */
    uint16_t rpos0[27][9], rpos[27][9];
    int qon[CH_KEYS], qoff[CH_KEYS], kon[CH_KEYS], koff[CH_KEYS]; /* queued nodes, keys */
    int mark[CH_KEYS], stamp, bfs[CH_KEYS];
    int plus_out[CH_KEYS];
    int plus_nout; /* the removals the last "+" call found (present in the chain or not) */
    /* The chain's grid at its last "+" call that found nothing (plus_have: one was made).
     * A "+" pattern rests on the chain's removals in a region (a locking's or a fish's
     * base, a subset's region); one whose regions lost nothing since then existed then, as
     * it is now or with more to remove, and gave nothing: the rules look only where
     * something went since. */
    int plus_base[81], plus_have;
    Sink sink;
    /* the best hint so far, and per sort key the largest complexity that beats it */
    int has_best, best_kind, best_cx, best_sort, best_key, best_cells[9], best_nc;
    double best_diff;
    int bound[8];
    /* Nesting (se_nested.c), all NULL for levels 0 and 1. `nested` adds the removals of
     * the nested rules when "+" found none (as dyn_plus: the number added, -1 on failure);
     * `complexity` counts a hint's complexity with its nested chains (limit + 1 once
     * above `limit`); `on_hint`, when set, takes every hint instead of the best one;
     * `cell_start` runs before the chains of each cell, and says 1 when it dropped what the
     * nodes' tags name (every node is then dropped too). */
    void *ext;
    int (*nested)(Dyn *D, DChain *ch, int *toff);
    int (*complexity)(Dyn *D, const int *targets, int nt, int limit);
    int (*on_hint)(Dyn *D, int kind, const int *targets, int nt, int sort_key, int key,
                   const int *cells, int nc);
    int (*cell_start)(Dyn *D);
    int region; /* the region of the region forcing chains being offered */
    /* The "on" chain of each candidate, made once: by its cell's turn, or earlier by a
     * region's forcing chains (the region's first place comes first), and kept until its
     * cell's turn ends: memo[cd] (NULL: none), with dyn_run's result. Spare chains are
     * kept for reuse. */
    DChain *memo[729], **spare;
    int memo_rc[729], memo_a[729], memo_b[729], nlive, nspare;
    int failed; /* why a hook failed: 1 the deadline passed, else out of memory */
};

/* Whether x has exactly two bits. */
static inline int two_bits(u128 x)
{
    u128 y = x & (x - 1);
    return y && !(y & (y - 1));
}

#define CH_ONOFF 28 /* 8 other digits + 20 peers */
#define CH_OFFON 4  /* a naked single and three hidden ones */

/* SE's static links of a grid (its candidates and their digit boards, digit_boards), by
 * candidate cd (key >> 1): the off keys that cd's "on"
 * implies (with y, the cell's other digits; its peers that hold the digit) and the on keys
 * that its "off" implies (with y, the other digit of a bivalue cell; with x, the one other
 * place of the digit in each region, once each). The cell's links come first in both rows,
 * so the x links' rows are the xy links' without them. off_cause, when not NULL, gets each
 * off-to-on link's cause: NAKED, or the region. closing[k] is nonzero for the on keys that
 * some "off" implies (only those can close a cycle or end the forcing chain from their
 * "off"): bit 1 a cell's link (y), bit 2 a region's (x). With `core`, an "on" row keeps only
 * the off keys that imply something themselves (the others end every chain there);
 * n_mates, when not NULL, gets the number of the cell's other digits at a row's start. */
void se_build_links(const int *cands, const u128 board[9], int y, int x, int core,
                    int n_on[729], int n_mates[729], int on_off[729][CH_ONOFF], int n_off[729],
                    int off_on[729][CH_OFFON], int off_cause[729][CH_OFFON],
                    char closing[CH_KEYS]);
/* The strongly connected components of the keys under these links (Tarjan's, from the
 * roots: every key a root reaches gets comp[key]), and the targets each component reaches:
 * reach[comp][j >> 6] bit j when targets[j] is reachable (the caller's storage, CH_KEYS rows
 * of CH_QWORDS words, at most CH_KEYS targets, distinct). A key outside its source's
 * component never leads back to it, and a key whose component does not reach a target
 * never leads there: the chain searches leave both out, which changes no chain they find
 * (a node's first parent on a way back, or on a way to the target, is on that way too). */
#define CH_QWORDS ((CH_KEYS + 63) / 64)
typedef struct {
    int comp[CH_KEYS];
    uint64_t (*reach)[CH_QWORDS];
    int order[CH_KEYS], low[CH_KEYS], stack[CH_KEYS], frame[CH_KEYS], edge[CH_KEYS],
        nedge[CH_KEYS], query[CH_KEYS];
    const int *row[CH_KEYS]; /* the frame's key's links */
    uint64_t acc[CH_KEYS];   /* with one word of targets: what a key reaches so far */
    int wlo[CH_KEYS], whi[CH_KEYS]; /* a component's nonzero words of reach: [wlo, whi) */
    int size[CH_KEYS];              /* a component's number of keys */
} Components;
void se_components(Components *r, const int n_on[729], const int on_off[729][CH_ONOFF],
                   const int n_off[729], const int off_on[729][CH_OFFON], const int *roots,
                   int nroots, const int *targets, int ntargets);
/* Whether `key` (reached from a root) leads to target j. */
static inline int se_reaches(const Components *r, int key, int j)
{
    return (int)(r->reach[r->comp[key]][j >> 6] >> (j & 63) & 1);
}
double length_addition(int complexity);
int rank_less(double d1, int c1, int s1, double d2, int c2, int s2);
/* Whether the process's CPU clock (time.process_time's) is past `deadline` (never when it
 * is negative). Reading the CPU clock is a system call (~0.7 us), the monotonic clock is
 * not (~30 ns): within DEADLINE_WALL_SLACK wall seconds of the last CPU read, the CPU time
 * is bounded by that read plus the wall time since, and the CPU clock is read only when
 * that bound passes the deadline. With one thread running the answer is exact; other
 * threads of the process can make it late by at most the slack each. The last read is
 * kept for the next call (the searches hold the GIL). */
#define DEADLINE_WALL_SLACK 0.0005
int deadline_passed(double deadline);
int read81(PyObject *seq, int out[81], int top, const char *what);
PyObject *int_tuple(const int *v, int n);
PyObject *pair_tuple(int a, int b);
PyObject *elims_tuple(const int *cells, const int *digits, int n);

/* A new stamp for `mark` (n stamps): the marks equal to it are the ones made from now on
 * (all cleared before the counter could wrap). */
static inline int next_stamp(int *mark, int n, int *stamp)
{
    if (*stamp >= (1 << 30)) {
        memset(mark, 0, sizeof(int) * n);
        *stamp = 0;
    }
    return ++*stamp;
}

/* Fills POSIDX (and the engine's own table), once, from PyInit__core. */
void init_peerscan(void);
/* The node pool and the parent pool grow (realloc): 0, or -1 when out of memory. */
int dyn_grow_nodes(Dyn *D);
int dyn_grow_pars(Dyn *D);

/* A new node; its index, -1 when out of memory. */
static inline int dyn_node(Dyn *D, int key, int par, int npar, int tag)
{
    if (D->nn == D->ncap && dyn_grow_nodes(D))
        return -1;
    D->nodes[D->nn] = (DNode){key, par, npar, tag};
    return D->nn++;
}

/* A node's parents: dnode_npar of them at dnode_parents (valid until the pools grow). */
static inline int dnode_npar(const DNode *n) { return n->npar == ONE_PARENT ? 1 : n->npar; }

static inline const int *dnode_parents(const Dyn *D, const DNode *n)
{
    return n->npar == ONE_PARENT ? &n->par : D->par + n->par;
}

/* Appends one parent to the pool; returns its offset, -1 when out of memory. */
static inline int dyn_par(Dyn *D, int node)
{
    if (D->np == D->pcap && dyn_grow_pars(D))
        return -1;
    D->par[D->np] = node;
    return D->np++;
}
void chain_add(DChain *ch, int key, int node);
/* Add to `ch` each of the n `nodes` whose key it lacks, queued as off nodes of the search
 * (D->qoff at *toff): how many were added. */
int chain_add_new(Dyn *D, DChain *ch, const int *nodes, int n, int *toff);
void dyn_places(Dyn *D);
int dyn_hints(Dyn *D, double deadline);
/* A Dyn for one producer on `cands` (both arrays outlive it); NULL when out of memory. */
Dyn *dyn_new(const int *values, const int *cands, int nishio, int multiple, int dynamic,
             int plus);
void dyn_free(Dyn *D);
/* The best hint of a finished search as multiple_chains returns it (a new reference). */
PyObject *dyn_result(Dyn *D);
/* Place, search to `deadline` and return the best hint (dyn_result); NULL with TimeoutError
 * when the deadline passed, MemoryError when memory ran out. */
PyObject *dyn_best(Dyn *D, double deadline);

#endif
