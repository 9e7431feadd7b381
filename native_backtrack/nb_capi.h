/* The backtracker's C entry points for the other extension modules of this package, as a
 * PyCapsule that native_backtrack._core exports under the name below. A module that
 * searches (the bulk reader, _bulk) calls the one search in _core through it, sharing
 * its stop flag (nb_interrupt from Python reaches its searches too), instead of linking
 * a second copy of the backtracker. Import it with PyCapsule_Import(NB_CAPI_NAME, 0) and
 * check `version`. */
#ifndef NB_CAPI_H
#define NB_CAPI_H

#include "nb.h"

#define NB_CAPI_NAME "sudoku_model.native_backtrack._core._C_API"
#define NB_CAPI_VERSION 1

typedef struct {
    int version;
    int (*model_prepare)(nb_model *m);
    int (*solve)(const nb_model *m, const uint8_t *givens, const int32_t *forbidden,
                 int nforbidden, const uint8_t *avoid, const uint8_t *hint, uint64_t limit,
                 uint8_t *out, uint64_t keep, const nb_budget *budget, uint64_t *count,
                 nb_stats *st);
    double (*now)(void);
    int (*interrupted)(void);
} nb_capi;

#endif
