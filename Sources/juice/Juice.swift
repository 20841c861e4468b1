import ArgumentParser

/// The `juice` command: Sign in with Apple end to end.
@main
struct Juice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice",
        abstract: "Sign in with Apple, end to end: toolkit, emulator, server and client.",
        version: JuiceVersion.current,
        subcommands: [
            VerifyTokenCommand.self,
            ClientSecretCommand.self,
            BenchCommand.self,
            ServeCommand.self,
            EmulatorCommand.self,
            ConformanceCommand.self,
            SignUpCommand.self,
            LoginCommand.self,
            WhoamiCommand.self,
            LogoutCommand.self,
            PasskeyCommand.self,
            DeleteAccountCommand.self,
        ]
    )

    /// ArgumentParser's own start, after ``RepeatedOptionRule``: a repeated single-valued option is a
    /// usage error (exit 64) instead of its last value winning.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let repeated = RepeatedOptionRule.firstRepeated(in: arguments) {
            exit(withError: ValidationError("\(repeated) is given more than once; it takes one value"))
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
