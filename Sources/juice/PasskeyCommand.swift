import ArgumentParser

/// `juice passkey`: the signed-in account's passkeys, kept on this machine by JuiceClient's software
/// authenticator.
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Add a passkey kept on this machine to the signed-in account, list the account's passkeys, or remove one.",
        discussion: """
            A passkey made here is a P-256 key in passkeys.json in $JUICE_HOME (default \
            $XDG_DATA_HOME/juice), mode 0600, bound to the server's relying party id. Sign in with it: \
            juice login --passkey. The server must be given by its public URL: the passkey's origin is \
            that URL's scheme://host:port.
            """,
        subcommands: [PasskeyAddCommand.self, PasskeyListCommand.self, PasskeyRemoveCommand.self]
    )
}
