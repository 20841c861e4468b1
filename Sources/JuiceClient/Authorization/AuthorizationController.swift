/// Performs authorization requests, as `ASAuthorizationController`.
///
/// Credentials available without the person come first, as AuthenticationServices offers existing
/// accounts before a new sign-in: every request is first asked non-interactively (a saved password, a
/// saved passkey, a saved Apple ID session whose state is still authorized), in order; then, unless
/// ``RequestOptions/preferImmediatelyAvailableCredentials`` is given, each is asked interactively in
/// order (the Apple ID request opens the browser). A request with nothing to offer passes to the next.
///
/// ```swift
/// let requests: [any AuthorizationRequest] = [
///     PasswordProvider(server: server, store: store).createRequest(),
///     appleIDProvider.createRequest(),
/// ]
/// let authorization = try await AuthorizationController(requests: requests).performRequests()
/// ```
public struct AuthorizationController: Sendable {
    /// Options for ``performRequests(options:)``, as `ASAuthorizationController.RequestOptions`.
    public struct RequestOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Answer only from saved credentials; fail with ``AuthorizationError/Code/notInteractive``
        /// rather than ask the person.
        public static let preferImmediatelyAvailableCredentials = RequestOptions(rawValue: 1 << 0)
    }

    /// The requests, in order of preference.
    public let requests: [any AuthorizationRequest]

    /// A controller for `requests`.
    public init(requests: [any AuthorizationRequest]) {
        self.requests = requests
    }

    /// Performs the requests and returns the first credential obtained.
    ///
    /// - Throws: ``AuthorizationError``: the first failure other than "nothing to offer";
    ///   ``AuthorizationError/Code/notInteractive`` when only saved credentials were allowed and there were
    ///   none; ``AuthorizationError/Code/notHandled`` when no request had anything to offer.
    public func performRequests(options: RequestOptions = []) async throws(AuthorizationError) -> Authorization {
        if let credential = try await firstCredential(interactive: false) {
            return Authorization(credential: credential)
        }
        if options.contains(.preferImmediatelyAvailableCredentials) {
            throw .notInteractive("no saved credential is available and the person may not be asked")
        }
        if let credential = try await firstCredential(interactive: true) {
            return Authorization(credential: credential)
        }
        throw .notHandled(requests.isEmpty ? "there are no requests to perform" : "no request could be handled")
    }

    private func firstCredential(interactive: Bool) async throws(AuthorizationError) -> AuthorizationCredential? {
        for request in requests {
            do throws(AuthorizationError) {
                return try await request.perform(interactive: interactive)
            } catch {
                guard error.code == .notHandled else { throw error }
            }
        }
        return nil
    }
}
