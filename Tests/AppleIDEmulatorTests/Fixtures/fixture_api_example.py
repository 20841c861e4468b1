"""A Sign in with Apple test that resets, seeds and drives the Apple ID emulator between test cases.

The example of docs/emulator.md ("Test fixtures"); FixtureAPIExampleTests runs it against a real emulator.
Against your own: start `juice emulator --config emulator.json` (with the app below), then
    EMULATOR_URL=http://127.0.0.1:8081 ADMIN_TOKEN=... python3 fixture_api_example.py
"""
import hashlib
import os
import unittest
from urllib.parse import parse_qs, urlsplit

import requests

EMULATOR = os.environ.get("EMULATOR_URL", "http://127.0.0.1:8081")
ADMIN = {"Authorization": "Bearer " + os.environ.get("ADMIN_TOKEN", ""), "Content-Type": "application/json"}
BUNDLE_ID = "com.example.app"
CLIENT_ID = "com.example.app.web"
REDIRECT_URI = "https://app.example.com/auth/apple/callback"
TESTER = {"email": "tester@example.net", "password": "tester-password", "first_name": "Tess", "last_name": "Tester"}


def admin(method, path, **kwargs):
    """Calls the fixture API; a refusal fails the test with the emulator's reason."""
    response = requests.request(method, EMULATOR + "/emulator/admin/" + path, headers=ADMIN, timeout=30, **kwargs)
    assert response.ok, f"{method} {path}: {response.status_code} {response.text}"
    return response.json()


def sign_in(account):
    """One POST completes a web sign-in; response_mode=query (no scopes, as at Apple) redirects with the code."""
    return requests.post(EMULATOR + "/auth/authorize", data={
        "client_id": CLIENT_ID, "redirect_uri": REDIRECT_URI, "response_type": "code", "response_mode": "query",
        "state": "state-1", "account_name": account["email"], "password": account["password"], "action": "continue"},
        allow_redirects=False, timeout=30)


class SignInWithAppleFixtureTest(unittest.TestCase):
    def setUp(self):
        admin("POST", "reset", json={})                      # the configured state, the clock back to now
        admin("POST", "seed", json={"apple_ids": [TESTER]})  # this test's own Apple ID

    def test_the_code_is_listed_and_expires_when_the_clock_moves(self):
        answer = sign_in(TESTER)
        self.assertEqual(answer.status_code, 302, answer.text)
        code = parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]
        issued = admin("GET", "issued", params={"bundle_id": BUNDLE_ID})
        [listed] = [c for c in issued["codes"] if c["digest"] == hashlib.sha256(code.encode()).hexdigest()]
        self.assertEqual(listed["apple_id"], TESTER["email"])
        self.assertIsNone(listed.get("used_at"))  # absent until the code is exchanged
        now = admin("POST", "clock", json={"advance": 301})["now"]  # a code lives five minutes
        self.assertGreater(now, listed["expires_at"])

    def test_a_reset_forgets_what_was_seeded(self):
        self.assertEqual(sign_in(TESTER).status_code, 302)
        admin("POST", "reset", json={})
        self.assertEqual(sign_in(TESTER).status_code, 401)  # the sign-in page again: no such Apple ID
        self.assertEqual(admin("GET", "clock")["offset"], 0)


if __name__ == "__main__":
    unittest.main()
