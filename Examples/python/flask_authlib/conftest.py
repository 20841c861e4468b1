"""The Flask example's fixtures: a team key, the backend on a real loopback server, a browser."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from app import AppleSettings, create_app
from werkzeug.serving import make_server

from juice_testkit import AppleID, Emulator, TeamKey, new_team_key

TEAM_ID = "EXAMPLE123"
BUNDLE_ID = "com.example.flask"
CLIENT_ID = "com.example.flask.web"
ALICE = AppleID("alice@example.org", "alice's password", "Alice", "Appleseed")


class Server:
    """A WSGI server on a free loopback port in a thread; the app is mounted once it exists."""

    def __init__(self) -> None:
        self.app: Callable[..., Any] = lambda environ, start: start("503 Service Unavailable", []) or [b""]
        self._server = make_server("127.0.0.1", 0, lambda environ, start: self.app(environ, start), threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._thread.join()


def settings(apple_url: str, key: TeamKey) -> AppleSettings:
    return AppleSettings(apple_url, key.team_id, key.key_id, key.private_key_pem, CLIENT_ID, BUNDLE_ID)


@pytest.fixture(scope="session")
def team_key(tmp_path_factory: pytest.TempPathFactory) -> TeamKey:
    return new_team_key(TEAM_ID, str(tmp_path_factory.mktemp("keys")))


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


@pytest.fixture(scope="session")
def juice_emulator_config(team_key: TeamKey, server: Server) -> dict[str, Any]:
    """The plugin's emulator: our team, our app (its redirect URI and notification URL), Alice."""
    return {
        "teams": [team_key.config()],
        "apps": [{
            "team_id": TEAM_ID, "bundle_id": BUNDLE_ID, "services_ids": [CLIENT_ID],
            "redirect_uris": [server.url + "/auth/apple/callback"], "notification_url": server.url + "/apple/notifications",
            "email_sources": ["example.com"], "allow_local_redirects": True,
        }],
        "apple_ids": [ALICE.config()],
    }


@pytest.fixture(scope="session")
def juice_emulator_options() -> dict[str, Any]:
    return {"smtp_port": 0}  # the private email relay, for Hide My Email mail


@pytest.fixture
def backend(server: Server, juice_emulator: Emulator, team_key: TeamKey) -> str:
    """A fresh backend (no users) pointed at the emulator, as production points at appleid.apple.com."""
    server.app = create_app(settings(juice_emulator.url, team_key))
    return server.url


class Browser(requests.Session):
    """requests with a browser's rule for loopback: http://127.0.0.1 is a secure context, so the
    backend's Secure (SameSite=None) session cookie is sent back. Follow redirects yourself
    (``allow_redirects=False``): requests re-reads cookies for a redirect without this rule."""

    def prepare_request(self, request: requests.Request) -> requests.PreparedRequest:
        for cookie in self.cookies:
            if cookie.domain in ("127.0.0.1", "localhost"):
                cookie.secure = False
        return super().prepare_request(request)


@pytest.fixture
def browser() -> Iterator[Browser]:
    with Browser() as session:
        yield session
