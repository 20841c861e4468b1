#!/usr/bin/env python3
"""Writes vectors.json: WebAuthn registration and assertion responses made by an implementation that is
not ours (python-fido2's CBOR, COSE and WebAuthn structures; keys, signatures and the attestation CA
from the `cryptography` package), for WebAuthnTests.

Run from anywhere: python3 Tests/WebAuthnTests/Fixtures/make_vectors.py
Each case says what the relying party must answer: "ok" or the PasskeyError code it must refuse with.
Before writing, python-fido2's own relying party (Fido2Server) verifies every "ok" case.
Keys are new on each run, so the output differs between runs; every run's output is equally valid.
"""
import datetime
import hashlib
import json
import os
import struct

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.x509.oid import NameOID
from fido2 import cbor
from fido2.cose import ES256, RS256, EdDSA
from fido2.utils import websafe_encode
from fido2.webauthn import AttestedCredentialData, AuthenticatorData, AttestationObject, CollectedClientData

RP_ID = "login.juice.test"
ORIGIN = "https://login.juice.test"
NATIVE_ORIGIN = "ios:bundle-id:com.example.juice"
UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80
AAGUID = bytes(range(1, 17))
FIDO_AAGUID_OID = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")


def b64(data: bytes) -> str:
    return websafe_encode(data)


def rp_hash(rp_id: str = RP_ID) -> bytes:
    return hashlib.sha256(rp_id.encode()).digest()


class Key:
    """A credential key of one algorithm: its COSE form and its signature as WebAuthn carries it."""

    def __init__(self, algorithm: str):
        self.algorithm = algorithm
        if algorithm == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            self.cose = ES256.from_cryptography_key(self.private.public_key())
        elif algorithm == "RS256":
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = RS256.from_cryptography_key(self.private.public_key())
        else:
            self.private = ed25519.Ed25519PrivateKey.generate()
            self.cose = EdDSA.from_cryptography_key(self.private.public_key())

    def sign(self, message: bytes) -> bytes:
        return sign(self.private, message)

    @property
    def alg(self) -> int:
        return self.cose.ALGORITHM


def sign(private, message: bytes) -> bytes:
    if isinstance(private, ec.EllipticCurvePrivateKey):
        return private.sign(message, ec.ECDSA(hashes.SHA256()))
    if isinstance(private, rsa.RSAPrivateKey):
        return private.sign(message, padding.PKCS1v15(), hashes.SHA256())
    return private.sign(message)


def client_data(type_: str, challenge: bytes, origin: str = ORIGIN, **extra) -> bytes:
    return bytes(CollectedClientData.create(type=type_, challenge=challenge, origin=origin, **extra))


def make_ca():
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Juice Test Attestation Root")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def make_leaf(ca_key, ca_cert, leaf_key, ou="Authenticator Attestation", ca=False, aaguid=AAGUID, aaguid_critical=False):
    subject = x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "SE"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Juice Test Vendor"),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou),
        x509.NameAttribute(NameOID.COMMON_NAME, "Juice Test Authenticator"),
    ])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(ca_cert.subject)
        .public_key(leaf_key.public_key()).serial_number(2).not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if aaguid is not None:
        # The extension's value is an OCTET STRING holding the 16 AAGUID bytes (DER: 04 10 …).
        builder = builder.add_extension(x509.UnrecognizedExtension(FIDO_AAGUID_OID, b"\x04\x10" + aaguid), critical=aaguid_critical)
    return builder.sign(ca_key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)


registrations = []
authentications = []
stored = {}


def registration(name, expect, key, fmt="none", challenge=None, cdata=None, flags=UP | UV | AT, rp_id=RP_ID,
                 statement=None, counter=0, response_id=None, aaguid=None, raw_object=None, requirements="default", cred_id=None):
    challenge = challenge or os.urandom(32)
    cdata = cdata if cdata is not None else client_data("webauthn.create", challenge)
    cred_id = cred_id or os.urandom(32)
    aaguid = aaguid if aaguid is not None else (AAGUID if fmt == "packed" else bytes(16))
    credential = AttestedCredentialData.create(aaguid, cred_id, key.cose)
    auth_data = AuthenticatorData.create(rp_hash(rp_id), flags, counter, credential)
    if statement is None:
        statement = {}
        if fmt == "packed":
            statement = {"alg": key.alg, "sig": key.sign(auth_data + hashlib.sha256(cdata).digest())}
    elif callable(statement):
        statement = statement(auth_data + hashlib.sha256(cdata).digest())
    obj = raw_object(auth_data, statement) if raw_object else bytes(AttestationObject.create(fmt, auth_data, statement))
    registrations.append({
        "name": name, "expect": expect, "requirements": requirements, "algorithm": key.algorithm,
        "challenge": b64(challenge), "credentialID": b64(response_id or cred_id),
        "clientDataJSON": b64(cdata), "attestationObject": b64(obj),
    })
    return cred_id


def register_ok(name, key, fmt="none", flags=UP | UV | AT, user_handle=None, **kw):
    cred_id = registration(name, "ok", key, fmt=fmt, flags=flags, **kw)
    stored[name] = {"key": key, "credentialID": cred_id, "userHandle": user_handle or os.urandom(16), "backupEligible": bool(flags & BE)}
    return cred_id


def authentication(name, expect, registered, counter=1, stored_count=0, flags=UP | UV, challenge=None, cdata=None,
                   rp_id=RP_ID, user_handle="stored", tamper_signature=False, requirements="default", response_id=None,
                   backup_eligible=None, signer=None):
    entry = stored[registered]
    challenge = challenge or os.urandom(32)
    cdata = cdata if cdata is not None else client_data("webauthn.get", challenge)
    be = entry["backupEligible"] if backup_eligible is None else backup_eligible
    auth_data = bytes(AuthenticatorData.create(rp_hash(rp_id), flags | (BE if be else 0), counter))
    signature = (signer or entry["key"]).sign(auth_data + hashlib.sha256(cdata).digest())
    if tamper_signature:
        signature = signature[:8] + bytes([signature[8] ^ 0x01]) + signature[9:]
    handle = entry["userHandle"] if user_handle == "stored" else user_handle
    authentications.append({
        "name": name, "expect": expect, "requirements": requirements, "registration": registered,
        "challenge": b64(challenge), "credentialID": b64(response_id or entry["credentialID"]),
        "clientDataJSON": b64(cdata), "authenticatorData": b64(auth_data), "signature": b64(signature),
        "userHandle": b64(handle) if handle is not None else None,
        "storedSignCount": stored_count, "storedUserHandle": b64(entry["userHandle"]),
        "storedBackupEligible": entry["backupEligible"],
    })


keys = {name: Key(name) for name in ("ES256", "RS256", "EdDSA")}
ca_key, ca_cert = make_ca()
attestation_key = ec.generate_private_key(ec.SECP256R1())
leaf = make_leaf(ca_key, ca_cert, attestation_key)
ca_der = ca_cert.public_bytes(serialization.Encoding.DER)


def x5c_statement(chain, alg=-7, signer=attestation_key):
    return lambda signed: {"alg": alg, "sig": sign(signer, signed), "x5c": chain}


# Good registrations: each algorithm with none and packed self attestation; packed x5c.
for alg, key in keys.items():
    register_ok(f"none-{alg}", key)
    register_ok(f"packed-self-{alg}", key, fmt="packed")
register_ok("packed-x5c-ES256", keys["ES256"], fmt="packed", statement=x5c_statement([leaf, ca_der]))
register_ok("none-synced-ES256", keys["ES256"], flags=UP | UV | AT | BE | BS)
register_ok("none-no-uv-ES256", keys["ES256"], flags=UP | AT)
native_challenge = os.urandom(32)
register_ok("native-origin-ES256", keys["ES256"], challenge=native_challenge,
            cdata=client_data("webauthn.create", native_challenge, NATIVE_ORIGIN))

# Hostile registrations: each breaks one rule and is otherwise valid (signed where a signature covers it).
es = keys["ES256"]
c = os.urandom(32)
registration("wrong-origin", "origin_mismatch", es, challenge=c, cdata=client_data("webauthn.create", c, "https://evil.juice.test"))
registration("wrong-origin-http", "origin_mismatch", es, challenge=c, cdata=client_data("webauthn.create", c, "http://login.juice.test"))
registration("wrong-challenge", "challenge_mismatch", es, challenge=c, cdata=client_data("webauthn.create", os.urandom(32)))
registration("wrong-type", "wrong_ceremony", es, challenge=c, cdata=client_data("webauthn.get", c))
registration("cross-origin", "cross_origin", es, challenge=c, cdata=client_data("webauthn.create", c, cross_origin=True))
registration("top-origin", "cross_origin", es, challenge=c, cdata=client_data("webauthn.create", c, topOrigin="https://evil.juice.test"))
registration("bad-client-data", "malformed_client_data", es, challenge=c, cdata=b'{"type":"webauthn.create"')
registration("wrong-rp-id", "rp_id_mismatch", es, rp_id="evil.juice.test")
registration("wrong-rp-id-packed", "rp_id_mismatch", es, fmt="packed", rp_id="juice.test")
registration("up-cleared", "user_presence_missing", es, flags=UV | AT)
registration("uv-cleared-uv-required", "user_verification_missing", es, flags=UP | AT, requirements="uv-required")
registration("bs-without-be", "backup_state_invalid", es, flags=UP | UV | AT | BS)
registration("no-attested-credential", "malformed_authenticator_data", es,
             raw_object=lambda ad, st: cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(ad[:37])[:32] + bytes([UP | UV]) + bytes(ad[33:37])}))
registration("credential-id-mismatch", "credential_id_mismatch", es, response_id=os.urandom(32))
registration("none-with-statement", "bad_attestation", es, statement={"alg": -7})
registration("packed-self-flipped-signature", "bad_attestation", es, fmt="packed",
             statement=lambda signed: {"alg": -7, "sig": (lambda s: s[:8] + bytes([s[8] ^ 1]) + s[9:])(es.sign(signed))})
registration("packed-self-alg-mismatch", "bad_attestation", keys["EdDSA"], fmt="packed",
             statement=lambda signed: {"alg": -7, "sig": es.sign(signed)})
registration("packed-unknown-field", "bad_attestation", es, fmt="packed",
             statement=lambda signed: {"alg": -7, "sig": es.sign(signed), "ecdaaKeyId": b"x"})
registration("packed-x5c-wrong-ou", "bad_attestation", es, fmt="packed",
             statement=x5c_statement([make_leaf(ca_key, ca_cert, attestation_key, ou="Something Else"), ca_der]))
registration("packed-x5c-ca-true", "bad_attestation", es, fmt="packed",
             statement=x5c_statement([make_leaf(ca_key, ca_cert, attestation_key, ca=True)]))
registration("packed-x5c-aaguid-mismatch", "bad_attestation", es, fmt="packed",
             statement=x5c_statement([make_leaf(ca_key, ca_cert, attestation_key, aaguid=bytes(16))]))
registration("packed-x5c-aaguid-critical", "bad_attestation", es, fmt="packed",
             statement=x5c_statement([make_leaf(ca_key, ca_cert, attestation_key, aaguid_critical=True)]))
registration("packed-x5c-alg-mismatch", "bad_attestation", es, fmt="packed", statement=x5c_statement([leaf], alg=-257))
registration("packed-x5c-other-signer", "bad_attestation", es, fmt="packed",
             statement=x5c_statement([leaf], signer=ec.generate_private_key(ec.SECP256R1())))
registration("packed-x5c-not-der", "bad_attestation", es, fmt="packed", statement=x5c_statement([b"\x30\x03\x02\x01\x01"]))
registration("unknown-format", "unsupported_attestation", es, fmt="tpm", statement={"ver": "2.0"})
# An ES384 key (COSE -35): refused as an algorithm the relying party does not accept.
p384 = ec.generate_private_key(ec.SECP384R1()).public_key().public_numbers()


class ES384Key:
    algorithm = "ES384"
    cose = {1: 2, 3: -35, -1: 2, -2: p384.x.to_bytes(48, "big"), -3: p384.y.to_bytes(48, "big")}
    alg = -35


registration("es384-key", "unsupported_algorithm", ES384Key())
registration("ed25519-alg-with-p256-key", "malformed_public_key", es, cred_id=None,
             raw_object=lambda ad, st: cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(ad).replace(cbor.encode(es.cose), cbor.encode({**es.cose, 3: -8}))}))
# CBOR the strict decoder refuses.
registration("non-canonical-map-order", "malformed_cbor", es,
             raw_object=lambda ad, st: b"\xa3" + cbor.encode("authData") + cbor.encode(bytes(ad)) + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("attStmt") + b"\xa0")
registration("trailing-bytes", "malformed_cbor", es, raw_object=lambda ad, st: cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(ad)}) + b"\x00")
registration("indefinite-length-map", "malformed_cbor", es,
             raw_object=lambda ad, st: b"\xbf" + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("attStmt") + b"\xa0" + cbor.encode("authData") + cbor.encode(bytes(ad)) + b"\xff")
registration("non-shortest-length", "malformed_cbor", es,
             raw_object=lambda ad, st: b"\xb8\x03" + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("attStmt") + b"\xa0" + cbor.encode("authData") + cbor.encode(bytes(ad)))
registration("tagged-auth-data", "malformed_cbor", es,
             raw_object=lambda ad, st: b"\xa3" + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("attStmt") + b"\xa0" + cbor.encode("authData") + b"\xd8\x18" + cbor.encode(bytes(ad)))
registration("float-in-statement", "malformed_cbor", es,
             raw_object=lambda ad, st: b"\xa3" + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("attStmt") + b"\xa1" + cbor.encode("x") + b"\xf9\x3c\x00" + cbor.encode("authData") + cbor.encode(bytes(ad)))
registration("duplicate-key", "malformed_cbor", es,
             raw_object=lambda ad, st: b"\xa4" + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("fmt") + cbor.encode("none") + cbor.encode("attStmt") + b"\xa0" + cbor.encode("authData") + cbor.encode(bytes(ad)))
registration("auth-data-trailing-bytes", "malformed_authenticator_data", es,
             raw_object=lambda ad, st: cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(ad) + b"\x00"}))
registration("truncated", "malformed_cbor", es, raw_object=lambda ad, st: cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(ad)})[:-5])

# Good assertions: each algorithm; a counter that rises; an authenticator that keeps no counter (0 and 0).
for alg in keys:
    authentication(f"assert-{alg}", "ok", f"packed-self-{alg}", counter=7, stored_count=6)
authentication("assert-zero-counters", "ok", "none-ES256", counter=0, stored_count=0)
authentication("assert-no-user-handle", "ok", "none-ES256", user_handle=None)
authentication("assert-synced", "ok", "none-synced-ES256", flags=UP | UV | BS)
authentication("assert-no-uv", "ok", "none-ES256", flags=UP)
authentication("assert-native-origin", "ok", "none-ES256", challenge=native_challenge,
               cdata=client_data("webauthn.get", native_challenge, NATIVE_ORIGIN))
# Hostile assertions.
authentication("counter-equal", "counter_regressed", "none-ES256", counter=10, stored_count=10)
authentication("counter-lower", "counter_regressed", "none-ES256", counter=3, stored_count=10)
authentication("counter-zero-after-nonzero", "counter_regressed", "none-ES256", counter=0, stored_count=4)
for alg in keys:
    authentication(f"flipped-signature-{alg}", "bad_signature", f"none-{alg}", tamper_signature=True)
authentication("other-key-signature", "bad_signature", "none-ES256", signer=Key("ES256"))
c = os.urandom(32)
authentication("assert-wrong-origin", "origin_mismatch", "none-ES256", challenge=c, cdata=client_data("webauthn.get", c, "https://juice.test"))
authentication("assert-wrong-challenge", "challenge_mismatch", "none-ES256", challenge=c, cdata=client_data("webauthn.get", os.urandom(32)))
authentication("assert-wrong-type", "wrong_ceremony", "none-ES256", challenge=c, cdata=client_data("webauthn.create", c))
authentication("assert-wrong-rp-id", "rp_id_mismatch", "none-ES256", rp_id="evil.juice.test")
authentication("assert-up-cleared", "user_presence_missing", "none-ES256", flags=UV)
authentication("assert-uv-cleared-uv-required", "user_verification_missing", "none-ES256", flags=UP, requirements="uv-required")
authentication("assert-user-handle-mismatch", "user_handle_mismatch", "none-ES256", user_handle=os.urandom(16))
authentication("assert-other-credential", "unknown_credential", "none-ES256", response_id=os.urandom(32))
authentication("assert-be-changed", "backup_eligibility_changed", "none-ES256", backup_eligible=True)
authentication("assert-bs-without-be", "backup_state_invalid", "none-ES256", flags=UP | UV | BS)
authentication("assert-truncated-auth-data", "malformed_authenticator_data", "none-ES256", rp_id=RP_ID)
authentications[-1]["authenticatorData"] = b64(rp_hash()[:20])


def cross_check() -> None:
    """python-fido2's own relying party (Fido2Server) must accept every good vector: the vectors are
    right by an implementation that is not ours before our tests rely on them."""
    from fido2.server import Fido2Server

    server = Fido2Server({"id": RP_ID, "name": "Juice"}, attestation="direct", verify_origin=lambda o: o in (ORIGIN, NATIVE_ORIGIN),
                         verify_attestation=lambda attestation, client_data_hash: None)
    credentials = {}
    for vector in registrations:
        if vector["expect"] != "ok":
            continue
        response = {"id": vector["credentialID"], "rawId": vector["credentialID"], "type": "public-key",
                    "response": {"clientDataJSON": vector["clientDataJSON"], "attestationObject": vector["attestationObject"]}}
        auth_data = server.register_complete({"challenge": vector["challenge"], "user_verification": None}, response)
        credentials[vector["name"]] = auth_data.credential_data
    for vector in authentications:
        if vector["expect"] != "ok":
            continue
        response = {"id": vector["credentialID"], "rawId": vector["credentialID"], "type": "public-key",
                    "response": {"clientDataJSON": vector["clientDataJSON"], "authenticatorData": vector["authenticatorData"],
                                 "signature": vector["signature"], "userHandle": vector["userHandle"]}}
        server.authenticate_complete({"challenge": vector["challenge"], "user_verification": None},
                                     [credentials[vector["registration"]]], response)


cross_check()
out = {
    "generator": "Tests/WebAuthnTests/Fixtures/make_vectors.py (python-fido2 and cryptography)",
    "rpID": RP_ID, "origins": [ORIGIN, NATIVE_ORIGIN],
    "registrations": registrations, "authentications": authentications,
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print(f"{len(registrations)} registrations, {len(authentications)} authentications -> {path}")
