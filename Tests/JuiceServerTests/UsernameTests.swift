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

    /// Issue 48: `alice` with an invisible character, or in a compatibility form, looked like `alice`.
    static let lookAlikes: [(String, Username.Problem)] = [
        ("alice\u{34F}", .invisibleOrUnassigned), ("ali\u{FE0F}ce", .invisibleOrUnassigned), ("alice\u{3164}", .invisibleOrUnassigned),
        ("alice\u{1160}", .invisibleOrUnassigned), ("\u{115F}alice", .invisibleOrUnassigned), ("ali\u{180B}ce", .invisibleOrUnassigned),
        ("alice\u{FFA0}", .invisibleOrUnassigned), ("\u{1D41A}\u{1D425}\u{1D422}\u{1D41C}\u{1D41E}", .compatibilityForm),
        ("\u{24D0}\u{24DB}\u{24D8}\u{24D2}\u{24D4}", .compatibilityForm), ("\u{24B6}lice", .compatibilityForm),
        ("\u{FB01}nance", .compatibilityForm), ("o\u{FB00}ice", .compatibilityForm), ("alice\u{B2}", .compatibilityForm),
        ("ali\u{2605}ce", .symbolOrPunctuation), ("alice\u{2019}s", .symbolOrPunctuation), ("ali\u{B7}ce", .symbolOrPunctuation),
    ]

    @Test("PRECIS IdentifierClass: invisible characters, compatibility forms and non-ASCII symbols are refused", arguments: lookAlikes)
    func lookAlike(username: String, problem: Username.Problem) {
        #expect(throws: problem) { try Username.validate(username) }
        #expect(problem.serverError.code == .invalidUsername)
    }

    @Test("what UsernameCaseMapped keeps: case and width map to one name, letters of any script, marks, ß and ASCII symbols")
    func kept() throws {
        #expect(try Username.validate("ALICE") == "alice")
        #expect(try Username.validate("\u{FF41}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}") == "alice")
        #expect(
            try Username.validate("\u{FF76}\u{FF9E}\u{FF77}\u{FF78}") == "\u{30AC}\u{30AD}\u{30AF}", "halfwidth katakana width-maps, then composes")
        for name in ["stra\u{DF}e", "\u{5F20}\u{4F1F}\u{660E}", "\u{C564}\u{B9AC}\u{C2A4}", "ni\u{F1}o", "o'brien-2.0_x@y", "\u{3B1}\u{3B2}\u{3B3}"] {
            #expect(try Username.validate(name) == name)
        }
    }

    /// Every path calls the same rule, which `lookAlike` holds to each character; three kinds here keep
    /// the run under the sign-up throttle (10 attempts an hour from one address).
    @Test("every path that creates a username refuses the look-alikes: password sign-up (API and page), passkey sign-up")
    func lookAlikesOnEveryPath() async throws {
        try await JuiceStack.with { stack in
            let created = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "alice", "password": "tangerine-dream-42"])
            #expect(created.status == 201)
            for username in ["alice\u{34F}", "\u{1D41A}\u{1D425}\u{1D422}\u{1D41C}\u{1D41E}", "alice\u{3164}"] {
                let api = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": username, "password": "tangerine-dream-42"])
                #expect(api.status == 400 && api.error == "invalid_username", "\(username.unicodeScalars.map { String($0.value, radix: 16) })")
                let passkey = try await APIRequests.json(stack, "POST", "/api/accounts/passkey/options", ["username": username])
                #expect(passkey.status == 400 && passkey.error == "invalid_username")
            }
            let page = try await PasswordAccountTests.signUp(stack, Browser(), username: "ali\u{FE0F}ce", password: "tangerine-dream-42")
            #expect(page.status == 400)
        }
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
