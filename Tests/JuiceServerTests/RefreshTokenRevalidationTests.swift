import Foundation
import JuiceTestSupport
import SQLKit
import Testing

@testable import AppleIDEmulator
@testable import JuiceServer

@Suite("The daily refresh-token check (RefreshTokenRevalidation) with an injected clock")
struct RefreshTokenRevalidationTests {
    @Test("each token is validated at most once a day; Apple's invalid_grant revokes the Apple ID and ends its sessions", arguments: TestDatabase.all)
    func daily(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { made in
            var environment = made
            environment.notifications = .none  // only the check can notice the revocation
            let clock = TestClock()
            try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let (token, _, credential) = try await NativeFlow.signIn(stack)
                let check = { @Sendable in try await stack.withDependencies { try await $0.refreshTokenCheck.checkDue(logger: StackServices.logger) }
                }

                #expect(try await check() == .init(valid: 0, revoked: 0, failed: 0), "just obtained at sign-in: not due")
                clock.advance(by: 86_000)
                #expect(try await check().valid == 0, "not yet a day")
                clock.advance(by: 500)
                #expect(try await check().valid == 1, "a day later: validated at Apple")
                #expect(try await check().valid == 0, "at most once a day")
                clock.advance(by: 3_600)
                #expect(try await check().valid == 0)

                try await stack.admin(
                    "revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
                #expect(
                    try await NativeFlow.credentialState(stack, user: credential.user) == "authorized",
                    "no notification: the server does not know yet")
                #expect(try await AppleFlow.me(stack, token: token).status == 200)
                clock.advance(by: 86_400)
                #expect(try await check() == .init(valid: 0, revoked: 1, failed: 0))
                #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "revoked")
                #expect(try await AppleFlow.me(stack, token: token).status == 401)
                clock.advance(by: 86_400)
                #expect(try await check() == .init(valid: 0, revoked: 0, failed: 0), "a revoked Apple ID is not checked again")
            }
        }
    }

    @Test("with Apple unreachable a check fails without revoking, and is retried on the next pass", arguments: TestDatabase.all)
    func appleDown(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { made in
            let environment = made
            let clock = TestClock()
            let emulatorPort = try FreePort.pick()
            try await StackServices.withServer(environment, emulatorURL: "http://127.0.0.1:\(emulatorPort)", clock: clock) { stack in
                let (token, subject) = try await StackServices.withEmulator(environment, port: emulatorPort, clock: clock) {
                    let (token, _, credential) = try await NativeFlow.signIn(stack)
                    return (token, credential.user)
                }
                clock.advance(by: 86_401)
                let check = { @Sendable in try await stack.withDependencies { try await $0.refreshTokenCheck.checkDue(logger: StackServices.logger) }
                }
                #expect(try await check() == .init(valid: 0, revoked: 0, failed: 1))
                #expect(try await NativeFlow.credentialState(stack, user: subject) == "authorized")
                #expect(try await AppleFlow.me(stack, token: token).status == 200)
                try await StackServices.withEmulator(environment, port: emulatorPort, clock: clock) {
                    let summary = try await check()
                    #expect(summary == .init(valid: 1, revoked: 0, failed: 0))
                }
            }
        }
    }
}
