import JuiceEncodings

/// Where the client draws random bytes (the request `state`): the system's secure generator, or in
/// tests a deterministic one.
///
/// ```swift
/// let random = RandomSource { count in Array(repeating: 7, count: count) } // tests only
/// ```
public struct RandomSource: Sendable {
    private let fill: @Sendable (Int) -> [UInt8]

    /// A source returning `fill(count)` for `count` bytes.
    public init(_ fill: @escaping @Sendable (Int) -> [UInt8]) {
        self.fill = fill
    }

    /// The system's cryptographically secure generator.
    public static let system = RandomSource { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] { fill(count) }

    /// 32 random bytes as base64url without padding: an unguessable `state`.
    public func token() -> String { Base64URL.encode(bytes(32)) }
}
