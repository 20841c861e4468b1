"""``python -m juice_testkit …``: runs the wheel's own ``juice`` with the arguments given.

>>> # python -m juice_testkit emulator --port 0 --config emulator.json --ready-json
"""

from __future__ import annotations

import os
import subprocess
import sys

from ._binary import find_juice_bin
from .errors import JuiceNotFoundError


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    try:
        binary = find_juice_bin()
    except JuiceNotFoundError as error:
        print(f"juice_testkit: {error}", file=sys.stderr)
        return 127
    if os.name == "posix" and argv is None:
        os.execv(binary, [binary, *arguments])  # the process becomes juice: signals and exit status are its own
    return subprocess.call([binary, *arguments])


if __name__ == "__main__":
    sys.exit(main())
