"""The pytest plugin (entry point ``pytest11``: active once juice-testkit is installed).

Fixtures:

- ``juice_emulator_config`` (session): the emulator's configuration dict; override it in your conftest.py.
- ``juice_emulator_options`` (session): more ``Emulator`` keyword arguments (``smtp_port=0``, ``issuer=…``).
- ``juice_emulator_session`` (session): one emulator per test session, so one per pytest-xdist worker,
  each on ports of its own (the emulator picks them, ``port=0``).
- ``juice_emulator`` (function): the session's emulator, reset before the test.
- ``juice_conformance`` (function): the kit, ``.start(backend=…, …)`` on a port it binds itself
  (``.url`` to configure the backend with), then ``.wait()``, which fails the test with the kit's
  table when a case FAILED; the JSON, JUnit and HTML reports stay under the test's ``tmp_path``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conformance import ConformanceReport, Kit
from .emulator import Emulator


@pytest.fixture(scope="session")
def juice_emulator_config() -> dict[str, Any]:
    """The configuration the session's emulator starts with (teams, apps, apple_ids): override it."""
    return {}


@pytest.fixture(scope="session")
def juice_emulator_options() -> dict[str, Any]:
    """More ``Emulator(...)`` keyword arguments for the session's emulator: override it."""
    return {}


@pytest.fixture(scope="session")
def juice_emulator_session(juice_emulator_config: dict[str, Any], juice_emulator_options: dict[str, Any]) -> Iterator[Emulator]:
    """One emulator for the session (for each xdist worker), stopped at its end whatever happened."""
    emulator = Emulator(juice_emulator_config, **juice_emulator_options)
    emulator.start()
    try:
        yield emulator
    finally:
        emulator.close()


@pytest.fixture
def juice_emulator(juice_emulator_session: Emulator) -> Emulator:
    """The session's emulator, reset to its configured state (and the real time) before this test."""
    juice_emulator_session.reset()
    return juice_emulator_session


class ConformanceFixture:
    """The kit for one test: ``start(…)``, configure the backend with ``url``, then ``wait()``
    (or ``run(…)`` for both at once). A FAILED case fails the test with the kit's table."""

    def __init__(self, report_dir: str) -> None:
        self._kit = Kit(report_dir=report_dir)
        self.report_dir = report_dir

    @property
    def port(self) -> int:
        """The port the kit bound (after ``start``)."""
        return self._kit.port

    @property
    def url(self) -> str:
        """Apple's base URL (and issuer) the backend under test must use (after ``start``)."""
        return self._kit.url

    def start(self, **options: Any) -> ConformanceFixture:
        """Starts the kit (``Kit.start``'s options); returns once it listens."""
        self._kit.start(**options)
        return self

    def wait(self, *, check: bool = True, timeout: float = 900.0) -> ConformanceReport:
        """The report once the run ends. With ``check`` a FAILED case fails the test with the table."""
        report = self._kit.wait(timeout)
        if check and not report.ok:
            names = ", ".join(case.id for case in report.failures)
            pytest.fail(
                f"juice conformance: {report.failed} case(s) FAILED: {names}\n\n{report.table}\n"
                f"Reports: {report.json_path}, {report.junit_path}, {report.html_path}",
                pytrace=False,
            )
        return report

    def run(self, *, check: bool = True, **options: Any) -> ConformanceReport:
        """``start(**options)`` then ``wait(check=check)``, for a backend that needs no kit URL first."""
        return self.start(**options).wait(check=check)

    def close(self) -> None:
        self._kit.close()

    def __repr__(self) -> str:
        return f"ConformanceFixture({self._kit!r})"


@pytest.fixture
def juice_conformance(tmp_path: Any) -> Iterator[ConformanceFixture]:
    """The conformance kit, on a port it binds itself; its reports go to ``tmp_path / "juice-conformance"``."""
    directory = tmp_path / "juice-conformance"
    directory.mkdir()
    fixture = ConformanceFixture(str(directory))
    try:
        yield fixture
    finally:
        fixture.close()
