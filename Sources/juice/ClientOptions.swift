import ArgumentParser
import Foundation
import JuiceClient
import JuiceEncodings

/// What every client command shares: the server and the credential store.
struct ClientOptions: ParsableArguments {
    @Option(help: "The Juice server.")
    var server: String = "http://localhost:8080"

    /// The server's URL, checked.
    func serverURL() throws -> URL {
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server must be an http(s) URL, e.g. http://localhost:8080")
        }
        return url
    }

    /// The server's API client.
    func api() throws -> JuiceServerAPI { JuiceServerAPI(baseURL: try serverURL()) }

    /// The server's API client with the credentials saved for it.
    func connect() throws -> ClientConnection { ClientConnection(api: try api(), store: try store()) }

    /// The credential store under `$JUICE_HOME` (default `$XDG_DATA_HOME/juice`).
    func store() throws -> CredentialStore {
        do {
            return CredentialStore(directory: try CredentialStore.defaultDirectory())
        } catch {
            throw CLIError("cannot find the credential store: \(error)")
        }
    }
}

/// The account as the client commands print it.
func describe(_ account: JuiceAccount) -> String {
    // Every value is the server's: shown on the terminal, never acted on by it (terminalEscaped).
    var parts: [String] = []
    let name = [account.name?.givenName, account.name?.familyName].compactMap { $0 }.joined(separator: " ")
    parts.append((name.isEmpty ? (account.username ?? account.email ?? account.id) : name).terminalEscaped)
    if let email = account.email { parts.append("<\(email.terminalEscaped)>" + (account.isPrivateEmail == true ? " (private relay)" : "")) }
    var lines = [parts.joined(separator: " ")]
    lines.append("  account: \(account.id.terminalEscaped)")
    if let user = account.user { lines.append("  Apple ID user: \(user.terminalEscaped)") }
    if let username = account.username { lines.append("  username: \(username.terminalEscaped)") }
    if let status = account.realUserStatus { lines.append("  real user status: \(status.terminalEscaped)") }
    return lines.joined(separator: "\n")
}

func clientFailure(_ error: any Error) -> CLIError {
    switch error {
    case let error as AuthorizationError where error.code == .canceled:
        CLIError("Sign in with Apple did not complete: \(error.reason.terminalEscaped)")
    case let error as AuthorizationError:
        CLIError("Sign in failed: \(error.reason.terminalEscaped)")
    case let error as JuiceServerError where error.code == .unreachable:
        CLIError(error.reason.terminalEscaped)
    case let error as JuiceServerError:
        CLIError("The server refused: \(error.reason.terminalEscaped) (\(error.code))")
    case let error as CredentialStoreError:
        CLIError("The credential store failed: \(error.reason)")
    case let error as CLIError:
        error
    default:
        CLIError("\(error)")
    }
}
