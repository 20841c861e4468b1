"""Finding the juice executable the wheel installed (as ruff's ``find_ruff_bin``)."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from .errors import JuiceNotFoundError


def find_juice_bin() -> str:
    """The path of the ``juice`` executable.

    In order: ``$JUICE_BIN`` (a build of your own), the scripts directory of the environment this
    package is installed in (where the wheel puts it), then ``juice`` on ``PATH``.
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
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    on_path = shutil.which("juice")
    if on_path:
        return on_path
    raise JuiceNotFoundError(
        "the juice executable was not found (looked at " + ", ".join(candidates) + " and PATH); "
        "install the juice-testkit wheel for this platform or set JUICE_BIN"
    )


def _schemes() -> list[str]:
    schemes = [sysconfig.get_default_scheme()]
    user = "posix_user" if os.name == "posix" else "nt_user"
    if user not in schemes:
        schemes.append(user)
    return schemes
