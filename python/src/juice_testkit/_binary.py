"""Finding the juice executable the wheel installed (as ruff's ``find_ruff_bin``), of this package's version."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig

from ._version import __version__
from .errors import JuiceNotFoundError


def find_juice_bin() -> str:
    """The path of the ``juice`` executable.

    In order: ``$JUICE_BIN`` (a build of your own, used as it is), the scripts directory of the
    environment this package is installed in (where the wheel puts it), then ``juice`` on ``PATH``.
    A ``juice`` found (not named by ``$JUICE_BIN``) must print this package's version
    (``juice --version``); another version raises ``JuiceNotFoundError`` saying both.
    """
    override = os.environ.get("JUICE_BIN")
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise JuiceNotFoundError(f"JUICE_BIN={override!r} is not an executable file")
    candidates = []
    for scheme in _schemes():
        try:
            candidates.append(os.path.join(sysconfig.get_path("scripts", scheme), "juice"))
        except KeyError:
            continue
    candidates.append(os.path.join(os.path.dirname(sys.executable), "juice"))
    found = next((path for path in candidates if os.path.isfile(path) and os.access(path, os.X_OK)), None) or shutil.which("juice")
    if not found:
        raise JuiceNotFoundError(
            "the juice executable was not found (looked at " + ", ".join(candidates) + " and PATH); "
            "install the juice-testkit wheel for this platform or set JUICE_BIN"
        )
    stat = os.stat(found)
    version = _version_of(found, stat.st_mtime_ns, stat.st_size)
    if version != __version__:
        raise JuiceNotFoundError(
            f"{found} is juice {version or '(no version: it printed none)'}, but juice_testkit is {__version__}: "
            f"install the juice-testkit wheel of the same version, or set JUICE_BIN={found} to use it anyway"
        )
    return found


@functools.lru_cache(maxsize=8)
def _version_of(path: str, mtime_ns: int, size: int) -> str | None:
    """What ``juice --version`` prints (once per file and modification: a start runs it at most once)."""
    try:
        result = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = result.stdout.strip()
    return text if result.returncode == 0 and text and len(text) < 64 and "\n" not in text else None


def _schemes() -> list[str]:
    schemes = [sysconfig.get_default_scheme()]
    user = "posix_user" if os.name == "posix" else "nt_user"
    if user not in schemes:
        schemes.append(user)
    return schemes
