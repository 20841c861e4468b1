"""No emulator outlives what started it: not a failing test, not Ctrl-C, not SIGTERM, not SIGKILL."""

from __future__ import annotations

import glob
import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from juice_testkit import ConformanceRunError, Kit, new_team_key, sweep_stale_data

SCRIPT = """
import sys, threading
from juice_testkit import Emulator
emulator = Emulator({}).start()
print(emulator.pid, flush=True)
threading.Event().wait()
"""

# An emulator started by a thread that then ends: PR_SET_PDEATHSIG is per thread, so the package forks
# every child from one thread that lives as long as the process (juice_testkit._process._Spawner).
THREAD_SCRIPT = """
import os, sys, threading
from juice_testkit import Emulator
started = []
worker = threading.Thread(target=lambda: started.append(Emulator({}).start()))
worker.start()
worker.join()
print(started[0].pid, started[0].url, flush=True)
sys.stdin.readline()
os._exit(0)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not count: it has exited and waits to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pid: int, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def default_sigint() -> None:
    """Runs in a child before it starts: Ctrl-C at its default, as in a terminal. A shell without job control
    starts background commands with SIGINT ignored, and a Python started that way never raises
    KeyboardInterrupt, so a test run launched with `&` would otherwise see Ctrl-C ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started_holder(env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    holder = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True, env=env,
                              preexec_fn=default_sigint)
    assert holder.stdout is not None
    readable, _, _ = select.select([holder.stdout], [], [], 60)
    assert readable, "the holder printed nothing within 60 s"
    line = holder.stdout.readline()
    assert line.strip().isdigit(), f"the holder did not start an emulator: {line!r}"
    pid = int(line)
    assert alive(pid)
    return holder, pid


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["ctrl-c", "sigterm", "sigkill"])
def test_the_emulator_goes_with_the_python_process_that_started_it(signum: int) -> None:
    holder, pid = started_holder()
    holder.send_signal(signum)
    holder.wait(timeout=30)
    assert gone_within(pid), f"emulator {pid} outlived its Python process ({signal.Signals(signum).name})"


def test_an_emulator_started_from_another_thread_outlives_the_thread_but_not_the_process() -> None:
    holder = subprocess.Popen([sys.executable, "-c", THREAD_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdin is not None
    readable, _, _ = select.select([holder.stdout], [], [], 60)
    assert readable, "the holder printed nothing within 60 s"
    pid_text, url = holder.stdout.readline().split()
    pid = int(pid_text)
    with urllib.request.urlopen(url + "/.well-known/openid-configuration", timeout=30) as answer:
        assert answer.status == 200  # the thread that started it has ended; the emulator still serves
    holder.stdin.write("exit\n")
    holder.stdin.flush()
    holder.wait(timeout=30)  # os._exit: no atexit, no finally
    assert gone_within(pid), f"emulator {pid} outlived its Python process (os._exit after a thread started it)"


def test_a_killed_test_process_leaves_a_data_folder_the_next_start_removes(tmp_path: Path) -> None:
    # A temporary directory of its own (TMPDIR), so that no other test's start sweeps it first.
    holder, pid = started_holder(dict(os.environ, TMPDIR=str(tmp_path)))
    folders = [f for f in glob.glob(os.path.join(tmp_path, "juice-emulator-*")) if _owned_by(f, holder.pid)]
    assert len(folders) == 1
    holder.kill()
    holder.wait(timeout=30)
    assert gone_within(pid) and os.path.isdir(folders[0])  # SIGKILL: nothing of the test process ran
    assert sweep_stale_data(str(tmp_path)) == folders  # what the next Emulator.start runs
    assert not os.path.exists(folders[0])


def _owned_by(folder: str, pid: int) -> bool:
    try:
        with open(os.path.join(folder, "owner.json"), encoding="utf-8") as owner:
            return bool(json.load(owner)["pid"] == pid)
    except (OSError, ValueError, KeyError):
        return False


PLUGIN_TEST = """
import os, threading
def test_fails(juice_emulator):
    open(os.environ["PID_FILE"], "w").write(str(juice_emulator.pid))
    if os.environ.get("HANG"):
        threading.Event().wait()
    assert False, "a failing test"
"""


def test_a_failing_test_leaves_no_emulator(pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile(PLUGIN_TEST)
    monkeypatch.setenv("PID_FILE", str(tmp_path / "pid"))
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    assert gone_within(int((tmp_path / "pid").read_text()))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_pytest_run_leaves_no_emulator(pytester: pytest.Pytester, tmp_path: Path, signum: int) -> None:
    test_file = pytester.makepyfile(PLUGIN_TEST)
    pid_file = tmp_path / "pid"
    env = dict(os.environ, PID_FILE=str(pid_file), HANG="1")
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)], env=env,
                           preexec_fn=default_sigint,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=pytester.path)
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert run.poll() is None and time.monotonic() < deadline, "pytest did not reach the test"
        time.sleep(0.05)
    pid = int(pid_file.read_text())
    run.send_signal(signum)
    output = run.communicate(timeout=60)[0].decode(errors="replace")
    assert gone_within(pid), "the emulator outlived the interrupted pytest run"
    assert "KeyboardInterrupt" in output and run.returncode == 2, output[-2000:]  # pytest stopped the run, as on Ctrl-C


def test_each_xdist_worker_gets_an_emulator_of_its_own(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile("""
        import os, pytest
        @pytest.mark.parametrize("n", range(4))
        def test_url(juice_emulator, n, worker_id):
            with open(os.path.join(os.environ["OUT_DIR"], f"{worker_id}-{n}"), "w") as out:
                out.write(juice_emulator.url)
    """)
    out = pytester.mkdir("out")
    monkeypatch.setenv("OUT_DIR", str(out))
    result = pytester.runpytest_subprocess("-n", "2")
    result.assert_outcomes(passed=4)
    by_worker: dict[str, set[str]] = {}
    for path in out.iterdir():
        by_worker.setdefault(path.name.split("-")[0], set()).add(path.read_text())
    assert len(by_worker) == 2 and all(len(urls) == 1 for urls in by_worker.values())
    [first], [second] = by_worker.values()
    assert first != second


def test_the_kit_cannot_run_against_an_unreachable_backend(tmp_path: Path) -> None:
    team = new_team_key("TEAMKIT002", str(tmp_path))
    kit = Kit(report_dir=str(tmp_path / "reports"))
    with pytest.raises(ConformanceRunError) as failed:
        kit.run(backend="http://127.0.0.1:9", team_id=team.team_id, key_id=team.key_id, team_key=team.path,
                client_id="com.example.web", redirect_uri="http://127.0.0.1:9/callback")
    assert failed.value.exit_status == 2 and "127.0.0.1:9" in failed.value.reason
