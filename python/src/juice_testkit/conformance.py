"""The conformance kit (``juice conformance``): it plays Apple against a backend and judges each case."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._binary import find_juice_bin
from ._process import Child, parse_ready_line
from .errors import ConformanceRunError

VERDICTS = ("PASSED", "FAILED", "WARNING", "INCONCLUSIVE", "SKIPPED")


@dataclass(frozen=True)
class ConformanceCase:
    """One case's verdict: what was sent, what the backend did, and how to fix it."""

    id: str
    title: str
    expect: str
    level: str
    observed: str
    verdict: str
    detail: str = ""
    fix: str = ""
    reference: str = ""


@dataclass(frozen=True)
class ConformanceReport:
    """The kit's report (its JSON), its table as printed, and where the JSON, JUnit and HTML reports are."""

    backend: str
    channel: str
    cases: Sequence[ConformanceCase]
    passed: int
    failed: int
    warnings: int
    inconclusive: int
    skipped: int
    exit_status: int
    table: str = field(repr=False)
    json_path: str = ""
    junit_path: str = ""
    html_path: str = ""

    @property
    def ok(self) -> bool:
        """No case FAILED (warnings, inconclusive and skipped cases do not fail a run)."""
        return self.failed == 0

    @property
    def failures(self) -> list[ConformanceCase]:
        return [case for case in self.cases if case.verdict == "FAILED"]

    def case(self, case_id: str) -> ConformanceCase:
        for case in self.cases:
            if case.id == case_id:
                return case
        raise KeyError(case_id)

    def verdicts(self) -> dict[str, str]:
        """``{case id: verdict}``."""
        return {case.id: case.verdict for case in self.cases}

    @classmethod
    def from_json(cls, body: Mapping[str, Any], *, table: str, exit_status: int, paths: Mapping[str, str]) -> ConformanceReport:
        cases = []
        for raw in body.get("cases", []):
            verdict = raw.get("verdict")
            if verdict not in VERDICTS:
                raise ConformanceRunError(f"the report has a case with an unknown verdict {verdict!r}")
            cases.append(ConformanceCase(**{k: str(raw.get(k, "")) for k in ConformanceCase.__dataclass_fields__}))
        counts = {}
        for key in ("passed", "failed", "warnings", "inconclusive", "skipped"):
            value = body.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= len(cases):
                raise ConformanceRunError(f"the report's {key!r} is {value!r}, not a count between 0 and {len(cases)}")
            counts[key] = value
        return cls(
            backend=str(body.get("backend", "")), channel=str(body.get("channel", "")), cases=tuple(cases), table=table,
            exit_status=exit_status, json_path=paths["json"], junit_path=paths["junit"], html_path=paths["html"], **counts,
        )


class Kit:
    """The conformance kit (``juice conformance``) for one run.

    With no ``port`` the kit binds a port the kernel picks (``--port 0``) and reports it
    (``--ready-json``), so parallel runs never collide. The backend needs the kit's URL, so a run has two
    steps: ``start(…)`` returns once the kit listens (``url`` is then known), the backend is configured
    with ``url`` as Apple's base URL, and ``wait()`` returns the report. The kit waits (up to
    ``wait_for_backend`` seconds) for the backend's start path to redirect to it before the first case.

    >>> kit = Kit().start(backend=backend.url, team_id=..., key_id=..., team_key=..., client_id=..., redirect_uri=...)  # doctest: +SKIP
    >>> backend.configure(apple_base_url=kit.url)
    >>> report = kit.wait()

    ``run(…)`` is both steps at once, for a backend already configured (a fixed ``port`` given here).
    """

    def __init__(self, port: int | None = None, *, report_dir: str | None = None, juice_bin: str | None = None) -> None:
        if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535):
            raise ValueError(f"port must be an int between 1 and 65535 (or None: the kernel picks one), not {port!r}")
        self._port = port
        self.report_dir = report_dir
        self._juice_bin = juice_bin
        self._child: Child | None = None
        self._ready: dict[str, Any] = {}
        self._paths: dict[str, str] = {}
        self._directory: str | None = None

    @property
    def port(self) -> int:
        """The kit's port: the one given, or the one it bound (after ``start``)."""
        if "port" in self._ready:
            return int(self._ready["port"])
        if self._port is None:
            raise RuntimeError("the kit picks its port when it starts: call start(...) first, then read url or port")
        return self._port

    @property
    def url(self) -> str:
        """Apple's base URL (and default issuer) for the backend under test."""
        return str(self._ready.get("url") or f"http://127.0.0.1:{self.port}")

    @property
    def pid(self) -> int | None:
        """The kit's process id while it runs, else ``None``."""
        return self._child.pid if self._child and self._child.running() else None

    def start(
        self,
        *,
        backend: str,
        team_id: str,
        key_id: str,
        team_key: str,
        client_id: str,
        redirect_uri: str,
        bundle_id: str | None = None,
        issuer: str | None = None,
        start: str | None = None,
        start_method: str | None = None,
        probe: str | None = None,
        native: str | None = None,
        native_nonce: str | None = None,
        native_body: str | None = None,
        api_only: bool = False,
        notifications: str | None = None,
        delete: str | None = None,
        timeout: int | None = None,
        apple_stall_bound: int | None = None,
        wait_for_backend: int = 60,
        startup_timeout: float = 60.0,
    ) -> Kit:
        """Starts the kit; returns once it listens (``url``, ``port``). ``ConformanceRunError`` when it cannot run.

        ``backend`` is the backend's base URL; ``team_id``, ``key_id`` and ``team_key`` (the path of the
        backend's .p8, or its public-key PEM) are the backend's team key; ``client_id`` its Services ID and
        ``redirect_uri`` its registered callback; ``bundle_id`` the app (native sign-ins, notifications;
        default the client id); ``issuer`` the ``iss`` of the kit's tokens (default its URL; give
        ``https://appleid.apple.com`` for a library that hard-codes it); ``start`` the path that starts a
        web sign-in (default ``/auth/apple``) and ``start_method`` ``GET`` (a redirect) or ``POST`` (a page
        with a form); ``probe`` a path answering 2xx only when signed in; ``native`` the native sign-in
        endpoint, ``native_nonce`` an endpoint issuing nonces, ``native_body`` ``"juice"`` (default) or
        ``"rest-auth"`` (dj-rest-auth's ``{code, id_token}``); ``api_only`` judges a backend with only a
        native endpoint (give ``native``, not ``start``); ``notifications`` the server-to-server endpoint;
        ``delete`` the account-deletion endpoint (it must call Apple's revoke); ``timeout`` the seconds one
        request to the backend may take (1-120, default 10); ``apple_stall_bound`` the seconds the backend may
        take to refuse a sign-in while Apple stalls (``native-apple-slow``, default 15);
        ``wait_for_backend`` the seconds the kit waits, once it listens, for the backend to be configured
        with its URL (0-600).
        """
        if self._child is not None:
            raise RuntimeError("this Kit is already started")
        self._directory = self.report_dir or tempfile.mkdtemp(prefix="juice-conformance-")
        os.makedirs(self._directory, exist_ok=True)
        self._paths = {
            "json": os.path.join(self._directory, "conformance.json"),
            "junit": os.path.join(self._directory, "conformance.xml"),
            "html": os.path.join(self._directory, "conformance.html"),
        }
        options: dict[str, str | None] = {
            "backend": backend, "port": str(self._port or 0), "team-id": team_id, "key-id": key_id, "team-key": team_key,
            "client-id": client_id, "redirect-uri": redirect_uri, "bundle-id": bundle_id, "issuer": issuer, "start": start,
            "start-method": start_method, "probe": probe, "native": native, "native-nonce": native_nonce, "native-body": native_body,
            "notifications": notifications, "delete": delete, "timeout": None if timeout is None else str(timeout),
            "apple-stall-bound": None if apple_stall_bound is None else str(apple_stall_bound),
            "wait-for-backend": str(wait_for_backend), "report": self._paths["json"], "junit": self._paths["junit"],
            "html": self._paths["html"],
        }
        argv = [self._juice_bin or find_juice_bin(), "conformance", "--ready-json"] + (["--api-only"] if api_only else [])
        for name, value in options.items():
            if value is not None:
                argv += [f"--{name}", value]
        for stale in self._paths.values():
            if os.path.exists(stale):
                os.remove(stale)
        self._child = Child(
            argv, log_path=os.path.join(self._directory, "conformance.out"), stderr_path=os.path.join(self._directory, "conformance.err")
        )
        line = self._child.wait_for_line(lambda text: parse_ready_line(text) is not None, startup_timeout)
        if line is None:
            self._child.exits_within(5)
            status = self._child.stop(grace=2)
            self._child = None
            raise ConformanceRunError(self._reason(status), status)
        self._ready = parse_ready_line(line) or {}
        return self

    def wait(self, timeout: float = 900.0) -> ConformanceReport:
        """Waits for the run to end and returns the report, whatever the verdicts; ``ConformanceRunError`` when
        it could not run (exit status 2: the backend unreachable or not redirecting to the kit, bad options)."""
        child = self._child
        if child is None:
            raise RuntimeError("the kit is not started: call start(...) first")
        if not child.exits_within(timeout):
            child.stop(grace=2)
            self._child = None
            raise ConformanceRunError(f"juice conformance did not finish within {timeout:g} s")
        status = child.stop()
        self._child = None
        if status == 2 or not os.path.exists(self._paths["json"]):
            raise ConformanceRunError(self._reason(status), status)
        with open(self._paths["json"], encoding="utf-8") as file:
            body = json.load(file)
        table = "\n".join(line for line in _read(child.log_path).splitlines() if parse_ready_line(line) is None) + "\n"
        return ConformanceReport.from_json(body, table=table, exit_status=status if status is not None else -1, paths=self._paths)

    def run(self, *, run_timeout: float = 900.0, **options: Any) -> ConformanceReport:
        """``start(**options)`` then ``wait()``: for a backend already configured with the kit's URL (a fixed
        ``port``), so the kit does not wait for it unless ``wait_for_backend`` says so."""
        options.setdefault("wait_for_backend", 0)
        return self.start(**options).wait(run_timeout)

    def close(self) -> None:
        """Stops the kit if it still runs. Idempotent."""
        child, self._child = self._child, None
        if child is not None:
            child.stop(grace=2)

    def __enter__(self) -> Kit:  # noqa: PYI034 - Python 3.10 has no typing.Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Kit({self._ready.get('url', 'not started')})"

    def _reason(self, status: int | None) -> str:
        stderr = _read(os.path.join(self._directory or "", "conformance.err")).strip()
        reason = stderr.removeprefix("juice conformance could not start: ").strip()
        return reason[:2000] or f"juice conformance exited with status {status} before it was ready"


def _read(path: str) -> str:
    try:
        with open(path, "rb") as file:
            return file.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return ""


def conformance(backend: str, *, port: int, **options: Any) -> ConformanceReport:
    """Runs ``juice conformance`` against ``backend`` (already configured) with the kit on ``port``; returns the parsed report.

    The options are ``Kit.start``'s (``team_id``, ``key_id``, ``team_key``, ``client_id``,
    ``redirect_uri``, ``probe``, ``native``, …) plus ``report_dir``, ``juice_bin`` and ``run_timeout``.
    """
    kit = Kit(port, report_dir=options.pop("report_dir", None), juice_bin=options.pop("juice_bin", None))
    with kit:
        return kit.run(backend=backend, **options)
