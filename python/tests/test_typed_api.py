"""The documented calls used together as a user would: mail by the inbox's ids, failures and captured
requests typed, the emulator's process id, the key cache, the version check, ``python -m juice_testkit``."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import os
import smtplib
import stat
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import juice_testkit
from juice_testkit import (
    AppleID,
    CapturedRequests,
    Emulator,
    EmulatorError,
    EmulatorStartError,
    FailureKind,
    JuiceNotFoundError,
    TeamKey,
    find_juice_bin,
)
from juice_testkit.emulator import key_cache_file
from juice_testkit.failures import PARAMETERS

from conftest import configuration

ALICE = AppleID("alice@example.net", "alice password", "Alice", "Appleseed")
BUNDLE_ID = "com.example.typed"
CLIENT_ID = f"{BUNDLE_ID}.web"  # the app's Services ID
REDIRECT_URI = "http://127.0.0.1:9/callback"


@pytest.fixture(scope="module")
def config(key: TeamKey) -> dict[str, Any]:
    return configuration(key, bundle_id=BUNDLE_ID, client_id=CLIENT_ID, redirect_uri=REDIRECT_URI, apple_ids=[ALICE])


@pytest.fixture(scope="module")
def running(config: dict[str, Any]) -> Iterator[Emulator]:
    with Emulator(config, smtp_port=0) as emulator:
        yield emulator


@pytest.fixture
def apple(running: Emulator) -> Emulator:
    """The module's emulator, reset for this test."""
    running.reset()
    return running


def authorize_url(apple: Emulator) -> str:
    return (f"{apple.url}/auth/authorize?client_id={CLIENT_ID}&redirect_uri={REDIRECT_URI}&response_type=code"
            "&response_mode=form_post&scope=name%20email&state=s1")


def redeem(apple: Emulator, code: str, secret: str, **extra: str) -> int:
    body = {"client_id": CLIENT_ID, "client_secret": secret, "grant_type": "authorization_code", "code": code, **extra}
    request = urllib.request.Request(apple.url + "/auth/token", data=urllib.parse.urlencode(body).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def client_secret(key: TeamKey) -> str:
    completed = subprocess.run(
        [find_juice_bin(), "client-secret", "--team-id", key.team_id, "--key-id", key.key_id, "--key", key.path, "--client-id", CLIENT_ID],
        capture_output=True, text=True, timeout=60, check=True,
    )
    return completed.stdout.strip().splitlines()[-1]


def test_mail_takes_the_ids_inbox_returns(apple: Emulator) -> None:
    signed_in = apple.sign_in(authorize_url(apple), ALICE, email_choice="hide")
    assert signed_in.user is not None
    relay_address = signed_in.user["email"]
    assert apple.smtp_port is not None
    with smtplib.SMTP("127.0.0.1", apple.smtp_port, timeout=10) as relay:
        relay.sendmail("news@example.com", [relay_address], b"From: news@example.com\r\nSubject: Hello\r\n\r\nWelcome, Alice\r\n")
    [listed] = apple.inbox(ALICE.email)
    assert isinstance(listed.id, str) and listed.to == relay_address and listed.body is None
    whole = apple.mail(listed.id)
    assert whole.id == listed.id and whole.subject == "Hello" and "Welcome, Alice" in (whole.body or "")
    with pytest.raises(EmulatorError) as missing:
        apple.mail("0" * 24)
    assert missing.value.status == 404
    with pytest.raises(ValueError, match="inbox"):
        apple.mail(7)  # type: ignore[arg-type]


def test_admin_paths_are_relative_and_take_a_query(apple: Emulator) -> None:
    assert apple.admin("GET", "clock") == apple.admin("GET", "/emulator/admin/clock")
    assert apple.admin("GET", "issued", query={"bundle_id": BUNDLE_ID})["codes"] == []


def test_an_unreadable_client_secret_is_captured_with_null_parts(apple: Emulator, key: TeamKey) -> None:
    code = apple.sign_in(authorize_url(apple), ALICE).code or ""
    assert redeem(apple, code, "not-a-jws") == 400
    raw = apple.admin("GET", "requests", query={"client_id": CLIENT_ID})["requests"]
    [token_request] = [r for r in raw if r["path"] == "/auth/token"]
    assert token_request["client_secret"] == {"header": None, "claims": None}  # docs/emulator.md's shape, not {}
    [typed] = apple.requests(path="/auth/token", client_id=CLIENT_ID)
    assert typed.client_secret is not None and not typed.client_secret.readable and typed.error == "invalid_client"
    with pytest.raises(AssertionError, match="not a readable JWS"):
        apple.requests(path="/auth/token").assert_code_redeemed(status=None)


def test_a_failure_is_a_context_manager_and_the_capture_shows_its_answer(apple: Emulator, key: TeamKey) -> None:
    code = apple.sign_in(authorize_url(apple), ALICE).code or ""
    secret = client_secret(key)
    with apple.fail(FailureKind.TOKEN_SERVER_ERROR, client_id=CLIENT_ID, count=2, status=502) as failure:
        assert [f.id for f in apple.failures()] == [failure.id] and failure.remaining() == 2
        assert redeem(apple, code, secret, redirect_uri=REDIRECT_URI) == 502
        assert failure.remaining() == 1
    assert apple.failures() == []  # cleared on exit
    assert redeem(apple, code, secret, redirect_uri=REDIRECT_URI) == 200  # the refused redemption spent nothing
    captured = apple.requests(path="/auth/token", client_id=CLIENT_ID)
    assert isinstance(captured, CapturedRequests) and [(r.status, r.error) for r in captured] == [(502, "server_error"), (200, None)]
    with pytest.raises(AssertionError, match="expected 1 code redemption"):
        captured.assert_code_redeemed(times=1, team_id=key.team_id)
    [accepted] = captured.matching(status=200).assert_code_redeemed(times=1, team_id=key.team_id, key_id=key.key_id,
                                                                    redirect_uri=REDIRECT_URI)
    assert accepted.client_secret is not None and accepted.client_secret.claims is not None
    assert accepted.client_secret.claims["iss"] == key.team_id and "signature" not in json.dumps(accepted.client_secret.claims)
    with pytest.raises(AssertionError, match="redirect_uri is"):
        captured.matching(status=200).assert_code_redeemed(redirect_uri=None)


@pytest.mark.parametrize("kind", list(FailureKind), ids=lambda kind: kind.value)
def test_every_documented_kind_is_accepted_with_its_parameters(apple: Emulator, kind: FailureKind) -> None:
    parameters: dict[str, Any] = {
        "client_id": BUNDLE_ID, "count": 1, "delay_seconds": 0.5, "status": 503, "relay_domain": "icloud.com",
    }
    given = {name: value for name, value in parameters.items() if name in PARAMETERS[kind]}
    with apple.fail(kind, **given) as failure:
        if kind is FailureKind.ROTATE_SIGNING_KEY:
            assert failure.id is None and failure.signing_key_id
        else:
            [listed] = apple.failures()
            assert listed.kind is kind and listed.id == failure.id
    assert apple.failures() == []


def test_a_parameter_a_kind_does_not_take_is_refused_before_the_emulator_is_asked(apple: Emulator) -> None:
    with pytest.raises(ValueError, match="keys_server_error takes"):
        apple.fail(FailureKind.KEYS_SERVER_ERROR, client_id=BUNDLE_ID)
    with pytest.raises(ValueError, match="needs delay_seconds"):
        apple.fail("token_delay")
    with pytest.raises(ValueError, match="kind must be one of"):
        apple.fail("token_teapot")
    with pytest.raises(EmulatorError) as refused:  # what only the emulator knows: the client is not registered
        apple.fail(FailureKind.OMIT_EMAIL, client_id="com.example.unknown")
    assert refused.value.error == "invalid_request"


def test_pid_is_the_emulators_process(apple: Emulator) -> None:
    assert apple.pid is not None and os.path.exists(f"/proc/{apple.pid}")
    with open(f"/proc/{apple.pid}/cmdline", "rb") as cmdline:
        assert b"emulator" in cmdline.read()
    assert Emulator({}).pid is None


def test_a_repeated_data_dir_is_refused_not_silently_replacing_the_fixtures(tmp_path: Path) -> None:
    with pytest.raises(EmulatorStartError) as refused:
        Emulator({}, extra_args=["--data-dir", str(tmp_path / "mine")]).start()
    assert "--data-dir is given more than once" in refused.value.output


def test_the_key_cache_is_reused_across_starts_and_kept_per_configuration(tmp_path: Path, config: dict[str, Any]) -> None:
    cache = str(tmp_path / "keys")

    def moduli(emulator: Emulator) -> list[str]:
        with urllib.request.urlopen(emulator.url + "/auth/keys", timeout=30) as answer:
            return [k["n"] for k in json.load(answer)["keys"]]

    with Emulator(config, key_cache=cache) as first:
        first_keys = moduli(first)
    [file] = os.listdir(cache)
    assert stat.S_IMODE(os.stat(os.path.join(cache, file)).st_mode) == 0o600
    assert os.path.join(cache, file) == key_cache_file(cache, config, None)
    with Emulator(config, key_cache=cache) as second:
        assert moduli(second) == first_keys and len(first_keys) == 2  # the same active and standby keys, read
    with Emulator(config) as uncached:
        assert len(moduli(uncached)) == 2 and set(moduli(uncached)).isdisjoint(first_keys)  # standby made after the ready line
    other = dict(config, teams=[], apps=[])
    assert key_cache_file(cache, other, None) != key_cache_file(cache, config, None)
    assert key_cache_file(cache, config, "https://appleid.apple.com") != key_cache_file(cache, config, None)
    with Emulator(other, key_cache=cache):
        pass
    assert len(os.listdir(cache)) == 2


def test_a_shared_key_file_is_refused(tmp_path: Path, config: dict[str, Any]) -> None:
    cache = tmp_path / "keys"
    with Emulator(config, key_cache=str(cache)):
        pass
    [file] = cache.iterdir()
    file.chmod(0o644)
    with pytest.raises(EmulatorStartError) as refused:
        Emulator(config, key_cache=str(cache)).start()
    assert "others may read it" in refused.value.output


def test_a_juice_of_another_version_is_refused_unless_juice_bin_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "bin" / "juice"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 0.0.1\n")
    fake.chmod(0o755)
    monkeypatch.delenv("JUICE_BIN", raising=False)
    monkeypatch.setattr(juice_testkit._binary, "_schemes", lambda: [])
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(fake.parent))
    with pytest.raises(JuiceNotFoundError) as refused:
        find_juice_bin()
    message = str(refused.value)
    assert "juice 0.0.1" in message and juice_testkit.__version__ in message and f"JUICE_BIN={fake}" in message
    monkeypatch.setenv("JUICE_BIN", str(fake))
    assert find_juice_bin() == str(fake)


def test_the_binary_prints_the_packages_version() -> None:
    printed = subprocess.run([find_juice_bin(), "--version"], capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    assert printed == juice_testkit.__version__
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    assert f'version = "{juice_testkit.__version__}"' in pyproject.read_text(encoding="utf-8")


def test_python_m_juice_testkit_runs_the_binary() -> None:
    completed = subprocess.run([sys.executable, "-m", "juice_testkit", "--version"], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0 and completed.stdout.strip() == juice_testkit.__version__
    refused = subprocess.run([sys.executable, "-m", "juice_testkit", "emulator", "--no-such-option"], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 64 and "--config" in refused.stderr  # juice's own usage error and exit status


def test_an_advanced_clock_puts_new_tokens_in_the_backends_future_as_the_guide_warns(apple: Emulator) -> None:
    import jwt  # PyJWT, as a backend would check Apple's tokens (Examples/python/requirements.txt)

    apple.clock.advance(3600)
    token = apple.native_sign_in(BUNDLE_ID, ALICE).identity_token
    key = jwt.PyJWKClient(apple.url + "/auth/keys").get_signing_key_from_jwt(token).key
    with pytest.raises(jwt.ImmatureSignatureError):
        jwt.decode(token, key, algorithms=["RS256"], audience=BUNDLE_ID, issuer=apple.issuer)
    assert jwt.decode(token, key, algorithms=["RS256"], audience=BUNDLE_ID, issuer=apple.issuer, leeway=3700)["aud"] == BUNDLE_ID
