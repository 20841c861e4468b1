import ArgumentParser

/// The sign-in a benchmark drives (`juice bench signin --method`).
enum BenchMethod: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Native Sign in with Apple: nonce, the emulator's device sheet, `POST /api/auth/apple`.
    case apple
    /// `POST /api/auth/password` (bcrypt at the server's cost).
    case password
    /// A passkey: `POST /api/auth/passkey/options`, an ES256 assertion, `POST /api/auth/passkey`.
    case passkey
}
