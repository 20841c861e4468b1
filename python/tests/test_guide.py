"""docs/testing-with-python.md as a user meets it: its Python code blocks run as written, and every
public name of the package is in its tables.

Each ```python block whose first line is ``# <file>.py`` is written to that file and pytest runs them
(with ``-p xdist`` off, in a subprocess). The guide's blocks use four fixtures that a user's own
conftest.py provides; here a small backend on the standard library stands in for the user's
(``BACKEND``, appended to the guide's conftest.py): it starts a web sign-in, keeps its ``state`` on the
server and consumes it once, redeems the code with a client secret made by ``juice client-secret``, and
answers 502 when Apple fails."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import juice_testkit

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "testing-with-python.md"

BACKEND = '''

# --- the stand-in for the user's backend (python/tests/test_guide.py) ---------------------------------
import base64 as _base64, http.server as _http_server, json as _json, secrets as _secrets, subprocess as _subprocess
import threading as _threading, urllib.error as _urlerror, urllib.parse as _parse, urllib.request as _request
import requests as _requests
from juice_testkit import find_juice_bin as _find_juice_bin


class _Backend:
    def __init__(self, team_key):
        self.apple_url = ""
        self.team_key = team_key
        self.states = set()
        self.sessions = {}
        backend = self

        class Handler(_http_server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path.startswith("/login") and backend.apple_url:
                    state = _secrets.token_urlsafe(16)
                    backend.states.add(state)
                    query = _parse.urlencode({"client_id": CLIENT_ID, "redirect_uri": backend.url + "/auth/apple/callback",
                                              "response_type": "code", "response_mode": "form_post", "scope": "name email",
                                              "state": state})
                    return self.answer(302, headers=[("Location", backend.apple_url + "/auth/authorize?" + query)])
                return self.answer(503)

            def do_POST(self):
                form = dict(_parse.parse_qsl(self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()))
                if self.path != "/auth/apple/callback" or form.get("state") not in backend.states:
                    return self.answer(400)
                backend.states.discard(form["state"])
                secret = _subprocess.run([_find_juice_bin(), "client-secret", "--team-id", backend.team_key.team_id, "--key-id",
                                          backend.team_key.key_id, "--key", backend.team_key.path, "--client-id", CLIENT_ID],
                                         capture_output=True, text=True, check=True).stdout.split()[-1]
                body = _parse.urlencode({"client_id": CLIENT_ID, "client_secret": secret, "code": form.get("code", ""),
                                         "grant_type": "authorization_code",
                                         "redirect_uri": backend.url + "/auth/apple/callback"}).encode()
                try:
                    with _request.urlopen(_request.Request(backend.apple_url + "/auth/token", data=body), timeout=30) as token:
                        id_token = _json.load(token)["id_token"]
                except (_urlerror.HTTPError, ValueError, KeyError):
                    return self.answer(502)
                payload = id_token.split(".")[1]
                claims = _json.loads(_base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
                return self.answer(200, _json.dumps({"email": claims.get("email")}).encode(),
                                   [("Content-Type", "application/json")])

        self._server = _http_server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        _threading.Thread(target=self._server.serve_forever, daemon=True).start()


@pytest.fixture(scope="session")
def backend_server(team_key):
    server = _Backend(team_key)
    yield server
    server._server.shutdown()


@pytest.fixture(scope="session")
def backend_url(backend_server):
    return backend_server.url


@pytest.fixture
def backend(backend_server, juice_emulator):
    backend_server.apple_url = juice_emulator.url
    return backend_server.url


@pytest.fixture
def browser():
    with _requests.Session() as session:
        yield session
'''


def blocks() -> list[tuple[str, str]]:
    """The guide's Python blocks that name their file: ``(file name, code)``."""
    found = []
    for code in re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL):
        named = re.match(r"# (\w+\.py)\b", code)
        if named:
            found.append((named.group(1), code))
    return found


def test_the_guides_code_blocks_run_as_written(pytester: pytest.Pytester) -> None:
    written = dict(blocks())
    assert {"conftest.py", "test_sign_in.py", "test_apple_failures.py", "test_conformance.py"} <= set(written)
    for name, code in written.items():
        (pytester.path / name).write_text(code + (BACKEND if name == "conftest.py" else ""), encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "no:xdist", "-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=4)


def public_names() -> set[str]:
    """Every name the package exports, and every public method, property and field of its classes."""
    names = set(juice_testkit.__all__) - {"__version__"} | {"__version__"}
    for exported in juice_testkit.__all__:
        value = getattr(juice_testkit, exported)
        if inspect.isclass(value) and not issubclass(value, BaseException) and not issubclass(value, str):
            names |= {name for name in vars(value) if not name.startswith("_") and name not in ("from_json",)}
            names |= set(getattr(value, "__dataclass_fields__", {})) - {"_emulator"}
    return names


def test_every_public_name_is_in_the_guides_tables() -> None:
    rows = "\n".join(line for line in GUIDE.read_text(encoding="utf-8").splitlines() if line.startswith("|") or line.startswith("**"))
    missing = sorted(name for name in public_names() if not re.search(rf"`[^`]*\b{re.escape(name)}\b[^`]*`", rows))
    assert missing == [], f"public names the guide's tables do not mention: {missing}"
