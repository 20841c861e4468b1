import ArgumentParser
import Foundation
import JuiceClient

/// `juice login`: signs in to a Juice server, as the Juice sample app does.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a Juice server (saved passkey, saved password, saved Apple ID, else Sign in with Apple in the browser).",
        discussion: """
            With none of --apple, --password and --passkey: a passkey saved here for the server's relying party \
            (by juice signup --passkey or juice passkey add) first, then the sample's existing-account flow — a saved password \
            credential, else the saved Apple ID if its credential is still authorized, else Sign in \
            with Apple. The browser is $BROWSER, else xdg-open, else the address is printed. With \
            --password the password is read from standard input (without echo at a terminal) and saved \
            for the next login. With --passkey: a passkey saved here by `juice passkey add` signs the \
            server's challenge, without a password or the browser. Credentials live in $JUICE_HOME \
            (default $XDG_DATA_HOME/juice), mode 0600.
            """
    )

    @OptionGroup var options: ClientOptions

    @Flag(help: "Sign in with Apple now, even if something is saved.")
    var apple = false

    @Flag(help: "Sign in with a user name and password (read from standard input).")
    var password = false

    @Flag(help: "Sign in with a passkey saved here (see: juice passkey add).")
    var passkey = false

    @Option(help: "The user name, with --password.")
    var username: String?

    @Option(help: "Seconds to wait for the browser sign-in (1-86400).")
    var timeout: Int = 300

    func validate() throws {
        if [apple, password, passkey].filter({ $0 }).count > 1 { throw ValidationError("choose one of --apple, --password and --passkey") }
        if password && (username ?? "").isEmpty { throw ValidationError("--password needs --username") }
        if !password && username != nil { throw ValidationError("--username goes with --password") }
        // Bounded: a deadline billions of seconds away overflows the clock's arithmetic.
        guard (1...86_400).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 86400 seconds") }
    }

    func run() async throws {
        let api = try options.api()
        let store = try options.store()
        let provider = AppleIDProvider(server: api, store: store, receiver: LoopbackReceiver(timeout: .seconds(timeout)))
        let signIn = JuiceSignIn(provider: provider)
        do {
            let account: JuiceAccount
            if password, let username {
                let secret = try PasswordPrompt.read("Password for \(username): ")
                account = try await signIn.signIn(with: PasswordCredential(user: username, password: secret), savePassword: true).session.account
            } else if passkey {
                account = try await PasskeySignIn(server: api, store: store).signIn().account
            } else if apple {
                account = try await signIn.signInWithApple().session.account
            } else if let saved = try await savedPasskeySignIn(api: api, store: store) {
                account = saved
            } else {
                account = try await existingAccountFlow(signIn)
            }
            print("Signed in to \(api.baseURL.absoluteString) as \(describe(account))")
        } catch {
            throw clientFailure(error)
        }
    }

    /// Signs in with a passkey saved here for this server, when there is one: `nil` when none is (or the
    /// server no longer knows it, which is said), so the other ways are tried.
    private func savedPasskeySignIn(api: JuiceServerAPI, store: CredentialStore) async throws -> JuiceAccount? {
        do {
            let account = try await PasskeySignIn(server: api, store: store).signIn().account
            print("Used the passkey saved here.")
            return account
        } catch let error as AuthorizationError where error.code == .notHandled {
            return nil
        } catch let error as JuiceServerError where error.code == .unknownCredential {
            print("The server no longer knows the passkey saved here; trying the other ways.")
            return nil
        }
    }

    /// A saved password, else the saved Apple ID while authorized, else Sign in with Apple.
    private func existingAccountFlow(_ signIn: JuiceSignIn) async throws -> JuiceAccount {
        let api = signIn.server
        let rawNonce = try await api.makeNonce()
        var appleRequest = signIn.provider.createRequest()
        appleRequest.requestedScopes = [.fullName, .email]
        appleRequest.nonce = Nonce.sha256Hex(rawNonce)
        let requests: [any AuthorizationRequest] = [PasswordProvider(server: api.baseURL, store: signIn.store).createRequest(), appleRequest]
        switch try await AuthorizationController(requests: requests).performRequests().credential {
        case .password(let credential):
            print("Using the saved password of \(credential.user).")
            return try await signIn.signIn(with: credential).session.account
        case .appleID(let saved) where saved.identityToken == nil:
            // The saved Apple ID is still authorized: its session may still be good.
            if let session = try await signIn.store.session(for: api.baseURL) {
                if let account = try await WhoamiCommand.account(api, token: session.token) { return account }
                try await signIn.store.removeSession(for: api.baseURL)
            }
            return try await signIn.signInWithApple().session.account
        case .appleID(let credential):
            let session = try await api.signInWithApple(credential, rawNonce: rawNonce)
            try await signIn.store.saveSession(
                StoredSession(token: session.token, userIdentifier: credential.user, accountID: session.account.id), for: api.baseURL)
            return session.account
        case .publicKeyCredentialRegistration, .publicKeyCredentialAssertion:
            throw CLIError("the sign-in returned a passkey credential nobody asked for")
        }
    }
}
