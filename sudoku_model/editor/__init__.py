"""``sudoku edit``: an editor that counts as you type, as a local web page
(:mod:`.server`) and a notebook widget (:mod:`sudoku_model.widgets`), one JSON API
(:mod:`.api`) and one front end (``static/editor.js``) for both.

>>> from sudoku_model.editor import EditorService
>>> reply = EditorService().handle("status", {"puzzle": {"size": 4, "givens": [1, 1] + [0] * 14}})
>>> reply.status, reply.json["verdict"], reply.json["clash_cells"]
(200, 'contradictory', [0, 1])
"""

from __future__ import annotations

from .api import BUDGETS, EditorService, Reply
from .server import EditorServer, static_text
from .wire import ApiError, decode_puzzle, encode_puzzle, layout

__all__ = [
    "BUDGETS",
    "ApiError",
    "EditorServer",
    "EditorService",
    "Reply",
    "decode_puzzle",
    "encode_puzzle",
    "layout",
    "static_text",
]
