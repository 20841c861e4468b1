#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/Corpus/ (run from anywhere: python3 Fuzz/make-seeds.py).

Seed tokens are signed with Fuzz/Fixtures/fuzz-signing-key.pem (a key for fuzzing only; its public
half is FuzzApple.jwks), through the openssl command line. The flags byte in front of each seed is
described at the top of each target's source."""
import base64, hashlib, json, os, subprocess, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = os.path.join(HERE, "Fixtures", "fuzz-signing-key.pem")
TEAM_KEY = open(os.path.join(HERE, "Fixtures", "fuzz-team-key.pem")).read()
NOW = 1_790_000_000
AUD = "com.example.juice"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed(claims, header=None) -> str:
    header = header or {"alg": "RS256", "kid": "FUZZKEY001"}
    signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", KEY], input=signing_input.encode(), capture_output=True, check=True).stdout
    return signing_input + "." + b64(signature)


def write(target: str, name: str, data: bytes) -> None:
    folder = os.path.join(HERE, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data)


c_hash = b64(hashlib.sha256(b"fuzz-code").digest()[:16])
base = {"iss": "https://appleid.apple.com", "aud": AUD, "sub": "001872.a22fc8cc2d0a4d0bacaf109007e19351.0650", "iat": NOW - 10, "exp": NOW + 600}
full = dict(base, nonce="fuzz-nonce", c_hash=c_hash, email="x1y2z3@privaterelay.appleid.com", email_verified="true",
            is_private_email=True, real_user_status=2, auth_time=NOW - 20, nonce_supported=True, transfer_sub="001.abc.0001")

# identity-token: flags bit 0 = payload only, bit 1 = nonce expected, bit 2 = code given, bit 3 = nonce required.
write("identity-token", "signed-minimal", b"\x00" + signed(base).encode())
write("identity-token", "signed-full-web", b"\x0e" + signed(full).encode())
write("identity-token", "signed-no-nonce-unsupported", b"\x02" + signed(dict(base, nonce_supported="false")).encode())
write("identity-token", "alg-none", b"\x00" + (b64(b'{"alg":"none"}') + "." + b64(json.dumps(base).encode()) + ".").encode())
write("identity-token", "claims-full", b"\x0f" + json.dumps(full).encode())
write("identity-token", "claims-aud-array", b"\x01" + json.dumps(dict(base, aud=[AUD, "com.example.juice.web"])).encode())
write("identity-token", "claims-no-nonce", b"\x0b" + json.dumps(dict(base, nonce_supported=False)).encode())
write("identity-token", "claims-huge-numbers", b"\x01" + json.dumps(dict(base, exp=1e22, iat=-1e300, real_user_status=9223372036854775807, auth_time="1e300")).encode())

# notification: flags bit 0 = payload only.
events = {"type": "email-disabled", "sub": "001872.a22fc8cc2d0a4d0bacaf109007e19351.0650", "email": "x1y2z3@privaterelay.appleid.com",
          "is_private_email": "true", "event_time": (NOW - 5) * 1000}
note = {"iss": "https://appleid.apple.com", "aud": AUD, "iat": NOW - 5, "exp": NOW + 600, "jti": "jti-0001", "events": json.dumps(events)}
write("notification", "body-signed", b"\x00" + json.dumps({"payload": signed(note)}).encode())
write("notification", "body-not-json", b"\x00" + b"payload=abc")
write("notification", "claims-events-string", b"\x01" + json.dumps(note).encode())
write("notification", "claims-events-object", b"\x01" + json.dumps(dict(note, events=dict(events, type="account-delete", event_time=NOW))).encode())
write("notification", "claims-event-time-huge", b"\x01" + json.dumps(dict(note, events=dict(events, type="consent-revoked", event_time="1e300"))).encode())

# form-post: the body Apple posts to /auth/apple/callback.
user = json.dumps({"name": {"firstName": "Zoé", "lastName": "Appleseed"}, "email": "x1y2z3@privaterelay.appleid.com"})
write("form-post", "first-sign-in", urllib.parse.urlencode({"state": "s" * 43, "code": "c0a1b2c3d4.0.nrsz.fuzz", "id_token": signed(full), "user": user}).encode())
write("form-post", "cancelled", b"error=user_cancelled_authorize&state=abc")
write("form-post", "other-error", b"error=invalid_request&state=abc")
write("form-post", "duplicate-state", b"state=a&code=b&state=c")
write("form-post", "bad-escape", b"state=%E2%82&code=%zz+x")

# configuration: flags % 3 = 0 toolkit config.json, 1 server juice.json, 2 environment lines.
toolkit = {"client_id": "com.example.juice.web", "team_id": "ABCDE12345", "key_id": "FUZZKEY001", "redirect_uri": "https://juice.example.com/auth/apple/callback",
           "scope": "name email", "private_key_path": "AuthKey_FUZZKEY001.p8", "additional_client_ids": ["com.example.juice"]}
write("configuration", "toolkit-key-path", b"\x00" + json.dumps(toolkit).encode())
inline = dict(toolkit, private_key=TEAM_KEY, apple_base_url="http://127.0.0.1:8081", issuer="http://127.0.0.1:8081")
del inline["private_key_path"]
write("configuration", "toolkit-inline-key", b"\x03" + json.dumps(inline).encode())
server = dict(toolkit, public_url="https://juice.example.com", refresh_token_key="+wj+Mshkb3YM81BZyt8yfJxt05MGlC1W71EtQwJzB6g=", port=8443, host="0.0.0.0",
              session_lifetime=86400, password_hash_cost=10, database_url="postgres://juice:juice@db.example.com:5432/juice?sslmode=require",
              smtp_url="smtp://mail.example.com:587", mail_from="Juice <hello@juice.example.com>")
write("configuration", "server-file", b"\x01" + json.dumps(server).encode())
write("configuration", "server-file-key-path", b"\x04" + json.dumps(dict(toolkit, public_url="http://localhost:8080", redirect_uri="http://localhost:8080/auth/apple/callback", refresh_token_key_path="refresh.key", port="1e300")).encode())
environment = "\n".join(f"{k}={v}" for k, v in [("client_id", "com.example.juice.web"), ("team_id", "ABCDE12345"), ("key_id", "FUZZKEY001"),
    ("private_key_path", "AuthKey_FUZZKEY001.p8"), ("public_url", "https://juice.example.com"), ("redirect_uri", "https://juice.example.com/auth/apple/callback"),
    ("refresh_token_key", "+wj+Mshkb3YM81BZyt8yfJxt05MGlC1W71EtQwJzB6g="), ("additional_client_ids", "com.example.juice, com.example.juice.ios"), ("port", "65535")])
write("configuration", "environment", b"\x02" + environment.encode())

# cbor: flags % 3 == 0 = one CBOR item, 1 = an attestation object, 2 = an assertion's authenticator data.
# The seeds are the independent vectors WebAuthnTests uses (python-fido2 and cryptography), plus a few items.
def cbor_seeds() -> None:
    vectors = json.load(open(os.path.join(HERE, "..", "Tests", "WebAuthnTests", "Fixtures", "vectors.json")))

    def raw(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    for vector in vectors["registrations"]:
        if vector["name"] in ("none-ES256", "none-RS256", "packed-self-EdDSA", "packed-x5c-ES256", "none-synced-ES256",
                              "non-canonical-map-order", "indefinite-length-map", "float-in-statement", "es384-key"):
            write("cbor", "attestation-" + vector["name"], b"\x01" + raw(vector["attestationObject"]))
            write("cbor", "item-" + vector["name"], b"\x00" + raw(vector["attestationObject"]))
    for vector in vectors["authentications"]:
        if vector["name"] in ("assert-ES256", "assert-synced", "assert-bs-without-be"):
            write("cbor", "auth-data-" + vector["name"], b"\x02" + raw(vector["authenticatorData"]))
    for name, item in [("integers", b"\x83\x17\x18\x18\x39\x01\x00"), ("map", b"\xa3\x01\x02\x03\x26\x61\x61\xf5"),
                       ("nested", b"\x81\x82\xa1\x20\x40\x62hi"), ("simple", b"\x83\xf4\xf5\xf6")]:
        write("cbor", "item-" + name, b"\x00" + item)


cbor_seeds()
