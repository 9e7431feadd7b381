"""The removal order's shuffle: ``random.Random.shuffle``'s draws repeated inline, so the
same seed gives the same order (and the same generator state after it) at a fraction of
the cost.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any


def _draws_like_cpython() -> bool:
    """True when ``random.Random.shuffle`` draws through ``_randbelow_with_getrandbits``
    (as in CPython 3.11; a test compares): then :func:`_shuffle` repeats its draws inline."""
    try:
        method = random.Random._randbelow  # type: ignore[attr-defined]
        return method is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
    except AttributeError:
        return False


_INLINE_SHUFFLE = _draws_like_cpython()


def _shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same draws in the same order, so the same result and the
    same state of ``rng`` after it, without a Python call per element (a sixth of a
    minimal 9x9 puzzle's time). Falls back on ``rng.shuffle`` for a subclass of Random or
    a Python whose shuffle draws otherwise (a test compares the two)."""
    if type(rng) is not random.Random or not _INLINE_SHUFFLE:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=64)
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a shuffle of ``size`` items: (i, a draw below i + 1, its bit length)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
