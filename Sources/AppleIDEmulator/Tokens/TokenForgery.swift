import Crypto
import CryptoExtras
import JuiceEncodings
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one hook for tokens Apple would never mint: the conformance kit's hostile cases (a forged
/// signature, `alg: none`, HS256 keyed with Apple's public key, a key Apple never published, another
/// audience, an expired token, …).
///
/// A forgery changes a token's claims (``alter``) and how it is signed (``signature``). It applies to a
/// token the engine already minted (``AppleEngine/forge(_:with:)``, the form_post token a case delivers) or,
/// installed for a client id (``AppleEngine/forgeTokens(clientID:with:)``), to every identity token the
/// token endpoint mints for that client until it is removed. Nothing reaches it over HTTP: the fixture API
/// stages only what Apple does.
package struct TokenForgery: Sendable {
    /// How the forged token is signed.
    package enum Signature: Sendable, Hashable {
        /// RS256 by Apple's active key, as Apple signs.
        case apple
        /// A genuine RS256 signature by Apple's active key, over other content: it never verifies.
        case corrupted
        /// `alg: none` and an empty signature.
        case none
        /// `alg: HS256`, keyed with the PEM of Apple's active public key.
        case hs256WithPublicKey
        /// RS256 by a fresh key that is not, and never will be, in Apple's key set.
        case unpublishedKey
    }

    /// How the token is signed.
    package var signature: Signature
    /// Changes the claims before signing.
    package var alter: @Sendable (inout [String: JSONValue]) -> Void

    /// A forgery signing as `signature`, its claims changed by `alter` (default: unchanged).
    package init(signature: Signature = .apple, alter: @escaping @Sendable (inout [String: JSONValue]) -> Void = { _ in }) {
        self.signature = signature
        self.alter = alter
    }

    /// `claims` altered and signed as ``signature`` says.
    func sign(_ claims: [String: JSONValue], keys: SigningKeyRing, random: EmulatorRandom) async throws -> String {
        var claims = claims
        alter(&claims)
        let key = try await keys.activeKey()
        switch signature {
        case .apple:
            return try JWSSigner.sign(claims, keyID: key.keyID, privateKey: key.privateKey)
        case .corrupted:
            let token = try JWSSigner.sign(claims, keyID: key.keyID, privateKey: key.privateKey)
            var other = claims
            other["jti"] = .string(random.hex(bytes: 16))
            let foreign = try JWSSigner.sign(other, keyID: key.keyID, privateKey: key.privateKey)
            return Self.parts(token).prefix(2).joined(separator: ".") + "." + (Self.parts(foreign).last ?? "")
        case .none:
            return try Self.unsigned(claims, header: ["alg": "none", "kid": key.keyID]) + "."
        case .hs256WithPublicKey:
            let input = try Self.unsigned(claims, header: ["alg": "HS256", "kid": key.keyID])
            let secret = SymmetricKey(data: Data(key.privateKey.publicKey.pemRepresentation.utf8))
            return input + "." + Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)))
        case .unpublishedKey:
            let stranger = try random.signingKey()
            return try JWSSigner.sign(claims, keyID: "X" + random.hex(bytes: 3), privateKey: stranger)
        }
    }

    /// The claims of a compact JWS, or `nil` when its payload is not a JSON object.
    static func claims(of token: String) -> [String: JSONValue]? {
        let parts = parts(token)
        guard parts.count == 3, let bytes = Base64URL.decode(ArraySlice(parts[1].utf8)),
            case .object(let claims) = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        else { return nil }
        return claims
    }

    private static func parts(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    private static func unsigned(_ claims: [String: JSONValue], header: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
    }
}

/// The forgeries installed for the token endpoint's identity tokens, by client id.
final class TokenForgeries: Sendable {
    private let installed = Mutex<[String: TokenForgery]>([:])
    private let random: EmulatorRandom

    init(random: EmulatorRandom) {
        self.random = random
    }

    /// `claims` (an identity token's or a notification's) forged by `forgery`.
    func sign(_ claims: some Encodable, with forgery: TokenForgery, keys: SigningKeyRing) async throws -> String {
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(claims)) else {
            throw EmulatorInternalError("the claims are not a JSON object")
        }
        return try await forgery.sign(object, keys: keys, random: random)
    }

    /// Installs `forgery` for `clientID` (`nil`: removes it).
    func set(_ forgery: TokenForgery?, clientID: String) {
        installed.withLock { $0[clientID] = forgery }
    }

    /// The forgery for `clientID`, if one is installed.
    func forgery(clientID: String) -> TokenForgery? {
        installed.withLock { $0[clientID] }
    }

    /// Removes every forgery.
    func removeAll() {
        installed.withLock { $0.removeAll() }
    }
}
