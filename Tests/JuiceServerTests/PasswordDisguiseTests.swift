import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

/// Common passwords in a thin disguise (issue 27, finding 6): the weakness rules compare the NFKC
/// form, trimmed of whitespace, in lowercase.
@Suite("Weak passwords in disguise: whitespace around them, fullwidth or other compatibility forms, capitals")
struct PasswordDisguiseTests {
    static let disguises = [
        "password ", " password", "  password", "ｐａｓｓｗｏｒｄ", "ＰＡＳＳＷＯＲＤ", "password\u{3000}",
        "PASSWORD ", "ｐassword１２３",
    ]

    @Test("NFKC, trimming and lowercasing give the listed form (Foundation's compatibility mapping on this platform)")
    func comparableForm() {
        #expect(PasswordWeakness.comparable("ｐａｓｓｗｏｒｄ") == "password")
        #expect(PasswordWeakness.comparable(" PassWord\u{3000}") == "password")
        #expect(PasswordWeakness.comparable("ﬁnancial") == "financial", "the fi ligature is a compatibility form")
        #expect(PasswordWeakness.comparable("kiwi mango papaya") == "kiwi mango papaya", "inner spaces stay")
    }

    @Test("sign-up refuses each disguise of a listed password with weak_password")
    func refusedAtSignUp() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            for (index, password) in Self.disguises.enumerated() {
                let answer = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "disguise\(index)", "password": password])
                #expect(answer.status == 400 && answer.error == "weak_password", "\(password.debugDescription): \(answer.status) \(answer.body)")
            }
            let fine = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "honest", "password": " kiwi mango papaya "])
            #expect(fine.status == 201, "a strong password with spaces is still accepted")
        }
    }
}
