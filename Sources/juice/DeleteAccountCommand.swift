import ArgumentParser
import Foundation
import JuiceClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `juice delete-account`: deletes the signed-in account (the server revokes its Apple tokens).
struct DeleteAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account",
        abstract: "Delete the signed-in account and its data; the server revokes its Sign in with Apple tokens."
    )

    @OptionGroup var options: ClientOptions

    @Flag(help: "Do not ask for confirmation (required when standard input is not a terminal).")
    var yes = false

    func run() async throws {
        let client = try options.connect()
        let api = client.api
        do {
            let session = try await client.requireSession()
            let account = try await api.account(sessionToken: session.token)
            if !yes { try confirm(account) }
            try await api.deleteAccount(sessionToken: session.token)
            try await client.forgetSession()
            if let username = account.username { try await client.store.removePassword(user: username, for: api.baseURL) }
            print("Deleted the account \(account.id)" + (account.user == nil ? "." : "; its Sign in with Apple tokens are revoked at Apple."))
        } catch {
            throw clientFailure(error)
        }
    }

    private func confirm(_ account: JuiceAccount) throws {
        guard isatty(STDIN_FILENO) != 0 else {
            throw CLIError("Refusing to delete the account without confirmation: run at a terminal, or pass --yes.")
        }
        FileHandle.standardError.write(Data("Delete \(describe(account))\nand all its data? Type \"delete\" to confirm: ".utf8))
        guard readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces) == "delete" else {
            throw CLIError("Not deleted.")
        }
    }
}
