"""Serves the repository's Flask + Authlib example (Examples/python/flask_authlib/app.py) as it is, for the
conformance kit to judge: Apple's base URL is the kit's, the rest comes from the environment.

    APPLE_URL TEAM_ID KEY_ID TEAM_KEY_FILE CLIENT_ID BUNDLE_ID PORT  python3 serve.py EXAMPLE_DIRECTORY

Prints "listening on PORT" once the server accepts connections.
"""

from __future__ import annotations

import os
import sys

from werkzeug.serving import make_server

sys.path.insert(0, sys.argv[1])
from app import AppleSettings, create_app  # noqa: E402 - the example's module, found by the path above

with open(os.environ["TEAM_KEY_FILE"], encoding="ascii") as key_file:
    private_key_pem = key_file.read()
settings = AppleSettings(
    os.environ["APPLE_URL"], os.environ["TEAM_ID"], os.environ["KEY_ID"], private_key_pem, os.environ["CLIENT_ID"], os.environ["BUNDLE_ID"]
)
server = make_server("127.0.0.1", int(os.environ["PORT"]), create_app(settings), threaded=True)
print(f"listening on {server.server_port}", flush=True)
server.serve_forever()
