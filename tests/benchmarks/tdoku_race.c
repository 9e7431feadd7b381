/* Race harness for tests/benchmarks/bench_tdoku.py (our code, not tdoku's): one C loop
 * over a batch of puzzles around the public C entry point of an already built tdoku
 * library, so that tdoku is charged no per-puzzle Python call, just as our Model.batch is
 * not. bench_tdoku.py compiles this file with `cc` into a temporary folder and links it
 * against the library path it is given; nothing of tdoku is in this repository. */
#include <stddef.h>
#include <stdint.h>

size_t TdokuSolverDpllTriadSimd(const char *puzzle81, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

/* Count up to `limit` solutions of each of n puzzles (82 chars each: 81 cells, '.' for
 * blanks, then a NUL, which tells tdoku the input is a plain puzzle and not a 729-char
 * pencilmark one); counts[i] gets the count; returns the total number of guesses. */
uint64_t race_tdoku(const char *puzzles, size_t n, size_t limit, uint32_t *counts)
{
    char solution[82];
    uint64_t guesses = 0;
    for (size_t i = 0; i < n; i++) {
        size_t g = 0;
        counts[i] = (uint32_t)TdokuSolverDpllTriadSimd(puzzles + 82 * i, limit, 0, solution, &g);
        guesses += g;
    }
    return guesses;
}
