/// A child that could not be started: why, in words (never an argument or the environment, which may hold a secret).
package struct SpawnError: Error, Sendable, CustomStringConvertible {
    package let reason: String
    package var description: String { reason }
}
