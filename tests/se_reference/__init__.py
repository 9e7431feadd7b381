"""The SE rater's techniques in Python: the readable reference and test oracle of the C
searches that the product runs (the C files of sudoku_model/se/
through sudoku_model.se.native).

:data:`PYTHON_PRODUCERS` are SE's producers over these modules, for the differential
tests (tests/sudoku_model/se/test_se_native.py) and benchmarks; :data:`PLUS_RULES` the
searches a dynamic chain "+" applies, in Python; :mod:`.reglib` runs the reference against
HoDoKu's regression library.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sudoku_model.se import chaining, native
from sudoku_model.se.rater import make_producers
from sudoku_model.se.state import State
from sudoku_model.se.steps import SEStep

from . import aligned, basic, dynamic_chains, strong_links, unique, wings

#: The rules a dynamic chain "+" also applies, in SE's order: pointing and claiming,
#: hidden pairs, naked pairs, X-wings.
PLUS_RULES: tuple[dynamic_chains.PlusRule, ...] = (
    basic.locking,
    lambda s: basic.hidden_sets(s, 2),
    lambda s: basic.naked_sets(s, 2),
    lambda s: basic.fish(s, 2),
)

#: The same rules through the C searches (every hint of each, in order): the Python
#: chains over them are faster, and the C rules are checked against the Python ones.
NATIVE_PLUS_RULES: tuple[dynamic_chains.PlusRule, ...] = (
    native.locking,
    lambda s: native.hidden_sets(s, 2),
    lambda s: native.naked_sets(s, 2),
    lambda s: native.fish(s, 2),
)


class chains_reference:  # noqa: N801 - stands for a module of producers
    """The chains in Python, every level (:mod:`.dynamic_chains`)."""

    cycles_and_forcing_chains = staticmethod(chaining.cycles_and_forcing_chains)

    @staticmethod
    def multiple_chains(state: State, **kw: Any) -> Iterator[SEStep]:
        return dynamic_chains.multiple_chains(state, plus_rules=PLUS_RULES, **kw)


#: SE's producers, all in Python: the reference the product's C searches are compared with.
PYTHON_PRODUCERS = make_producers(basic, strong_links, wings, aligned, unique, chains_reference)
