"""Values a traceback must never show: passwords, client secrets, the admin token, request bodies.

pytest prints each frame's arguments (``--tb=long``) and locals (``--showlocals``) with ``repr``, so
the package passes such values between its own functions inside ``Hidden``, whose ``repr`` names
the value's kind and nothing else; only the code that sends the value opens it (``reveal()``).
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Hidden(Generic[T]):
    """A value kept out of ``repr``, ``str`` and tracebacks: ``Hidden(token, "admin token")``."""

    __slots__ = ("_kind", "_value")

    def __init__(self, value: T, kind: str = "value") -> None:
        self._value = value
        self._kind = kind

    def reveal(self) -> T:
        return self._value

    def __repr__(self) -> str:
        return f"<hidden {self._kind}>"

    __str__ = __repr__
