"""The Django example's fixtures: settings, a migrated database, the site on a real loopback server."""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import site_config

from juice_testkit import AppleID, Emulator, TeamKey, new_team_key

TEAM_ID = "EXAMPLE456"
BUNDLE_ID = "com.example.django"
CLIENT_ID = "com.example.django.web"
ALICE = AppleID("alice@example.org", "alice's password", "Alice", "Appleseed")


class _ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


class Server:
    """Django's WSGI application on a free loopback port, in a thread."""

    def __init__(self) -> None:
        from django.core.wsgi import get_wsgi_application

        self._server = make_server("127.0.0.1", 0, get_wsgi_application(), _ThreadingServer, _QuietHandler)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self.redirect_uri = self.url + "/accounts/apple/login/callback/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture(scope="session")
def team_key(tmp_path_factory: pytest.TempPathFactory) -> TeamKey:
    return new_team_key(TEAM_ID, str(tmp_path_factory.mktemp("keys")))


@pytest.fixture(scope="session")
def server(team_key: TeamKey, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    from django.core.management import call_command

    site_config.configure(
        database=str(tmp_path_factory.mktemp("db") / "site.sqlite3"), team_id=TEAM_ID, key_id=team_key.key_id,
        private_key_pem=team_key.private_key_pem, client_id=CLIENT_ID, bundle_id=BUNDLE_ID,
    )
    call_command("migrate", verbosity=0)
    running = Server()
    yield running
    running.close()


@pytest.fixture(scope="session")
def juice_emulator_config(team_key: TeamKey, server: Server) -> dict[str, Any]:
    return {
        "teams": [team_key.config()],
        "apps": [{
            "team_id": TEAM_ID, "bundle_id": BUNDLE_ID, "services_ids": [CLIENT_ID], "redirect_uris": [server.redirect_uri],
            "notification_url": server.url + "/apple/notifications", "email_sources": [], "allow_local_redirects": True,
        }],
        "apple_ids": [ALICE.config()],
    }


@pytest.fixture(scope="session")
def juice_emulator_options() -> dict[str, Any]:
    return {"issuer": site_config.APPLE}  # allauth accepts only Apple's issuer


@pytest.fixture
def backend(server: Server, juice_emulator: Emulator) -> Iterator[str]:
    """The site with an empty database, allauth pointed at the emulator."""
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)
    site_config.point_allauth_at(juice_emulator.url)
    yield server.url
    site_config.point_allauth_at(site_config.APPLE)
