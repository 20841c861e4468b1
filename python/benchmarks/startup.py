"""Time from starting ``juice emulator`` to its answering HTTP: the figure in docs/testing-with-python.md.

    python3 python/benchmarks/startup.py [--juice dist/juice] [--runs 20]

Each run starts a fresh emulator (new data directory, so it creates its SQLite store and two RSA-2048
signing keys, as a test session's does), reads its ``--ready-json`` line, then asks
``/.well-known/openid-configuration`` once; it reports the time to the ready line and to that answer
(median, min, max), then stops the emulator. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request


def one_run(juice: str) -> tuple[float, float]:
    directory = tempfile.mkdtemp(prefix="juice-startup-")
    try:
        config = os.path.join(directory, "emulator.json")
        with open(config, "w", encoding="utf-8") as file:
            json.dump({"teams": [], "apps": [], "apple_ids": []}, file)
        started = time.perf_counter()
        process = subprocess.Popen(
            [juice, "emulator", "--port", "0", "--ready-json", "--config", config, "--data-dir", os.path.join(directory, "data")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        try:
            assert process.stdout is not None
            for line in process.stdout:
                if line.startswith('{"'):
                    ready = time.perf_counter() - started
                    url = json.loads(line)["url"]
                    break
            else:
                raise RuntimeError("the emulator exited before it was ready")
            with urllib.request.urlopen(url + "/.well-known/openid-configuration", timeout=30) as answer:
                answer.read()
            answered = time.perf_counter() - started
        finally:
            process.terminate()
            process.wait(timeout=30)
        return ready, answered
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--juice", default=shutil.which("juice") or "dist/juice")
    parser.add_argument("--runs", type=int, default=20, choices=range(1, 1001), metavar="1..1000")
    options = parser.parse_args()
    runs = [one_run(options.juice) for _ in range(options.runs)]
    for name, values in (("ready line", [r for r, _ in runs]), ("first HTTP answer", [a for _, a in runs])):
        print(f"{name:18} median {statistics.median(values) * 1000:7.1f} ms   min {min(values) * 1000:7.1f} ms"
              f"   max {max(values) * 1000:7.1f} ms   ({len(values)} runs, {options.juice})")


if __name__ == "__main__":
    main()
