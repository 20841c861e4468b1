import JuiceEncodings

/// A client secret that cannot be made as asked: a ``Code`` and a reason.
public struct ClientSecretError: CodedError {
    /// A stable identifier for the problem, e.g. `"lifetime_too_long"`; the set is closed.
    public typealias Code = ErrorCode<ClientSecretError>

    /// What is wrong.
    public let code: Code
    /// What is wrong, for a person; never key material.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

}

extension ErrorCode<ClientSecretError> {
    /// The lifetime asked for is over Apple's six months (15,777,000 s).
    public static var lifetimeTooLong: Self { Self("lifetime_too_long") }
    /// The lifetime asked for is 60 s or less.
    public static var lifetimeTooShort: Self { Self("lifetime_too_short") }
    /// The team key could not sign.
    public static var signingFailed: Self { Self("signing_failed") }
}
