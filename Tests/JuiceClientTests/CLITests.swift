import Foundation
import JuiceClient
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

/// `juice login | whoami | logout | delete-account` as a person runs them, against the real server
/// and emulator, with a scripted person at the browser.
@Suite("The juice client commands")
struct CLITests {
    /// Runs `body` with the live stack, a scripted person and a `juice` command line of its own.
    func withCLI(_ body: @Sendable (JuiceStack, ScriptedPerson, JuiceCommand) async throws -> Void) async throws {
        try await JuiceStack.with(database: .sqlite) { juice in
            try await TemporaryDirectory.with { temp in
                let person = try ScriptedPerson(in: temp)
                try await body(juice, person, JuiceCommand(home: temp.file("juice-home"), browser: person.script))
            }
        }
    }

    @Test("login with Apple in the browser, whoami, login again reusing the authorized Apple ID, then Apple revokes: whoami says revoked")
    func appleLifecycle() async throws {
        try await withCLI { juice, person, juiceCommand in
            let server = ["--server", juice.serverBaseURL.absoluteString]
            async let page = person.signInAtApple()
            let login = try await juiceCommand.run(["login"] + server)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Signed in to \(juice.serverBaseURL.absoluteString) as Johnny Appleseed <appleseed@juice.test>"))
            #expect(try await page.body.contains("You can close this window"))
            for file in try FileManager.default.contentsOfDirectory(atPath: juiceCommand.home.path) {
                let mode = try FileManager.default.attributesOfItem(atPath: juiceCommand.home.appendingPathComponent(file).path)[.posixPermissions]
                #expect(mode as? Int == 0o600, "\(file) is owner-only")
            }

            let whoami = try await juiceCommand.run(["whoami"] + server)
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout.contains("Johnny Appleseed <appleseed@juice.test>"))
            #expect(whoami.stdout.contains("Apple ID user: "))

            let again = try await juiceCommand.run(["login"] + server)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(person.openedURLs.count == 1, "the authorized Apple ID was reused without the browser")

            try await juice.admin("revoke-consent", ["apple_id": StackEnvironment.johnny.email, "client_id": StackEnvironment.bundleID])
            let revoked = try await eventually {
                let result = try await juiceCommand.run(["whoami"] + server)
                return result.status != 0 ? result : nil
            }
            #expect(revoked?.status == 1)
            #expect(revoked?.stderr.contains("revoked") == true, "\(revoked?.stderr ?? "")")
            let after = try await juiceCommand.run(["whoami"] + server)
            #expect(after.status == 1)
            #expect(after.stderr.contains("Not signed in"), "the local credentials were cleared")
        }
    }

    @Test("password login from standard input, logout, then login offers the saved password without the browser; delete-account needs --yes")
    func passwordAndDeletion() async throws {
        try await withCLI { juice, person, juiceCommand in
            let server = ["--server", juice.serverBaseURL.absoluteString]
            _ = try await JuiceServerAPI(baseURL: juice.serverBaseURL).createAccount(
                PasswordCredential(user: "bob", password: "correct horse battery"))
            let wrong = try await juiceCommand.run(["login", "--password", "--username", "bob"] + server, stdin: "wrong-SECRET\n")
            #expect(wrong.status != 0)
            #expect(!wrong.stderr.contains("wrong-SECRET") && !wrong.stdout.contains("wrong-SECRET"))
            let login = try await juiceCommand.run(["login", "--password", "--username", "bob"] + server, stdin: "correct horse battery\n")
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("as bob"))

            let logout = try await juiceCommand.run(["logout"] + server)
            #expect(logout.status == 0)
            #expect(logout.stdout.contains("Signed out"))
            #expect(try await juiceCommand.run(["whoami"] + server).status == 1)

            let saved = try await juiceCommand.run(["login"] + server)
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(saved.stdout.contains("Using the saved password of bob"))
            #expect(person.openedURLs.isEmpty)

            let unconfirmed = try await juiceCommand.run(["delete-account"] + server)
            #expect(unconfirmed.status == 1)
            #expect(unconfirmed.stderr.contains("--yes"))
            #expect(try await juiceCommand.run(["whoami"] + server).status == 0, "nothing was deleted")
            let deleted = try await juiceCommand.run(["delete-account", "--yes"] + server)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.contains("Deleted the account"))
            #expect(try await juiceCommand.run(["whoami"] + server).status == 1)
            let gone = try await juiceCommand.run(["login", "--password", "--username", "bob"] + server, stdin: "correct horse battery\n")
            #expect(gone.status != 0, "the account no longer exists")
        }
    }

    @Test("a cancelled sign-in, a timeout and an unreachable server are clear messages and exit 1")
    func failures() async throws {
        try await withCLI { juice, person, juiceCommand in
            let server = ["--server", juice.serverBaseURL.absoluteString]
            async let page = person.signInAtApple(choice: .cancel)
            let cancelled = try await juiceCommand.run(["login", "--apple"] + server)
            _ = try await page
            #expect(cancelled.status == 1)
            #expect(cancelled.stderr.contains("cancelled"), "\(cancelled.stderr)")

            let timedOut = try await juiceCommand.run(["login", "--apple", "--timeout", "1"] + server)
            #expect(timedOut.status == 1)
            #expect(timedOut.stderr.contains("no response from the browser"), "\(timedOut.stderr)")

            let closed = "http://127.0.0.1:\(try FreePort.pick())"
            let unreachable = try await juiceCommand.run(["login", "--apple", "--server", closed])
            #expect(unreachable.status == 1)
            #expect(unreachable.stderr.contains("cannot reach the Juice server at \(closed)"), "\(unreachable.stderr)")

            let usage = try await juiceCommand.run(["login", "--password"] + server)
            #expect(usage.status != 0)
            #expect(usage.stderr.contains("--username"))
        }
    }
}
