import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

/// Passwords bcrypt would cut short (issue 27, findings 2 and 3): bcrypt stops at the first NUL and
/// reads at most 72 bytes, so such passwords are refused when chosen and never match when typed.
@Suite("Passwords that bcrypt would cut short: control characters and more than 72 bytes")
struct PasswordBytesTests {
    /// 72 bytes (62 ASCII, five two-byte letters), strong enough for every weakness rule.
    static let seventyTwoBytes = "kumquat-persimmon-rambutan-pomelo-tangerine-nectarine-fig-9284ÿñöçé"

    @Test("NUL, tab, line breaks, DEL and C1 controls are refused at sign-up with password_invalid_characters", arguments: TestDatabase.all)
    func controlCharactersAtSignUp(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            for (index, password) in [
                "\u{0}" + "kiwi-mango-papaya", "ab\u{0}kiwi-mango-papaya", "kiwi-mango\tpapaya", "kiwi-mango\npapaya", "kiwi-mango\u{7F}papaya",
                "kiwi-mango\u{85}papaya",
            ].enumerated() {
                let answer = try await AccountSettingsTests.signUp(stack, "controls\(index)", password)
                #expect(answer.status == 400 && answer.error == "password_invalid_characters", "\(index): \(answer.status) \(answer.body)")
            }
            // Neither the empty nor the two-letter prefix became anyone's password.
            #expect(try await AccountSettingsTests.signIn(stack, "controls0", "").status == 401)
            #expect(try await AccountSettingsTests.signIn(stack, "controls1", "ab").status == 401)
        }
    }

    @Test("at sign-in a password with NUL is a wrong password, even when what precedes the NUL is right", arguments: TestDatabase.all)
    func controlCharactersAtSignIn(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            #expect(try await AccountSettingsTests.signUp(stack, "nulltest", "guava-lychee-94").status == 201)
            #expect(try await AccountSettingsTests.signIn(stack, "nulltest", "guava-lychee-94").status == 200)
            let cut = try await AccountSettingsTests.signIn(stack, "nulltest", "guava-lychee-94\u{0}anything")
            #expect(cut.status == 401 && cut.error == "invalid_credentials")
        }
    }

    @Test("a 72-byte password P signs in; P + \"X\" and P + 60 bytes do not; 73 bytes is refused at sign-up", arguments: TestDatabase.all)
    func seventyTwoBytes(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let password = Self.seventyTwoBytes
            #expect(password.utf8.count == 72)
            let created = try await AccountSettingsTests.signUp(stack, "longpass", password)
            #expect(created.status == 201, "\(created.body)")
            #expect(try await AccountSettingsTests.signIn(stack, "longpass", password).status == 200)
            for longer in [password + "X", password + String(repeating: "z", count: 60)] {
                let answer = try await AccountSettingsTests.signIn(stack, "longpass", longer)
                #expect(answer.status == 401 && answer.error == "invalid_credentials", "\(longer.utf8.count) bytes: \(answer.status)")
            }
            let tooLong = try await AccountSettingsTests.signUp(stack, "longerpass", password + "X")
            #expect(tooLong.status == 400 && tooLong.error == "password_too_long")
        }
    }

    @Test("password change: a new password with a control character or over 72 bytes is refused; a long current password is wrong")
    func passwordChange() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let created = try await AccountSettingsTests.signUp(stack, "changer", Self.seventyTwoBytes)
            let token = try #require(created.json?["token"] as? String)
            func change(_ current: String, _ new: String) async throws -> HTTPResult {
                try await APIRequests.json(stack, "POST", "/api/account/password", ["current_password": current, "new_password": new], bearer: token)
            }
            let nul = try await change(Self.seventyTwoBytes, "tamarind\u{0}-quince-5")
            #expect(nul.status == 400 && nul.error == "password_invalid_characters")
            let long = try await change(Self.seventyTwoBytes, Self.seventyTwoBytes + "!")
            #expect(long.status == 400 && long.error == "password_too_long")
            let wrongCurrent = try await change(Self.seventyTwoBytes + "X", "tamarind-quince-5")
            #expect(wrongCurrent.status == 401 && wrongCurrent.error == "invalid_credentials")
            #expect(try await change(Self.seventyTwoBytes, "tamarind-quince-5").status == 204)
        }
    }

    @Test("a password that does not fit bcrypt is checked against the decoy hash: the same work, never a match")
    func decoyWork() async throws {
        let hasher = try await PasswordHasher.make(cost: 4, limiter: BcryptLimiter(slots: 1), random: .seeded(7))
        let hash = try await hasher.hash(Self.seventyTwoBytes)
        #expect(try await hasher.verify(Self.seventyTwoBytes, hash: hash))
        #expect(try await !hasher.verify(Self.seventyTwoBytes + "X", hash: hash))
        #expect(try await !hasher.verify("ab\u{0}cdefgh", hash: try await hasher.hash("ab")))
        // Each verification took one bcrypt slot, like a wrong password's.
        #expect(await hasher.limiter.completed == 5)
    }
}
