/* A forward DRUP/DRAT proof checker: sudoku_model._drat (typed wrapper: sudoku_model.drat).
 *
 *   Formula(num_vars, clauses)           load a rules CNF once (clauses, watch lists, index)
 *   Formula.check(clauses, proof, ...)   add one puzzle's clauses, check its proof, undo
 *
 * Written to be audited, and independent of everything else in the toolkit: it includes
 * only Python.h and the C library, and shares no code with the backtracker or with any
 * encoder. It checks what DRAT defines, forward, in proof order:
 *
 *   - every added lemma must be RUP (assign its negation, unit-propagate, expect a
 *     conflict) or, failing that, RAT on its FIRST literal p: for every live clause D
 *     containing -p, the resolvent C u (D \ {-p}) is RUP (tautological resolvents pass);
 *   - `d ...` deletes one live copy of the clause (compared as a set of literals);
 *     deletions of unit clauses are ignored, as drat-trim and dratify do: a unit already
 *     propagated into the root assignment is not retracted. Likewise a deleted clause that
 *     was the reason of a root assignment leaves that assignment in place (drat-trim
 *     ignores such deletions). Ignoring a deletion only keeps more clauses, which cannot
 *     make a RUP step pass that would fail without them;
 *   - the proof is valid when the empty clause is added and is RUP (or the formula is
 *     refuted by unit propagation alone); steps after the empty clause are parsed, not
 *     checked. A proof that ends without the empty clause is invalid.
 *
 * Literals are DIMACS integers outside, 2*v + (negative) inside. A lemma's repeated
 * literals are dropped (the first occurrence kept: it fixes the RAT pivot). A proof may
 * name variables the formula does not (extension variables) up to num_vars + the proof's
 * length in bytes, the bound dratify uses.
 *
 * Sharing the rules between puzzles: the Formula keeps the rule clauses in an arena with
 * their two-watched-literal lists and a hash index (for deletions). check() appends the
 * puzzle's clauses and the lemmas above the rules in the arena and, whatever the outcome,
 * undoes everything afterwards: the assignment, the flags of deleted rule clauses, every
 * watch and index entry of a clause above the rules, the arena's length. What it does not
 * undo is which two literals of a rule clause are watched; with nothing assigned any pair
 * is a correct watch, and unit propagation reaches the same fixpoint (or a conflict)
 * whichever literals are watched, so no answer depends on it.
 *
 * One check at a time per Formula (a busy flag, set under the GIL: a second thread gets
 * RuntimeError); check() releases the GIL, so threads with a Formula each run in
 * parallel. A budget (work units: watch visits, literals scanned; and seconds) turns a
 * check that would run too long into UNKNOWN. Every allocation is checked: a failed one
 * undoes the check and raises MemoryError.
 *
 * Built twice from this file: sudoku_model._drat, and with DRAT_TESTING defined
 * sudoku_model._drat_testing, the same checker plus the tests' hook that makes an
 * allocation fail (fail_allocation_after), which the product leaves out.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DRAT_VALID = 0, DRAT_INVALID = 1, DRAT_MALFORMED = 2, DRAT_UNKNOWN = 3 };

/* Internal results of the helpers: >= 0 an answer, < 0 the check must stop. */
enum { E_BUDGET = -1, E_NOMEM = -2 };

#define DELETED 1u
/* Variables are kept below 2^30 so that 2*v + 1 fits a uint32 literal. */
#define MAX_VAR ((uint32_t)1 << 30)
/* Clock polls: every this many work units. */
#define POLL_EVERY 65536u

#ifdef DRAT_TESTING
#define DRAT_MODULE "sudoku_model._drat_testing"
#define DRAT_MODULE_INIT PyInit__drat_testing
#else
#define DRAT_MODULE "sudoku_model._drat"
#define DRAT_MODULE_INIT PyInit__drat
#endif

/* -- allocation (every one checked; the test build can make one fail) ------------------ */
#ifdef DRAT_TESTING
static long fail_after = -1;
#endif

static void *xrealloc(void *p, size_t n)
{
#ifdef DRAT_TESTING
    if (fail_after == 0) {
        fail_after = -1;
        return NULL;
    }
    if (fail_after > 0) fail_after--;
#endif
    return PyMem_RawRealloc(p, n ? n : 1);
}

typedef struct {
    uint32_t *data;
    size_t size, cap;
} Vec;

/* Room for `more` further items; 0 or E_NOMEM. */
static int vec_reserve(Vec *v, size_t more)
{
    if (v->size + more <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 4;
    while (cap < v->size + more) {
        if (cap > SIZE_MAX / 2 / sizeof(uint32_t)) return E_NOMEM;
        cap *= 2;
    }
    uint32_t *d = xrealloc(v->data, cap * sizeof(uint32_t));
    if (!d) return E_NOMEM;
    v->data = d;
    v->cap = cap;
    return 0;
}

static int vec_push(Vec *v, uint32_t x)
{
    if (vec_reserve(v, 1) < 0) return E_NOMEM;
    v->data[v->size++] = x;
    return 0;
}

static void vec_free(Vec *v)
{
    PyMem_RawFree(v->data);
    v->data = NULL;
    v->size = v->cap = 0;
}

/* -- the formula ---------------------------------------------------------------------- */
typedef struct {
    uint32_t handle; /* the clause's offset in the arena */
    uint32_t next;   /* next entry of the bucket (0: none; entries count from 1) */
    uint32_t bucket;
} Entry;

typedef struct {
    PyObject_HEAD
    int started;          /* __init__ ran (it runs once) */
    int ready;            /* __init__ succeeded */
    int busy;
    uint32_t num_vars;    /* the formula's variables */
    uint32_t max_var;     /* the per-literal arrays cover variables 1..max_var */
    uint32_t rule_count;  /* rule clauses */
    /* Arena: clause at offset h is arena[h] = size, arena[h+1] = flags, then its literals. */
    Vec arena;
    size_t rules_end;     /* arena size after the rules: above it, one check's clauses */
    Vec *watches;         /* watches[l]: clauses watching -l (visited when l becomes true) */
    int8_t *val;          /* val[l]: 1 true, -1 false, 0 unassigned */
    uint32_t *stamp;      /* per literal, for set operations */
    uint32_t stamp_now;
    uint32_t *trail;      /* assigned literals, in order; room for max_var */
    size_t trail_len;
    uint32_t *buckets;    /* hash index of clauses (as sets), for deletions */
    size_t nbuckets;      /* a power of two */
    Entry *entries;       /* entries[0] unused */
    size_t n_entries, cap_entries, rules_entries;
    Vec rule_units;       /* handles of the rule clauses of one literal */
    int rule_empty;       /* the rules hold the empty clause */
    Vec deleted_rules;    /* rule clauses deleted by the current check (to restore) */
} FormulaObject;

/* -- the state of one check ----------------------------------------------------------- */
typedef struct {
    uint64_t work, limit;     /* UINT64_MAX: no limit */
    double deadline;          /* monotonic seconds; 0: none */
    uint64_t next_poll;
    int root_conflict;
    Vec scratch;              /* a deduplicated lemma */
    Vec resolvent;
    /* the outcome */
    int status;
    long step;                /* 1-based proof step that failed (or -1) */
    Vec failed;               /* its literals (internal) */
    long lemmas, rat_lemmas, deletions, ignored_deletions;
    char reason[320];
} Check;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Count `n` work units; E_BUDGET once the budget is spent. */
static int tick(Check *c, uint64_t n)
{
    c->work += n;
    if (c->work > c->limit) return E_BUDGET;
    if (c->deadline > 0 && c->work >= c->next_poll) {
        c->next_poll = c->work + POLL_EVERY;
        if (now() > c->deadline) return E_BUDGET;
    }
    return 0;
}

static inline uint32_t lit_of(int32_t d) { return d > 0 ? 2u * (uint32_t)d : 2u * (uint32_t)(-(int64_t)d) + 1u; }
static inline long dimacs_of(uint32_t l) { return (l & 1u) ? -(long)(l >> 1) : (long)(l >> 1); }

/* A fresh stamp value (the stamps are cleared when the counter wraps). */
static uint32_t next_stamp(FormulaObject *f)
{
    if (++f->stamp_now == 0) {
        memset(f->stamp, 0, 2 * ((size_t)f->max_var + 1) * sizeof(uint32_t));
        f->stamp_now = 1;
    }
    return f->stamp_now;
}

/* Cover variables up to `var` in the per-literal arrays; 0 or E_NOMEM (then the arrays
 * may be larger, never inconsistent: max_var only moves when all have grown). */
static int grow(FormulaObject *f, uint32_t var)
{
    if (var <= f->max_var) return 0;
    size_t old = 2 * ((size_t)f->max_var + 1), lits = 2 * ((size_t)var + 1);
    int8_t *val = xrealloc(f->val, lits);
    if (!val) return E_NOMEM;
    f->val = val;
    memset(val + old, 0, lits - old);
    uint32_t *stamp = xrealloc(f->stamp, lits * sizeof(uint32_t));
    if (!stamp) return E_NOMEM;
    f->stamp = stamp;
    memset(stamp + old, 0, (lits - old) * sizeof(uint32_t));
    uint32_t *trail = xrealloc(f->trail, ((size_t)var + 1) * sizeof(uint32_t));
    if (!trail) return E_NOMEM;
    f->trail = trail;
    Vec *w = xrealloc(f->watches, lits * sizeof(Vec));
    if (!w) return E_NOMEM;
    f->watches = w;
    memset(w + old, 0, (lits - old) * sizeof(Vec));
    f->max_var = var;
    return 0;
}

/* -- the hash index (clauses as sets of literals) ------------------------------------ */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Order-independent: a sum of mixed literals (the literals are distinct). */
static size_t bucket_of(const FormulaObject *f, const uint32_t *lits, uint32_t n)
{
    uint64_t h = mix(n);
    for (uint32_t k = 0; k < n; k++) h += mix(lits[k]);
    return (size_t)(mix(h) & (f->nbuckets - 1));
}

static int reserve_entry(FormulaObject *f)
{
    if (f->n_entries + 1 < f->cap_entries) return 0;
    size_t cap = f->cap_entries ? 2 * f->cap_entries : 1024;
    if (cap > UINT32_MAX) return E_NOMEM;
    Entry *e = xrealloc(f->entries, cap * sizeof(Entry));
    if (!e) return E_NOMEM;
    f->entries = e;
    f->cap_entries = cap;
    return 0;
}

/* -- clauses -------------------------------------------------------------------------- */
static inline uint32_t *clause_lits(FormulaObject *f, uint32_t h) { return f->arena.data + h + 2; }

/* Append a clause of `n` distinct literals, watched on its first two; its handle in *out.
 * Room is reserved first, so a failure (E_NOMEM) changes nothing. */
static int add_clause(FormulaObject *f, const uint32_t *lits, uint32_t n, uint32_t *out)
{
    if (f->arena.size + n + 2 > UINT32_MAX) return E_NOMEM;
    if (vec_reserve(&f->arena, (size_t)n + 2) < 0 || reserve_entry(f) < 0) return E_NOMEM;
    if (n >= 2 && (vec_reserve(&f->watches[lits[0] ^ 1u], 1) < 0 ||
                   vec_reserve(&f->watches[lits[1] ^ 1u], 1) < 0))
        return E_NOMEM;
    uint32_t h = (uint32_t)f->arena.size;
    f->arena.data[f->arena.size++] = n;
    f->arena.data[f->arena.size++] = 0;
    memcpy(f->arena.data + f->arena.size, lits, (size_t)n * sizeof(uint32_t));
    f->arena.size += n;
    if (n >= 2) {
        Vec *a = &f->watches[lits[0] ^ 1u], *b = &f->watches[lits[1] ^ 1u];
        a->data[a->size++] = h;
        b->data[b->size++] = h;
    }
    size_t bucket = bucket_of(f, lits, n);
    size_t e = ++f->n_entries;
    f->entries[e].handle = h;
    f->entries[e].next = f->buckets[bucket];
    f->entries[e].bucket = (uint32_t)bucket;
    f->buckets[bucket] = (uint32_t)e;
    *out = h;
    return 0;
}

/* The newest live clause equal (as a set) to the `n` distinct literals, or UINT32_MAX. */
static int64_t find_clause(FormulaObject *f, Check *c, const uint32_t *lits, uint32_t n)
{
    uint32_t s = next_stamp(f);
    for (uint32_t k = 0; k < n; k++) f->stamp[lits[k]] = s;
    for (uint32_t e = f->buckets[bucket_of(f, lits, n)]; e; e = f->entries[e].next) {
        uint32_t h = f->entries[e].handle;
        const uint32_t *cl = f->arena.data + h;
        int r = tick(c, 1 + cl[0]);
        if (r < 0) return r;
        if (cl[0] != n || (cl[1] & DELETED)) continue;
        uint32_t k = 0;
        while (k < n && f->stamp[cl[2 + k]] == s) k++;
        if (k == n) return h;
    }
    return UINT32_MAX;
}

/* -- assignment and unit propagation -------------------------------------------------- */
static inline void assign(FormulaObject *f, uint32_t l)
{
    f->val[l] = 1;
    f->val[l ^ 1u] = -1;
    f->trail[f->trail_len++] = l;
}

static void backtrack(FormulaObject *f, size_t mark)
{
    while (f->trail_len > mark) {
        uint32_t l = f->trail[--f->trail_len];
        f->val[l] = 0;
        f->val[l ^ 1u] = 0;
    }
}

/* Propagate the trail from `head`: 1 conflict, 0 none, or E_BUDGET / E_NOMEM. */
static int propagate(FormulaObject *f, Check *c, size_t head)
{
    int8_t *val = f->val;
    while (head < f->trail_len) {
        uint32_t p = f->trail[head++], falsified = p ^ 1u;
        Vec *ws = &f->watches[p];
        size_t i = 0, j = 0, n = ws->size;
        int r = tick(c, 1 + n);
        if (r < 0) return r;
        while (i < n) {
            uint32_t h = ws->data[i++];
            uint32_t size = f->arena.data[h];
            if (f->arena.data[h + 1] & DELETED) {
                /* a deleted rule clause keeps its watches (a later check restores it);
                 * one of this check's is dropped for good */
                if (h < f->rules_end) ws->data[j++] = h;
                continue;
            }
            uint32_t *lits = clause_lits(f, h);
            if (lits[0] == falsified) {
                lits[0] = lits[1];
                lits[1] = falsified;
            }
            uint32_t first = lits[0];
            if (val[first] == 1) {
                ws->data[j++] = h;
                continue;
            }
            uint32_t k = 2;
            while (k < size && val[lits[k]] == -1) k++;
            if (k < size) {
                lits[1] = lits[k];
                lits[k] = falsified;
                if (vec_push(&f->watches[lits[1] ^ 1u], h) < 0) {
                    /* put the watch back where it was and keep the list whole */
                    lits[k] = lits[1];
                    lits[1] = falsified;
                    ws->data[j++] = h;
                    while (i < n) ws->data[j++] = ws->data[i++];
                    ws->size = j;
                    return E_NOMEM;
                }
                continue;
            }
            ws->data[j++] = h;
            if (val[first] == -1) {
                while (i < n) ws->data[j++] = ws->data[i++];
                ws->size = j;
                return 1;
            }
            assign(f, first);
        }
        ws->size = j;
    }
    return 0;
}

/* Is the clause RUP: does assigning the negation of its literals and propagating give a
 * conflict? 1 yes, 0 no, or E_BUDGET / E_NOMEM. The assignment is restored. */
static int rup(FormulaObject *f, Check *c, const uint32_t *lits, size_t n)
{
    if (c->root_conflict) return 1;
    size_t mark = f->trail_len;
    int r = 0;
    for (size_t k = 0; k < n && !r; k++) {
        if (f->val[lits[k]] == 1) r = 1; /* satisfied at the root */
        else if (f->val[lits[k]] == 0) assign(f, lits[k] ^ 1u);
    }
    if (!r) r = propagate(f, c, mark);
    backtrack(f, mark);
    return r;
}

/* Is the lemma RAT on its first literal? 1 yes, 0 no, or E_BUDGET / E_NOMEM. Scans every
 * live clause: RAT is the rare case, and a scan needs no occurrence lists to undo. */
static int rat(FormulaObject *f, Check *c, const uint32_t *lits, uint32_t n)
{
    if (n == 0) return 0;
    uint32_t negp = lits[0] ^ 1u;
    uint32_t s = next_stamp(f);
    for (uint32_t k = 0; k < n; k++) f->stamp[lits[k]] = s;
    for (size_t h = 0; h < f->arena.size; h += 2 + (size_t)f->arena.data[h]) {
        uint32_t size = f->arena.data[h];
        int r = tick(c, 1 + size);
        if (r < 0) return r;
        if (f->arena.data[h + 1] & DELETED) continue;
        const uint32_t *d = f->arena.data + h + 2;
        uint32_t k = 0;
        while (k < size && d[k] != negp) k++;
        if (k == size) continue;
        c->resolvent.size = 0;
        if (vec_reserve(&c->resolvent, (size_t)n + size) < 0) return E_NOMEM;
        memcpy(c->resolvent.data, lits, (size_t)n * sizeof(uint32_t));
        c->resolvent.size = n;
        int tautology = 0;
        for (k = 0; k < size && !tautology; k++) {
            uint32_t l = d[k];
            if (l == negp || f->stamp[l] == s) continue;
            if (f->stamp[l ^ 1u] == s) tautology = 1;
            else c->resolvent.data[c->resolvent.size++] = l;
        }
        if (tautology) continue;
        r = rup(f, c, c->resolvent.data, c->resolvent.size);
        if (r != 1) return r;
    }
    return 1;
}

/* Store a checked lemma (its literals distinct) and bring the root assignment up to date:
 * true literals first, then unassigned ones, then false ones, so that its watches are
 * right; a lemma unit at the root is propagated, one false at the root is a conflict. */
static int add_lemma(FormulaObject *f, Check *c, const uint32_t *lits, uint32_t n)
{
    Vec *o = &c->resolvent;
    o->size = 0;
    if (vec_reserve(o, n) < 0) return E_NOMEM;
    uint32_t free_lits = 0, satisfied = 0;
    for (int want = 1; want >= -1; want--)
        for (uint32_t k = 0; k < n; k++)
            if (f->val[lits[k]] == want) {
                o->data[o->size++] = lits[k];
                if (want == 1) satisfied = 1;
                if (want == 0) free_lits++;
            }
    uint32_t h;
    if (add_clause(f, o->data, n, &h) < 0) return E_NOMEM;
    if (satisfied || free_lits >= 2) return 0;
    if (free_lits == 0) {
        c->root_conflict = 1;
        return 0;
    }
    assign(f, clause_lits(f, h)[0]);
    int r = propagate(f, c, f->trail_len - 1);
    if (r < 0) return r;
    if (r == 1) c->root_conflict = 1;
    return 0;
}

/* -- proof text ----------------------------------------------------------------------- */
static int is_space(unsigned char ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f'; }
static int is_eol(unsigned char ch) { return ch == '\n' || ch == '\r'; }

/* The token for a message: printable ASCII, others as \xNN, at most 24 bytes. */
static void quote(char *out, size_t cap, const unsigned char *s, size_t n)
{
    size_t o = 0;
    for (size_t k = 0; k < n && o + 5 < cap; k++) {
        if (k == 24) {
            o += (size_t)snprintf(out + o, cap - o, "...");
            break;
        }
        if (s[k] >= 0x20 && s[k] < 0x7f && s[k] != '\'') out[o++] = (char)s[k];
        else o += (size_t)snprintf(out + o, cap - o, "\\x%02x", s[k]);
    }
    out[o < cap ? o : cap - 1] = 0;
}

/* Parse plain-text DRAT into `out`: per step a kind word (0 add, 1 delete), a count, the
 * literals. Tokens are separated by blanks and line ends; a line whose first non-blank is
 * 'c' is a comment; `d` alone opens a deletion; a literal is -?[1-9][0-9]*; `0` ends the
 * step. DRAT_VALID, DRAT_MALFORMED (the reason in c->reason) or E_NOMEM. */
static int parse(Check *c, const unsigned char *s, size_t len, uint32_t limit, Vec *out,
                 uint32_t *max_var)
{
    size_t pos = 0, line = 1, open_line = 0, head = 0;
    int line_start = 1;
    *max_var = 0;
    while (pos < len) {
        unsigned char ch = s[pos];
        if (is_eol(ch)) {
            if (ch == '\n' || pos + 1 >= len || s[pos + 1] != '\n') line++;
            pos++;
            line_start = 1;
            continue;
        }
        if (is_space(ch)) {
            pos++;
            continue;
        }
        if (line_start && ch == 'c') {
            while (pos < len && !is_eol(s[pos])) pos++;
            continue;
        }
        line_start = 0;
        size_t start = pos;
        while (pos < len && !is_space(s[pos]) && !is_eol(s[pos])) pos++;
        const unsigned char *t = s + start;
        size_t n = pos - start;
        char tok[120];
        if (n == 1 && t[0] == 'd') {
            if (open_line) {
                snprintf(c->reason, sizeof c->reason,
                         "proof line %zu: 'd' inside a clause (a deletion can only start one)",
                         line);
                return DRAT_MALFORMED;
            }
            if (vec_reserve(out, 2) < 0) return E_NOMEM;
            head = out->size;
            out->data[out->size++] = 1;
            out->data[out->size++] = 0;
            open_line = line;
            continue;
        }
        if (n == 1 && t[0] == '0') {
            if (!open_line) {
                if (vec_reserve(out, 2) < 0) return E_NOMEM;
                head = out->size;
                out->data[out->size++] = 0;
                out->data[out->size++] = 0;
            }
            out->data[head + 1] = (uint32_t)(out->size - head - 2);
            open_line = 0;
            continue;
        }
        size_t k = (t[0] == '-');
        int ok = k < n && t[k] >= '1' && t[k] <= '9';
        uint64_t v = 0;
        for (; ok && k < n; k++) {
            if (t[k] < '0' || t[k] > '9') ok = 0;
            else if ((v = v * 10 + (uint64_t)(t[k] - '0')) > limit) {
                quote(tok, sizeof tok, t, n);
                snprintf(c->reason, sizeof c->reason,
                         "proof line %zu: literal '%s' names a variable beyond the formula's "
                         "and the proof's (at most %lu)", line, tok, (unsigned long)limit);
                return DRAT_MALFORMED;
            }
        }
        if (!ok) {
            quote(tok, sizeof tok, t, n);
            snprintf(c->reason, sizeof c->reason, "proof line %zu: bad token '%s'", line, tok);
            return DRAT_MALFORMED;
        }
        if (!open_line) {
            if (vec_reserve(out, 2) < 0) return E_NOMEM;
            head = out->size;
            out->data[out->size++] = 0;
            out->data[out->size++] = 0;
            open_line = line;
        }
        if (vec_push(out, t[0] == '-' ? 2u * (uint32_t)v + 1u : 2u * (uint32_t)v) < 0)
            return E_NOMEM;
        if (v > *max_var) *max_var = (uint32_t)v;
    }
    if (open_line) {
        snprintf(c->reason, sizeof c->reason,
                 "proof line %zu: clause not terminated by 0 before the end of the proof",
                 open_line);
        return DRAT_MALFORMED;
    }
    return DRAT_VALID;
}

/* -- one check (without the GIL) ------------------------------------------------------ */
/* `lits`: the lemma's literals with repeats dropped (first occurrence kept), into
 * c->scratch. */
static int dedup(FormulaObject *f, Check *c, const uint32_t *lits, uint32_t n)
{
    c->scratch.size = 0;
    if (vec_reserve(&c->scratch, n) < 0) return E_NOMEM;
    uint32_t s = next_stamp(f);
    for (uint32_t k = 0; k < n; k++)
        if (f->stamp[lits[k]] != s) {
            f->stamp[lits[k]] = s;
            c->scratch.data[c->scratch.size++] = lits[k];
        }
    return 0;
}

static int fail(Check *c, long step, const uint32_t *lits, uint32_t n, const char *why)
{
    c->status = DRAT_INVALID;
    c->step = step;
    c->failed.size = 0;
    if (vec_reserve(&c->failed, n) < 0) return E_NOMEM;
    if (n) memcpy(c->failed.data, lits, (size_t)n * sizeof(uint32_t));
    c->failed.size = n;
    snprintf(c->reason, sizeof c->reason, "%s", why);
    return 0;
}

/* Add the puzzle's clauses (internal literals, each ended by 0), propagate the root and
 * replay the proof steps. Sets c->status and c->reason; E_BUDGET / E_NOMEM stop it. */
static int replay(FormulaObject *f, Check *c, const Vec *puzzle, const Vec *steps)
{
    size_t start = 0;
    for (size_t k = 0; k < puzzle->size; k++) {
        if (puzzle->data[k]) continue;
        int r = dedup(f, c, puzzle->data + start, (uint32_t)(k - start));
        if (r < 0) return r;
        uint32_t h;
        if (c->scratch.size == 0) c->root_conflict = 1;
        else if (add_clause(f, c->scratch.data, (uint32_t)c->scratch.size, &h) < 0)
            return E_NOMEM;
        start = k + 1;
    }
    if (f->rule_empty) c->root_conflict = 1;
    /* the root: every unit clause, then propagation (its fixpoint does not depend on the
     * order) */
    for (size_t h = f->rules_end; h < f->arena.size && !c->root_conflict;
         h += 2 + (size_t)f->arena.data[h])
        if (f->arena.data[h] == 1) {
            uint32_t l = f->arena.data[h + 2];
            if (f->val[l] == -1) c->root_conflict = 1;
            else if (f->val[l] == 0) assign(f, l);
        }
    for (size_t k = 0; k < f->rule_units.size && !c->root_conflict; k++) {
        uint32_t l = f->arena.data[f->rule_units.data[k] + 2];
        if (f->val[l] == -1) c->root_conflict = 1;
        else if (f->val[l] == 0) assign(f, l);
    }
    if (!c->root_conflict) {
        int r = propagate(f, c, 0);
        if (r < 0) return r;
        c->root_conflict = r;
    }
    if (c->root_conflict) {
        c->status = DRAT_VALID;
        snprintf(c->reason, sizeof c->reason, "the formula is refuted by unit propagation alone");
        return 0;
    }
    long step = 0;
    for (size_t k = 0; k < steps->size;) {
        uint32_t kind = steps->data[k], n = steps->data[k + 1];
        const uint32_t *lits = steps->data + k + 2;
        k += 2 + (size_t)n;
        step++;
        int r = dedup(f, c, lits, n);
        if (r < 0) return r;
        const uint32_t *cl = c->scratch.data;
        uint32_t m = (uint32_t)c->scratch.size;
        if (kind == 1) {
            if (m <= 1) {
                c->ignored_deletions++;
                continue;
            }
            int64_t h = find_clause(f, c, cl, m);
            if (h < 0) return (int)h;
            if (h == UINT32_MAX) {
                c->ignored_deletions++;
                continue;
            }
            if ((size_t)h < f->rules_end && vec_push(&f->deleted_rules, (uint32_t)h) < 0)
                return E_NOMEM;
            f->arena.data[h + 1] |= DELETED;
            c->deletions++;
            continue;
        }
        r = rup(f, c, cl, m);
        if (r == 0) {
            r = rat(f, c, cl, m);
            if (r == 1) c->rat_lemmas++;
        }
        if (r < 0) return r;
        if (r == 0)
            return fail(c, step, cl, m,
                        "clause is neither RUP nor RAT with respect to the clauses available "
                        "at this point");
        c->lemmas++;
        if (m == 0) {
            c->status = DRAT_VALID;
            snprintf(c->reason, sizeof c->reason, "empty clause derived and every step verified");
            return 0;
        }
        r = add_lemma(f, c, cl, m);
        if (r < 0) return r;
    }
    c->status = DRAT_INVALID;
    c->step = -1;
    snprintf(c->reason, sizeof c->reason,
             "every step verified, but the proof never derives the empty clause");
    return 0;
}

/* Back to the rules alone: see the comment at the top. Allocates nothing. */
static void undo(FormulaObject *f)
{
    backtrack(f, 0);
    for (size_t k = 0; k < f->deleted_rules.size; k++)
        f->arena.data[f->deleted_rules.data[k] + 1] &= ~DELETED;
    f->deleted_rules.size = 0;
    if (f->arena.size > f->rules_end) {
        uint32_t end = (uint32_t)f->rules_end;
        size_t lits = 2 * ((size_t)f->max_var + 1);
        for (size_t l = 0; l < lits; l++) {
            Vec *w = &f->watches[l];
            size_t j = 0;
            for (size_t i = 0; i < w->size; i++)
                if (w->data[i] < end) w->data[j++] = w->data[i];
            w->size = j;
        }
    }
    while (f->n_entries > f->rules_entries) {
        Entry *e = &f->entries[f->n_entries--];
        f->buckets[e->bucket] = e->next;
    }
    f->arena.size = f->rules_end;
}

/* -- the Python type ------------------------------------------------------------------ */
static PyTypeObject FormulaType;

static void Formula_dealloc(FormulaObject *f)
{
    vec_free(&f->arena);
    if (f->watches) {
        for (size_t l = 0; l < 2 * ((size_t)f->max_var + 1); l++) vec_free(&f->watches[l]);
        PyMem_RawFree(f->watches);
    }
    PyMem_RawFree(f->val);
    PyMem_RawFree(f->stamp);
    PyMem_RawFree(f->trail);
    PyMem_RawFree(f->buckets);
    PyMem_RawFree(f->entries);
    vec_free(&f->rule_units);
    vec_free(&f->deleted_rules);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

/* DIMACS int32 literals of a buffer, each clause ended by 0, as internal literals into
 * `out` (0 kept as the separator). Raises TypeError / ValueError / MemoryError; -1 then. */
static int read_int32(const int32_t *d, size_t n, uint32_t num_vars, Vec *out, const char *what);

static int read_clauses(PyObject *obj, uint32_t num_vars, Vec *out, const char *what)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO | PyBUF_FORMAT) < 0) return -1;
    int ok = view.itemsize == 4 && view.format &&
             (!strcmp(view.format, "i") || !strcmp(view.format, "@i") ||
              !strcmp(view.format, "=i") || (sizeof(long) == 4 && !strcmp(view.format, "l")));
    int r = ok ? 0 : -1;
    if (!ok)
        PyErr_Format(PyExc_TypeError, "%s: a buffer of int32 (array('i')) is required", what);
    else
        r = read_int32(view.buf, (size_t)view.len / 4, num_vars, out, what);
    PyBuffer_Release(&view);
    return r;
}

static int read_int32(const int32_t *d, size_t n, uint32_t num_vars, Vec *out, const char *what)
{
    if (n && d[n - 1] != 0) {
        PyErr_Format(PyExc_ValueError, "%s: the last clause is not ended by 0", what);
        return -1;
    }
    if (vec_reserve(out, n) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        int32_t x = d[k];
        if (x == INT32_MIN || (uint32_t)(x < 0 ? -x : x) > num_vars) {
            PyErr_Format(PyExc_ValueError, "%s: literal %d outside 1..%u (or its negation)",
                         what, (int)x, (unsigned)num_vars);
            return -1;
        }
        out->data[out->size++] = x ? lit_of(x) : 0;
    }
    return 0;
}

static int Formula_init(FormulaObject *f, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_vars", "clauses", NULL};
    long num_vars;
    PyObject *obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "lO:Formula", kwlist, &num_vars, &obj))
        return -1;
    if (f->started) {
        PyErr_SetString(PyExc_RuntimeError, "a Formula is initialised once");
        return -1;
    }
    if (num_vars < 0 || (unsigned long)num_vars >= MAX_VAR) {
        PyErr_Format(PyExc_ValueError, "num_vars must be in 0..%lu", (unsigned long)MAX_VAR - 1);
        return -1;
    }
    f->started = 1; /* from here on, what is allocated belongs to the object (dealloc) */
    Vec lits = {0};
    Check c;
    memset(&c, 0, sizeof c);
    if (read_clauses(obj, (uint32_t)num_vars, &lits, "rules clauses") < 0) goto fail;
    /* the per-literal arrays for variable 0 (never used), then grown to num_vars */
    if (!(f->val = xrealloc(NULL, 2))) goto nomem;
    memset(f->val, 0, 2);
    if (!(f->stamp = xrealloc(NULL, 2 * sizeof(uint32_t)))) goto nomem;
    memset(f->stamp, 0, 2 * sizeof(uint32_t));
    if (!(f->trail = xrealloc(NULL, sizeof(uint32_t)))) goto nomem;
    /* dealloc frees every list of the array: it is zeroed before anything else */
    if (!(f->watches = xrealloc(NULL, 2 * sizeof(Vec)))) goto nomem;
    memset(f->watches, 0, 2 * sizeof(Vec));
    if (grow(f, (uint32_t)num_vars) < 0) goto nomem;
    f->num_vars = (uint32_t)num_vars;
    size_t clauses = 0;
    for (size_t k = 0; k < lits.size; k++) clauses += !lits.data[k];
    f->nbuckets = 1024;
    while (f->nbuckets < 2 * clauses) f->nbuckets *= 2;
    f->buckets = xrealloc(NULL, f->nbuckets * sizeof(uint32_t));
    if (!f->buckets) goto nomem;
    memset(f->buckets, 0, f->nbuckets * sizeof(uint32_t));
    size_t start = 0;
    for (size_t k = 0; k < lits.size; k++) {
        if (lits.data[k]) continue;
        if (dedup(f, &c, lits.data + start, (uint32_t)(k - start)) < 0) goto nomem;
        uint32_t h;
        if (c.scratch.size == 0) f->rule_empty = 1;
        else if (add_clause(f, c.scratch.data, (uint32_t)c.scratch.size, &h) < 0 ||
                 (c.scratch.size == 1 && vec_push(&f->rule_units, h) < 0))
            goto nomem;
        f->rule_count++;
        start = k + 1;
    }
    f->rules_end = f->arena.size;
    f->rules_entries = f->n_entries;
    f->ready = 1;
    vec_free(&c.scratch);
    vec_free(&lits);
    return 0;
nomem:
    PyErr_NoMemory();
fail:
    vec_free(&c.scratch);
    vec_free(&lits);
    return -1;
}

static PyObject *check_result(Check *c)
{
    PyObject *clause = PyTuple_New((Py_ssize_t)c->failed.size);
    if (!clause) return NULL;
    for (size_t k = 0; k < c->failed.size; k++) {
        PyObject *x = PyLong_FromLong(dimacs_of(c->failed.data[k]));
        if (!x) {
            Py_DECREF(clause);
            return NULL;
        }
        PyTuple_SET_ITEM(clause, (Py_ssize_t)k, x);
    }
    return Py_BuildValue("(ilsNllllK)", c->status, c->step, c->reason, clause, c->lemmas,
                         c->rat_lemmas, c->deletions, c->ignored_deletions,
                         (unsigned long long)c->work);
}

static PyObject *Formula_check(FormulaObject *f, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"clauses", "proof", "work", "seconds", NULL};
    PyObject *cobj;
    Py_buffer pb;
    long long work = -1;
    double seconds = -1.0;
    if (!f->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Formula not initialised");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oy*|$Ld:check", kwlist, &cobj, &pb, &work,
                                     &seconds))
        return NULL;
    PyObject *result = NULL;
    Vec puzzle = {0}, steps = {0};
    if (f->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this Formula is checking a proof in another thread: use one per thread");
        goto out;
    }
    if (read_clauses(cobj, f->num_vars, &puzzle, "puzzle clauses") < 0) goto out;
    f->busy = 1;
    Check c;
    memset(&c, 0, sizeof c);
    c.step = -1;
    c.limit = work >= 0 ? (uint64_t)work : UINT64_MAX;
    int r;
    const unsigned char *text = pb.buf;
    size_t len = (size_t)pb.len;
    uint64_t bound = (uint64_t)f->num_vars + len;
    uint32_t limit = bound >= MAX_VAR ? MAX_VAR - 1 : (uint32_t)bound;
    Py_BEGIN_ALLOW_THREADS
    if (seconds >= 0) c.deadline = now() + seconds;
    uint32_t max_var = 0;
    r = parse(&c, text, len, limit, &steps, &max_var);
    if (r == DRAT_MALFORMED) c.status = DRAT_MALFORMED;
    else if (r == DRAT_VALID) {
        r = grow(f, max_var);
        if (r == 0) r = replay(f, &c, &puzzle, &steps);
    }
    undo(f);
    Py_END_ALLOW_THREADS
    f->busy = 0;
    if (r == E_NOMEM) PyErr_NoMemory();
    else {
        if (r == E_BUDGET) {
            c.status = DRAT_UNKNOWN;
            c.failed.size = 0;
            snprintf(c.reason, sizeof c.reason,
                     "budget spent after %llu work units, before a verdict",
                     (unsigned long long)c.work);
        }
        result = check_result(&c);
    }
    vec_free(&c.scratch);
    vec_free(&c.resolvent);
    vec_free(&c.failed);
out:
    vec_free(&puzzle);
    vec_free(&steps);
    PyBuffer_Release(&pb);
    return result;
}

static PyObject *Formula_num_vars(FormulaObject *f, void *closure)
{
    return PyLong_FromUnsignedLong(f->num_vars);
}

static PyObject *Formula_num_clauses(FormulaObject *f, void *closure)
{
    return PyLong_FromUnsignedLong(f->rule_count);
}

static PyGetSetDef Formula_getset[] = {
    {"num_vars", (getter)Formula_num_vars, NULL, "variables of the rules formula", NULL},
    {"num_clauses", (getter)Formula_num_clauses, NULL, "clauses of the rules formula", NULL},
    {NULL}
};

static PyMethodDef Formula_methods[] = {
    {"check", (PyCFunction)(void (*)(void))Formula_check, METH_VARARGS | METH_KEYWORDS,
     "check(clauses, proof, *, work=-1, seconds=-1.0) -> (status, step, reason, clause, "
     "lemmas, rat_lemmas, deletions, ignored_deletions, work)\n\n"
     "Add `clauses` (int32 DIMACS literals, each clause ended by 0) to the rules, check the "
     "plain-text DRAT `proof` (bytes) and undo. The GIL is released meanwhile."},
    {NULL}
};

static PyTypeObject FormulaType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = DRAT_MODULE ".Formula",
    .tp_basicsize = sizeof(FormulaObject),
    .tp_dealloc = (destructor)Formula_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Formula(num_vars, clauses): a rules CNF (int32 DIMACS literals, each clause "
              "ended by 0), loaded once; check() checks one DRAT proof against it plus a "
              "few clauses of its own.",
    .tp_methods = Formula_methods,
    .tp_getset = Formula_getset,
    .tp_init = (initproc)Formula_init,
    .tp_new = PyType_GenericNew,
};

#ifdef DRAT_TESTING
static PyObject *mod_fail_allocation_after(PyObject *mod, PyObject *arg)
{
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    fail_after = k;
    Py_RETURN_NONE;
}
#endif

static PyMethodDef module_methods[] = {
#ifdef DRAT_TESTING
    {"fail_allocation_after", mod_fail_allocation_after, METH_O,
     "fail_allocation_after(k) -> None\n\nFor tests: after k more successful allocations "
     "the next one fails (once); k < 0 disarms."},
#endif
    {NULL}
};

static struct PyModuleDef dratmodule = {
    PyModuleDef_HEAD_INIT, DRAT_MODULE,
#ifdef DRAT_TESTING
    "The DRAT proof checker built with its test hook (for tests only; the toolkit uses\n"
    "sudoku_model._drat).",
#else
    "A forward DRUP/DRAT proof checker (see sudoku_model.drat.DratChecker).",
#endif
    -1, module_methods,
};

PyMODINIT_FUNC DRAT_MODULE_INIT(void)
{
    if (PyType_Ready(&FormulaType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&dratmodule);
    if (!mod) return NULL;
    Py_INCREF(&FormulaType);
    if (PyModule_AddObject(mod, "Formula", (PyObject *)&FormulaType) < 0 ||
        PyModule_AddIntConstant(mod, "VALID", DRAT_VALID) < 0 ||
        PyModule_AddIntConstant(mod, "INVALID", DRAT_INVALID) < 0 ||
        PyModule_AddIntConstant(mod, "MALFORMED", DRAT_MALFORMED) < 0 ||
        PyModule_AddIntConstant(mod, "UNKNOWN", DRAT_UNKNOWN) < 0) {
        Py_DECREF(&FormulaType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
