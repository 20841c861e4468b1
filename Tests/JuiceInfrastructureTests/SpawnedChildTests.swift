import Foundation
import Testing

@testable import JuiceInfrastructure

#if canImport(Glibc)
    import Glibc
#endif

@Suite("SpawnedChild: posix_spawn with pipes, its own environment, a clean signal mask")
struct SpawnedChildTests {
    /// Runs `/bin/sh -c script` with `stdin`; its exit status or signal and its two outputs.
    static func shell(
        _ script: String, stdin: String = "", environment: [String: String]? = nil
    ) async throws -> (ended: (exitStatus: Int32?, signal: Int32?), output: String, error: String) {
        let child = try SpawnedChild.start("/bin/sh", ["-c", script], environment: environment)
        async let output = SpawnedChild.readToEnd(child.output)
        async let error = SpawnedChild.readToEnd(child.error)
        child.finishInput(Array(stdin.utf8))
        let ended = await child.wait()
        return (ended, String(decoding: await output, as: UTF8.self), String(decoding: await error, as: UTF8.self))
    }

    @Test("standard input in, output and error apart, the exit status out")
    func pipes() async throws {
        let run = try await Self.shell("tr a-z A-Z; echo oops >&2; exit 3", stdin: "juice\n")
        #expect(run.ended.exitStatus == 3 && run.ended.signal == nil)
        #expect(run.output == "JUICE\n")
        #expect(run.error == "oops\n")
    }

    @Test("a given environment replaces the inherited one")
    func environment() async throws {
        let run = try await Self.shell("echo \"[$JUICE_SPAWN_TEST][$HOME]\"", environment: ["JUICE_SPAWN_TEST": "yes"])
        #expect(run.output == "[yes][]\n")
    }

    @Test("a child ended by a signal reports the signal; SIGALRM is not blocked in it, whatever the starting thread blocks")
    func signals() async throws {
        let killed = try await Self.shell("kill -KILL $$")
        #expect(killed.ended.signal == SIGKILL && killed.ended.exitStatus == nil)
        // Block SIGALRM on a thread, start the child from it: the child's mask must be empty.
        let status: String = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                var alarm = sigset_t()
                sigemptyset(&alarm)
                sigaddset(&alarm, SIGALRM)
                pthread_sigmask(SIG_BLOCK, &alarm, nil)
                do {
                    let child = try SpawnedChild.start("/bin/sh", ["-c", "grep SigBlk /proc/self/status"], environment: nil)
                    child.finishInput([])
                    Task {
                        let text = String(decoding: await SpawnedChild.readToEnd(child.output), as: UTF8.self)
                        _ = await child.wait()
                        continuation.resume(returning: text)
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("0000000000000000"), "\(status)")
    }

    @Test("a program that does not exist is an error, not a trap")
    func missing() {
        #expect(throws: SpawnedChild.SpawnError.self) {
            _ = try SpawnedChild.start("/nonexistent/juice-\(UUID().uuidString)", [], environment: nil)
        }
    }
}
