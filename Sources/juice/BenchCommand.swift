import ArgumentParser

/// `juice bench`: measurements meant for release builds.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks (build with -c release).",
        subcommands: [BenchVerifyCommand.self, BenchSignInCommand.self, BenchMethodsCommand.self]
    )
}
