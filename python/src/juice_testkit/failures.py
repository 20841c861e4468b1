"""Apple failing or drifting on demand (``Emulator.fail``): the kinds of docs/emulator.md, typed."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import EmulatorError

if TYPE_CHECKING:
    from .emulator import Emulator


class FailureKind(str, enum.Enum):
    """One documented failure (docs/emulator.md, "Failure injection and request capture").

    ``client_id`` limits a kind to one client where the table says so; ``count`` is how many requests
    (tokens, notifications) it applies to, until cleared when left out.
    """

    #: ``/auth/token`` answers ``status`` (500-599, default 503) ``{"error": "server_error"}``.
    TOKEN_SERVER_ERROR = "token_server_error"
    #: ``/auth/token`` answers 400 ``invalid_grant``, whatever the request.
    TOKEN_INVALID_GRANT = "token_invalid_grant"
    #: ``/auth/token`` answers 400 ``invalid_client``, whatever the request.
    TOKEN_INVALID_CLIENT = "token_invalid_client"
    #: ``/auth/token`` answers 200 with a JSON body cut off mid-object.
    TOKEN_MALFORMED_JSON = "token_malformed_json"
    #: ``/auth/token`` answers as usual after ``delay_seconds`` (over 0, at most 60).
    TOKEN_DELAY = "token_delay"
    #: ``/auth/keys`` answers ``status`` (default 503); every client.
    KEYS_SERVER_ERROR = "keys_server_error"
    #: ``/auth/keys`` answers as usual after ``delay_seconds``; every client.
    KEYS_DELAY = "keys_delay"
    #: The signing key is rotated at once (nothing is kept: the handle's ``signing_key_id`` is the new key).
    ROTATE_SIGNING_KEY = "rotate_signing_key"
    #: Discovery names the issuer ``https://account.apple.com``; tokens keep the emulator's ``iss``.
    ISSUER_DRIFT = "issuer_drift"
    #: Identity tokens carry no ``email``, ``email_verified`` or ``is_private_email``.
    OMIT_EMAIL = "omit_email"
    #: Notifications to the app (``client_id``: its bundle id) are never sent, and given up.
    DROP_NOTIFICATIONS = "drop_notifications"
    #: New Hide My Email addresses of the client are issued on ``relay_domain``.
    RELAY_DOMAIN = "relay_domain"


#: Which of ``client_id``, ``count``, ``delay_seconds``, ``status``, ``relay_domain`` each kind takes
#: (docs/emulator.md's table); ``Emulator.fail`` refuses the others before asking the emulator.
PARAMETERS: Mapping[FailureKind, frozenset[str]] = {
    FailureKind.TOKEN_SERVER_ERROR: frozenset({"client_id", "count", "status"}),
    FailureKind.TOKEN_INVALID_GRANT: frozenset({"client_id", "count"}),
    FailureKind.TOKEN_INVALID_CLIENT: frozenset({"client_id", "count"}),
    FailureKind.TOKEN_MALFORMED_JSON: frozenset({"client_id", "count"}),
    FailureKind.TOKEN_DELAY: frozenset({"client_id", "count", "delay_seconds"}),
    FailureKind.KEYS_SERVER_ERROR: frozenset({"count", "status"}),
    FailureKind.KEYS_DELAY: frozenset({"count", "delay_seconds"}),
    FailureKind.ROTATE_SIGNING_KEY: frozenset(),
    FailureKind.ISSUER_DRIFT: frozenset({"count"}),
    FailureKind.OMIT_EMAIL: frozenset({"client_id", "count"}),
    FailureKind.DROP_NOTIFICATIONS: frozenset({"client_id", "count"}),
    FailureKind.RELAY_DOMAIN: frozenset({"client_id", "relay_domain"}),
}

#: The kinds that need a parameter.
REQUIRED: Mapping[FailureKind, str] = {
    FailureKind.TOKEN_DELAY: "delay_seconds",
    FailureKind.KEYS_DELAY: "delay_seconds",
    FailureKind.RELAY_DOMAIN: "relay_domain",
}


@dataclass
class InjectedFailure:
    """A failure in force (``Emulator.fail``); ``with`` clears it on exit, as ``clear()`` does.

    >>> with apple.fail(FailureKind.TOKEN_SERVER_ERROR, client_id="com.example.app", count=1):  # doctest: +SKIP
    ...     ...   # the backend's next code redemption gets a 503
    """

    kind: FailureKind
    id: int | None
    client_id: str | None = None
    count: int | None = None
    delay_seconds: float | None = None
    status: int | None = None
    relay_domain: str | None = None
    #: For ``ROTATE_SIGNING_KEY``: the key that signs now.
    signing_key_id: str | None = None
    _emulator: Emulator | None = field(default=None, repr=False, compare=False)

    def remaining(self) -> int | None:
        """How many more requests it applies to (``None``: until cleared); 0 once used up or cleared."""
        if self.id is None or self._emulator is None:
            return 0
        for entry in self._emulator.admin("GET", "failures").get("failures", []):
            if entry.get("id") == self.id:
                remaining = entry.get("remaining")
                return remaining if isinstance(remaining, int) else None
        return 0

    def clear(self) -> None:
        """Clears it (nothing happens when it was used up or cleared already)."""
        if self.id is None or self._emulator is None:
            return
        try:
            self._emulator.admin("DELETE", "failures", query={"id": str(self.id)})
        except EmulatorError as error:
            if error.error != "not_found":
                raise

    def __enter__(self) -> InjectedFailure:
        return self

    def __exit__(self, *exc: object) -> None:
        self.clear()

    @classmethod
    def from_json(cls, body: Mapping[str, Any], emulator: Emulator | None = None) -> InjectedFailure:
        return cls(
            kind=FailureKind(body["kind"]), id=body["id"], client_id=body.get("client_id"), count=body.get("remaining"),
            delay_seconds=body.get("delay_seconds"), status=body.get("status"), relay_domain=body.get("relay_domain"), _emulator=emulator,
        )
