"""The package's own tests run the real juice binary (the wheel's, or $JUICE_BIN): nothing is mocked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from juice_testkit import AppleID, TeamKey, new_team_key

pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def key(tmp_path_factory: pytest.TempPathFactory) -> TeamKey:
    """One team key for the session's emulators."""
    return new_team_key("TEAMKIT001", str(tmp_path_factory.mktemp("key")))


def configuration(key: TeamKey, *, bundle_id: str, client_id: str, redirect_uri: str, apple_ids: Iterable[AppleID],
                  **app: Any) -> dict[str, Any]:
    """An emulator configuration: the team, one app (its bundle id, Services ID, redirect URI, ``app`` extras), the Apple IDs."""
    return {
        "teams": [key.config()],
        "apps": [{"team_id": key.team_id, "bundle_id": bundle_id, "services_ids": [client_id], "redirect_uris": [redirect_uri],
                  "email_sources": ["example.com"], "allow_local_redirects": True, **app}],
        "apple_ids": [apple_id.config() for apple_id in apple_ids],
    }
