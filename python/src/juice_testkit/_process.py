"""Child processes that never outlive the test run.

Every child is started in a process group of its own (``start_new_session``), so stopping it stops
everything it started; is killed by the kernel if the Python process that started it dies without
cleaning up (``PR_SET_PDEATHSIG``, Linux); and is stopped at interpreter exit (``atexit``) if nothing
closed it.

``PR_SET_PDEATHSIG`` fires when the *thread* that forked the child ends, not the process. So every
child is forked by one thread of this package (``_Spawner``) that lives as long as the process: a child
started from any thread (a ``ThreadPoolExecutor`` worker, a fixture's helper thread) is killed when the
process dies, whether by SIGKILL, ``os._exit`` or a crash, and never when the thread that asked for it
ends. SIGTERM to the test process is handled as Ctrl-C
(KeyboardInterrupt, when nothing else handles SIGTERM), so pytest stops the run and tears its fixtures
down, and ``atexit`` runs.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import queue
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_PR_SET_PDEATHSIG = 1

# The children still running, for the atexit hook: the one piece of process-wide state, because an
# exiting interpreter has nothing else to ask. Weak, so a closed or collected child is forgotten.
_LIVE: weakref.WeakSet[Child] = weakref.WeakSet()
_HOOKS_INSTALLED = threading.Lock()
_hooked = False


def _find_prctl() -> Any:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: atexit and the fixtures still stop the child
        return None


# Looked up once, in the parent: between fork and exec the child only calls it (no dlopen, no lock).
_PRCTL = _find_prctl()


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class _Spawner:
    """The one thread that forks every child, alive as long as the process (see the module's docstring)."""

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]]] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name="juice-spawner", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            start, answer = self._requests.get()
            try:
                answer.put((True, start()))
            except BaseException as error:  # noqa: BLE001 - handed back to the caller, who raises it
                answer.put((False, error))

    def run(self, start: Callable[[], T]) -> T:
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        self._requests.put((start, answer))
        ok, value = answer.get()
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]


_SPAWNER_LOCK = threading.Lock()
_spawner: _Spawner | None = None


def _spawn(start: Callable[[], T]) -> T:
    global _spawner
    with _SPAWNER_LOCK:
        if _spawner is None:
            _spawner = _Spawner()
    return _spawner.run(start)


def _install_hooks() -> None:
    global _hooked
    with _HOOKS_INSTALLED:
        if _hooked:
            return
        _hooked = True
        atexit.register(_stop_all)
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
            signal.signal(signal.SIGTERM, _exit_on_sigterm)


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    # Not SystemExit: pytest would count it as one test's failure and go on with the next test.
    raise KeyboardInterrupt(f"signal {signum}")


def _stop_all() -> None:
    for child in list(_LIVE):
        child.stop()


class Child:
    """A running child process in its own process group, its output copied to ``log_path``.

    ``wait_for_line(predicate, timeout)`` blocks on the child's output (no sleeping, no polling)
    until a line satisfies ``predicate``, the child exits, or the timeout passes.
    """

    def __init__(
        self, argv: Sequence[str], *, log_path: str, env: dict[str, str] | None = None, cwd: str | None = None,
        stderr_path: str | None = None,
    ) -> None:
        _install_hooks()
        self.log_path = log_path
        self.stderr_path = stderr_path
        self._lines: queue.Queue[str | None] = queue.Queue()
        stderr: Any = subprocess.STDOUT
        if stderr_path is not None:
            stderr = open(stderr_path, "wb")  # noqa: SIM115 - the child's from now on; closed below
        try:
            self.process = _spawn(lambda: subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=stderr,
                env=env,
                cwd=cwd,
                start_new_session=True,
                # Only prctl runs between fork and exec (looked up beforehand: no lock, no allocation that could deadlock).
                preexec_fn=_die_with_parent,  # noqa: PLW1509
            ))
        finally:
            if stderr_path is not None:
                stderr.close()
        _LIVE.add(self)
        self._reader = threading.Thread(target=self._drain, name=f"juice-output-{self.process.pid}", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _drain(self) -> None:
        assert self.process.stdout is not None
        with open(self.log_path, "ab") as log:
            for raw in self.process.stdout:
                log.write(raw)
                log.flush()
                self._lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self._lines.put(None)

    def wait_for_line(self, predicate: Callable[[str], bool], timeout: float) -> str | None:
        """The first line of output satisfying ``predicate``; ``None`` if the output ended or ``timeout`` passed first."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            if predicate(line):
                return line

    def output_tail(self, limit: int = 4000) -> str:
        try:
            with open(self.log_path, "rb") as log:
                log.seek(0, os.SEEK_END)
                size = log.tell()
                log.seek(max(0, size - limit))
                return log.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def running(self) -> bool:
        return self.process.poll() is None

    def exits_within(self, seconds: float) -> bool:
        """Whether the child has ended, or ends within ``seconds`` (its output ending means it is on its way out)."""
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self, grace: float = 10.0) -> int | None:
        """SIGTERM to its process group, SIGKILL after ``grace`` seconds; returns the exit status. Idempotent."""
        _LIVE.discard(self)
        if self.process.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                self.process.wait()
        else:
            # The leader is gone; anything it left in its group goes too.
            self._signal_group(signal.SIGKILL)
        self._reader.join(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()
        return self.process.returncode

    def _signal_group(self, signum: int) -> None:
        try:
            os.killpg(self.process.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def parse_ready_line(line: str) -> dict[str, Any] | None:
    """The fields of ``juice emulator --ready-json``'s line, or ``None`` for any other line."""
    if not line.startswith("{"):
        return None
    try:
        fields = json.loads(line)
    except ValueError:
        return None
    if not isinstance(fields, dict) or fields.get("ready") is not True:
        return None
    # What the process says is checked before it is used: ports in range, URLs that are URLs.
    if not _is_port(fields.get("port")) or not (fields.get("smtp_port") is None or _is_port(fields.get("smtp_port"))):
        return None
    if not all(isinstance(fields.get(key), str) and fields[key].startswith(("http://", "https://")) for key in ("url", "issuer")):
        return None
    return fields


def _is_port(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535
