"""juice_testkit: Sign in with Apple in any backend's test suite, without Swift.

Juice's local appleid.apple.com (``Emulator``), a person signing in without a browser
(``Emulator.sign_in``, ``Emulator.native_sign_in``), Apple failing on demand (``Emulator.fail``) and
what the backend sent (``Emulator.requests``), the conformance kit (``conformance``, ``Kit``) and a
pytest plugin (``juice_emulator``, ``juice_conformance``), around the ``juice`` binary this wheel
carries. See docs/testing-with-python.md in the Juice repository.
"""

from ._binary import find_juice_bin
from ._version import __version__
from .capture import ANY, CapturedClientSecret, CapturedRequest, CapturedRequests
from .clock import Clock
from .conformance import ConformanceCase, ConformanceReport, Kit, conformance
from .emulator import Emulator, default_key_cache, sweep_stale_data
from .errors import ConformanceRunError, EmulatorError, EmulatorStartError, JuiceError, JuiceNotFoundError
from .failures import FailureKind, InjectedFailure
from .keys import TeamKey, free_port, new_team_key
from .models import (
    AppleID,
    ClockState,
    Issued,
    IssuedCode,
    IssuedToken,
    MailMessage,
    NativeCredential,
    Notification,
    WebSignIn,
    sha256_hex,
)

__all__ = [
    "ANY",
    "AppleID",
    "CapturedClientSecret",
    "CapturedRequest",
    "CapturedRequests",
    "Clock",
    "ClockState",
    "ConformanceCase",
    "ConformanceReport",
    "ConformanceRunError",
    "Emulator",
    "EmulatorError",
    "EmulatorStartError",
    "FailureKind",
    "InjectedFailure",
    "Issued",
    "IssuedCode",
    "IssuedToken",
    "JuiceError",
    "JuiceNotFoundError",
    "Kit",
    "MailMessage",
    "NativeCredential",
    "Notification",
    "TeamKey",
    "WebSignIn",
    "__version__",
    "conformance",
    "default_key_cache",
    "find_juice_bin",
    "free_port",
    "new_team_key",
    "sha256_hex",
    "sweep_stale_data",
]
