import Testing

@testable import juice

@Suite("juice serve and emulator run Swift concurrency on NIO's event loops")
struct ConcurrencyExecutorTests {
    @Test(
        "only the server commands ask for the event loops, and JUICE_CONCURRENCY_ON_EVENT_LOOPS=0 turns it off",
        arguments: [
            (["juice", "serve"], [:], true),
            (["juice", "emulator", "--config", "x.json"], [:], true),
            (["juice", "serve"], ["JUICE_CONCURRENCY_ON_EVENT_LOOPS": "0"], false),
            (["juice", "serve"], ["JUICE_CONCURRENCY_ON_EVENT_LOOPS": "1"], true),
            (["juice", "bench", "signin"], [:], false),
            (["juice", "login"], [:], false),
            (["juice"], [:], false),
            (["juice", "--help", "serve"], [:], false),
        ] as [([String], [String: String], Bool)]
    )
    func choice(arguments: [String], environment: [String: String], expected: Bool) {
        #expect(ConcurrencyExecutor.wantsEventLoops(arguments: arguments, environment: environment) == expected)
    }
}
