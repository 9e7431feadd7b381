"""Sudoku Explainer-compatible difficulty ratings (ER/EP/ED).

A rater of our own that follows SukakuExplainer's procedure, technique order, ratings and
chain-length additions (read from its source as a specification):

>>> from sudoku_model.se import rate_se
>>> r = rate_se([int(ch) for ch in
...     "000000010400000000020000000000050407008000300001090000300400200050100000000806000"],
...     seconds=0.0)
>>> r.status
'budget'
"""

from __future__ import annotations

from .rater import (
    PRODUCERS,
    RATER_NAME,
    RATER_VERSION,
    Producer,
    SEBudgetExceeded,
    SERating,
    next_step,
    next_step_pencilmark,
    rate_se,
    rate_se_pencilmark,
)
from .state import State
from .steps import SEStep, apply_step

__all__ = [
    "PRODUCERS",
    "RATER_NAME",
    "RATER_VERSION",
    "Producer",
    "SEBudgetExceeded",
    "SERating",
    "SEStep",
    "State",
    "apply_step",
    "next_step",
    "next_step_pencilmark",
    "rate_se",
    "rate_se_pencilmark",
]
