"""``Emulator``: a local appleid.apple.com (``juice emulator``) owned by a test, on its own ports."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

from . import _http
from ._binary import find_juice_bin
from ._hidden import Hidden
from ._process import Child, parse_ready_line
from ._version import __version__
from .capture import CapturedRequest, CapturedRequests
from .clock import Clock
from .errors import EmulatorError, EmulatorStartError
from .failures import PARAMETERS, REQUIRED, FailureKind, InjectedFailure
from .models import AppleID, Issued, MailMessage, NativeCredential, Notification, WebSignIn
from .signin import native_sign_in, web_sign_in

Config = Mapping[str, Any]
T = TypeVar("T")
RELAY_DOMAINS = ("private.icloud.com", "privaterelay.appleid.com", "icloud.com")
#: The prefix of every emulator's data folder (in the system's temporary directory).
DATA_PREFIX = "juice-emulator-"
_OWNER_FILE = "owner.json"


def default_key_cache() -> str:
    """``$XDG_CACHE_HOME/juice-testkit`` (``~/.cache/juice-testkit``): where ``key_cache=True`` keeps signing keys."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "juice-testkit")


def key_cache_file(directory: str, config: Mapping[str, Any], issuer: str | None) -> str:
    """The signing-key file for ``config`` in ``directory``: named by a digest of the configuration's teams,
    the issuer and the package version, so different teams' configurations never share keys by accident."""
    identity = json.dumps({"teams": config.get("teams", []), "issuer": issuer, "version": __version__}, sort_keys=True)
    return os.path.join(directory, f"signing-keys-{hashlib.sha256(identity.encode()).hexdigest()[:32]}.pem")


def sweep_stale_data(directory: str | None = None) -> list[str]:
    """Removes the data folders of emulators whose test process and emulator process are both gone
    (a test process killed outright never removed its own); returns what was removed. ``Emulator.start``
    runs it. A folder without its owner file (being created, or not an emulator's) is left alone."""
    base = directory or tempfile.gettempdir()
    removed = []
    try:
        names = [name for name in os.listdir(base) if name.startswith(DATA_PREFIX)]
    except OSError:
        return removed
    for name in names:
        folder = os.path.join(base, name)
        try:
            with open(os.path.join(folder, _OWNER_FILE), encoding="utf-8") as file:
                owner = json.load(file)
            pids = [owner["pid"], owner.get("child")]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not any(_alive(pid) for pid in pids if isinstance(pid, int)):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: not ours to judge
    try:  # a zombie has exited (it only waits to be reaped): gone
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


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
    ``key_cache=True`` (or a directory) reuses the emulator's signing keys across starts: a start on a
    new data folder then reads two RSA keys instead of generating them (most of its time). The keys
    are kept per configuration (a digest of its teams and issuer), mode 0600.
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
        key_cache: str | bool | None = None,
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
        if key_cache is True:
            key_cache = default_key_cache()
        if key_cache is not None and key_cache is not False and not isinstance(key_cache, str):
            raise TypeError("key_cache must be True (the default cache), a directory, or None")
        self._key_cache = key_cache or None
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
        sweep_stale_data()
        self._directory = tempfile.mkdtemp(prefix=DATA_PREFIX)
        self._write_owner(None)
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
        if self._key_cache:
            os.makedirs(self._key_cache, mode=0o700, exist_ok=True)
            argv += ["--signing-keys", key_cache_file(self._key_cache, self._config, self._issuer)]
        argv += self._extra_args
        try:
            self._child = Child(argv, log_path=os.path.join(self._directory, "emulator.log"))
        except OSError as error:
            self._remove_directory()
            raise EmulatorStartError(f"cannot run {binary}: {error.strerror or error}") from error
        self._write_owner(self._child.pid)
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

    def _write_owner(self, child: int | None) -> None:
        """Who owns the data folder (this process, the emulator), for ``sweep_stale_data`` of a later start."""
        if self._directory:
            with open(os.path.join(self._directory, _OWNER_FILE), "w", encoding="utf-8") as file:
                json.dump({"pid": os.getpid(), "child": child}, file)

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
        """The HTTP port it bound."""
        return int(self._require("port"))

    @property
    def pid(self) -> int | None:
        """The emulator's process id while it runs (its process group's id too), else ``None``."""
        return self._child.pid if self._child and self._child.running() else None

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

    def admin(self, method: str, path: str, body: Any = None, query: Mapping[str, str | None] | None = None) -> Any:
        """Calls ``/emulator/admin/<path>`` and returns its JSON; a refusal raises ``EmulatorError``.

        ``path`` is relative to ``/emulator/admin/`` (``"reset"``, ``"mail/<id>"``; a leading
        ``/emulator/admin/`` as docs/emulator.md writes routes is accepted too); ``query`` is added as
        the query string (``None`` values left out). The body, the admin token and what the emulator
        answered never appear in a traceback (pytest's ``--tb=long`` shows this frame's arguments).
        """
        # The argument is rebound: a traceback shows this frame's arguments as they are when it is printed.
        body = Hidden(body, "request body")
        return self._admin(method, path, body, query)

    def _admin(self, method: str, path: str, body: Hidden[Any], query: Mapping[str, str | None] | None = None) -> Any:
        path = path.removeprefix("/").removeprefix("emulator/admin/")
        url = f"{self.url}/emulator/admin/{path}"
        if query:
            url += "?" + urlencode({k: v for k, v in query.items() if v is not None})
        sent = Hidden({} if body.reveal() is None else body.reveal(), "request body") if method != "GET" else None
        answer = _http.request(method, url, json_body=sent, headers=self._authorization(), timeout=self._request_timeout)
        if not 200 <= answer.status < 300:
            raise _http.error_of(answer, path)
        try:
            return answer.json()
        except ValueError:
            raise EmulatorError("unexpected_answer", f"{path} answered no JSON", answer.status, path) from None

    def _authorization(self) -> Hidden[Mapping[str, str]]:
        return Hidden({"Authorization": f"Bearer {self._admin_token}"}, "admin token")

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
        body = Hidden(
            {"teams": list(teams), "apps": list(apps), "apple_ids": [a.config() if isinstance(a, AppleID) else dict(a) for a in apple_ids]},
            "seed",
        )
        # The arguments are rebound: a traceback shows them as they are when it is printed, and they carry passwords.
        teams = apps = apple_ids = ()
        self._admin("POST", "seed", body)

    def issued(self, bundle_id: str) -> Issued:
        """What was issued for the app (codes and tokens, as SHA-256 digests), oldest first."""
        body = self.admin("GET", "issued", query={"bundle_id": bundle_id})
        return self._parse(Issued.from_json, body, "issued")

    def inbox(self, apple_id: str) -> list[MailMessage]:
        """The mail the private email relay delivered to ``apple_id``, newest first."""
        body = self.admin("GET", "mail", query={"apple_id": apple_id})
        return [self._parse(MailMessage.from_json, m, "mail") for m in body.get("messages", [])]

    def mail(self, message_id: str) -> MailMessage:
        """One whole relayed message, with its headers and body: ``message_id`` is a ``MailMessage.id`` from ``inbox()``."""
        if not isinstance(message_id, str) or not message_id or len(message_id) > 128:
            raise ValueError(f"message_id must be the id of a message from inbox() (a string), not {message_id!r}")
        return self._parse(MailMessage.from_json, self.admin("GET", "mail/" + quote(message_id, safe="")), "mail")

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

    # --- failure injection and request capture -----------------------------------------------

    def fail(
        self,
        kind: FailureKind | str,
        *,
        client_id: str | None = None,
        count: int | None = None,
        delay_seconds: float | None = None,
        status: int | None = None,
        relay_domain: str | None = None,
    ) -> InjectedFailure:
        """Makes Apple fail or drift (``FailureKind``; docs/emulator.md's table) and returns the failure in force.

        ``client_id`` limits it to one client's requests, ``count`` to that many requests (until cleared
        when left out); ``delay_seconds``, ``status`` and ``relay_domain`` as the kind takes them. The
        result is a context manager that clears the failure on exit:

        >>> with apple.fail(FailureKind.TOKEN_SERVER_ERROR, client_id="com.example.app", count=1):  # doctest: +SKIP
        ...     assert backend_signs_in().status_code == 502
        """
        try:
            kind = FailureKind(kind)
        except ValueError:
            raise ValueError(f"kind must be one of {[k.value for k in FailureKind]}, not {kind!r}") from None
        given = {"client_id": client_id, "count": count, "delay_seconds": delay_seconds, "status": status, "relay_domain": relay_domain}
        given = {name: value for name, value in given.items() if value is not None}
        unexpected = set(given) - PARAMETERS[kind]
        if unexpected:
            raise ValueError(f"{kind.value} takes {sorted(PARAMETERS[kind]) or 'no parameter'}, not {sorted(unexpected)}")
        if kind in REQUIRED and REQUIRED[kind] not in given:
            raise ValueError(f"{kind.value} needs {REQUIRED[kind]}=")
        body = self.admin("POST", "failures", {"kind": kind.value, **given})
        if kind is FailureKind.ROTATE_SIGNING_KEY:
            return InjectedFailure(kind=kind, id=None, signing_key_id=str(body.get("signing_key_id", "")))
        return self._parse(lambda b: InjectedFailure.from_json(b, self), body, "failures")

    def failures(self) -> list[InjectedFailure]:
        """The failures in force, oldest first (``count`` is what remains; ``None``: until cleared)."""
        body = self.admin("GET", "failures")
        return [self._parse(lambda b: InjectedFailure.from_json(b, self), f, "failures") for f in body.get("failures", [])]

    def clear_failures(self) -> int:
        """Clears every failure; returns how many were in force (a reset clears them too)."""
        return int(self.admin("DELETE", "failures").get("cleared", 0))

    def requests(self, path: str | None = None, client_id: str | None = None) -> CapturedRequests:
        """The requests to Apple's endpoints the emulator captured (the last 1000), oldest first: all, or
        those to ``path`` (``"/auth/token"``) and of ``client_id``. See ``CapturedRequests`` for assertions."""
        body = self.admin("GET", "requests", query={"client_id": client_id})
        entries = [self._parse(CapturedRequest.from_json, r, "requests") for r in body.get("requests", [])]
        return CapturedRequests([r for r in entries if path is None or r.path == path])

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
