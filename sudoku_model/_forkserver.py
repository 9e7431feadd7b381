"""Imported by the executor's fork server only (one of :data:`sudoku_model.executor.PRELOAD`),
never elsewhere: the fork server then ignores SIGINT, and so does every worker process it
forks from its first instruction on. A Ctrl-C from a terminal reaches the whole process
group; without this, one that lands while a worker is still starting (before the pool's
initializer makes it ignore SIGINT) prints a KeyboardInterrupt traceback from that worker.
The parent handles the signal and stops the workers (sudoku_model.executor).

The fork server starts with SIGINT blocked (sudoku_model.executor._start_fork_server), so
that one landing while it imports this package waits: ignored now, it is dropped, and the
workers start with nothing blocked."""

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
