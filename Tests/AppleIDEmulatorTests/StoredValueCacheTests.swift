import Testing

@testable import AppleIDEmulator

@Suite("StoredValueCache: values kept until this process writes them")
struct StoredValueCacheTests {
    /// Counts reads of the store.
    actor Reads {
        private(set) var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test("a kept value is returned without reading again; invalidate makes the next call read")
    func keepsUntilInvalidated() async throws {
        let cache = StoredValueCache<String, Int>()
        let reads = Reads()
        #expect(try await cache.value(for: "app") { await reads.next() } == 1)
        #expect(try await cache.value(for: "app") { await reads.next() } == 1)
        #expect(await reads.count == 1)
        cache.invalidate("app")
        #expect(try await cache.value(for: "app") { await reads.next() } == 2)
        #expect(await reads.count == 2)
    }

    @Test("a read that overlapped a write is returned but not kept: the next call reads again")
    func overlappingReadNotKept() async throws {
        let cache = StoredValueCache<String, String>()
        let stale = try await cache.value(for: "app") {
            cache.invalidate("app")  // the write commits while this read is under way
            return "team A"
        }
        #expect(stale == "team A")
        #expect(try await cache.value(for: "app") { "team B" } == "team B")
        #expect(try await cache.value(for: "app") { "never read" } == "team B")
    }

    @Test("a failed read keeps nothing")
    func failedReadKeepsNothing() async throws {
        struct StoreDown: Error {}
        let cache = StoredValueCache<String, Int>()
        await #expect(throws: StoreDown.self) {
            try await cache.value(for: "app") { throw StoreDown() }
        }
        #expect(try await cache.value(for: "app") { 7 } == 7)
    }
}
