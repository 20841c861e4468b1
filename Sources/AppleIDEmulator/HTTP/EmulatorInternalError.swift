/// A failure of the emulator itself (storage, keys): answered as `server_error`, never with details.
struct EmulatorInternalError: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
