"""Type stub of the DRAT checker's test build (sudoku_model/drat.c with DRAT_TESTING):
sudoku_model._drat plus a hook for the tests."""

from ._drat import INVALID as INVALID
from ._drat import MALFORMED as MALFORMED
from ._drat import UNKNOWN as UNKNOWN
from ._drat import VALID as VALID
from ._drat import Formula as Formula

def fail_allocation_after(k: int, /) -> None: ...
