"""The exceptions of juice_testkit: each says what went wrong in words a test failure can show."""

from __future__ import annotations


class JuiceError(Exception):
    """The base of every juice_testkit exception."""


class JuiceNotFoundError(JuiceError):
    """The juice binary is neither in this package's scripts directory, nor at $JUICE_BIN, nor on PATH."""


class EmulatorStartError(JuiceError):
    """The emulator process did not become ready: a bad configuration, a port in use, a crash.

    ``output`` is the end of what the process printed (it never contains the admin token).
    """

    def __init__(self, reason: str, output: str = "") -> None:
        self.reason = reason
        self.output = output
        super().__init__(reason + (f"\n--- juice emulator output ---\n{output}" if output else ""))


class EmulatorError(JuiceError):
    """The emulator refused a request: its error code (``invalid_request``, ``not_found``, …), reason and HTTP status.

    >>> EmulatorError("invalid_request", "apps[0].team_id: no such team", 400).error
    'invalid_request'
    """

    def __init__(self, error: str, reason: str, status: int, path: str = "") -> None:
        self.error = error
        self.reason = reason
        self.status = status
        self.path = path
        where = f"{path}: " if path else ""
        super().__init__(f"{where}{error} (HTTP {status}): {reason}")


class ConformanceRunError(JuiceError):
    """``juice conformance`` could not run (exit status 2): the backend unreachable, the kit's port taken, bad options."""

    def __init__(self, reason: str, exit_status: int | None = None) -> None:
        self.reason = reason
        self.exit_status = exit_status
        super().__init__(reason)
