import Foundation
import JuiceProcesses
import JuiceTestSupport
import Testing

/// Issue 48: a `juice` copied without `juice_JuiceServer.resources` answered every sign-up with a 500 (or
/// read the source tree it was built from); it now refuses to start and names the file it looked for.
@Suite("juice serve without its resource bundle")
struct ServeResourcesTests {
    @Test("a juice copied alone refuses to start, naming the common-password list's path; it never reads the source tree")
    func refusesWithoutResources() async throws {
        try await TemporaryDirectory.with("serve-resources") { directory in
            let copy = directory.file("juice")
            try FileManager.default.copyItem(at: JuiceProcess.executable, to: copy)
            let data = directory.file("data")
            let ports = try (0..<3).map { _ in String(try FreePort.pick()) }
            let run = try await SpawnedChild.run(
                copy.path, ["serve", "--data-dir", data.path, "--port", ports[0], "--emulator-port", ports[1], "--emulator-smtp-port", ports[2]],
                environment: ["PATH": "/usr/bin:/bin"], deadline: .seconds(30))
            #expect(!run.timedOut, "it refuses at once instead of serving")
            #expect(run.exit != .exited(0))
            let expected = directory.url.resolvingSymlinksInPath().appendingPathComponent("juice_JuiceServer.resources/common-passwords.txt").path
            #expect(run.errorText.contains("juice_JuiceServer.resources/common-passwords.txt"), "\(run.errorText)")
            #expect(
                run.errorText.contains(expected) || run.errorText.contains(directory.url.path), "the path next to the copied binary: \(run.errorText)"
            )
            #expect(!FileManager.default.fileExists(atPath: data.path), "nothing was started or created")
        }
    }
}
