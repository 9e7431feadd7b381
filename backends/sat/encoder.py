"""Encoding a rule set's CNF in a helper thread, so that the wait for it can be watched
against a deadline (a 25x25 encoding is ~0.5 s of pure Python)."""

from __future__ import annotations

import threading
from typing import Any

from sudoku_model.rules import RuleSet

from ..cnf import encode_rules

# -- encoding in a helper thread --------------------------------------------------------------
_ENCODINGS: dict[tuple[RuleSet, str, str], Any] = {}
_ENCODINGS_LOCK = threading.Lock()


def encode_in_background(rules: RuleSet, encoding: str, amo: str) -> Any:
    """A future of ``encode_rules(rules, ...)``, computed in a daemon thread (one per rule
    set at a time; the result is also cached by :mod:`backends.cnf`)."""
    from concurrent.futures import Future

    key = (rules, encoding, amo)
    with _ENCODINGS_LOCK:
        future = _ENCODINGS.get(key)
        if future is not None:
            return future
        future = Future()
        _ENCODINGS[key] = future

    def work() -> None:
        try:
            future.set_result(encode_rules(rules, encoding=encoding, amo=amo))
        except BaseException as exc:  # handed to whoever waits
            future.set_exception(exc)
        finally:
            with _ENCODINGS_LOCK:
                _ENCODINGS.pop(key, None)

    # A daemon: pure Python, nothing to clean up if the process ends first.
    threading.Thread(target=work, name="pysat-encode", daemon=True).start()
    return future
