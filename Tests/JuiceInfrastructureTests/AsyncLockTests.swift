import JuiceInfrastructure
import Testing

@Suite("AsyncLock: one holder at a time, released on a throw")
struct AsyncLockTests {
    /// What the holders did, in order.
    actor Journal {
        var entries: [String] = []
        func add(_ entry: String) { entries.append(entry) }
    }

    struct Failure: Error {}

    @Test("bodies that suspend while holding the lock never interleave")
    func exclusive() async throws {
        let lock = AsyncLock()
        let journal = Journal()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for holder in 0..<20 {
                group.addTask {
                    try await lock.withLock {
                        await journal.add("enter \(holder)")
                        await Task.yield()
                        await Task.yield()
                        await journal.add("leave \(holder)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let entries = await journal.entries
        #expect(entries.count == 40)
        for pair in stride(from: 0, to: entries.count, by: 2) {
            let holder = entries[pair].dropFirst("enter ".count)
            #expect(entries[pair + 1] == "leave \(holder)", "entry \(pair): another holder ran inside \(holder)'s body")
        }
    }

    @Test("a body that throws releases the lock")
    func releasesOnThrow() async throws {
        let lock = AsyncLock()
        await #expect(throws: Failure.self) { try await lock.withLock { throw Failure() } }
        let value = try await lock.withLock { 7 }
        #expect(value == 7)
    }
}
