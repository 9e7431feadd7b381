"""The backends of one process: made by name once and cached, with their version."""

from __future__ import annotations

from ..solving import (
    Backend,
)

# -- the backends of one process -----------------------------------------------------------
#: Backends this module made by name (one per process and name). A backend object passed
#: in by a caller is never stored here: later look-ups by name must not get it.
_BACKENDS: dict[str, tuple[Backend, str]] = {}


def _backend(name_or_backend: str | Backend) -> tuple[Backend, str]:
    """The backend (made by name once per process and cached; an object is used as it
    is, uncached) and its version."""
    if isinstance(name_or_backend, Backend):
        return name_or_backend, _version(name_or_backend)
    hit = _BACKENDS.get(name_or_backend)
    if hit is None:
        from ..solving import get_backend

        b = get_backend(name_or_backend)
        hit = _BACKENDS[name_or_backend] = (b, _version(b))
    return hit


def _version(backend: Backend) -> str:
    try:
        return str(backend.version())
    except Exception:  # a version string is never worth failing a run
        return "unknown"
