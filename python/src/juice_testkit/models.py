"""What the emulator answers, as small frozen dataclasses (times are Unix seconds)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def sha256_hex(value: str) -> str:
    """The SHA-256 of ``value`` (UTF-8) as lowercase hex: how the emulator lists codes and tokens it issued."""
    return hashlib.sha256(value.encode()).hexdigest()


@dataclass(frozen=True)
class AppleID:
    """An Apple ID a test signs in with (the configuration's ``apple_ids[]`` entry)."""

    email: str
    password: str = field(repr=False)
    first_name: str = ""
    last_name: str = ""

    def config(self) -> dict[str, str]:
        """The entry for a configuration or ``Emulator.seed(apple_ids=[…])``."""
        return {"email": self.email, "password": self.password, "first_name": self.first_name, "last_name": self.last_name}


@dataclass(frozen=True)
class ClockState:
    """The emulator's clock: ``now`` and its ``offset`` from the real time, in seconds."""

    now: int
    offset: int


@dataclass(frozen=True)
class IssuedCode:
    digest: str
    client_id: str
    apple_id: str
    scopes: Sequence[str]
    issued_at: int
    expires_at: int
    used_at: int | None
    device: bool

    def is_for(self, code: str) -> bool:
        """Whether this entry is the code ``code`` (the emulator keeps only its digest)."""
        return self.digest == sha256_hex(code)


@dataclass(frozen=True)
class IssuedToken:
    digest: str
    kind: str
    client_id: str
    apple_id: str
    scopes: Sequence[str]
    issued_at: int
    expires_at: int | None
    revoked_at: int | None

    def is_for(self, token: str) -> bool:
        """Whether this entry is the token ``token``."""
        return self.digest == sha256_hex(token)


@dataclass(frozen=True)
class Issued:
    """What the emulator issued for an app (its bundle id and Services IDs), oldest first."""

    bundle_id: str
    codes: Sequence[IssuedCode]
    tokens: Sequence[IssuedToken]

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> Issued:
        codes = [
            IssuedCode(
                digest=c["digest"], client_id=c["client_id"], apple_id=c["apple_id"], scopes=_scopes(c.get("scopes")),
                issued_at=c["issued_at"], expires_at=c["expires_at"], used_at=c.get("used_at"), device=bool(c.get("device")),
            )
            for c in body.get("codes", [])
        ]
        tokens = [
            IssuedToken(
                digest=t["digest"], kind=t["kind"], client_id=t["client_id"], apple_id=t["apple_id"],
                scopes=_scopes(t.get("scopes")), issued_at=t["issued_at"], expires_at=t.get("expires_at"),
                revoked_at=t.get("revoked_at"),
            )
            for t in body.get("tokens", [])
        ]
        return cls(bundle_id=body["bundle_id"], codes=tuple(codes), tokens=tuple(tokens))


@dataclass(frozen=True)
class MailMessage:
    """A message the private email relay delivered to an Apple ID (``body`` and ``headers`` only from ``Emulator.mail(id)``)."""

    #: The emulator's id of the message (a hex string): what ``Emulator.mail(id)`` takes.
    id: str
    #: The address of its ``From`` header.
    sender: str
    #: The Hide My Email address it was sent to.
    to: str
    #: The Apple ID's real address it was forwarded to.
    delivered_to: str
    subject: str
    #: Unix seconds on the emulator's clock.
    received_at: int
    #: The message's size in bytes.
    size: int
    body: str | None = field(default=None, repr=False)
    headers: str | None = field(default=None, repr=False)

    @classmethod
    def from_json(cls, m: Mapping[str, Any]) -> MailMessage:
        return cls(
            id=str(m["id"]), sender=m["from"], to=m["to"], delivered_to=m["delivered_to"], subject=m["subject"],
            received_at=m["received_at"], size=m["size"], body=m.get("body"), headers=m.get("headers"),
        )


@dataclass(frozen=True)
class Notification:
    """A server-to-server notification in the emulator's outbox, and how its delivery went.

    ``type`` is the event's (``email-disabled``, ``email-enabled``, ``consent-revoked``,
    ``account-delete``); ``apple_id`` the person's email; ``audience`` the app's bundle id (the JWT's
    ``aud``); ``url`` where it is sent; ``status`` the emulator's (``pending``, ``delivered``,
    ``failed``); ``attempts`` how many were made; ``created_at``, ``delivered_at``, ``failed_at`` Unix
    seconds; ``last_result`` the last attempt's outcome (``HTTP 200``, ``unreachable: …``); ``event``
    the signed event's fields (``type``, ``sub``, ``event_time``, …); ``jti`` the JWT's id.
    """

    id: int
    type: str
    apple_id: str
    audience: str
    url: str
    status: str
    attempts: int
    created_at: int
    delivered_at: int | None
    failed_at: int | None
    last_result: str | None
    event: Mapping[str, Any]
    jti: str

    @classmethod
    def from_json(cls, n: Mapping[str, Any]) -> Notification:
        event: Any = n.get("event", {})
        if isinstance(event, str):
            try:
                event = json.loads(event)
            except ValueError:
                event = {"raw": event}
        return cls(
            id=n["id"], type=n["type"], apple_id=n["apple_id"], audience=n["audience"], url=n["url"], status=n["status"],
            attempts=n["attempts"], created_at=n["created_at"], delivered_at=n.get("delivered_at"),
            failed_at=n.get("failed_at"), last_result=n.get("last_result"), event=event if isinstance(event, dict) else {},
            jti=n["jti"],
        )


@dataclass(frozen=True)
class WebSignIn:
    """How the emulator answered a completed web sign-in.

    ``response_mode`` ``form_post``: ``fields`` is what the browser would POST to ``redirect_uri``
    (``code``, ``state``, ``id_token``, and ``user`` JSON on a first sign-in). ``query``/``fragment``:
    ``location`` is the redirect and ``fields`` its parameters.
    """

    response_mode: str
    redirect_uri: str
    fields: Mapping[str, str] = field(repr=False)
    location: str | None = None

    @property
    def code(self) -> str | None:
        return self.fields.get("code")

    @property
    def id_token(self) -> str | None:
        return self.fields.get("id_token")

    @property
    def state(self) -> str | None:
        return self.fields.get("state")

    @property
    def user(self) -> Mapping[str, Any] | None:
        """The once-only ``user`` JSON (name and email), parsed; ``None`` for a returning user."""
        raw = self.fields.get("user")
        return json.loads(raw) if raw else None


@dataclass(frozen=True)
class NativeCredential:
    """What ``ASAuthorizationAppleIDCredential`` carries after a device sign-in (``POST /emulator/device/authorize``)."""

    user: str
    identity_token: str = field(repr=False)
    authorization_code: str = field(repr=False)
    email: str | None
    full_name: Mapping[str, str] | None
    real_user_status: int
    authorized_scopes: Sequence[str]
    state: str | None = None

    @classmethod
    def from_json(cls, c: Mapping[str, Any]) -> NativeCredential:
        return cls(
            user=c["user"], identity_token=c["identityToken"], authorization_code=c["authorizationCode"],
            email=c.get("email"), full_name=c.get("fullName"), real_user_status=c.get("realUserStatus", 0),
            authorized_scopes=tuple(c.get("authorizedScopes") or ()), state=c.get("state"),
        )


def _scopes(value: Any) -> tuple[str, ...]:
    """The emulator lists an issued credential's scopes as it stores them, one space-separated string
    (``"name email"``); a list is taken as it is."""
    if isinstance(value, str):
        return tuple(value.split())
    return tuple(value or ())
