import Foundation
import JuiceTestSupport
import Testing

@testable import JuiceClient

@Suite("Credential store")
struct CredentialStoreTests {
    let server = URL(string: "http://127.0.0.1:8080")!

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("creates its directory 0700 and its files 0600, and reads back what it wrote")
    func permissionsAndRoundTrip() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.file("nested/juice"))
            #expect(try await store.session(for: server) == nil)
            #expect(!FileManager.default.fileExists(atPath: temp.file("nested/juice").path), "reading creates nothing")
            let session = StoredSession(token: "session-token-1", userIdentifier: "001.abc.0650", accountID: "acc-1")
            try await store.saveSession(session, for: server)
            try await store.savePassword(PasswordCredential(user: "alice", password: "pw-1"), for: server)
            #expect(try mode(temp.file("nested/juice").path) == 0o700)
            #expect(try mode(temp.file("nested/juice/sessions.json").path) == 0o600)
            #expect(try mode(temp.file("nested/juice/passwords.json").path) == 0o600)
            let reopened = CredentialStore(directory: temp.file("nested/juice"))
            #expect(try await reopened.session(for: server) == session)
            #expect(try await reopened.passwords(for: server) == [PasswordCredential(user: "alice", password: "pw-1")])
        }
    }

    @Test("keeps 0600 files even under a permissive umask")
    func permissiveUmask() async throws {
        try await TemporaryDirectory.with { temp in
            let previous = umask(0)
            defer { umask(previous) }
            let store = CredentialStore(directory: temp.file("juice"))
            try await store.saveSession(StoredSession(token: "t"), for: server)
            #expect(try mode(temp.file("juice").path) == 0o700)
            #expect(try mode(temp.file("juice/sessions.json").path) == 0o600)
        }
    }

    @Test("replaces files atomically: a reader holding the old file still sees it whole, and no temporary file is left")
    func atomicReplacement() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            try await store.saveSession(StoredSession(token: "old-token"), for: server)
            let oldHandle = try FileHandle(forReadingFrom: temp.file("sessions.json"))
            defer { try? oldHandle.close() }
            try await store.saveSession(StoredSession(token: "new-token"), for: server)
            let oldContent = String(decoding: try oldHandle.readToEnd() ?? Data(), as: UTF8.self)
            #expect(oldContent.contains("old-token"))
            #expect(!oldContent.contains("new-token"))
            #expect(try await store.session(for: server)?.token == "new-token")
            let names = try FileManager.default.contentsOfDirectory(atPath: temp.path).sorted()
            #expect(names == ["sessions.json"])
        }
    }

    @Test("a temporary file left by a crashed writer changes nothing")
    func leftoverTemporaryFile() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            try await store.saveSession(StoredSession(token: "kept"), for: server)
            try Data("{\"version\":1,\"sessi".utf8).write(to: temp.file(".sessions.json.123.tmp"))
            #expect(try await store.session(for: server)?.token == "kept")
        }
    }

    @Test("many concurrent writes leave a valid file with every entry")
    func concurrentWrites() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.savePassword(PasswordCredential(user: "user\(index)", password: "pw\(index)"), for: server)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.passwords(for: server).count == 20)
        }
    }

    @Test(
        "reports a corrupt file clearly, by path and without its content, and never overwrites it on read",
        arguments: [
            ("{\"version\":1,\"sessions\":{\"http://x\":{\"token\":", "not valid JSON"),
            ("[1, 2, 3]", "wrong type at the top level"),
            ("{\"version\":1,\"sessions\":{\"http://127.0.0.1:8080\":{\"userIdentifier\":\"secret-ish\"}}}", "missing \"token\""),
            ("{\"version\":9,\"sessions\":{}}", "format version 9"),
            ("\u{FF}\u{FE}garbage", "not valid JSON"),
        ])
    func corrupt(content: String, detail: String) async throws {
        try await TemporaryDirectory.with { temp in
            try Data(content.utf8).write(to: temp.file("sessions.json"))
            let store = CredentialStore(directory: temp.url)
            do throws(CredentialStoreError) {
                _ = try await store.session(for: server)
                Issue.record("a corrupt file was read without an error")
            } catch {
                #expect(error.code == .corrupt)
                #expect(error.reason.contains(temp.file("sessions.json").path))
                #expect(error.reason.contains(detail))
                #expect(!error.reason.contains("secret-ish"))
            }
            await #expect(throws: CredentialStoreError.corrupt("")) {
                try await store.saveSession(StoredSession(token: "t"), for: server)
            }
            #expect(try Data(contentsOf: temp.file("sessions.json")) == Data(content.utf8))
        }
    }

    @Test("refuses a file too large to be its own")
    func oversizedFile() async throws {
        try await TemporaryDirectory.with { temp in
            try Data(repeating: 0x20, count: (1 << 20) + 1).write(to: temp.file("passwords.json"))
            await #expect(throws: CredentialStoreError.corrupt("")) {
                _ = try await CredentialStore(directory: temp.url).passwords(for: server)
            }
        }
    }

    @Test("a directory in the way is an I/O error, not a crash")
    func unwritable() async throws {
        try await TemporaryDirectory.with { temp in
            try Data().write(to: temp.file("file"))
            await #expect(throws: CredentialStoreError.io("")) {
                try await CredentialStore(directory: temp.file("file")).saveSession(StoredSession(token: "t"), for: server)
            }
        }
    }

    @Test("keys credentials by server, ignoring case, a trailing slash and credentials in the URL")
    func serverKeys() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            try await store.saveSession(StoredSession(token: "a"), for: URL(string: "HTTP://Juice.Example:8443/")!)
            #expect(try await store.session(for: URL(string: "http://juice.example:8443")!)?.token == "a")
            #expect(try await store.session(for: URL(string: "http://juice.example:8444")!) == nil)
            #expect(try await store.session(for: URL(string: "https://juice.example:8443")!) == nil)
            try await store.removeSession(for: URL(string: "http://juice.example:8443")!)
            #expect(try await store.session(for: URL(string: "http://juice.example:8443")!) == nil)
        }
    }

    @Test("saves passwords most recent first, replaces one per user, removes them")
    func passwords() async throws {
        try await TemporaryDirectory.with { temp in
            let store = CredentialStore(directory: temp.url)
            try await store.savePassword(PasswordCredential(user: "alice", password: "1"), for: server)
            try await store.savePassword(PasswordCredential(user: "bob", password: "2"), for: server)
            try await store.savePassword(PasswordCredential(user: "alice", password: "3"), for: server)
            #expect(try await store.passwords(for: server).map(\.user) == ["alice", "bob"])
            #expect(try await store.passwords(for: server).first?.password == "3")
            #expect(try await store.passwords(for: URL(string: "http://other.example")!).isEmpty)
            try await store.removePassword(user: "alice", for: server)
            try await store.removePassword(user: "nobody", for: server)
            #expect(try await store.passwords(for: server).map(\.user) == ["bob"])
        }
    }

    @Test("finds its directory: $JUICE_HOME, else $XDG_DATA_HOME/juice, else ~/.local/share/juice")
    func defaultDirectory() throws {
        #expect(try CredentialStore.defaultDirectory(environment: ["JUICE_HOME": "/j", "XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/j")
        #expect(try CredentialStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/juice")
        #expect(try CredentialStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).path == "/h/.local/share/juice")
        #expect(try CredentialStore.defaultDirectory(environment: ["JUICE_HOME": "", "HOME": "/h"]).path == "/h/.local/share/juice")
        #expect(throws: CredentialStoreError.noLocation("")) { try CredentialStore.defaultDirectory(environment: [:]) }
    }

    @Test("never shows a token or password in a description")
    func redaction() {
        let session = StoredSession(token: "tok-SECRET", userIdentifier: "u")
        let password = PasswordCredential(user: "alice", password: "pw-SECRET")
        for text in ["\(session)", "\(password)", String(reflecting: session), String(reflecting: password)] {
            #expect(!text.contains("SECRET"))
        }
        var dumped = ""
        dump(password, to: &dumped)
        dump(session, to: &dumped)
        #expect(!dumped.contains("SECRET"))
    }
}
