#!/usr/bin/env python3
"""Verifies JuiceClient's software authenticator with python-fido2 (an implementation that is not ours).

Usage: verify_passkey.py CEREMONIES.json
The file: {"rpId", "origin", "userHandle", "registration": {"challenge", "response"},
"assertions": [{"challenge", "response"}]}, responses as PublicKeyCredential.toJSON(), byte strings
base64url. python-fido2 parses the attestation object and checks it is a "none" attestation with an
empty statement, AAGUID zero, flags UP|UV|AT and no BE/BS, an ES256 key; its relying party
(Fido2Server) verifies the registration and every assertion's signature; the counters must rise and
each assertion carry the user handle. Altered authenticator data must not verify. Prints one JSON line and
exits 0 when all holds, else prints the failure and exits 1.
"""
import copy
import json
import sys

from fido2.attestation import NoneAttestation
from fido2.cose import ES256
from fido2.server import Fido2Server
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import (
    AttestationObject,
    AuthenticatorData,
    CollectedClientData,
    PublicKeyCredentialRpEntity,
)

UP, UV, BE, BS, AT = 0x01, 0x04, 0x08, 0x10, 0x40


def fail(message):
    print(json.dumps({"ok": False, "failure": message}))
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        ceremonies = json.load(handle)
    rp_id, origin = ceremonies["rpId"], ceremonies["origin"]
    server = Fido2Server(PublicKeyCredentialRpEntity(id=rp_id, name="Juice"), verify_origin=lambda seen: seen == origin)

    registration = ceremonies["registration"]
    response = registration["response"]
    attestation = AttestationObject(websafe_decode(response["response"]["attestationObject"]))
    client_data = CollectedClientData(websafe_decode(response["response"]["clientDataJSON"]))
    if attestation.fmt != "none" or dict(attestation.att_stmt) != {}:
        fail(f"attestation format {attestation.fmt!r} with statement {dict(attestation.att_stmt)!r}")
    NoneAttestation().verify(attestation.att_stmt, attestation.auth_data, client_data.hash)
    auth_data = attestation.auth_data
    if auth_data.flags & (UP | UV | AT) != (UP | UV | AT) or auth_data.flags & (BE | BS):
        fail(f"registration flags {auth_data.flags:#04x}")
    credential = auth_data.credential_data
    if credential is None or bytes(credential.aaguid) != bytes(16):
        fail("no attested credential, or an AAGUID that is not zero")
    if not 16 <= len(credential.credential_id) <= 32 or websafe_encode(credential.credential_id) != response["id"]:
        fail("credential id length or value")
    if not isinstance(credential.public_key, ES256):
        fail(f"public key {type(credential.public_key).__name__}, not ES256")
    if auth_data.counter != 0:
        fail(f"registration counter {auth_data.counter}")
    server.register_complete({"challenge": registration["challenge"], "user_verification": "required"}, response)

    counters = []
    for assertion in ceremonies["assertions"]:
        state = {"challenge": assertion["challenge"], "user_verification": "required"}
        server.authenticate_complete(state, [credential], assertion["response"])
        data = AuthenticatorData(websafe_decode(assertion["response"]["response"]["authenticatorData"]))
        if data.flags & (UP | UV) != (UP | UV) or data.flags & (BE | BS | AT):
            fail(f"assertion flags {data.flags:#04x}")
        if assertion["response"]["response"]["userHandle"] != ceremonies["userHandle"]:
            fail("an assertion's user handle is not the one registered")
        if counters and data.counter <= counters[-1]:
            fail(f"counter {data.counter} after {counters[-1]}")
        counters.append(data.counter)

        # The signature must cover the authenticator data: a counter raised by one no longer verifies.
        tampered = copy.deepcopy(assertion["response"])
        signed = bytearray(websafe_decode(tampered["response"]["authenticatorData"]))
        signed[-1] ^= 0x01
        tampered["response"]["authenticatorData"] = websafe_encode(bytes(signed))
        try:
            server.authenticate_complete(state, [credential], tampered)
        except Exception:
            pass
        else:
            fail("an assertion with altered authenticator data verified")

    print(json.dumps({"ok": True, "counters": counters, "credentialIdLength": len(credential.credential_id)}))


if __name__ == "__main__":
    try:
        main()
    except (ValueError, KeyError, TypeError) as error:
        fail(f"{type(error).__name__}: {error}")
