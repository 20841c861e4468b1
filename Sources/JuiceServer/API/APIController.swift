import AppleSignIn
import Foundation
import Hummingbird

/// The JSON API. `GET /api/me` answers the signed-in account for the session cookie or
/// `Authorization: Bearer <token>`, and 401 `{"error": "unauthorized", …}` otherwise.
public struct APIController: Sendable {
    /// An account as the API shows it.
    public struct AccountResponse: ResponseEncodable, Sendable, Hashable {
        /// A person's name.
        public struct Name: Codable, Sendable, Hashable {
            public var givenName: String?
            public var familyName: String?
        }

        /// The account id.
        public var id: String
        /// The Apple user identifier (`sub`), when an Apple ID is linked.
        public var user: String?
        /// The name.
        public var name: Name
        /// The contact email (possibly a relay address).
        public var email: String?
        /// Whether `email` is a private relay address.
        public var isPrivateEmail: Bool
        /// Apple's real-user status: `unsupported`, `unknown` or `likelyReal`; `null` when unknown.
        public var realUserStatus: String?
        /// The password username, when the account has a password.
        public var username: String?

        /// The API view of `account`.
        public init(_ account: Account) {
            self.id = account.id
            self.user = account.apple?.subject
            self.name = Name(givenName: account.givenName, familyName: account.familyName)
            self.email = account.email
            self.isPrivateEmail = account.isPrivateEmail
            self.realUserStatus = account.apple?.realUserStatus.map {
                switch $0 {
                case .unsupported: return "unsupported"
                case .unknown: return "unknown"
                case .likelyReal: return "likelyReal"
                }
            }
            self.username = account.username
        }
    }

    public init() {}

    public var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("/api/me") { _, context -> AccountResponse in
            guard let signedIn = context.signedIn else { throw ServerError.unauthorized("a valid session cookie or bearer token is required") }
            return AccountResponse(signedIn.account)
        }
        return routes
    }
}
