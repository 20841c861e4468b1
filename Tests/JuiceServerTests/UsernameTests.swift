import Foundation
import Hummingbird
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("Usernames: one spelling per name (PRECIS UsernameCaseMapped), no invisible or direction-changing characters")
struct UsernameTests {
    @Test("NFC and NFD, upper and lower case, fullwidth and ASCII spellings are one name")
    func normalization() throws {
        let precomposed = "Zo\u{E9}user"
        let decomposed = "Zoe\u{301}user"
        #expect(precomposed.unicodeScalars.count != decomposed.unicodeScalars.count)
        #expect(Array(Username.normalize(precomposed).unicodeScalars) == Array(Username.normalize(decomposed).unicodeScalars))
        #expect(Username.normalize(decomposed) == "zo\u{E9}user")
        #expect(Username.normalize("\u{FF3A}\u{FF2F}\u{FF25}user") == "zoeuser")
        #expect(Username.normalize("  Grove \n") == "grove")
        #expect(try Username.validate("Zo\u{E9}user") == "zo\u{E9}user")
    }

    @Test(
        "control, format and bidi characters, spaces and bad lengths are refused as invalid_username",
        arguments: [
            ("evil\u{202E}resu", Username.Problem.invisibleOrUnassigned),
            ("ab\u{2066}cd\u{2069}", .invisibleOrUnassigned),
            ("zero\u{200B}width", .invisibleOrUnassigned),
            ("join\u{200D}er", .invisibleOrUnassigned),
            ("mark\u{200F}rtl", .invisibleOrUnassigned),
            ("bell\u{7}user", .invisibleOrUnassigned),
            ("private\u{E000}use", .invisibleOrUnassigned),
            ("two words", .whitespace),
            ("ideo\u{3000}space", .whitespace),
            ("no\u{A0}break", .whitespace),
            ("ab", .length),
            (String(repeating: "x", count: 65), .length),
        ])
    func refused(username: String, problem: Username.Problem) {
        #expect(throws: problem) { try Username.validate(username) }
        #expect(problem.serverError.code == .invalidUsername)
        #expect(problem.serverError.status == .badRequest)
    }

    @Test("over the API: the NFD spelling of an NFC account is taken and signs in to it; U+202E is invalid_username, not invalid_password")
    func overTheAPI() async throws {
        try await JuiceStack.with { stack in
            let created = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "Zo\u{E9}user", "password": "tangerine-dream-42"])
            #expect(created.status == 201)
            let again = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "ZOE\u{301}USER", "password": "tangerine-dream-42"])
            #expect(again.status == 409 && again.error == "username_taken")
            let signIn = try await APIRequests.json(
                stack, "POST", "/api/auth/password", ["username": "zoe\u{301}user", "password": "tangerine-dream-42"])
            #expect(signIn.status == 200)
            let bidi = try await APIRequests.json(
                stack, "POST", "/api/accounts", ["username": "admin\u{202E}nimda", "password": "tangerine-dream-42"])
            #expect(bidi.status == 400 && bidi.error == "invalid_username")
        }
    }
}
