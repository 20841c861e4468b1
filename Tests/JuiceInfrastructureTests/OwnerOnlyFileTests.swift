import Foundation
import JuiceInfrastructure
import JuiceTestSupport
import Testing

@Suite("OwnerOnlyFile: a secret's file is created 0600 and never replaces or follows an existing one")
struct OwnerOnlyFileTests {
    static func permissions(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("a new file holds the contents with mode 0600")
    func creates() async throws {
        try await TemporaryDirectory.with("owner-only") { directory throws in
            let url = directory.url.appendingPathComponent("AuthKey.p8")
            #expect(OwnerOnlyFile.create(url, contents: "secret") == nil)
            let contents = try String(contentsOf: url, encoding: .utf8)
            let permissions = try Self.permissions(url)
            #expect(contents == "secret")
            #expect(permissions == 0o600)
        }
    }

    @Test("an existing file, or a symbolic link to one, is refused and left as it was; the message holds no contents")
    func refusesExisting() async throws {
        try await TemporaryDirectory.with("owner-only") { directory throws in
            let existing = directory.url.appendingPathComponent("existing")
            try "before".write(to: existing, atomically: false, encoding: .utf8)
            let link = directory.url.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: existing)
            for url in [existing, link] {
                let problem = try #require(OwnerOnlyFile.create(url, contents: "secret"))
                #expect(problem.hasPrefix("already exists"))
                #expect(!problem.contains("secret"))
            }
            let contents = try String(contentsOf: existing, encoding: .utf8)
            #expect(contents == "before")
        }
    }

    @Test("a file in a missing directory is refused with the system's reason")
    func refusesMissingDirectory() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/AuthKey.p8")
        #expect(OwnerOnlyFile.create(url, contents: "secret")?.hasPrefix("cannot be created (") == true)
    }
}
