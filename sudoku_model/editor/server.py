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

Limits (so that no client, slow or many, holds the server):

* each connection has :data:`REQUEST_TIMEOUT_SECONDS` to send a whole request (request
  line, headers and body; idle keep-alive time counts): a slow or silent one is closed
  (with a 408 when part of a request came), and every send waits that long at most;
* connections are served by a fixed pool of :data:`WORKERS` threads; up to
  :data:`MAX_PENDING` more wait for a worker (idle keep-alive connections are closed
  while some wait), further ones are closed at once; the listen backlog is
  :data:`LISTEN_BACKLOG`;
* a number in a JSON body of more than :data:`MAX_NUMBER_DIGITS` digits is a 400;
* at most :data:`~sudoku_model.editor.api.MAX_SEARCHES` searches run at once (the
  service's limit; a request that waits longer than a moment for one gets 503).
"""

from __future__ import annotations

import contextlib
import json
import queue
import select
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from typing import Any

from .api import EditorService, Reply

__all__ = [
    "LISTEN_BACKLOG",
    "MAX_BODY_BYTES",
    "MAX_NUMBER_DIGITS",
    "MAX_PENDING",
    "REQUEST_TIMEOUT_SECONDS",
    "STATIC_FILES",
    "WORKERS",
    "EditorServer",
    "static_text",
]

#: The largest request body read (bytes): a 25x25 puzzle is ~4 KB, a pasted file may be more.
MAX_BODY_BYTES = 4 * 1024 * 1024
#: Seconds a connection has to send one whole request (idle keep-alive time included).
REQUEST_TIMEOUT_SECONDS = 10.0
#: Threads serving connections.
WORKERS = 32
#: Connections accepted and waiting for a worker; more are closed at once.
MAX_PENDING = 256
#: How long a new connection may stay silent while others wait for a worker before it
#: counts as idle (a client sends its request at once; this covers one still in transit).
NEW_CONNECTION_GRACE_SECONDS = 0.5
#: The listen backlog (connections the kernel queues before they are accepted).
LISTEN_BACKLOG = 128
#: The most digits of a number in a JSON body (a seed or a limit needs 20 at most).
MAX_NUMBER_DIGITS = 40

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


def _idle(connection: socket.socket) -> bool:
    """Whether nothing is waiting to be read on ``connection`` (a keep-alive between
    requests, or a client that stopped sending)."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable


def _end_read(handler: _Handler) -> None:
    """Mark ``handler`` too slow and close its connection's read side (its blocked read
    returns at once; the reply can still be written)."""
    handler.timed_out = True
    with contextlib.suppress(OSError):
        handler.connection.shutdown(socket.SHUT_RD)


def static_text(name: str) -> str:
    """The text of one of the page's files (package data).

    Raises:
        KeyError: for a name not in :data:`STATIC_FILES`.
    """
    if name not in STATIC_FILES:
        raise KeyError(name)
    return resources.files("sudoku_model.editor").joinpath("static", name).read_text("utf-8")


class _NumberTooLarge(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _NumberTooLarge(
            f"a number of {len(text.lstrip('-')):,} digits; at most {MAX_NUMBER_DIGITS}"
        )
    return int(text)


class _Handler(BaseHTTPRequestHandler):
    server: EditorServer
    protocol_version = "HTTP/1.1"
    # The reply's headers and body are two writes: with Nagle's algorithm the body waits
    # for the client's delayed ACK (40 ms on Linux), which would be most of a live count.
    disable_nagle_algorithm = True
    server_version = "sudoku-edit"
    sys_version = ""

    timed_out = False
    #: Requests already read on this connection, and when it was accepted: a connection
    #: that has had a request (an idle keep-alive), or a new one silent for
    #: :data:`NEW_CONNECTION_GRACE_SECONDS`, is idle; a newer one's request may still be
    #: on its way, and is not taken for idleness.
    requests_read = 0
    accepted_at = 0.0

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    def setup(self) -> None:
        self.accepted_at = self.server._accepted_at(self.request)
        super().setup()
        self.connection.settimeout(self.server.request_timeout)  # each recv and send

    # -- one request, read under a deadline ----------------------------------------------
    def handle_one_request(self) -> None:
        """The standard loop's step, with the whole request read under the server's
        deadline (:meth:`EditorServer._watch`): a client too slow gets a 408 when it sent
        part of a request, and the connection is closed."""
        self.server._watch(self)
        try:
            self.raw_requestline = self.rfile.readline(65537)
            self.requests_read += 1
            if not self.raw_requestline:
                self.close_connection = True
                return
            if self.timed_out:
                return self._too_slow()
            if len(self.raw_requestline) > 65536:
                self.requestline = self.request_version = self.command = ""
                self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not self.parse_request():
                return
            if self.timed_out:
                return self._too_slow()
            method = getattr(self, "do_" + self.command, None)
            if method is None:
                self.server._unwatch(self)
                self.send_error(
                    HTTPStatus.NOT_IMPLEMENTED, f"Unsupported method ({self.command!r})"
                )
                return
            method()
            self.wfile.flush()
        except TimeoutError:
            self.close_connection = True
        finally:
            self.server._unwatch(self)

    def _request_read(self) -> bool:
        """End the read deadline once the request is in (a search may take longer);
        False (after a 408) when it ran out."""
        self.server._unwatch(self)
        if self.timed_out:
            self._too_slow()
            return False
        return True

    def _too_slow(self) -> None:
        self.close_connection = True
        seconds = self.server.request_timeout
        self._error(408, "request_timeout", f"the request took more than {seconds:g} s to send")

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
        if self.close_connection or self.server.crowded():
            self.send_header("Connection", "close")  # also sets close_connection
        self.end_headers()
        if not head_only:
            self.wfile.write(data)

    def _error(self, status: int, code: str, message: str) -> None:
        self._send(Reply(status, {"error": {"code": code, "message": message}}))

    def _refuse(self, status: int, code: str, message: str) -> None:
        self.server._unwatch(self)
        self.close_connection = True
        self._error(status, code, message)

    # -- verbs -------------------------------------------------------------------------
    def do_GET(self) -> None:
        if not self._request_read():
            return
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
        # A refusal before the body is read closes the connection (the unread body would
        # be taken for the next request).
        if not self._allowed_origin():
            return self._refuse(403, "forbidden", "requests come from this editor's page only")
        path = self.path.split("?", 1)[0]
        if not path.startswith("/api/"):
            return self._refuse(404, "not_found", f"no endpoint {path!r}")
        if self.headers.get_content_type() != "application/json":
            return self._refuse(415, "unsupported_media_type", "send the body as application/json")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._refuse(411, "length_required", "a Content-Length header is needed")
        if length < 0 or length > MAX_BODY_BYTES:
            return self._refuse(
                413, "too_large", f"the body is {length:,} bytes; at most {MAX_BODY_BYTES:,}"
            )
        raw = self.rfile.read(length)
        if not self._request_read():
            return
        if len(raw) < length:
            self.close_connection = True
            return self._error(400, "short_body", f"the body ended after {len(raw):,} bytes")
        try:
            payload = json.loads(raw.decode("utf-8"), parse_int=_parse_int)
        except _NumberTooLarge as exc:
            return self._error(400, "number_too_large", f"the body holds {exc}")
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            return self._error(400, "bad_json", f"the body is not JSON: {exc}")
        self._send(self.server.service.handle(path[len("/api/") :], payload))


class EditorServer(HTTPServer):
    """The editor's HTTP server on 127.0.0.1 (``port`` 0: a free port).

    ``url`` is the page's address. Use :meth:`start` for a background thread (tests, the
    widget's page) or ``serve_forever()`` in the foreground (``sudoku edit``).
    ``request_timeout``, ``workers`` and ``max_pending`` default to the module's limits.
    """

    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(
        self,
        service: EditorService | None = None,
        *,
        port: int = 0,
        verbose: bool = False,
        request_timeout: float = REQUEST_TIMEOUT_SECONDS,
        workers: int = WORKERS,
        max_pending: int = MAX_PENDING,
    ) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.service = service or EditorService()
        self.verbose = verbose
        self.request_timeout = request_timeout
        self._thread: threading.Thread | None = None
        self._pending: queue.Queue[tuple[socket.socket, Any] | None] = queue.Queue(max_pending)
        self._reading: dict[_Handler, float] = {}  # handler -> deadline of its request
        self._accepted: dict[Any, float] = {}  # connection -> when it was accepted
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._workers = [
            threading.Thread(target=self._work, name=f"sudoku-edit-{i}", daemon=True)
            for i in range(workers)
        ]
        for worker in self._workers:
            worker.start()
        self._reaper = threading.Thread(target=self._reap, name="sudoku-edit-reaper", daemon=True)
        self._reaper.start()

    # -- the worker pool -------------------------------------------------------------------
    def process_request(self, request: Any, client_address: Any) -> None:
        """Queue the connection for a worker; close it when :attr:`max_pending` wait."""
        with self._lock:
            self._accepted[request] = time.monotonic()
        try:
            self._pending.put_nowait((request, client_address))
        except queue.Full:
            self._accepted_at(request)
            self.shutdown_request(request)

    def _accepted_at(self, request: Any) -> float:
        """When the connection was accepted (forgotten once asked)."""
        with self._lock:
            return self._accepted.pop(request, time.monotonic())

    def _work(self) -> None:
        while True:
            item = self._pending.get()
            if item is None:
                return
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001 - reported by handle_error, as socketserver does
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def crowded(self) -> bool:
        """Whether connections wait for a worker (a reply then closes its connection)."""
        return not self._pending.empty()

    # -- read deadlines ----------------------------------------------------------------
    def _watch(self, handler: _Handler) -> None:
        with self._lock:
            self._reading[handler] = time.monotonic() + self.request_timeout

    def _unwatch(self, handler: _Handler) -> None:
        with self._lock:
            self._reading.pop(handler, None)

    def _reap(self) -> None:
        """Close the read side of connections past their deadline, and of idle ones
        (nothing unread) while others wait for a worker."""
        while not self._closing.wait(min(0.25, self.request_timeout / 4)):
            now = time.monotonic()
            crowded = self.crowded()
            with self._lock:
                late = [h for h, deadline in self._reading.items() if deadline <= now]
                if crowded:
                    late += [
                        h
                        for h in self._reading
                        if h not in late
                        and (h.requests_read or now - h.accepted_at >= NEW_CONNECTION_GRACE_SECONDS)
                        and _idle(h.connection)
                    ]
                for handler in late:
                    del self._reading[handler]
            for handler in late:
                _end_read(handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def start(self) -> EditorServer:
        """Serve in a daemon thread; returns self."""
        self._thread = threading.Thread(target=self.serve_forever, name="sudoku-edit", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close the open connections and the socket."""
        if self._thread is not None:
            self.shutdown()
            self._thread.join()
            self._thread = None
        self.server_close()

    def server_close(self) -> None:
        """Close the listening socket, the connections being read and the workers."""
        super().server_close()
        if self._closing.is_set():
            return
        self._closing.set()
        with self._lock:
            reading = list(self._reading)
            self._reading.clear()
            self._accepted.clear()
        for handler in reading:
            _end_read(handler)
        while True:  # connections never served are closed unanswered
            try:
                item = self._pending.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self.shutdown_request(item[0])
        for _ in self._workers:
            self._pending.put(None)

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
