"""The names of the CNF encodings (:mod:`backends.cnf`), alone in a module that imports
nothing, so that the command line lists them (``sudoku cnf --encoding``) without loading
the encoder."""

from __future__ import annotations

__all__ = ["AMO_ENCODINGS", "DEFAULT_AMO", "DEFAULT_ENCODING", "ENCODINGS"]

#: Clause sets of Lynce & Ouaknine, from fewest clauses to most.
ENCODINGS = ("minimal", "efficient", "extended", "augmented")
DEFAULT_ENCODING = "extended"
#: At-most-one encodings: ``pairwise`` here, the others through :mod:`pysat.card`.
AMO_ENCODINGS = (
    "pairwise",
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "bitwise",
    "ladder",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
)
DEFAULT_AMO = "pairwise"
