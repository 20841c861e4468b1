"""Apple failing and drifting on demand, and what the emulator received, in a backend's own test suite.

The example of docs/emulator.md ("Failure injection and request capture"); FailureInjectionExampleTests
runs it against a real emulator. Against your own: start `juice emulator --config emulator.json` (with
the app below), then
    EMULATOR_URL=http://127.0.0.1:8081 ADMIN_TOKEN=... python3 failure_injection_example.py
"""
import base64
import json
import os
import unittest

import requests

EMULATOR = os.environ.get("EMULATOR_URL", "http://127.0.0.1:8081")
ADMIN = {"Authorization": "Bearer " + os.environ.get("ADMIN_TOKEN", ""), "Content-Type": "application/json"}
BUNDLE_ID = "com.example.app"
TESTER = {"email": "tester@example.net", "password": "tester-password", "first_name": "Tess", "last_name": "Tester"}


def admin(method, path, **kwargs):
    """Calls the admin API; a refusal fails the test with the emulator's reason."""
    response = requests.request(method, EMULATOR + "/emulator/admin/" + path, headers=ADMIN, timeout=30, **kwargs)
    assert response.ok, f"{method} {path}: {response.status_code} {response.text}"
    return response.json()


def claims(jwt):
    """The claims of a JWT (read only; a backend verifies them)."""
    part = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class AppleFailsTest(unittest.TestCase):
    def setUp(self):
        admin("POST", "reset", json={})                      # no failures, no captured requests
        admin("POST", "seed", json={"apple_ids": [TESTER]})

    def test_the_token_endpoint_fails_once_and_the_requests_are_captured(self):
        admin("POST", "failures", json={"kind": "token_server_error", "client_id": BUNDLE_ID, "count": 1})
        form = {"client_id": BUNDLE_ID, "grant_type": "authorization_code", "code": "c.example"}
        self.assertEqual(requests.post(EMULATOR + "/auth/token", data=form, timeout=30).status_code, 503)
        # The count ran out: the next request is checked as usual (no client secret: invalid_client).
        self.assertEqual(requests.post(EMULATOR + "/auth/token", data=form, timeout=30).json()["error"], "invalid_client")
        captured = admin("GET", "requests", params={"client_id": BUNDLE_ID})["requests"]
        self.assertEqual([(r["status"], r["error"]) for r in captured], [(503, "server_error"), (400, "invalid_client")])
        self.assertEqual(captured[0]["grant_type"], "authorization_code")
        self.assertNotIn("c.example", json.dumps(captured))   # codes, tokens and passwords are never kept

    def test_discovery_drifts_and_tokens_lose_their_email(self):
        admin("POST", "failures", json={"kind": "issuer_drift"})
        admin("POST", "failures", json={"kind": "omit_email", "client_id": BUNDLE_ID, "count": 1})
        self.assertEqual(admin("GET", "failures")["failures"][0]["kind"], "issuer_drift")
        discovery = requests.get(EMULATOR + "/.well-known/openid-configuration", timeout=30).json()
        self.assertEqual(discovery["issuer"], "https://account.apple.com")
        signed_in = requests.post(EMULATOR + "/emulator/device/authorize", data={
            "client_id": BUNDLE_ID, "account_name": TESTER["email"], "password": TESTER["password"], "scope": "name email"},
            timeout=30).json()
        token = claims(signed_in["identityToken"])
        self.assertNotEqual(token["iss"], "https://account.apple.com")   # tokens keep their issuer
        self.assertNotIn("email", token)
        admin("DELETE", "failures")
        self.assertEqual(admin("GET", "failures")["failures"], [])


if __name__ == "__main__":
    unittest.main()
