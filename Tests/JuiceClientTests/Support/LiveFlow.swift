import Foundation
import JuiceClient
import JuiceStackSupport
import JuiceTestSupport

/// A JuiceClient sign-in wired to the real server and emulator (``JuiceStack``), a scripted person at
/// the browser and a credential store in a temporary directory.
enum LiveFlow {
    static func with(
        clock: any Clock<Duration> = ContinuousClock(),
        _ body: @Sendable (JuiceStack, ScriptedPerson, JuiceSignIn) async throws -> Void
    ) async throws {
        try await JuiceStack.with(database: .sqlite) { juice in
            try await TemporaryDirectory.with { temp in
                let person = try ScriptedPerson(in: temp)
                let provider = AppleIDProvider(
                    server: JuiceServerAPI(baseURL: juice.serverBaseURL),
                    store: CredentialStore(directory: temp.file("juice-home")),
                    browser: person.browser,
                    receiver: LoopbackReceiver(timeout: .seconds(30), clock: clock),
                    random: fixedRandom()
                )
                try await body(juice, person, JuiceSignIn(provider: provider))
            }
        }
    }

    /// Signs in with Apple while the scripted person completes the browser part; returns the session
    /// and the Apple ID credential.
    static func signIn(_ person: ScriptedPerson, _ signIn: JuiceSignIn) async throws -> (ServerSession, AppleIDCredential) {
        async let page = person.signInAtApple()
        let result = try await signIn.signInWithApple()
        _ = try await page
        guard case .appleID(let credential) = result.credential else { throw AppleAtTheBrowser.Unexpected("not an Apple ID credential") }
        return (result.session, credential)
    }
}
