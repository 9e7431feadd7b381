"""Notebook widgets: :class:`Editor`, the ``sudoku edit`` page inside Jupyter.

``Editor(puzzle)`` shows the same front end as the page (``sudoku_model/editor/static``,
loaded by anywidget) and answers its requests with the same API
(:class:`sudoku_model.editor.EditorService`), in a thread so that a newer request can
supersede a running one. What the user does syncs back to Python:

* ``editor.value``: the wire object (rule fields, ``givens``, ``values``: see
  :mod:`sudoku_model.editor.wire`), a synced traitlet;
* ``editor.puzzle``: the :class:`~sudoku_model.Puzzle` of the givens (assignable: the
  widget shows the new puzzle); ``editor.grid``: the grid as it stands;
* ``editor.verdict``: the verdict of the last live count (``unique``, ``multiple`` ...),
  a synced traitlet, and ``editor.count_text`` (``1``, ``at least 2`` ...).

The widget needs anywidget (``pip install 'sudoku-model[editor]'``); this module imports
without it, and puzzles, grids and verdicts keep their own rich display either way.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from .grid import Grid
from .puzzle import Puzzle

__all__ = ["HAVE_ANYWIDGET", "Editor"]

try:
    import anywidget
    import traitlets
except ImportError:
    #: Whether anywidget is installed (without it, making an :class:`Editor` raises).
    HAVE_ANYWIDGET = False
else:
    HAVE_ANYWIDGET = True

_NEEDS = "the notebook editor needs anywidget: pip install 'sudoku-model[editor]'"


def _restore(value: dict[str, Any]) -> Editor:
    """An editor showing the wire object ``value`` (how an :class:`Editor` unpickles)."""
    editor = Editor()
    editor.value = value
    return editor


if HAVE_ANYWIDGET or TYPE_CHECKING:
    from .editor import EditorService, decode_puzzle, encode_puzzle, static_text
    from .executor import request_pool

    class Editor(anywidget.AnyWidget):  # type: ignore[misc]
        """The puzzle editor as a notebook widget (see :mod:`sudoku_model.widgets`).

        An editor pickles as what it shows (a new widget, with a service of its own,
        on unpickling).

        Args:
            puzzle: the puzzle to open (an empty 9x9 grid when None).

        Raises:
            ImportError: when anywidget is not installed.
        """

        _esm = static_text("editor.js")
        _css = static_text("editor.css")
        value = traitlets.Dict().tag(sync=True)
        verdict = traitlets.Unicode("").tag(sync=True)
        count_text = traitlets.Unicode("").tag(sync=True)

        def __init__(self, puzzle: Puzzle | None = None, **kwargs: Any) -> None:
            from .geometry import Shape

            start = puzzle if puzzle is not None else Puzzle.empty(Shape(3, 3))
            super().__init__(value=encode_puzzle(start), **kwargs)
            self._service = EditorService(start)
            self._workers = request_pool(4, name="sudoku-widget")
            self.on_msg(self._on_message)

        def __repr__(self) -> str:
            verdict = f"verdict {self.verdict!r}" if self.verdict else "not counted yet"
            return f"<Editor of {self.puzzle!r}; {verdict}>"

        def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
            return _restore, (dict(self.value),)

        # -- Python side of the sync -----------------------------------------------------
        @property
        def puzzle(self) -> Puzzle:
            """The puzzle of the givens shown now."""
            return decode_puzzle(self.value).puzzle

        @puzzle.setter
        def puzzle(self, puzzle: Puzzle) -> None:
            self.value = encode_puzzle(puzzle)

        @property
        def grid(self) -> Grid:
            """The grid as it stands: givens and entered digits."""
            return decode_puzzle(self.value).values

        # -- requests from the front end ----------------------------------------------
        def _on_message(self, widget: Any, content: Any, buffers: Any) -> None:
            if isinstance(content, dict) and content.get("type") == "request":
                self._workers.submit(self.answer, content)

        def answer(self, content: dict[str, Any]) -> dict[str, Any]:
            """Answer one request of the front end (``{"type": "request", "id",
            "endpoint", "payload"}``) with the editor's API, send the reply back and
            return it; a status reply also sets :attr:`verdict` and :attr:`count_text`."""
            endpoint = content.get("endpoint")
            reply = self._service.handle(
                endpoint if isinstance(endpoint, str) else "", content.get("payload", {})
            )
            message: dict[str, Any] = {
                "type": "reply",
                "id": content.get("id"),
                "status": reply.status,
            }
            if reply.body is not None:
                message["body_base64"] = base64.b64encode(reply.body).decode("ascii")
                message["content_type"] = reply.content_type
            else:
                message["json"] = reply.json
            if endpoint == "status" and reply.status == 200 and reply.json is not None:
                self.verdict = reply.json.get("verdict", "")
                self.count_text = reply.json.get("count_text", "")
            self.send(message)
            return message

        def close(self) -> None:
            self._workers.shutdown(wait=False, cancel_futures=True)
            super().close()

else:

    class Editor:  # type: ignore[no-redef]
        """The notebook editor; anywidget is not installed, so making one raises.

        Raises:
            ImportError: always (install anywidget: ``pip install 'sudoku-model[editor]'``).
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError(_NEEDS)
