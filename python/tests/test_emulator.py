"""Emulator: start, readiness, the admin API, sign-ins and refusals, on the real binary over real HTTP."""

from __future__ import annotations

import base64
import http.server
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from juice_testkit import (
    AppleID,
    Emulator,
    EmulatorError,
    EmulatorStartError,
    TeamKey,
    free_port,
    sha256_hex,
)
from juice_testkit._process import parse_ready_line

from conftest import configuration

BUNDLE_ID = "com.example.kit"
CLIENT_ID = "com.example.kit.web"
REDIRECT_URI = "http://127.0.0.1:9/callback"
TESTER = AppleID("tester@example.net", "tester password", "Tess", "Tester")


class Receiver(http.server.BaseHTTPRequestHandler):
    """A backend's notification endpoint: keeps every body it is sent, answers 200."""

    received: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        self.received.append(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def receiver() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/notifications"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def config(key: TeamKey, receiver: str) -> dict[str, Any]:
    return configuration(key, bundle_id=BUNDLE_ID, client_id=CLIENT_ID, redirect_uri=REDIRECT_URI, apple_ids=[TESTER],
                         notification_url=receiver)


@pytest.fixture(scope="module")
def apple(config: dict[str, Any]) -> Iterator[Emulator]:
    with Emulator(config, smtp_port=0) as emulator:
        yield emulator


@pytest.fixture(autouse=True)
def fresh(apple: Emulator) -> None:
    apple.reset()


def authorize_url(apple: Emulator, mode: str = "form_post", scope: str = "name email", response_type: str = "code%20id_token") -> str:
    return (f"{apple.url}/auth/authorize?client_id={CLIENT_ID}&redirect_uri={REDIRECT_URI}&response_type={response_type}"
            f"&response_mode={mode}&scope={scope.replace(' ', '%20')}&state=s1&nonce=n1")


def claims(jwt: str) -> dict[str, Any]:
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def test_it_starts_on_ports_it_picked_and_reports_them(apple: Emulator) -> None:
    assert apple.url == f"http://127.0.0.1:{apple.port}" and apple.issuer == apple.url
    assert apple.smtp_port and apple.smtp_port != apple.port
    with socket.create_connection(("127.0.0.1", apple.port), timeout=5):
        pass


def test_repr_never_shows_the_admin_token(config: dict[str, Any]) -> None:
    emulator = Emulator(dict(config, admin_token="very-secret-admin-token"))
    assert "very-secret" not in repr(emulator)
    with emulator:
        assert "very-secret" not in repr(emulator) and emulator.url in repr(emulator)
        assert emulator.admin("GET", "clock")["offset"] == 0


def test_a_web_sign_in_answers_the_form_post_a_browser_would_send(apple: Emulator) -> None:
    answer = apple.sign_in(authorize_url(apple), TESTER)
    assert answer.response_mode == "form_post" and answer.redirect_uri == REDIRECT_URI
    assert answer.state == "s1" and answer.user is not None and answer.user["email"] == TESTER.email
    token = claims(answer.id_token or "")
    assert token["iss"] == apple.issuer and token["aud"] == CLIENT_ID and token["nonce"] == "n1"
    [code] = apple.issued(BUNDLE_ID).codes
    assert code.is_for(answer.code or "") and code.apple_id == TESTER.email and code.used_at is None
    assert code.scopes == ("name", "email")  # the emulator lists them as one string, "name email"
    again = apple.sign_in(authorize_url(apple), TESTER)
    assert again.user is None  # Apple sends name and email once


def test_query_mode_returns_the_redirect_and_a_refused_request_names_apples_error(apple: Emulator) -> None:
    answer = apple.sign_in(authorize_url(apple, mode="query", scope="", response_type="code"), TESTER)
    assert answer.location and answer.location.startswith(REDIRECT_URI + "?") and answer.code
    with pytest.raises(EmulatorError) as refused:
        apple.sign_in(authorize_url(apple, mode="query", scope=""), TESTER)
    assert refused.value.error == "invalid_request" and "response_mode=query" in refused.value.reason


def test_hide_my_email_and_cancel(apple: Emulator) -> None:
    hidden = apple.sign_in(authorize_url(apple), TESTER, email_choice="hide")
    assert hidden.user and hidden.user["email"].endswith("@private.icloud.com")
    cancelled = apple.sign_in(authorize_url(apple), TESTER, cancel=True)
    assert cancelled.fields.get("error") == "user_cancelled_authorize" and cancelled.code is None


def test_a_wrong_password_and_a_foreign_url_are_clear_errors(apple: Emulator) -> None:
    with pytest.raises(EmulatorError) as wrong:
        apple.sign_in(authorize_url(apple), AppleID(TESTER.email, "wrong"))
    assert wrong.value.error == "invalid_credentials" and wrong.value.status == 401
    with pytest.raises(ValueError, match="Apple's base URL"):
        apple.sign_in("https://appleid.apple.com/auth/authorize?client_id=x", TESTER)


def test_a_native_sign_in_gives_a_code_and_a_token_with_the_nonce(apple: Emulator) -> None:
    nonce = sha256_hex("raw nonce")
    credential = apple.native_sign_in(BUNDLE_ID, TESTER, nonce=nonce)
    token = claims(credential.identity_token)
    assert token["aud"] == BUNDLE_ID and token["nonce"] == nonce and token["sub"] == credential.user
    assert credential.email == TESTER.email and credential.full_name == {"givenName": "Tess", "familyName": "Tester"}
    assert "identity_token" not in repr(credential) and credential.identity_token not in repr(credential)
    [code] = apple.issued(BUNDLE_ID).codes
    assert code.device and code.is_for(credential.authorization_code)
    with pytest.raises(EmulatorError) as refused:
        apple.native_sign_in("com.example.unknown", TESTER)
    assert refused.value.error == "invalid_client" and "bundle id" in refused.value.reason


def test_seed_reset_and_a_refused_seed(apple: Emulator) -> None:
    seeded = AppleID("seeded@example.net", "seeded password")
    apple.seed(apple_ids=[seeded])
    assert apple.sign_in(authorize_url(apple), seeded).code
    with pytest.raises(EmulatorError) as refused:
        apple.seed(apps=[{"team_id": "NOSUCHTEAM", "bundle_id": "com.example.other"}])
    assert refused.value.error == "invalid_request" and "NOSUCHTEAM" in refused.value.reason
    apple.reset()
    with pytest.raises(EmulatorError, match="invalid_credentials"):
        apple.sign_in(authorize_url(apple), seeded)


def test_the_clock_moves_and_returns_on_reset(apple: Emulator) -> None:
    before = apple.clock.get()
    moved = apple.clock.advance(301)
    assert moved.offset >= 300 and moved.now >= before.now + 300
    assert apple.clock.set(2_000_000_000).now == 2_000_000_000
    with pytest.raises(EmulatorError) as refused:
        apple.clock.set(10)
    assert refused.value.error == "invalid_request"
    apple.reset()
    assert apple.clock.get().offset == 0


def test_consent_revoked_is_delivered_and_listed(apple: Emulator) -> None:
    answer = apple.sign_in(authorize_url(apple), TESTER)
    Receiver.received.clear()
    apple.revoke_consent(TESTER.email, CLIENT_ID)
    delivered = apple.wait_for_delivery("consent-revoked", TESTER.email)
    assert delivered.audience == BUNDLE_ID and delivered.delivered_at is not None
    [body] = Receiver.received
    events = json.loads(claims(json.loads(body)["payload"])["events"])
    assert events["type"] == "consent-revoked" and events["sub"] == claims(answer.id_token or "")["sub"]
    assert [n.type for n in apple.notifications(TESTER.email)] == ["consent-revoked"]


def test_a_bad_configuration_is_a_start_error_with_the_reason() -> None:
    with pytest.raises(EmulatorStartError) as failed:
        Emulator({"teams": [{"team_id": "bad"}], "surprise": 1}).start()
    assert "exited" in failed.value.reason and "surprise" in failed.value.output


def test_it_starts_on_a_port_it_is_given() -> None:
    port = free_port()
    with Emulator({}, port=port) as given:
        assert given.port == port and given.url == f"http://127.0.0.1:{port}" and given.smtp_port is None


def test_a_taken_port_is_a_start_error(apple: Emulator) -> None:
    with pytest.raises(EmulatorStartError) as failed:
        Emulator({}, port=apple.port).start()
    assert "exited" in failed.value.reason


def test_ports_and_options_are_range_checked() -> None:
    for bad in (-1, 65536, "8081", True):
        with pytest.raises(ValueError, match="port"):
            Emulator({}, port=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="relay_domain"):
        Emulator({}, relay_domain="evil.example")
    with pytest.raises(TypeError):
        Emulator(["not", "a", "dict"])  # type: ignore[arg-type]


def test_a_ready_line_is_read_only_when_every_field_is_in_range() -> None:
    good = '{"ready":true,"url":"http://127.0.0.1:5","issuer":"http://127.0.0.1:5","port":5,"smtp_port":null}'
    assert parse_ready_line(good) is not None
    for bad in ('"other":5', '"port":0', '"port":70000', '"port":true', '"port":"5"'):  # missing, out of range, not an int
        assert parse_ready_line(good.replace('"port":5', bad)) is None
    assert parse_ready_line(good.replace('"smtp_port":null', '"smtp_port":-1')) is None
    assert parse_ready_line(good.replace('"url":"http://127.0.0.1:5"', '"url":"javascript:x"')) is None
    assert parse_ready_line("Private email relay (SMTP) on 127.0.0.1:5") is None
