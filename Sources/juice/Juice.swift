import ArgumentParser

/// The `juice` command: Sign in with Apple end to end.
@main
struct Juice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice",
        abstract: "Sign in with Apple, end to end: toolkit, emulator, server and client.",
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
}
