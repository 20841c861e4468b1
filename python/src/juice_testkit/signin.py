"""Completing a sign-in at the emulator as a person would, without a browser.

``web_sign_in`` takes the authorization URL a backend under test produced (its redirect to
``/auth/authorize``), submits the emulator's sign-in and consent form in one POST and returns what
the browser would carry back to the backend. ``native_sign_in`` stands in for an iPhone's sheet.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

from . import _http
from ._hidden import Hidden
from .errors import EmulatorError
from .models import AppleID, NativeCredential, WebSignIn

EMAIL_CHOICES = ("share", "hide")


class _FormPostPage(HTMLParser):
    """The emulator's self-submitting form_post page: its form's action and hidden inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form" and self.action is None:
            self.action = values.get("action")
        elif tag == "input" and values.get("type") == "hidden" and "name" in values:
            self.fields[values["name"]] = values.get("value", "")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def web_sign_in(
    emulator_url: str,
    authorization_url: str,
    apple_id: AppleID,
    *,
    email_choice: str = "share",
    first_name: str | None = None,
    last_name: str | None = None,
    cancel: bool = False,
    timeout: float = 30.0,
) -> WebSignIn:
    """Signs ``apple_id`` in at the emulator for ``authorization_url`` and returns the emulator's answer.

    Raises ``ValueError`` when the URL is not the emulator's ``/auth/authorize`` (the backend is
    configured with another Apple base URL), and ``EmulatorError`` when the emulator refuses (an
    unregistered redirect URI, a wrong password: ``invalid_credentials``).
    """
    if email_choice not in EMAIL_CHOICES:
        raise ValueError(f"email_choice must be one of {EMAIL_CHOICES}, not {email_choice!r}")
    parts = urlsplit(authorization_url)
    if _origin(authorization_url) != _origin(emulator_url) or parts.path != "/auth/authorize":
        raise ValueError(
            f"{_origin(authorization_url)}{parts.path} is not this emulator's /auth/authorize ({emulator_url}): "
            "configure the backend with the emulator's URL as Apple's base URL"
        )
    params = dict(parse_qsl(parts.query, keep_blank_values=True))
    form = _web_form(
        params, apple_id, first_name=apple_id.first_name if first_name is None else first_name,
        last_name=apple_id.last_name if last_name is None else last_name, email_choice=email_choice, cancel=cancel,
    )
    answer = _http.request("POST", emulator_url + "/auth/authorize", form=form, timeout=timeout)
    mode = params.get("response_mode") or ("fragment" if "id_token" in params.get("response_type", "") else "query")
    redirect_uri = params.get("redirect_uri", "")
    if answer.status in (301, 302, 303, 307):
        location = answer.headers.get("location", "")
        split = urlsplit(location)
        fields = dict(parse_qsl(split.fragment if mode == "fragment" else split.query, keep_blank_values=True))
        return WebSignIn(response_mode=mode, redirect_uri=redirect_uri, fields=fields, location=location)
    if answer.status == 401:
        raise EmulatorError("invalid_credentials", f"the emulator refused the Apple ID or password of {apple_id.email}", 401, "/auth/authorize")
    if answer.status == 200 and mode == "form_post":
        page = _FormPostPage()
        page.feed(answer.text)
        if page.action:
            return WebSignIn(response_mode=mode, redirect_uri=page.action, fields=page.fields)
    raise _refusal(answer)


def _web_form(
    params: Mapping[str, str], apple_id: AppleID, *, first_name: str, last_name: str, email_choice: str, cancel: bool
) -> Hidden[Mapping[str, str]]:
    """The sign-in and consent form, its password inside ``Hidden`` (no traceback shows it)."""
    return Hidden({
        **params, "account_name": apple_id.email, "password": apple_id.password, "first_name": first_name, "last_name": last_name,
        "email_choice": email_choice, "action": "cancel" if cancel else "continue",
    }, "sign-in form")


def _refusal(answer: _http.Answer) -> EmulatorError:
    if answer.headers.get("content-type", "").startswith("application/json"):
        return _http.error_of(answer, "/auth/authorize")
    # An HTML error page, as Apple's: "… Error: invalid_request <the reason>".
    text = _visible_text(answer.text)
    found = re.search(r"Error:\s*([a-z_]+)\s*(.*)", text)
    if found:
        return EmulatorError(found.group(1), found.group(2)[:400], answer.status, "/auth/authorize")
    return EmulatorError("authorize_refused", text[:400], answer.status, "/auth/authorize")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "svg"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def _visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def native_sign_in(
    emulator_url: str,
    bundle_id: str,
    apple_id: AppleID,
    *,
    nonce: str | None = None,
    scopes: tuple[str, ...] = ("name", "email"),
    state: str | None = None,
    email_choice: str = "share",
    timeout: float = 30.0,
) -> NativeCredential:
    """A device sign-in for ``bundle_id``: the credential (code and identity token) an app gets.

    ``nonce`` goes into the identity token as given: an app sends the SHA-256 hex of its raw nonce
    (``juice_testkit.models.sha256_hex(raw)``), and its backend compares the token's nonce with it.
    """
    if email_choice not in EMAIL_CHOICES:
        raise ValueError(f"email_choice must be one of {EMAIL_CHOICES}, not {email_choice!r}")
    form = _device_form(bundle_id, apple_id, scopes=scopes, email_choice=email_choice, nonce=nonce, state=state)
    answer = _http.request("POST", emulator_url + "/emulator/device/authorize", form=form, timeout=timeout)
    if answer.status != 200:
        raise _http.error_of(answer, "/emulator/device/authorize")
    body = answer.json()
    if not isinstance(body, Mapping):
        raise EmulatorError("unexpected_answer", "the device sign-in did not answer a JSON object", answer.status)
    return NativeCredential.from_json(body)


def _device_form(
    bundle_id: str, apple_id: AppleID, *, scopes: tuple[str, ...], email_choice: str, nonce: str | None, state: str | None
) -> Hidden[Mapping[str, str]]:
    """The device sign-in's form, its password inside ``Hidden``."""
    form = {
        "client_id": bundle_id, "account_name": apple_id.email, "password": apple_id.password, "scope": " ".join(scopes),
        "first_name": apple_id.first_name, "last_name": apple_id.last_name, "email_choice": email_choice,
    }
    optional = {"nonce": nonce, "state": state}
    return Hidden(form | {name: value for name, value in optional.items() if value is not None}, "device sign-in form")
