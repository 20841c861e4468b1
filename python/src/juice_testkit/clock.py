"""The emulator's clock (``/emulator/admin/clock``), reached through ``Emulator.clock``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import EmulatorError
from .models import ClockState

if TYPE_CHECKING:
    from .emulator import Emulator


class Clock:
    """The emulator's clock (``/emulator/admin/clock``): every expiry and retry in the emulator follows it."""

    def __init__(self, emulator: Emulator) -> None:
        self._emulator = emulator

    def get(self) -> ClockState:
        return self._state(self._emulator.admin("GET", "clock"))

    def now(self) -> int:
        """The emulator's time, Unix seconds."""
        return self.get().now

    def set(self, unix_seconds: int) -> ClockState:
        """Sets the time (Unix seconds, years 2000…2100)."""
        return self._state(self._emulator.admin("POST", "clock", {"set": unix_seconds}))

    def advance(self, seconds: int) -> ClockState:
        """Moves the time forward by ``seconds`` (0 … ten years): codes expire, notification retries come due."""
        return self._state(self._emulator.admin("POST", "clock", {"advance": seconds}))

    @staticmethod
    def _state(body: Any) -> ClockState:
        if not isinstance(body, Mapping) or not isinstance(body.get("now"), int) or not isinstance(body.get("offset"), int):
            raise EmulatorError("unexpected_answer", f"the clock answered {body!r}", 200, "clock")
        return ClockState(now=body["now"], offset=body["offset"])
