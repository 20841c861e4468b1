import AppleIDEmulator
import AppleSignIn
import Foundation
import JuiceTestSupport
import Testing

/// Work & School (managed) accounts: the organization's address or none, no Hide My Email, no
/// `is_private_email`, and an organization switch that blocks an app (`error=access_denied`).
@Suite("Work & School accounts")
struct ManagedAccountTests {
    static let teacher = EmulatorConfiguration.AppleID(
        email: "teacher@appleid.school.example", password: "teacher-password", firstName: "Tia", lastName: "Teacher",
        managed: .init(organization: "Example School", email: "tia@school.example"))
    static let student = EmulatorConfiguration.AppleID(
        email: "student@appleid.school.example", password: "student-password", firstName: "Sam", lastName: "Student",
        managed: .init(organization: "Example School", blockedApps: [Fixture.otherBundleID]))

    static func configuration() -> EmulatorConfiguration {
        var configuration = Fixture.configuration()
        configuration.appleIDs += [teacher, student]
        return configuration
    }

    @Test("the consent page offers no Hide My Email; the token carries the work address and no is_private_email, even when hide is posted")
    func workEmail() async throws {
        try await RunningEmulator.with(configuration: Self.configuration()) { emulator in
            let consent = try await WebFlow.signIn(emulator, account: Self.teacher, action: "review")
            #expect(consent.status == 200)
            #expect(!consent.body.contains("email_hide"))
            #expect(consent.body.contains("Example School") && consent.body.contains("tia@school.example"))
            let page = try await WebFlow.signIn(emulator, account: Self.teacher, emailChoice: "hide")
            let inputs = WebFlow.hiddenInputs(page.body)
            let claims = WebFlow.claims(try #require(inputs["id_token"]))
            #expect(claims["email"] as? String == "tia@school.example")
            #expect(claims["is_private_email"] == nil)
            #expect(inputs["user"]?.contains("tia@school.example") == true)
            let token = try await emulator.verifier().verify(inputs["id_token"]!)
            #expect(!token.isRelayEmail)
        }
    }

    @Test("a managed account without an email signs in with no email claim and no email in user; the Chinese consent page says so")
    func noEmail() async throws {
        try await RunningEmulator.with(configuration: Self.configuration()) { emulator in
            let consent = try await WebFlow.signIn(emulator, account: Self.student, action: "review", headers: [("Accept-Language", "zh-CN")])
            #expect(consent.body.contains("App 不会收到电子邮件地址"))
            let page = try await WebFlow.signIn(emulator, account: Self.student)
            let inputs = WebFlow.hiddenInputs(page.body)
            let claims = WebFlow.claims(try #require(inputs["id_token"]))
            #expect(claims["email"] == nil && claims["is_private_email"] == nil && claims["email_verified"] == nil)
            #expect(inputs["user"]?.contains("email") == false)
            // The code exchange's token says the same.
            let tokens = try await emulator.client().exchangeCode(
                try #require(inputs["code"]), clientID: Fixture.servicesID, redirectURI: URL(string: Fixture.redirectURI))
            let exchanged = WebFlow.claims(try #require(tokens.idToken))
            #expect(exchanged["email"] == nil && exchanged["is_private_email"] == nil)
        }
    }

    @Test("an app the organization blocks is refused: access_denied with state on the redirect, 403 for a device; the admin switch allows it")
    func blocked() async throws {
        try await RunningEmulator.with(configuration: Self.configuration()) { emulator in
            let device: [(String, String)] = [
                ("client_id", Fixture.otherBundleID), ("account_name", Self.student.email), ("password", Self.student.password), ("scope", "email"),
            ]
            let refused = try await emulator.http.postForm("/emulator/device/authorize", device)
            #expect(refused.status == 403)
            #expect(refused.error == "access_denied")
            // Personal Apple IDs and apps the organization allows are unaffected.
            let allowed = try await WebFlow.signIn(
                emulator, account: Self.student, parameters: WebFlow.parameters(responseType: "code", responseMode: "query", scope: nil))
            #expect(allowed.status == 302)
            let block = try await emulator.admin.postJSON(
                "/emulator/admin/set-organization-block", ["apple_id": Self.student.email, "bundle_id": Fixture.bundleID, "blocked": true])
            #expect(block.status == 200, "\(block.body)")
            let web = try await WebFlow.signIn(
                emulator, account: Self.student, parameters: WebFlow.parameters(responseType: "code", responseMode: "query", scope: nil))
            #expect(web.status == 302)
            let location = try #require(web[header: "Location"])
            let fields = WebFlow.fields(of: location.split(separator: "?", maxSplits: 1)[1])
            #expect(fields == ["error": "access_denied", "state": "state-123"])
            let unblock = try await emulator.admin.postJSON(
                "/emulator/admin/set-organization-block", ["apple_id": Self.student.email, "bundle_id": Fixture.otherBundleID, "blocked": false])
            #expect(unblock.status == 200)
            #expect(try await emulator.http.postForm("/emulator/device/authorize", device).status == 200)
        }
    }

    @Test("the organization switch refuses a personal Apple ID, an unknown app and a missing admin token")
    func switchRefusals() async throws {
        try await RunningEmulator.with(configuration: Self.configuration()) { emulator in
            let personal = try await emulator.admin.postJSON(
                "/emulator/admin/set-organization-block", ["apple_id": Fixture.alice.email, "bundle_id": Fixture.bundleID, "blocked": true])
            #expect(personal.status == 400)
            let unknownApp = try await emulator.admin.postJSON(
                "/emulator/admin/set-organization-block", ["apple_id": Self.student.email, "bundle_id": "com.example.nope", "blocked": true])
            #expect(unknownApp.status == 404)
            let anonymous = try await emulator.http.postJSON(
                "/emulator/admin/set-organization-block", ["apple_id": Self.student.email, "bundle_id": Fixture.bundleID, "blocked": true])
            #expect(anonymous.status == 401)
            // Alice still signs in.
            #expect(try await WebFlow.signIn(emulator).status == 200)
        }
    }

    @Test("the portal says who manages the account and switches the organization's block per app (with its CSRF token only)")
    func portalSwitch() async throws {
        try await RunningEmulator.with(configuration: Self.configuration()) { emulator in
            let (cookie, page) = try await AccountPortalTests.signIn(emulator, account: Self.student)
            #expect(page.body.contains("Work &amp; School account managed by Example School"))
            #expect(page.body.contains("<code>\(Fixture.otherBundleID)</code>: Blocked by your organization"))
            #expect(page.body.contains("<code>\(Fixture.bundleID)</code>: Allowed by your organization"))
            let csrf = try #require(WebFlow.hiddenInputs(page.body)["csrf"])
            let forged = try await emulator.http.postForm(
                "/account/organization", [("csrf", "forged"), ("bundle_id", Fixture.bundleID), ("blocked", "true")], headers: [("Cookie", cookie)])
            #expect(forged.status == 403)
            let block = try await emulator.http.postForm(
                "/account/organization", [("csrf", csrf), ("bundle_id", Fixture.bundleID), ("blocked", "true")], headers: [("Cookie", cookie)])
            #expect(block.status == 303)
            let after = try await emulator.http.get("/account", headers: [("Cookie", cookie)])
            #expect(after.body.contains("<code>\(Fixture.bundleID)</code>: Blocked by your organization"))
            let web = try await WebFlow.signIn(
                emulator, account: Self.student, parameters: WebFlow.parameters(responseType: "code", responseMode: "query", scope: nil))
            #expect(web[header: "Location"]?.contains("error=access_denied") == true)
            // A personal Apple ID has no organization switch.
            let (aliceCookie, alicePage) = try await AccountPortalTests.signIn(emulator)
            #expect(!alicePage.body.contains("organization-heading"))
            let aliceCSRF = try #require(WebFlow.hiddenInputs(alicePage.body)["csrf"])
            let personal = try await emulator.http.postForm(
                "/account/organization", [("csrf", aliceCSRF), ("bundle_id", Fixture.bundleID), ("blocked", "true")],
                headers: [("Cookie", aliceCookie)])
            #expect(personal.status == 400)
        }
    }

    @Test("the configuration checks managed fields: organization, email, blocked apps and unknown keys")
    func validation() throws {
        let json = """
            {"teams": [], "apps": [],
             "apple_ids": [{"email": "a@b.example", "password": "p", "managed": {"organization": "", "email": "nope", "blocked_apps": ["com.x"], "colour": 1}}]}
            """
        do {
            _ = try EmulatorConfiguration(json: Data(json.utf8))
            Issue.record("accepted an invalid managed account")
        } catch {
            let text = error.reason
            for field in [
                "apple_ids[0].managed.organization", "apple_ids[0].managed.email", "apple_ids[0].managed.blocked_apps[0]",
                "apple_ids[0].managed.colour",
            ] {
                #expect(text.contains(field), "\(field) missing from \(text)")
            }
        }
    }
}
