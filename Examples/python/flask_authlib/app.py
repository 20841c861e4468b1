"""A Flask + Authlib backend with Sign in with Apple: web (form_post), native and server notifications.

Nothing in it knows it is being tested: Apple's base URL is a setting, as in production it is
https://appleid.apple.com. ``create_app(settings)`` builds it; ``state_kept_on_server=False`` builds the
deliberately broken variant the kit catches (its consumed ``state`` still works from an old cookie).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

import requests
from authlib.integrations.flask_client import OAuth
from flask import Flask, Response, jsonify, redirect, request, session
from joserfc import jwt
from joserfc.jwk import ECKey, KeySet


@dataclass(frozen=True)
class AppleSettings:
    base_url: str  # https://appleid.apple.com in production
    team_id: str
    key_id: str
    private_key_pem: str
    client_id: str  # the Services ID (web)
    bundle_id: str  # the app (native sign-ins, notifications)


class ServerSideStates:
    """Authlib's cache interface: the sign-in ``state`` and nonce live here, so using one deletes it for good."""

    def __init__(self) -> None:
        self._values: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            return self._values.get(key)

    def set(self, key: str, value: str, expires_in: int | None = None) -> None:
        with self._lock:
            self._values[key] = value

    def delete(self, key: str) -> None:
        with self._lock:
            self._values.pop(key, None)


def client_secret(apple: AppleSettings, client_id: str) -> str:
    """The ES256 client secret Apple requires, signed with the team's .p8 key (one hour)."""
    now = int(time.time())
    claims = {"iss": apple.team_id, "iat": now, "exp": now + 3600, "aud": "https://appleid.apple.com", "sub": client_id}
    return jwt.encode({"alg": "ES256", "kid": apple.key_id}, claims, ECKey.import_key(apple.private_key_pem))


def verify_apple_jwt(apple: AppleSettings, token: str, issuer: str) -> dict[str, Any]:
    """An Apple-signed JWT (native identity token, notification): RS256 with Apple's current keys, iss, aud, exp."""
    keys = KeySet.import_key_set(requests.get(apple.base_url + "/auth/keys", timeout=10).json())
    decoded = jwt.decode(token, keys, algorithms=["RS256"])
    jwt.JWTClaimsRegistry(leeway=60, iss={"essential": True, "value": issuer}, aud={"essential": True, "value": apple.bundle_id}).validate(
        decoded.claims
    )
    return dict(decoded.claims)


def create_app(apple: AppleSettings, *, state_kept_on_server: bool = True) -> Flask:
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(32)
    # Apple's form_post is a cross-site POST: the session cookie must be SameSite=None (and so Secure).
    app.config.update(SESSION_COOKIE_SAMESITE="None", SESSION_COOKIE_SECURE=True)
    users: dict[str, dict[str, Any]] = {}  # Apple's sub -> the account
    lock = threading.Lock()
    oauth = OAuth(app, cache=ServerSideStates() if state_kept_on_server else None)
    oauth.register(
        "apple",
        client_id=apple.client_id,
        client_secret=client_secret(apple, apple.client_id),
        server_metadata_url=apple.base_url + "/.well-known/openid-configuration",
        client_kwargs={"scope": "openid name email", "token_endpoint_auth_method": "client_secret_post"},
    )
    issuer = lambda: oauth.apple.load_server_metadata()["issuer"]

    def sign_in(claims: dict[str, Any], user_field: str) -> None:
        first = json.loads(user_field) if user_field else {}  # name and email: the first sign-in only
        with lock:
            user = users.setdefault(claims["sub"], {"sub": claims["sub"], "sign_ins": 0})
            user["email"] = claims.get("email", user.get("email"))  # the signed token's, never the user field's
            user["private_email"] = str(claims.get("is_private_email")).lower() == "true"
            name = first.get("name") or {}
            if name:
                user["name"] = " ".join(filter(None, (name.get("firstName"), name.get("lastName"))))
            user["sign_ins"] += 1
        session["sub"] = claims["sub"]

    @app.get("/login")
    def login() -> Response:
        return oauth.apple.authorize_redirect(request.host_url + "auth/apple/callback", response_mode="form_post")

    @app.post("/auth/apple/callback")
    def callback() -> Any:
        try:
            token = oauth.apple.authorize_access_token()  # state, code exchange, id_token (signature, iss, aud, nonce)
        except Exception as error:  # noqa: BLE001 - any refusal is a 400 page
            return f"Sign in with Apple failed: {type(error).__name__}", 400
        sign_in(dict(token["userinfo"]), request.form.get("user", ""))
        return redirect("/me")

    @app.post("/api/auth/apple")
    def native() -> Any:
        body = request.get_json(silent=True) or {}
        try:
            claims = verify_apple_jwt(apple, str(body["identityToken"]), issuer())
            if claims.get("nonce") != hashlib.sha256(str(body["nonce"]).encode()).hexdigest():
                return jsonify(error="nonce_mismatch"), 400
        except Exception:  # noqa: BLE001
            return jsonify(error="invalid_token"), 400
        exchange = requests.post(apple.base_url + "/auth/token", timeout=10, data={
            "client_id": apple.bundle_id, "client_secret": client_secret(apple, apple.bundle_id),
            "code": str(body.get("authorizationCode", "")), "grant_type": "authorization_code"})
        try:  # Apple's answer must be its tokens: a status alone proves no redemption (juice conformance: native-apple-malformed-answer)
            redeemed = exchange.status_code == 200 and "id_token" in exchange.json()
        except ValueError:
            redeemed = False
        if not redeemed:
            return jsonify(error="code_refused"), 400
        sign_in(claims, json.dumps(body["user"]) if isinstance(body.get("user"), dict) else "")
        return jsonify(sub=claims["sub"])

    @app.get("/me")
    def me() -> Any:
        with lock:
            user = users.get(session.get("sub", ""))
        return jsonify(user) if user else ("not signed in", 401)

    @app.post("/apple/notifications")
    def notifications() -> Any:
        try:
            claims = verify_apple_jwt(apple, str((request.get_json(silent=True) or {})["payload"]), issuer())
            events = claims["events"]
            events = json.loads(events) if isinstance(events, str) else events
        except Exception:  # noqa: BLE001
            return "refused", 400
        if events.get("type") in ("consent-revoked", "account-delete"):
            with lock:
                users.pop(events.get("sub", ""), None)  # every session of theirs ends with the account
        return "", 200

    return app
