"""Sign in with Apple in Django + django-allauth, against Juice's emulator and conformance kit."""

from __future__ import annotations

from typing import Any

import requests
import site_config
from conftest import ALICE, BUNDLE_ID, CLIENT_ID, TEAM_ID, Server

from juice_testkit import Emulator, TeamKey


def sign_in(browser: requests.Session, backend: str, apple: Emulator, **choices: Any) -> requests.Response:
    """Alice starts a sign-in, signs in at Apple, and her browser posts Apple's answer to allauth's callback."""
    start = browser.get(backend + "/accounts/apple/login/", allow_redirects=False)
    answer = apple.sign_in(start.headers["Location"], ALICE, **choices)
    return browser.post(answer.redirect_uri, data=answer.fields)  # → callback/finish/ → /me


def test_a_first_sign_in_creates_the_account_with_the_name(backend: str, juice_emulator: Emulator) -> None:
    me = sign_in(requests.Session(), backend, juice_emulator)
    assert me.status_code == 200, me.text
    assert me.json() == {"email": ALICE.email, "first_name": "Alice", "last_name": "Appleseed"}
    [code] = juice_emulator.issued(BUNDLE_ID).codes
    assert code.used_at is not None  # allauth redeemed its code


def test_a_returning_user_keeps_the_name_apple_sends_only_once(backend: str, juice_emulator: Emulator) -> None:
    first = sign_in(requests.Session(), backend, juice_emulator).json()
    again = sign_in(requests.Session(), backend, juice_emulator)
    assert again.status_code == 200 and again.json() == first


def test_hide_my_email_gives_a_relay_address(backend: str, juice_emulator: Emulator) -> None:
    me = sign_in(requests.Session(), backend, juice_emulator, email_choice="hide").json()
    assert me["email"].endswith("@private.icloud.com")


def test_revoked_consent_signs_the_user_out(backend: str, juice_emulator: Emulator) -> None:
    browser = requests.Session()
    assert sign_in(browser, backend, juice_emulator).status_code == 200
    juice_emulator.revoke_consent(ALICE.email, CLIENT_ID)
    juice_emulator.wait_for_delivery("consent-revoked", ALICE.email)
    assert browser.get(backend + "/me").status_code == 401


def test_the_conformance_kit_finds_no_failure(server: Server, juice_conformance: Any, team_key: TeamKey) -> None:
    juice_conformance.start(  # the kit binds a port of its own, then waits until allauth redirects to it
        backend=server.url, issuer=site_config.APPLE, team_id=TEAM_ID, key_id=team_key.key_id, team_key=team_key.path,
        client_id=CLIENT_ID, redirect_uri=server.redirect_uri, bundle_id=BUNDLE_ID, start="/accounts/apple/login/",
        probe="/me", notifications="/apple/notifications",
    )
    site_config.point_allauth_at(juice_conformance.url)
    try:
        report = juice_conformance.wait()
    finally:
        site_config.point_allauth_at(site_config.APPLE)
    # What allauth 65.21.1 is known for (docs/conformance.md): no nonce sent, an HS256 token refused by a 500.
    assert report.verdicts()["authorization-request-nonce"] == "WARNING"
    assert report.verdicts()["state-replay"] == "PASSED"
