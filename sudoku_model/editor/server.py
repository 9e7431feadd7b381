"""The editor's local web server: the standard library's ``ThreadingHTTPServer``, bound to
127.0.0.1 only, serving the page (package data) and the JSON API of
:class:`~sudoku_model.editor.api.EditorService`.

Why the standard library and not Starlette + uvicorn: the server is one user's loopback
tool with a dozen JSON endpoints; the work is CPU-bound solver calls that an async loop
would hand to threads anyway; cancellation is the backends' ``interrupt()``, not
coroutine cancellation; and with no dependency ``sudoku edit`` works from a plain
``pip install sudoku-model``.

What it serves and refuses:

* ``GET /`` the page, ``GET /static/NAME`` one of the files in :data:`STATIC_FILES` (a
  fixed list: no path from the request ever reaches the file system);
* ``GET /api/config`` and ``POST /api/ENDPOINT`` with a JSON body of at most
  :data:`MAX_BODY_BYTES`;
* requests whose ``Host`` is not this server's loopback address (DNS rebinding) or whose
  ``Origin`` is another site (a page elsewhere posting to the editor) get 403; a POST that
  is not ``application/json`` gets 415 (so no cross-site form can post without a CORS
  preflight, which is never granted).
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from .api import EditorService, Reply

__all__ = ["MAX_BODY_BYTES", "STATIC_FILES", "EditorServer", "static_text"]

#: The largest request body read (bytes): a 25x25 puzzle is ~4 KB, a pasted file may be more.
MAX_BODY_BYTES = 4 * 1024 * 1024

#: The files of the page, by URL name: (package resource, content type).
STATIC_FILES = {
    "editor.html": "text/html; charset=utf-8",
    "editor.js": "text/javascript; charset=utf-8",
    "editor.css": "text/css; charset=utf-8",
}

_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; frame-src blob:; object-src blob:; base-uri 'none'; form-action 'none'"
)


def static_text(name: str) -> str:
    """The text of one of the page's files (package data).

    Raises:
        KeyError: for a name not in :data:`STATIC_FILES`.
    """
    if name not in STATIC_FILES:
        raise KeyError(name)
    return resources.files("sudoku_model.editor").joinpath("static", name).read_text("utf-8")


class _Handler(BaseHTTPRequestHandler):
    server: EditorServer
    protocol_version = "HTTP/1.1"
    # The reply's headers and body are two writes: with Nagle's algorithm the body waits
    # for the client's delayed ACK (40 ms on Linux), which would be most of a live count.
    disable_nagle_algorithm = True
    server_version = "sudoku-edit"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    # -- guards ------------------------------------------------------------------------
    def _allowed_origin(self) -> bool:
        port = self.server.server_address[1]
        hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        if self.headers.get("Host") not in hosts:
            return False
        origin = self.headers.get("Origin")
        return origin is None or origin in {f"http://{h}" for h in hosts}

    def _send(self, reply: Reply, *, head_only: bool = False) -> None:
        if reply.body is not None:
            data = reply.body
        else:
            data = json.dumps(reply.json, separators=(",", ":")).encode("utf-8")
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", _CSP)
        if reply.filename:
            self.send_header("Content-Disposition", f'inline; filename="{reply.filename}"')
        self.end_headers()
        if not head_only:
            self.wfile.write(data)

    def _error(self, status: int, code: str, message: str) -> None:
        self._send(Reply(status, {"error": {"code": code, "message": message}}))

    # -- verbs -------------------------------------------------------------------------
    def do_GET(self) -> None:
        if not self._allowed_origin():
            return self._error(403, "forbidden", "requests come from this editor's page only")
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            path = "/static/editor.html"
        if path.startswith("/static/"):
            name = path[len("/static/") :]
            if name not in STATIC_FILES:
                return self._error(404, "not_found", f"no file {name!r}")
            data = static_text(name).encode("utf-8")
            return self._send(Reply(200, body=data, content_type=STATIC_FILES[name]))
        if path == "/api/config":
            return self._send(self.server.service.handle("config", {}))
        if path == "/favicon.ico":
            return self._send(Reply(204, body=b""))
        if path.startswith("/api/"):
            return self._error(405, "method_not_allowed", "API calls are POST with a JSON body")
        return self._error(404, "not_found", f"no page {path!r}")

    def do_POST(self) -> None:
        if not self._allowed_origin():
            return self._error(403, "forbidden", "requests come from this editor's page only")
        path = self.path.split("?", 1)[0]
        if not path.startswith("/api/"):
            return self._error(404, "not_found", f"no endpoint {path!r}")
        if self.headers.get_content_type() != "application/json":
            return self._error(415, "unsupported_media_type", "send the body as application/json")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._error(411, "length_required", "a Content-Length header is needed")
        if length < 0 or length > MAX_BODY_BYTES:
            self.close_connection = True
            return self._error(
                413, "too_large", f"the body is {length:,} bytes; at most {MAX_BODY_BYTES:,}"
            )
        raw = self.rfile.read(length)
        try:
            payload = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            return self._error(400, "bad_json", f"the body is not JSON: {exc}")
        self._send(self.server.service.handle(path[len("/api/") :], payload))


class EditorServer(ThreadingHTTPServer):
    """The editor's HTTP server on 127.0.0.1 (``port`` 0: a free port).

    ``url`` is the page's address. Use :meth:`start` for a background thread (tests, the
    widget's page) or ``serve_forever()`` in the foreground (``sudoku edit``).
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self, service: EditorService | None = None, *, port: int = 0, verbose: bool = False
    ) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.service = service or EditorService()
        self.verbose = verbose
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def start(self) -> EditorServer:
        """Serve in a daemon thread; returns self."""
        self._thread = threading.Thread(target=self.serve_forever, name="sudoku-edit", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self.shutdown()
            self._thread.join()
            self._thread = None
        self.server_close()

    def __enter__(self) -> EditorServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that left mid-reply (a superseded fetch aborted by the page) is normal.
        exc = sys.exc_info()[1]
        if isinstance(exc, (BrokenPipeError, ConnectionResetError)):
            return
        print(f"sudoku edit: error serving a request: {exc!r}", file=sys.stderr)
