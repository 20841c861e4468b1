"""What the backend sent to Apple (``Emulator.requests``): typed records and assertions on them.

In the spirit of pytest-httpserver's ``assert_request_made``: a failed assertion raises
``AssertionError`` listing what was captured, so the test's failure says what the backend did.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

#: ``redirect_uri=ANY``: whether or not the redemption sent a ``redirect_uri``.
ANY: Any = type("AnyValue", (), {"__repr__": lambda self: "ANY"})()

#: Apple's longest client secret lifetime (``exp - iat``): six months, in seconds.
MAX_SECRET_LIFETIME = 15_777_000


@dataclass(frozen=True)
class CapturedClientSecret:
    """A client secret as captured: its JOSE header and claims, decoded (never its signature).

    Each part is ``None`` when it could not be read (not a compact JWS, not Base64URL JSON).
    """

    header: Mapping[str, Any] | None
    claims: Mapping[str, Any] | None

    @property
    def readable(self) -> bool:
        return self.header is not None and self.claims is not None

    @property
    def lifetime(self) -> int | None:
        """``exp - iat`` in seconds, or ``None`` when either is missing."""
        claims = self.claims or {}
        exp, iat = claims.get("exp"), claims.get("iat")
        return exp - iat if isinstance(exp, int) and isinstance(iat, int) else None

    def problems(self, *, team_id: str | None = None, client_id: str | None = None, key_id: str | None = None) -> list[str]:
        """What makes it not a secret Apple accepts (empty when it is): ES256, ``kid``, ``iss``/``sub``/``aud``, lifetime."""
        if not self.readable:
            return ["the client secret is not a readable JWS"]
        header, claims = self.header or {}, self.claims or {}
        found = []
        if header.get("alg") != "ES256":
            found.append(f"alg is {header.get('alg')!r}, not 'ES256'")
        if key_id is not None and header.get("kid") != key_id:
            found.append(f"kid is {header.get('kid')!r}, not {key_id!r}")
        if team_id is not None and claims.get("iss") != team_id:
            found.append(f"iss is {claims.get('iss')!r}, not the team {team_id!r}")
        if client_id is not None and claims.get("sub") != client_id:
            found.append(f"sub is {claims.get('sub')!r}, not the client {client_id!r}")
        if claims.get("aud") != "https://appleid.apple.com":
            found.append(f"aud is {claims.get('aud')!r}, not 'https://appleid.apple.com'")
        lifetime = self.lifetime
        if lifetime is None or not 0 < lifetime <= MAX_SECRET_LIFETIME:
            found.append(f"its lifetime (exp - iat) is {lifetime!r}, not 1 s to six months")
        return found


@dataclass(frozen=True)
class CapturedRequest:
    """One request to Apple's endpoints as the emulator captured it (``GET /emulator/admin/requests``)."""

    id: int
    #: Unix seconds on the emulator's clock (milliseconds kept).
    received_at: float
    method: str
    path: str
    client_id: str | None
    grant_type: str | None
    redirect_uri: str | None
    #: ``None`` when the request carried no ``client_secret``.
    client_secret: CapturedClientSecret | None
    #: What the emulator answered (an injected failure's answer included).
    status: int
    #: The ``error`` code answered, ``None`` for a success.
    error: str | None

    @property
    def is_code_redemption(self) -> bool:
        return self.path == "/auth/token" and self.grant_type == "authorization_code"

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> CapturedRequest:
        secret = body.get("client_secret")
        return cls(
            id=body["id"], received_at=body["received_at"], method=body["method"], path=body["path"], client_id=body.get("client_id"),
            grant_type=body.get("grant_type"), redirect_uri=body.get("redirect_uri"),
            client_secret=CapturedClientSecret(secret.get("header"), secret.get("claims")) if isinstance(secret, Mapping) else None,
            status=body["status"], error=body.get("error"),
        )

    def describe(self) -> str:
        """One line: ``#3 POST /auth/token client_id=… grant_type=… → 200``."""
        fields = [f"{name}={value}" for name, value in (("client_id", self.client_id), ("grant_type", self.grant_type),
                                                        ("redirect_uri", self.redirect_uri)) if value is not None]
        outcome = f"{self.status}" + (f" {self.error}" if self.error else "")
        return f"#{self.id} {self.method} {self.path} {' '.join(fields)} → {outcome}".replace("  ", " ")


class CapturedRequests(Sequence[CapturedRequest]):
    """The captured requests, oldest first, with assertions (each returns what matched)."""

    def __init__(self, requests: Sequence[CapturedRequest]) -> None:
        self._requests = tuple(requests)

    @overload
    def __getitem__(self, index: int) -> CapturedRequest: ...
    @overload
    def __getitem__(self, index: slice) -> CapturedRequests: ...
    def __getitem__(self, index: int | slice) -> CapturedRequest | CapturedRequests:
        return CapturedRequests(self._requests[index]) if isinstance(index, slice) else self._requests[index]

    def __len__(self) -> int:
        return len(self._requests)

    def __iter__(self) -> Iterator[CapturedRequest]:
        return iter(self._requests)

    def __repr__(self) -> str:
        return f"CapturedRequests({len(self._requests)})"

    def matching(self, **fields: Any) -> CapturedRequests:
        """The requests whose fields equal the ones given (``path=``, ``status=``, ``grant_type=``, …)."""
        unknown = set(fields) - set(CapturedRequest.__dataclass_fields__)
        if unknown:
            raise TypeError(f"CapturedRequest has no field {sorted(unknown)}")
        return CapturedRequests([r for r in self._requests if all(getattr(r, k) == v for k, v in fields.items())])

    def code_redemptions(self) -> CapturedRequests:
        """The ``/auth/token`` requests with ``grant_type=authorization_code``."""
        return CapturedRequests([r for r in self._requests if r.is_code_redemption])

    def assert_count(self, count: int, **fields: Any) -> CapturedRequests:
        """Exactly ``count`` requests match ``fields``."""
        found = self.matching(**fields)
        if len(found) != count:
            raise AssertionError(f"expected {count} request(s) with {_show(fields)}, found {len(found)}\n{self.listing()}")
        return found

    def assert_one(self, **fields: Any) -> CapturedRequest:
        """Exactly one request matches ``fields``; returns it."""
        return self.assert_count(1, **fields)[0]

    def assert_none(self, **fields: Any) -> None:
        """No request matches ``fields``."""
        self.assert_count(0, **fields)

    def assert_code_redeemed(
        self,
        *,
        times: int = 1,
        client_id: str | None = None,
        team_id: str | None = None,
        key_id: str | None = None,
        redirect_uri: Any = ANY,
        status: int | None = 200,
    ) -> CapturedRequests:
        """The backend redeemed a code ``times`` times (for ``client_id``), each with a client secret Apple
        accepts (ES256, ``iss`` the team, ``sub`` the client, ``aud`` Apple, a lifetime up to six months),
        answered ``status`` (``None``: any), and with ``redirect_uri`` equal to the one given (``None``:
        sent none; ``ANY``: either)."""
        redemptions = [r for r in self.code_redemptions() if client_id is None or r.client_id == client_id]
        problems = []
        if len(redemptions) != times:
            problems.append(f"expected {times} code redemption(s){f' by {client_id}' if client_id else ''}, found {len(redemptions)}")
        for request in redemptions:
            secret = request.client_secret
            for problem in secret.problems(team_id=team_id, client_id=request.client_id, key_id=key_id) if secret else ["no client_secret"]:
                problems.append(f"#{request.id}: {problem}")
            if redirect_uri is not ANY and request.redirect_uri != redirect_uri:
                problems.append(f"#{request.id}: redirect_uri is {request.redirect_uri!r}, not {redirect_uri!r}")
            if status is not None and request.status != status:
                problems.append(f"#{request.id}: answered {request.status} {request.error or ''}, not {status}".rstrip())
        if problems:
            raise AssertionError("\n".join(problems) + "\n" + self.listing())
        return CapturedRequests(redemptions)

    def listing(self) -> str:
        """The requests, one line each (what an assertion's message shows)."""
        if not self._requests:
            return "captured: nothing"
        return "captured:\n" + "\n".join("  " + r.describe() for r in self._requests)


def _show(fields: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in fields.items()) or "any fields"
