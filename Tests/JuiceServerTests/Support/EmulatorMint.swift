import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging

@testable import AppleIDEmulator

/// Signs arbitrary claims with the running emulator's active key, exactly as Apple's key signs: the
/// way to prove that a correctly signed but hostile token or notification is refused.
enum EmulatorMint {
    /// Any JSON value, so a test can put `1e22`, `"1e300"` or `[1]` where a number belongs.
    enum Value: Encodable, Sendable {
        case number(Double)
        case integer(Int)
        case string(String)
        case bool(Bool)
        case array([Value])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .array(let values): try container.encode(values)
            }
        }
    }

    /// A compact JWS of `claims` signed with the emulator's active key.
    static func sign(_ stack: JuiceStack, _ claims: [String: Value]) async throws -> String {
        let store = try await EmulatorStore.open(
            directory: stack.environment.directory.appendingPathComponent("emulator"), logger: Logger(label: "juice-test-mint"))
        do {
            let key = try await SigningKeyRing(store: store, time: stack.clock.emulatorTime, random: .system, gracePeriod: 86_400).activeKey()
            let token = try JWSSigner.sign(claims, keyID: key.keyID, privateKey: key.privateKey)
            await store.close()
            return token
        } catch {
            await store.close()
            throw error
        }
    }

    /// Identity-token claims for `audience` as the emulator would mint them, now; tests then spoil one.
    static func identityClaims(_ stack: JuiceStack, audience: String, subject: String) -> [String: Value] {
        let now = Int(stack.clock.now.timeIntervalSince1970)
        return [
            "iss": .string(stack.emulatorURL), "aud": .string(audience), "sub": .string(subject), "iat": .integer(now),
            "exp": .integer(now + 600), "auth_time": .integer(now), "email": .string("hostile@privaterelay.appleid.com"),
            "email_verified": .bool(true), "is_private_email": .bool(true),
        ]
    }
}
