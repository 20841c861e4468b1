import Foundation
import Testing

@testable import JuiceProcesses

#if canImport(Glibc)
    import Glibc
#endif

@Suite("SpawnedChild: posix_spawn with pipes, a file or nothing; its own environment and directory; a clean signal mask; reaped")
struct SpawnedChildTests {
    /// Runs `/bin/sh -c script` with `stdin` to its end.
    static func shell(
        _ script: String, stdin: String = "", environment: [String: String]? = nil, directory: String? = nil
    ) async throws -> SpawnedChild.Completed {
        try await SpawnedChild.run(
            "/bin/sh", ["-c", script], environment: environment, directory: directory, input: Array(stdin.utf8), deadline: .seconds(60))
    }

    @Test("standard input in, output and error apart, the exit status out")
    func pipes() async throws {
        let run = try await Self.shell("tr a-z A-Z; echo oops >&2; exit 3", stdin: "juice\n")
        #expect(run.exit == .exited(3) && run.exit.signal == nil && !run.timedOut)
        #expect(run.outputText == "JUICE\n")
        #expect(run.errorText == "oops\n")
    }

    @Test("a given environment replaces the inherited one; a given directory is the working directory")
    func environmentAndDirectory() async throws {
        let run = try await Self.shell("echo \"[$JUICE_SPAWN_TEST][$HOME]\"", environment: ["JUICE_SPAWN_TEST": "yes"])
        #expect(run.outputText == "[yes][]\n")
        let temporary = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        #expect(try await Self.shell("pwd -P", directory: temporary).outputText == temporary + "\n")
        await #expect(throws: SpawnError.self) { _ = try await Self.shell("true", directory: "/nonexistent/juice-\(UUID().uuidString)") }
    }

    @Test("a child ended by a signal reports the signal; SIGALRM is not blocked in it, whatever the starting thread blocks")
    func signals() async throws {
        let killed = try await Self.shell("kill -KILL $$")
        #expect(killed.exit == .signalled(SIGKILL) && killed.exit.status == nil && !killed.timedOut)
        // Block SIGALRM on a thread, start the child from it: the child's mask must be empty.
        let child: SpawnedChild = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                var alarm = sigset_t()
                sigemptyset(&alarm)
                sigaddset(&alarm, SIGALRM)
                pthread_sigmask(SIG_BLOCK, &alarm, nil)
                continuation.resume(
                    with: Result { () throws(SpawnError) in try SpawnedChild.start("/bin/sh", ["-c", "grep SigBlk /proc/self/status"]) })
            }
        }
        let pipes = try #require(child.pipes)
        child.finishInput([])
        let status = String(decoding: await SpawnedChild.readToEnd(pipes.output), as: UTF8.self)
        _ = await SpawnedChild.readToEnd(pipes.error)
        #expect(await child.wait() == .exited(0))
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("0000000000000000"), "\(status)")
    }

    @Test("output and error to a file, appended; isRunning until it is reaped; stop ends one that ignores SIGTERM")
    func fileAndStop() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(UUID().uuidString).log").path
        defer { unlink(log) }
        let first = try SpawnedChild.start("/bin/sh", ["-c", "echo one; echo two >&2"], standardIO: .file(log))
        #expect(first.pipes == nil)
        #expect(await first.wait() == .exited(0))
        #expect(!first.isRunning && first.exit == .exited(0))
        let stubborn = try SpawnedChild.start("/bin/sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], standardIO: .file(log))
        while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("ready") { try await Task.sleep(for: .milliseconds(20)) }
        #expect(stubborn.isRunning)
        #expect(await stubborn.stop(grace: .milliseconds(200)) == .signalled(SIGKILL))
        #expect(!stubborn.isRunning)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "one\ntwo\nready\n")
        stubborn.send(SIGKILL)  // a child already reaped is never signalled again
    }

    @Test("a run past its deadline is killed and says so")
    func deadline() async throws {
        let run = try await SpawnedChild.run("/bin/sh", ["-c", "echo started; exec sleep 60"], deadline: .milliseconds(300))
        #expect(run.timedOut && run.exit == .signalled(SIGKILL))
        #expect(run.outputText == "started\n")
    }

    @Test("a detached child runs on its own and is reaped; one that cannot start is false")
    func detached() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("detached-\(UUID().uuidString)").path
        defer { unlink(marker) }
        #expect(SpawnedChild.startDetached("/bin/sh", ["-c", "echo \"$0\" > \"$1\"", "detached", marker]))
        while !FileManager.default.fileExists(atPath: marker) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!SpawnedChild.startDetached("/nonexistent/juice-\(UUID().uuidString)", []))
    }

    @Test("a program that does not exist is an error, not a trap; locate finds programs on a PATH")
    func missing() {
        #expect(throws: SpawnError.self) {
            _ = try SpawnedChild.start("/nonexistent/juice-\(UUID().uuidString)", [])
        }
        #expect(SpawnedChild.locate("sh", path: "/nonexistent:/bin") == "/bin/sh")
        #expect(SpawnedChild.locate("juice-no-such-program", path: "/bin:/usr/bin") == nil)
    }
}
