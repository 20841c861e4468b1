"""No password, client secret or admin token in what pytest prints when a juice_testkit call fails:
not in an exception's message, not in a frame's arguments (``--tb=long``), not in its locals
(``--showlocals``). Each case runs a real failing test in a pytest subprocess and reads its output."""

from __future__ import annotations

import secrets

import pytest

PASSWORD = "pw-" + secrets.token_hex(12)
ADMIN_TOKEN = "admin-" + secrets.token_hex(16)

FAILING_TESTS = """
import os, signal, time
import pytest
from juice_testkit import AppleID, Emulator

PASSWORD = os.environ["SECRET_PASSWORD"]
ADMIN_TOKEN = os.environ["SECRET_ADMIN_TOKEN"]
CONFIG = {"admin_token": ADMIN_TOKEN, "apple_ids": [{"email": "tess@example.net", "password": PASSWORD}]}


@pytest.fixture
def apple():
    with Emulator(CONFIG) as emulator:
        yield emulator


def test_a_refused_seed_with_a_password(apple):
    apple.seed(apple_ids=[AppleID("bad", PASSWORD)])


def test_a_refused_seed_given_as_dicts(apple):
    apple.seed(apple_ids=[{"email": "bad", "password": PASSWORD}])


def test_a_raw_admin_call_with_a_password(apple):
    apple.admin("POST", "seed", {"apple_ids": [{"email": "bad", "password": PASSWORD}]})


def test_a_wrong_password_at_sign_in(apple):
    url = apple.url + "/auth/authorize?client_id=x&redirect_uri=http://127.0.0.1:9/cb&response_type=code&state=s"
    apple.sign_in(url, AppleID("tess@example.net", PASSWORD + "-wrong"))


def test_a_native_sign_in_refused(apple):
    apple.native_sign_in("com.example.unknown", AppleID("tess@example.net", PASSWORD))


def test_a_dead_emulator(apple):
    os.kill(apple.pid, signal.SIGKILL)
    while apple.pid is not None:  # pid is None once the process has ended (and was reaped)
        time.sleep(0.01)
    apple.reset()
"""


@pytest.mark.parametrize("style", [["--tb=long"], ["--tb=long", "--showlocals"], ["--tb=short"], ["--full-trace"]],
                         ids=["long", "long-showlocals", "short", "full-trace"])
def test_pytest_never_prints_a_password_or_the_admin_token(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                            style: list[str]) -> None:
    monkeypatch.setenv("SECRET_PASSWORD", PASSWORD)
    monkeypatch.setenv("SECRET_ADMIN_TOKEN", ADMIN_TOKEN)
    pytester.makepyfile(FAILING_TESTS)
    result = pytester.runpytest_subprocess(*style, "-p", "no:cacheprovider")
    result.assert_outcomes(failed=6)
    output = result.stdout.str() + result.stderr.str()
    assert "EmulatorError" in output and "unreachable" in output  # the failures are there, and say what happened
    assert PASSWORD not in output, "a password reached pytest's output"
    assert ADMIN_TOKEN not in output, "the admin token reached pytest's output"
