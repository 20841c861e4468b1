"""Team keys as the developer portal gives them (a .p8), made by ``juice emulator new-key``."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
from dataclasses import dataclass, field

from ._binary import find_juice_bin
from .errors import JuiceError

_TEAM_ID = re.compile(r"^[A-Z0-9]{10}$")


@dataclass(frozen=True)
class TeamKey:
    """A Sign in with Apple key: its team, key id, the .p8 file (mode 0600) and the public PEM for the emulator."""

    team_id: str
    key_id: str
    path: str
    public_key_pem: str = field(repr=False)

    @property
    def private_key_pem(self) -> str:
        """The .p8's PEM, for a backend's configuration (never printed by ``repr``)."""
        with open(self.path, encoding="utf-8") as file:
            return file.read()

    def config(self) -> dict[str, object]:
        """The ``teams[]`` entry of an emulator configuration."""
        return {"team_id": self.team_id, "keys": [{"key_id": self.key_id, "public_key_pem": self.public_key_pem}]}


def new_team_key(team_id: str, directory: str, *, juice_bin: str | None = None) -> TeamKey:
    """Creates ``AuthKey_<KEYID>.p8`` in ``directory`` for ``team_id`` (10 uppercase letters or digits)."""
    if not _TEAM_ID.match(team_id):
        raise ValueError(f"team_id must be 10 uppercase letters or digits, not {team_id!r}")
    staging = os.path.join(directory, f"AuthKey_{team_id}.new.p8")
    result = subprocess.run(
        [juice_bin or find_juice_bin(), "emulator", "new-key", "--team-id", team_id, "--out", staging],
        capture_output=True, text=True, timeout=60, check=False,
    )
    if result.returncode != 0:
        raise JuiceError(f"juice emulator new-key failed: {result.stderr.strip()[:500]}")
    match = re.search(r"^Key ID:\s+(\S+)$", result.stdout, re.MULTILINE)
    start = result.stdout.find("{")
    if not match or start < 0:
        raise JuiceError("juice emulator new-key printed no key id")
    entry = json.loads(result.stdout[start:])
    path = os.path.join(directory, f"AuthKey_{match.group(1)}.p8")
    os.replace(staging, path)
    return TeamKey(team_id=team_id, key_id=match.group(1), path=path, public_key_pem=entry["public_key_pem"])


def free_port(host: str = "127.0.0.1") -> int:
    """A port free right now on ``host`` (for a server that must be told its port before it starts, like the kit)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])
