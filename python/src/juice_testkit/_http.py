"""A tiny HTTP client on the standard library: JSON in and out, redirects returned, never followed."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._hidden import Hidden
from .errors import EmulatorError

#: The largest answer read from the emulator (its admin answers are small; a mailbox is bounded).
MAX_BODY = 16 * 1024 * 1024


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, headers (lowercased names) and body text."""

    status: int
    headers: Mapping[str, str] = field(repr=False)
    text: str = field(repr=False)

    def json(self) -> Any:
        return json.loads(self.text)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect, urllib.request.ProxyHandler({}))


def request(
    method: str,
    url: str,
    *,
    json_body: Hidden[Any] | None = None,
    form: Hidden[Mapping[str, str]] | None = None,
    headers: Hidden[Mapping[str, str]] | None = None,
    timeout: float = 30.0,
) -> Answer:
    """Sends one request (no proxy, no redirect following) and returns the answer, whatever its status.

    The body and headers come ``Hidden`` (they carry passwords and the admin token): no frame of this
    package holds them in the open, and a connection failure is raised as ``EmulatorError``
    (``unreachable``) without the standard library's frames, whose arguments hold the headers.
    """
    prepared = _prepare(method, url, json_body, form, headers)
    try:
        with _OPENER.open(prepared, timeout=timeout) as response:
            return _answer(response.status, response.headers, response.read(MAX_BODY + 1))
    except urllib.error.HTTPError as error:
        with error:
            return _answer(error.code, error.headers, error.read(MAX_BODY + 1))
    except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        failure = EmulatorError("unreachable", f"{method} {urllib.parse.urlsplit(url).path}: {_describe(reason)}", 0)
    raise failure from None


def _prepare(
    method: str, url: str, json_body: Hidden[Any] | None, form: Hidden[Mapping[str, str]] | None, headers: Hidden[Mapping[str, str]] | None
) -> urllib.request.Request:
    data: bytes | None = None
    all_headers = dict(headers.reveal() if headers else {})
    if json_body is not None:
        data = json.dumps(json_body.reveal()).encode()
        all_headers["Content-Type"] = "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form.reveal()).encode()
        all_headers["Content-Type"] = "application/x-www-form-urlencoded"
    return urllib.request.Request(url, data=data, method=method, headers=all_headers)


def _describe(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return type(reason).__name__ if not str(reason) else str(reason)[:200]


def _answer(status: int, headers: Any, body: bytes) -> Answer:
    if len(body) > MAX_BODY:
        raise EmulatorError("response_too_large", f"the answer is over {MAX_BODY} bytes", status)
    return Answer(status, {k.lower(): v for k, v in headers.items()}, body.decode("utf-8", "replace"))


def error_of(answer: Answer, path: str) -> EmulatorError:
    """The emulator's refusal as an exception: ``{"error", "error_description"}`` (Apple's shape) or ``{"error", "reason"}``."""
    code, reason = "http_error", answer.text[:500]
    try:
        body = answer.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        code = body["error"]
        described = body.get("error_description", body.get("reason"))
        reason = described if isinstance(described, str) else ""
    return EmulatorError(code, reason, answer.status, path)
