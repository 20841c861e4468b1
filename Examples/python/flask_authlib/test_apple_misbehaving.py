"""Apple failing on demand and what the backend sent it: the typed failure and capture API
(``Emulator.fail``, ``Emulator.requests``) against the Flask + Authlib backend."""

from __future__ import annotations

import requests
from conftest import ALICE, BUNDLE_ID, CLIENT_ID, TEAM_ID, Browser
from test_sign_in_with_apple import sign_in

from juice_testkit import Emulator, FailureKind, TeamKey, sha256_hex


def attempt(browser: Browser, backend: str, apple: Emulator) -> requests.Response:
    """The browser's part of a web sign-in, up to the backend's answer to Apple's form_post."""
    start = browser.get(backend + "/login", allow_redirects=False)
    answer = apple.sign_in(start.headers["Location"], ALICE)
    return browser.post(answer.redirect_uri, data=answer.fields, allow_redirects=False)


def test_the_backend_redeems_the_code_once_with_a_valid_secret_and_its_redirect_uri(
    backend: str, browser: Browser, juice_emulator: Emulator, team_key: TeamKey
) -> None:
    assert sign_in(browser, backend, juice_emulator).status_code == 200
    token_requests = juice_emulator.requests(path="/auth/token", client_id=CLIENT_ID)
    [redemption] = token_requests.assert_code_redeemed(
        times=1, client_id=CLIENT_ID, team_id=TEAM_ID, key_id=team_key.key_id, redirect_uri=backend + "/auth/apple/callback"
    )
    assert redemption.client_secret is not None and redemption.client_secret.lifetime == 3600  # the app signs hour-long secrets
    juice_emulator.requests(path="/auth/authorize").assert_one(client_id=CLIENT_ID, method="POST")


def test_a_503_from_apples_token_endpoint_refuses_the_sign_in_and_spends_nothing(
    backend: str, browser: Browser, juice_emulator: Emulator
) -> None:
    with juice_emulator.fail(FailureKind.TOKEN_SERVER_ERROR, client_id=CLIENT_ID, count=1) as failure:
        assert attempt(browser, backend, juice_emulator).status_code == 400  # a clean refusal, not a 500
        assert failure.remaining() == 0  # used up by that one redemption
    refused = juice_emulator.requests(path="/auth/token").assert_one(status=503)
    assert (refused.error, refused.grant_type) == ("server_error", "authorization_code")
    assert sign_in(Browser(), backend, juice_emulator).status_code == 200  # Apple is back: the next sign-in works


def test_an_identity_token_without_email_still_signs_the_native_user_in(backend: str, juice_emulator: Emulator) -> None:
    with juice_emulator.fail(FailureKind.OMIT_EMAIL, client_id=BUNDLE_ID):
        raw_nonce = "n-0123456789"
        credential = juice_emulator.native_sign_in(BUNDLE_ID, ALICE, nonce=sha256_hex(raw_nonce))
        answer = requests.post(backend + "/api/auth/apple", timeout=30, json={
            "identityToken": credential.identity_token, "authorizationCode": credential.authorization_code, "nonce": raw_nonce})
    assert answer.status_code == 200, answer.text
    assert juice_emulator.failures() == []  # the with block cleared it
    juice_emulator.requests(path="/auth/token", client_id=BUNDLE_ID).assert_code_redeemed(times=1, team_id=TEAM_ID, redirect_uri=None)
