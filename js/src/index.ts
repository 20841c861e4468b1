/**
 * juice-testkit: Sign in with Apple in any JavaScript or TypeScript backend's tests, without Swift.
 *
 * Juice's local appleid.apple.com (`Emulator`), a person signing in without a browser (`signIn`,
 * `nativeSignIn`), failure injection and captured requests (`fail`, `requests`), the conformance kit
 * (`Kit`, `conformance`) and helpers for node:test, Mocha, Jest and Vitest (`juice-testkit/node-test`,
 * `/mocha`, `/jest`, `/vitest`), around the `juice` binary this package carries. See
 * docs/testing-with-javascript.md in the Juice repository.
 */

export { CARRIED_PLATFORMS, carriedBinaryPath, currentPlatform, findJuiceBin } from "./binary.js";
export { Clock } from "./clock.js";
export { ConformanceReport, Kit, conformance, type ConformanceCase, type ConformanceOptions, type KitOptions, type KitStartOptions } from "./conformance.js";
export { Emulator, type EmulatorAddress, type EmulatorConfig, type EmulatorOptions, type RequestsFilter, type SeedOptions } from "./emulator.js";
export { ConformanceFailedError, ConformanceRunError, EmulatorError, EmulatorStartError, JuiceError, JuiceNotFoundError } from "./errors.js";
export type { CapturedClientSecret, CapturedRequest, Failure, FailureArguments, FailureHandle, FailureKind, FailureOptionsByKind, RelayDomain } from "./failures.js";
export { useEmulatorWith, type EmulatorFixture, type RunnerHooks } from "./fixture.js";
export { TeamKey, freePort, newTeamKey } from "./keys.js";
export { AppleID, sha256Hex, type AppleIDConfig, type ClockState, type FirstSignInUser, type Issued, type IssuedCode, type IssuedToken, type MailMessage, type NativeCredential, type Notification, type WebSignIn } from "./models.js";
export type { ReadyLine } from "./ready.js";
export type { EmailChoice, NativeSignInOptions, WebSignInOptions } from "./signin.js";
export type { RelayMail } from "./smtp.js";
