import JuiceEncodings

/// Apple's key set (JWKS) could not be fetched or used.
///
/// An ``AppleKeySource`` of your own throws it with the code that fits; ``AppleKeySet`` keeps serving the
/// last good keys while a refresh fails.
public struct KeySetError: CodedError {
    /// What kind of failure.
    public typealias Code = ErrorCode<KeySetError>

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for humans.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }
}

extension ErrorCode<KeySetError> {
    /// The key endpoint answered something other than 200, or could not be reached.
    public static var unavailable: Self { Self("unavailable") }
    /// The document is not a JSON object with a `keys` array.
    public static var malformed: Self { Self("malformed") }
    /// The document holds no RSA key for RS256 signatures.
    public static var noUsableKey: Self { Self("no_usable_key") }
}
