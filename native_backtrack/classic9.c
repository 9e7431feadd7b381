#include "nb.h"
void c9_init(void) {}
int c9_solve(const uint8_t *givens, const int32_t *forbidden, int nforbidden,
             const uint8_t *avoid, uint64_t limit, uint8_t *out, uint64_t keep,
             const nb_budget *budget, uint64_t *count, nb_stats *st) { return -1; }
