"""A minimal Sign in with Apple web backend on PyJWT's PyJWKClient, written here to judge key rotation.

It verifies the form_post id_token with a PyJWKClient made once per process at its defaults (a cached JWK set,
a refetch on an unknown kid at most every ``cooldown_duration`` = 30 s), redeems the code, and signs in.
With NEVER_REFETCH=1 the client's cooldown is a year: it never refetches for an unknown kid (the victim).

    APPLE_URL ISSUER TEAM_ID KEY_ID TEAM_KEY_FILE CLIENT_ID PORT [NEVER_REFETCH=1]  python3 app.py

Prints "listening on PORT" once the server accepts connections.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from urllib.parse import urlencode

import jwt
import requests
from flask import Flask, redirect, request
from werkzeug.serving import make_server

APPLE_URL = os.environ["APPLE_URL"]
CLIENT_ID = os.environ["CLIENT_ID"]
with open(os.environ["TEAM_KEY_FILE"], encoding="ascii") as key_file:
    TEAM_KEY = key_file.read()
KEYS = (
    jwt.PyJWKClient(APPLE_URL + "/auth/keys", cooldown_duration=365 * 86400)
    if os.environ.get("NEVER_REFETCH") == "1"
    else jwt.PyJWKClient(APPLE_URL + "/auth/keys")
)

app = Flask(__name__)
lock = threading.Lock()
pending: dict[str, str] = {}  # state -> nonce, single use
sessions: dict[str, str] = {}  # session id -> sub


def client_secret() -> str:
    now = int(time.time())
    claims = {"iss": os.environ["TEAM_ID"], "iat": now, "exp": now + 3600, "aud": "https://appleid.apple.com", "sub": CLIENT_ID}
    return jwt.encode(claims, TEAM_KEY, algorithm="ES256", headers={"kid": os.environ["KEY_ID"]})


@app.get("/login")
def login():
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    with lock:
        pending[state] = nonce
    query = {"response_type": "code id_token", "response_mode": "form_post", "client_id": CLIENT_ID, "scope": "name email",
             "redirect_uri": request.host_url + "auth/apple/callback", "state": state, "nonce": nonce}
    return redirect(APPLE_URL + "/auth/authorize?" + urlencode(query))


@app.post("/auth/apple/callback")
def callback():
    with lock:
        nonce = pending.pop(request.form.get("state", ""), None)
    if nonce is None:
        return "unknown state", 400
    token = request.form.get("id_token", "")
    try:
        key = KEYS.get_signing_key_from_jwt(token)
        claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=CLIENT_ID, issuer=os.environ["ISSUER"], leeway=60)
    except jwt.PyJWTError as error:
        return f"refused: {type(error).__name__}", 401
    if claims.get("nonce") != nonce:
        return "nonce mismatch", 401
    exchange = requests.post(APPLE_URL + "/auth/token", timeout=5, data={
        "client_id": CLIENT_ID, "client_secret": client_secret(), "code": request.form.get("code", ""),
        "grant_type": "authorization_code", "redirect_uri": request.host_url + "auth/apple/callback"})
    if exchange.status_code != 200:
        return "code refused", 401
    session = secrets.token_urlsafe(16)
    with lock:
        sessions[session] = claims["sub"]
    response = redirect("/me", 303)
    response.set_cookie("sid", session, httponly=True, secure=True, samesite="Lax")
    return response


@app.get("/me")
def me():
    with lock:
        subject = sessions.get(request.cookies.get("sid", ""))
    return ({"sub": subject}, 200) if subject else ("not signed in", 401)


server = make_server("127.0.0.1", int(os.environ["PORT"]), app, threaded=True)
print(f"listening on {server.server_port}", flush=True)
server.serve_forever()
