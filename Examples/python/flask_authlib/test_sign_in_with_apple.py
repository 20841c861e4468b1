"""Sign in with Apple in a Flask + Authlib backend, against Juice's emulator and conformance kit."""

from __future__ import annotations

import smtplib
from pathlib import Path
from typing import Any

import pytest
import requests
from app import create_app
from conftest import ALICE, BUNDLE_ID, CLIENT_ID, TEAM_ID, Browser, Server, settings

from juice_testkit import Emulator, TeamKey


def sign_in(browser: Browser, backend: str, apple: Emulator, **choices: Any) -> requests.Response:
    """Alice clicks "Sign in with Apple", signs in at Apple, and her browser posts Apple's answer back."""
    start = browser.get(backend + "/login", allow_redirects=False)
    answer = apple.sign_in(start.headers["Location"], ALICE, **choices)
    callback = browser.post(answer.redirect_uri, data=answer.fields, allow_redirects=False)
    assert callback.status_code == 302, callback.text
    return browser.get(backend + callback.headers["Location"])


def test_a_first_sign_in_creates_the_account_with_the_name(backend: str, browser: Browser, juice_emulator: Emulator) -> None:
    me = sign_in(browser, backend, juice_emulator)
    assert me.status_code == 200, me.text
    assert me.json() | {"sub": "…"} == {"sub": "…", "email": ALICE.email, "name": "Alice Appleseed", "private_email": False, "sign_ins": 1}
    [code] = juice_emulator.issued(BUNDLE_ID).codes
    assert code.used_at is not None  # the backend redeemed its code


def test_a_returning_user_keeps_the_name_apple_sends_only_once(backend: str, browser: Browser, juice_emulator: Emulator) -> None:
    first = sign_in(browser, backend, juice_emulator).json()
    again = sign_in(Browser(), backend, juice_emulator)  # another browser, no user field this time
    assert again.json() == first | {"sign_ins": 2}


def test_hide_my_email_gives_a_relay_address_that_forwards_mail(backend: str, browser: Browser, juice_emulator: Emulator) -> None:
    me = sign_in(browser, backend, juice_emulator, email_choice="hide").json()
    assert me["private_email"] is True and me["email"].endswith("@private.icloud.com")
    assert juice_emulator.smtp_port is not None
    with smtplib.SMTP("127.0.0.1", juice_emulator.smtp_port, timeout=10) as relay:
        relay.sendmail("hello@example.com", [me["email"]], b"From: hello@example.com\r\nSubject: Welcome\r\n\r\nHi Alice\r\n")
    [mail] = juice_emulator.inbox(ALICE.email)
    assert (mail.subject, mail.to) == ("Welcome", me["email"])


def test_revoked_consent_signs_the_user_out(backend: str, browser: Browser, juice_emulator: Emulator) -> None:
    assert sign_in(browser, backend, juice_emulator).status_code == 200
    juice_emulator.revoke_consent(ALICE.email, CLIENT_ID)  # Alice: Settings > Apple ID > Stop Using Apple ID
    juice_emulator.wait_for_delivery("consent-revoked", ALICE.email)
    assert browser.get(backend + "/me").status_code == 401


def test_the_conformance_kit_passes(juice_conformance: Any, team_key: TeamKey) -> None:
    report = run_kit(juice_conformance, team_key, state_kept_on_server=True)
    assert report.verdicts()["state-replay"] == "PASSED"


def test_the_kit_names_the_flaw_of_a_backend_that_keeps_its_state_in_the_cookie(juice_conformance: Any, team_key: TeamKey) -> None:
    with pytest.raises(pytest.fail.Exception) as failure:
        run_kit(juice_conformance, team_key, state_kept_on_server=False)
    assert "FAILED: state-replay" in str(failure.value)
    junit = Path(juice_conformance.report_dir, "conformance.xml").read_text(encoding="utf-8")
    assert "state-replay" in junit  # the JUnit report, kept under the test's tmp_path, names it too


def run_kit(kit: Any, team_key: TeamKey, *, state_kept_on_server: bool) -> Any:
    server = Server()  # a backend of its own, pointed at the kit instead of the emulator
    try:
        kit.start(  # the kit binds a port of its own and waits until the backend redirects to it
            backend=server.url, team_id=TEAM_ID, key_id=team_key.key_id, team_key=team_key.path, client_id=CLIENT_ID,
            redirect_uri=server.url + "/auth/apple/callback", bundle_id=BUNDLE_ID, start="/login", probe="/me",
            native="/api/auth/apple", notifications="/apple/notifications",
        )
        server.app = create_app(settings(kit.url, team_key), state_kept_on_server=state_kept_on_server)
        return kit.wait()
    finally:
        server.close()
