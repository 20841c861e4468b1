import AppleIDEmulator
import AppleSignIn
import Crypto
import Foundation
import JuiceTestSupport
import Testing

/// The fixture API: reset, seed, clock and issued credentials, and its refusals.
@Suite("Fixture API: reset, seed, clock, issued credentials")
struct FixtureAPITests {
    static let admin = [("Authorization", "Bearer \(Fixture.adminToken)"), ("Content-Type", "application/json")]

    static func post(_ emulator: RunningEmulator, _ path: String, _ json: String, headers: [(String, String)] = admin) async throws -> HTTPResult {
        try await emulator.http.post("/emulator/admin/" + path, json: json, headers: headers)
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("a reset brings back a deleted Apple ID and a transferred app, forgets grants and notifications, resets the clock, keeps the keys")
    func reset() async throws {
        try await RunningEmulator.with(configuration: Fixture.configuration(notificationURL: "http://127.0.0.1:9/unreachable")) { emulator in
            let keys = try await emulator.http.get("/auth/keys").body
            #expect(try await WebFlow.signIn(emulator).status == 200)
            #expect(try await emulator.admin.postJSON("/emulator/admin/delete-apple-id", ["apple_id": Fixture.alice.email]).status == 200)
            #expect(
                try await emulator.admin.postJSON(
                    "/emulator/admin/transfer-app", ["bundle_id": Fixture.bundleID, "to_team_id": Fixture.teamB.teamID]
                )
                .status == 200)
            #expect(try await Self.post(emulator, "clock", #"{"advance": 3600}"#).json?["offset"] as? Int == 3600)
            #expect(try await WebFlow.signIn(emulator).status == 401)

            #expect(try await Self.post(emulator, "reset", "{}").status == 200)
            let page = try await WebFlow.signIn(emulator)
            #expect(page.status == 200)
            #expect(WebFlow.hiddenInputs(page.body)["user"] != nil, "a first authorization again: the grant was forgotten")
            // The app's client secrets are team A's again.
            let secret = try await emulator.secret(clientID: Fixture.servicesID)
            let exchanged = try await emulator.http.postForm(
                "/auth/token",
                [
                    ("client_id", Fixture.servicesID), ("client_secret", secret), ("grant_type", "authorization_code"),
                    ("code", WebFlow.hiddenInputs(page.body)["code"] ?? ""), ("redirect_uri", Fixture.redirectURI),
                ])
            #expect(exchanged.status == 200, "\(exchanged.body)")
            let notifications = try await emulator.http.get("/emulator/admin/notifications", headers: Self.admin)
            #expect((notifications.json?["notifications"] as? [Any])?.isEmpty == true)
            #expect(try await emulator.http.get("/emulator/admin/clock", headers: Self.admin).json?["offset"] as? Int == 0)
            #expect(try await emulator.http.get("/auth/keys").body == keys)
        }
    }

    @Test("a seed adds a team, an app and an Apple ID that sign in at once; a reset removes them")
    func seed() async throws {
        try await RunningEmulator.with { emulator in
            let seed: [String: Any] = [
                "teams": [Fixture.teamB.configuration.jsonObject],
                "apps": [
                    [
                        "team_id": Fixture.teamB.teamID, "bundle_id": "com.seeded.app", "services_ids": ["com.seeded.app.web"],
                        "redirect_uris": ["https://seeded.example.com/callback"],
                    ]
                ],
                "apple_ids": [["email": "seeded@example.net", "password": "seeded-password", "first_name": "Sid"]],
            ]
            #expect(
                try await Self.post(emulator, "seed", String(decoding: try JSONSerialization.data(withJSONObject: seed), as: UTF8.self)).status == 200
            )
            let seeded = EmulatorConfiguration.AppleID(email: "seeded@example.net", password: "seeded-password", firstName: "Sid", lastName: "")
            let parameters = WebFlow.parameters(clientID: "com.seeded.app.web", redirectURI: "https://seeded.example.com/callback")
            let page = try await WebFlow.signIn(emulator, account: seeded, parameters: parameters)
            #expect(page.status == 200)
            let code = try #require(WebFlow.hiddenInputs(page.body)["code"])
            let tokens = try await emulator.client(team: Fixture.teamB).exchangeCode(
                code, clientID: "com.seeded.app.web", redirectURI: URL(string: "https://seeded.example.com/callback"))
            // Issued: the code (used now) and the two tokens, by digest.
            let issued = try await emulator.http.get("/emulator/admin/issued?bundle_id=com.seeded.app", headers: Self.admin)
            let codes = issued.json?["codes"] as? [[String: Any]] ?? []
            #expect(codes.count == 1 && codes.first?["digest"] as? String == Self.sha256(code) && codes.first?["used_at"] is Int)
            let listed = Set((issued.json?["tokens"] as? [[String: Any]] ?? []).compactMap { $0["digest"] as? String })
            #expect(listed == Set([tokens.accessToken, try #require(tokens.refreshToken)].map(Self.sha256)))
            #expect(!issued.body.contains(code) && !issued.body.contains(tokens.accessToken), "values are never shown")

            #expect(try await Self.post(emulator, "reset", "{}").status == 200)
            #expect(try await WebFlow.signIn(emulator, account: seeded, parameters: parameters).status == 400, "the seeded app is gone")
            #expect(try await WebFlow.signIn(emulator, account: seeded).status == 401, "the seeded Apple ID is gone")
        }
    }

    @Test("refusals: an invalid seed changes nothing, admin_token cannot be seeded, the clock stays in range, issued needs a known app")
    func refusals() async throws {
        try await RunningEmulator.with { emulator in
            for (body, field) in [
                // The seed's own path, not the merged configuration's (where the app is the third).
                (#"{"apps": [{"team_id": "NOSUCHTEAM", "bundle_id": "com.orphan.app"}]}"#, "seed apps[0].team_id"),
                (#"{"admin_token": "mine"}"#, "admin_token"),
                (#"{"apple_ids": [{"email": "x@example.net", "password": "p", "colour": "red"}]}"#, "apple_ids[0].colour"),
                (#"["not", "an", "object"]"#, "(file)"),
            ] {
                let answer = try await Self.post(emulator, "seed", body)
                #expect(answer.status == 400, "\(body)")
                #expect((answer.json?["error_description"] as? String)?.contains(field) == true, "\(answer.body)")
            }
            #expect(try await emulator.http.get("/emulator/admin/issued?bundle_id=com.orphan.app", headers: Self.admin).status == 404)
            for body in [
                #"{"set": 1}"#, #"{"set": 5000000000}"#, #"{"advance": -1}"#, #"{"advance": 1e300}"#, #"{"set": 1750000000, "advance": 1}"#, "{}",
                #"{"advance": "soon"}"#,
            ] {
                #expect(try await Self.post(emulator, "clock", body).status == 400, "\(body)")
            }
            #expect(try await emulator.http.get("/emulator/admin/clock", headers: Self.admin).json?["offset"] as? Int == 0)
            let set = try await Self.post(emulator, "clock", #"{"set": 1900000000}"#)
            #expect(set.json?["now"] as? Int ?? 0 >= 1_900_000_000)
            #expect(try await emulator.http.get("/emulator/admin/issued", headers: Self.admin).status == 400)
            // A state-changing call needs JSON.
            #expect(try await Self.post(emulator, "reset", "", headers: [Self.admin[0]]).status == 400)
        }
    }

    @Test("every fixture route refuses a missing or forged admin token, and nothing changes")
    func adminTokenRequired() async throws {
        try await RunningEmulator.with { (emulator: RunningEmulator) async throws -> Void in
            let json = [("Content-Type", "application/json")]
            let posts: [(String, String)] = [
                ("reset", "{}"), ("seed", #"{"apple_ids": [{"email": "x@example.net", "password": "p"}]}"#), ("clock", #"{"advance": 60}"#),
            ]
            for (route, body) in posts {
                #expect(try await Self.post(emulator, route, body, headers: json).status == 401, "POST \(route)")
                #expect(
                    try await Self.post(emulator, route, body, headers: json + [("Authorization", "Bearer forged")]).status == 401, "POST \(route)")
            }
            for route in ["clock", "issued?bundle_id=com.example.app"] {
                #expect(try await emulator.http.get("/emulator/admin/" + route).status == 401, "GET \(route)")
                #expect(
                    try await emulator.http.get("/emulator/admin/" + route, headers: [("Authorization", "Bearer forged")]).status == 401,
                    "GET \(route)")
            }
            #expect(try await emulator.http.get("/emulator/admin/clock", headers: Self.admin).json?["offset"] as? Int == 0, "the clock did not move")
            let unseeded = EmulatorConfiguration.AppleID(email: "x@example.net", password: "p", firstName: "", lastName: "")
            #expect(try await WebFlow.signIn(emulator, account: unseeded).status == 401, "nothing was seeded")
        }
    }
}

extension EmulatorConfiguration.Team {
    /// The team in the configuration's JSON shape.
    var jsonObject: [String: Any] {
        ["team_id": teamID, "keys": keys.map { ["key_id": $0.keyID, "public_key_pem": $0.publicKeyPEM] }]
    }
}
