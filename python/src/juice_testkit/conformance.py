"""The conformance kit (``juice conformance``): it plays Apple against a backend and judges each case."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._binary import find_juice_bin
from .errors import ConformanceRunError
from .keys import free_port

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
    """The kit on a port chosen before the run, so the backend can be configured with ``url`` first.

    >>> kit = Kit()                                   # doctest: +SKIP
    >>> backend = start_backend(apple_base_url=kit.url, issuer=kit.url)
    >>> report = kit.run(backend=backend.url, team_id=..., key_id=..., team_key=..., client_id=..., redirect_uri=...)
    """

    def __init__(self, port: int | None = None, *, report_dir: str | None = None, juice_bin: str | None = None) -> None:
        if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535):
            raise ValueError(f"port must be an int between 1 and 65535, not {port!r}")
        self.port = port if port is not None else free_port()
        self.report_dir = report_dir
        self._juice_bin = juice_bin

    @property
    def url(self) -> str:
        """Apple's base URL (and default issuer) for the backend under test."""
        return f"http://127.0.0.1:{self.port}"

    def run(
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
        run_timeout: float = 900.0,
    ) -> ConformanceReport:
        """Runs every case; returns the report whatever the verdicts. ``ConformanceRunError`` when it cannot run.

        ``team_key`` is the path of the backend's .p8 (or its public-key PEM). ``api_only`` judges a backend
        with only a native endpoint (give ``native``, not ``start``); ``native_body`` is ``"juice"`` (default)
        or ``"rest-auth"`` (dj-rest-auth's ``{code, id_token}``); ``apple_stall_bound`` is how many seconds the
        backend may take to refuse a sign-in while Apple stalls (``native-apple-slow``, default 15).
        """
        directory = self.report_dir or tempfile.mkdtemp(prefix="juice-conformance-")
        os.makedirs(directory, exist_ok=True)
        paths = {
            "json": os.path.join(directory, "conformance.json"),
            "junit": os.path.join(directory, "conformance.xml"),
            "html": os.path.join(directory, "conformance.html"),
        }
        options: dict[str, str | None] = {
            "backend": backend, "port": str(self.port), "team-id": team_id, "key-id": key_id, "team-key": team_key,
            "client-id": client_id, "redirect-uri": redirect_uri, "bundle-id": bundle_id, "issuer": issuer, "start": start,
            "start-method": start_method, "probe": probe, "native": native, "native-nonce": native_nonce, "native-body": native_body,
            "notifications": notifications, "delete": delete, "timeout": None if timeout is None else str(timeout),
            "apple-stall-bound": None if apple_stall_bound is None else str(apple_stall_bound),
            "report": paths["json"], "junit": paths["junit"], "html": paths["html"],
        }
        argv = [self._juice_bin or find_juice_bin(), "conformance"] + (["--api-only"] if api_only else [])
        for name, value in options.items():
            if value is not None:
                argv += [f"--{name}", value]
        status, stdout, stderr = _run(argv, run_timeout)
        if status == 2 or not os.path.exists(paths["json"]):
            reason = stderr.strip().removeprefix("juice conformance could not start: ") or f"juice conformance exited with {status}"
            raise ConformanceRunError(reason, status)
        with open(paths["json"], encoding="utf-8") as file:
            body = json.load(file)
        return ConformanceReport.from_json(body, table=stdout, exit_status=status, paths=paths)


def _run(argv: Sequence[str], timeout: float) -> tuple[int, str, str]:
    """Runs ``argv`` in its own process group; the group is killed on timeout or interruption."""
    process = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as error:
        _kill_group(process)
        raise ConformanceRunError(f"juice conformance did not finish within {timeout:g} s") from error
    except BaseException:
        _kill_group(process)
        raise
    return process.returncode, stdout, stderr


def _kill_group(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


def conformance(backend: str, *, port: int, **options: Any) -> ConformanceReport:
    """Runs ``juice conformance`` against ``backend`` with the kit on ``port`` and returns the parsed report.

    The options are ``Kit.run``'s (``team_id``, ``key_id``, ``team_key``, ``client_id``,
    ``redirect_uri``, ``probe``, ``native``, …) plus ``report_dir`` and ``juice_bin``.
    """
    kit = Kit(port, report_dir=options.pop("report_dir", None), juice_bin=options.pop("juice_bin", None))
    return kit.run(backend=backend, **options)
