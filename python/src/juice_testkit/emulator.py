"""``Emulator``: a local appleid.apple.com (``juice emulator``) owned by a test, on its own ports."""

from __future__ import annotations

import copy
import json
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from . import _http
from ._binary import find_juice_bin
from ._process import Child, parse_ready_line
from .clock import Clock
from .errors import EmulatorError, EmulatorStartError
from .models import AppleID, Issued, MailMessage, NativeCredential, Notification, WebSignIn
from .signin import native_sign_in, web_sign_in

Config = Mapping[str, Any]
T = TypeVar("T")
RELAY_DOMAINS = ("private.icloud.com", "privaterelay.appleid.com", "icloud.com")


def _port(value: int | None, name: str, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
        raise ValueError(f"{name} must be an int between 0 and 65535 (0 picks a free port), not {value!r}")
    return value


class Emulator:
    """A ``juice emulator`` process for a test run: Apple's endpoints on loopback, its state resettable.

    The configuration is a dict in the shape of docs/emulator.md (``teams``, ``apps``, ``apple_ids``);
    an ``admin_token`` is generated when it has none, and is never shown by ``repr``.

    >>> with Emulator({"apple_ids": [{"email": "a@example.org", "password": "pw"}]}) as apple:  # doctest: +SKIP
    ...     apple.url                      # e.g. 'http://127.0.0.1:41234', ports picked by the emulator
    ...     apple.reset()

    ``port=0`` (the default) lets the emulator pick a free port and report it (``--ready-json``), so
    parallel test workers never collide; ``smtp_port=0`` also runs the private email relay.
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        port: int = 0,
        smtp_port: int | None = None,
        host: str = "127.0.0.1",
        issuer: str | None = None,
        relay_domain: str | None = None,
        juice_bin: str | None = None,
        startup_timeout: float = 60.0,
        request_timeout: float = 30.0,
        extra_args: Sequence[str] = (),
    ) -> None:
        if config is not None and not isinstance(config, Mapping):
            raise TypeError(f"config must be a dict in the emulator configuration's shape, not {type(config).__name__}")
        self._config: dict[str, Any] = copy.deepcopy(dict(config or {}))
        for key in ("teams", "apps", "apple_ids"):
            self._config.setdefault(key, [])
        token = self._config.get("admin_token") or secrets.token_urlsafe(32)
        if not isinstance(token, str):
            raise TypeError("config['admin_token'] must be a string")
        self._config["admin_token"] = token
        self._admin_token = token
        self._port = _port(port, "port")
        self._smtp_port = _port(smtp_port, "smtp_port", allow_none=True)
        if relay_domain is not None and relay_domain not in RELAY_DOMAINS:
            raise ValueError(f"relay_domain must be one of {RELAY_DOMAINS}, not {relay_domain!r}")
        if not 0 < startup_timeout <= 600:
            raise ValueError("startup_timeout must be between 0 and 600 seconds")
        self._host = host
        self._issuer = issuer
        self._relay_domain = relay_domain
        self._juice_bin = juice_bin
        self._startup_timeout = startup_timeout
        self._request_timeout = request_timeout
        self._extra_args = list(extra_args)
        self._child: Child | None = None
        self._directory: str | None = None
        self._ready: dict[str, Any] = {}
        self.clock = Clock(self)

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> Emulator:
        """Starts the process and returns once it accepts connections (its ready line, never a sleep)."""
        if self._child is not None:
            raise RuntimeError("this Emulator is already started")
        binary = self._juice_bin or find_juice_bin()
        self._directory = tempfile.mkdtemp(prefix="juice-emulator-")
        config_path = os.path.join(self._directory, "emulator.json")
        descriptor = os.open(config_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(self._config, file)
        argv = [
            binary, "emulator", "--ready-json", "--host", self._host, "--port", str(self._port),
            "--config", config_path, "--data-dir", os.path.join(self._directory, "data"),
        ]
        if self._smtp_port is not None:
            argv += ["--smtp-port", str(self._smtp_port)]
        if self._issuer:
            argv += ["--issuer", self._issuer]
        if self._relay_domain:
            argv += ["--relay-domain", self._relay_domain]
        argv += self._extra_args
        try:
            self._child = Child(argv, log_path=os.path.join(self._directory, "emulator.log"))
        except OSError as error:
            self._remove_directory()
            raise EmulatorStartError(f"cannot run {binary}: {error.strerror or error}") from error
        line = self._child.wait_for_line(lambda text: parse_ready_line(text) is not None, self._startup_timeout)
        if line is None:
            exited = self._child.exits_within(2)
            output = self._child.output_tail()
            status = self._child.stop(grace=2)
            self._child = None
            self._remove_directory()
            reason = (
                f"juice emulator exited with status {status} before it was ready"
                if exited
                else f"juice emulator was not ready within {self._startup_timeout:g} s"
            )
            raise EmulatorStartError(reason, self._redact(output))
        self._ready = parse_ready_line(line) or {}
        return self

    def close(self) -> None:
        """Stops the process (SIGTERM, then SIGKILL after 10 s) and removes its data. Idempotent."""
        child, self._child = self._child, None
        if child is not None:
            child.stop()
        self._remove_directory()

    def __enter__(self) -> Emulator:  # noqa: PYI034 - Python 3.10 has no typing.Self
        return self.start() if self._child is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self._ready.get("url", "not started")
        return f"Emulator({where}, smtp_port={self._ready.get('smtp_port')})"

    def _remove_directory(self) -> None:
        if self._directory:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None

    def _redact(self, text: str) -> str:
        return text.replace(self._admin_token, "<admin token>")

    # --- where it is -------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The base URL (``http://127.0.0.1:PORT``): a backend's Apple base URL."""
        return str(self._require("url"))

    @property
    def issuer(self) -> str:
        """The ``iss`` of its tokens (the URL unless ``issuer=`` was given)."""
        return str(self._require("issuer"))

    @property
    def port(self) -> int:
        return int(self._require("port"))

    @property
    def smtp_port(self) -> int | None:
        """The private email relay's port, or ``None`` when it does not run."""
        value = self._ready.get("smtp_port")
        return value if isinstance(value, int) else None

    @property
    def admin_token(self) -> str:
        """The admin endpoints' bearer token (never printed by ``repr``)."""
        return self._admin_token

    @property
    def config(self) -> dict[str, Any]:
        """A copy of the configuration the emulator started with (``admin_token`` included)."""
        return copy.deepcopy(self._config)

    @property
    def log_path(self) -> str | None:
        """The file with everything the process printed (no secrets: the emulator never logs them)."""
        return self._child.log_path if self._child else None

    def _require(self, key: str) -> Any:
        if self._child is None or key not in self._ready:
            raise RuntimeError("the Emulator is not started: call start() or use it as a context manager")
        return self._ready[key]

    # --- the admin API -----------------------------------------------------------------------

    def admin(self, method: str, path: str, body: Any = None, query: Mapping[str, str] | None = None) -> Any:
        """Calls ``/emulator/admin/<path>`` and returns its JSON; a refusal raises ``EmulatorError``."""
        url = f"{self.url}/emulator/admin/{path}"
        if query:
            url += "?" + urlencode({k: v for k, v in query.items() if v is not None})
        answer = _http.request(
            method, url, json_body=({} if body is None else body) if method != "GET" else None,
            headers={"Authorization": f"Bearer {self._admin_token}"}, timeout=self._request_timeout,
        )
        if not 200 <= answer.status < 300:
            raise _http.error_of(answer, path)
        try:
            return answer.json()
        except ValueError as error:
            raise EmulatorError("unexpected_answer", f"{path} answered no JSON", answer.status, path) from error

    def reset(self) -> None:
        """Back to the configured state: sign-ins, codes, tokens, notifications, mail and seeds forgotten, the clock real."""
        self.admin("POST", "reset")

    def seed(
        self,
        *,
        teams: Iterable[Mapping[str, Any]] = (),
        apps: Iterable[Mapping[str, Any]] = (),
        apple_ids: Iterable[AppleID | Mapping[str, Any]] = (),
    ) -> None:
        """Adds (or replaces, by team id, bundle id or email) teams, apps and Apple IDs until the next reset.

        A seed the emulator refuses raises ``EmulatorError`` naming every problem; nothing changes then.
        """
        ids = [a.config() if isinstance(a, AppleID) else dict(a) for a in apple_ids]
        self.admin("POST", "seed", {"teams": list(teams), "apps": list(apps), "apple_ids": ids})

    def issued(self, bundle_id: str) -> Issued:
        """What was issued for the app (codes and tokens, as SHA-256 digests), oldest first."""
        body = self.admin("GET", "issued", query={"bundle_id": bundle_id})
        return self._parse(Issued.from_json, body, "issued")

    def inbox(self, apple_id: str) -> list[MailMessage]:
        """The mail the private email relay delivered to ``apple_id``, newest first."""
        body = self.admin("GET", "mail", query={"apple_id": apple_id})
        return [self._parse(MailMessage.from_json, m, "mail") for m in body.get("messages", [])]

    def mail(self, message_id: int) -> MailMessage:
        """One whole relayed message, with its headers and body."""
        if isinstance(message_id, bool) or not isinstance(message_id, int) or message_id < 0:
            raise ValueError("message_id must be a non-negative int")
        return self._parse(MailMessage.from_json, self.admin("GET", f"mail/{message_id}"), "mail")

    def notifications(self, apple_id: str | None = None) -> list[Notification]:
        """The server-to-server notifications in the outbox (all, or about ``apple_id``) and how delivery went."""
        body = self.admin("GET", "notifications", query={"apple_id": apple_id} if apple_id else None)
        entries = body.get("notifications", []) if isinstance(body, dict) else []
        return [self._parse(Notification.from_json, n, "notifications") for n in entries]

    def wait_for_delivery(self, type: str, apple_id: str | None = None, timeout: float = 30.0) -> Notification:
        """The first notification of ``type`` (about ``apple_id``) once the backend accepted it (2xx).

        Delivery is asynchronous (the outbox is read every second), so this asks the outbox until the
        deadline; a notification the emulator gave up on raises ``EmulatorError`` with its last result.
        """
        if not 0 < timeout <= 3600:
            raise ValueError("timeout must be between 0 and 3600 seconds")
        deadline = time.monotonic() + timeout
        seen: list[Notification] = []
        while True:
            seen = [n for n in self.notifications(apple_id) if n.type == type]
            for notification in seen:
                if notification.status == "delivered":
                    return notification
                if notification.status == "failed":
                    raise EmulatorError("delivery_failed", f"{type}: {notification.last_result}", 0, "notifications")
            if time.monotonic() >= deadline:
                last = seen[0].last_result if seen else "no such notification in the outbox"
                raise EmulatorError("not_delivered", f"{type} not delivered within {timeout:g} s (last result: {last})", 0, "notifications")
            time.sleep(0.1)

    def revoke_consent(self, apple_id: str, client_id: str) -> None:
        """The person stops using Sign in with Apple with the app: a ``consent-revoked`` notification goes out."""
        self.admin("POST", "revoke-consent", {"apple_id": apple_id, "client_id": client_id})

    def set_email_forwarding(self, apple_id: str, team_id: str, enabled: bool) -> None:
        """Hide My Email forwarding on or off for a team (an ``email-disabled``/``email-enabled`` notification)."""
        self.admin("POST", "set-email-forwarding", {"apple_id": apple_id, "team_id": team_id, "enabled": enabled})

    def delete_apple_id(self, apple_id: str) -> None:
        """The person deletes their Apple ID (``account-delete`` notifications)."""
        self.admin("POST", "delete-apple-id", {"apple_id": apple_id})

    def rotate_keys(self) -> str:
        """Publishes a new signing key and signs with it from now on; returns its ``kid``."""
        return str(self.admin("POST", "rotate-keys").get("signing_key_id", ""))

    @staticmethod
    def _parse(build: Callable[[Any], T], body: Any, path: str) -> T:
        try:
            return build(body)
        except (KeyError, TypeError, AttributeError) as error:
            raise EmulatorError("unexpected_answer", f"{path} answered an unexpected shape ({error})", 200, path) from error

    # --- a person signing in -----------------------------------------------------------------

    def sign_in(
        self,
        authorization_url: str,
        apple_id: AppleID,
        *,
        email_choice: str = "share",
        first_name: str | None = None,
        last_name: str | None = None,
        cancel: bool = False,
    ) -> WebSignIn:
        """Completes the sign-in a backend started (its redirect to ``/auth/authorize``) as ``apple_id``.

        ``email_choice="hide"`` picks Hide My Email. Returns the form_post fields to post to the
        backend's redirect URI, or the redirect (``query``/``fragment``).
        """
        return web_sign_in(
            self.url, authorization_url, apple_id, email_choice=email_choice, first_name=first_name, last_name=last_name,
            cancel=cancel, timeout=self._request_timeout,
        )

    def native_sign_in(
        self,
        bundle_id: str,
        apple_id: AppleID,
        *,
        nonce: str | None = None,
        scopes: tuple[str, ...] = ("name", "email"),
        email_choice: str = "share",
    ) -> NativeCredential:
        """A device sign-in for ``bundle_id``: an identity token (carrying ``nonce``) and an authorization code."""
        return native_sign_in(
            self.url, bundle_id, apple_id, nonce=nonce, scopes=scopes, email_choice=email_choice, timeout=self._request_timeout
        )
