"""Juice's emulator against the peer oidc-provider-mock, side by side in one run: start, reset, a web sign-in, memory.

    python3 python/benchmarks/startup.py [--rounds 5] [--sign-ins 20]       # JUICE_BIN=dist/juice to pick a binary

The figures in docs/testing-with-python.md ("Start time"). Each round measures, in turn:

- ``Emulator(config).start()`` on a new data folder without a key cache (the emulator generates its
  active RSA-2048 key before its ready line, its standby key right after), and with a warm key cache
  (``key_cache=``: both keys read from the cache file), to the moment ``start()`` returns;
- ``oidc_provider_mock.run_server_in_thread()`` to the moment its server is up (when the peer is
  installed: ``pip install oidc-provider-mock==0.4.8``, Python 3.12 or newer): a thread of the test
  process, its modules already imported; and the peer as a process of its own, as Juice's emulator runs
  (``python -m oidc_provider_mock --port P``, to its first HTTP answer: it prints no ready line, so its
  discovery document is asked for every 5 ms);
- ``reset()`` (the peer has none: a restart, stop and start);
- a complete web sign-in: the person's authorize POST, then the backend's code redemption at the token
  endpoint (Juice: ``Emulator.sign_in`` and ``POST /auth/token`` with an ES256 client secret; the peer:
  ``POST /oauth2/authorize`` with a ``sub``, then ``POST /oauth2/token``), over one HTTP session each;

then reports the median over rounds of each round's median, and the emulator's peak memory (VmHWM).
A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests

from juice_testkit import AppleID, Emulator, find_juice_bin, new_team_key

try:
    import oidc_provider_mock
except ImportError:  # the peer is optional: Juice's figures alone
    oidc_provider_mock = None

CLIENT_ID = "com.example.bench.web"
REDIRECT_URI = "http://127.0.0.1:9/callback"
ALICE = AppleID("alice@example.org", "alice's password", "Alice", "Appleseed")


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action()
    return (time.perf_counter() - started) * 1000, result


def median_of(count: int, action: Callable[[], Any]) -> float:
    return statistics.median(timed(action)[0] for _ in range(count))


@contextlib.contextmanager
def juice_setup() -> Iterator[tuple[dict[str, Any], str]]:
    with tempfile.TemporaryDirectory(prefix="juice-bench-") as directory:
        key = new_team_key("BENCH12345", directory)
        config = {
            "teams": [key.config()], "apple_ids": [ALICE.config()],
            "apps": [{"team_id": key.team_id, "bundle_id": "com.example.bench", "services_ids": [CLIENT_ID],
                      "redirect_uris": [REDIRECT_URI], "allow_local_redirects": True}],
        }
        secret = subprocess.run(
            [find_juice_bin(), "client-secret", "--team-id", key.team_id, "--key-id", key.key_id, "--key", key.path,
             "--client-id", CLIENT_ID], capture_output=True, text=True, check=True, timeout=60,
        ).stdout.split()[-1]
        yield config, secret


def juice_sign_in(apple: Emulator, session: requests.Session, secret: str) -> None:
    url = (f"{apple.url}/auth/authorize?client_id={CLIENT_ID}&redirect_uri={REDIRECT_URI}&response_type=code"
           "&response_mode=form_post&scope=name%20email&state=s")
    code = apple.sign_in(url, ALICE).code
    answer = session.post(apple.url + "/auth/token", data={
        "client_id": CLIENT_ID, "client_secret": secret, "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI})
    assert answer.status_code == 200, answer.text


def peer_sign_in(base: str, session: requests.Session) -> None:
    query = {"client_id": "bench", "redirect_uri": REDIRECT_URI, "response_type": "code", "scope": "openid email", "state": "s"}
    answer = session.post(base + "/oauth2/authorize", params=query, data={"sub": ALICE.email}, allow_redirects=False)
    code = parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]
    token = session.post(base + "/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI, "client_id": "bench", "client_secret": "s"})
    assert token.status_code == 200, token.text


def peer_process_start() -> float:
    import sys

    from juice_testkit import free_port

    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "oidc_provider_mock", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if requests.get(f"http://127.0.0.1:{port}/.well-known/openid-configuration", timeout=5).status_code == 200:
                    return (time.perf_counter() - started) * 1000
            except requests.ConnectionError:
                time.sleep(0.005)
    finally:
        process.terminate()
        process.wait(timeout=30)


def peak_memory_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def one_round(config: dict[str, Any], secret: str, cache: str, sign_ins: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    cold = Emulator(config)
    figures["juice start, no key cache"], _ = timed(cold.start)
    cold.close()
    warm = Emulator(config, key_cache=cache)
    figures["juice start, key cache"], _ = timed(warm.start)
    try:
        figures["juice reset()"] = median_of(sign_ins, warm.reset)
        with requests.Session() as session:
            figures["juice web sign-in"] = median_of(sign_ins, lambda: juice_sign_in(warm, session, secret))
        figures["juice peak memory (MiB)"] = peak_memory_mib(warm.pid or 0)
    finally:
        warm.close()
    if oidc_provider_mock is not None:
        figures["peer start, own process"] = peer_process_start()
        server = oidc_provider_mock.run_server_in_thread()
        figures["peer start, in-thread"], running = timed(server.__enter__)
        try:
            base = f"http://127.0.0.1:{running.server_port}"
            with requests.Session() as session:
                figures["peer web sign-in"] = median_of(sign_ins, lambda: peer_sign_in(base, session))
        finally:
            fresh = oidc_provider_mock.run_server_in_thread()
            figures["peer restart (its reset)"], _ = timed(lambda: (server.__exit__(None, None, None), fresh.__enter__()))
            fresh.__exit__(None, None, None)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, choices=range(1, 101), metavar="1..100")
    parser.add_argument("--sign-ins", type=int, default=20, choices=range(1, 1001), metavar="1..1000")
    options = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the peer's server logs every request otherwise
    with juice_setup() as (config, secret), tempfile.TemporaryDirectory(prefix="juice-bench-keys-") as cache:
        Emulator(config, key_cache=cache).start().close()  # fills the cache, as a first run would
        rounds = [one_round(config, secret, cache, options.sign_ins) for _ in range(options.rounds)]
    print(f"{options.rounds} rounds, medians ({find_juice_bin()}; peer: "
          f"{'oidc-provider-mock ' + version_of_peer() if oidc_provider_mock else 'not installed'})")
    for name in rounds[0]:
        values = [r[name] for r in rounds]
        unit = "" if "MiB" in name else " ms"
        print(f"  {name:28} {statistics.median(values):8.1f}{unit}   (min {min(values):.1f}, max {max(values):.1f})")


def version_of_peer() -> str:
    from importlib.metadata import version

    return version("oidc-provider-mock")


if __name__ == "__main__":
    main()
