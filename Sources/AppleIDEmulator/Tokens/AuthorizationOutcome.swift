#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The result of an authorization: a code, maybe an identity token, and on the first authorization
/// the once-only user information.
struct AuthorizationOutcome: Sendable {
    let code: String
    let idToken: String?
    let firstAuthorization: Bool
    let subject: IdentitySubject

    /// The `user` JSON string Apple sends on the first authorization: only the requested scopes.
    var userJSON: String? {
        guard firstAuthorization, let user = userInfo else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(user)).flatMap { String(decoding: $0, as: UTF8.self) }
    }

    struct UserInfo: Encodable, Sendable {
        struct Name: Encodable, Sendable {
            let firstName: String
            let lastName: String
        }

        let name: Name?
        let email: String?
    }

    /// The once-only information, when any scope was granted.
    var userInfo: UserInfo? {
        let name = subject.scopes.contains("name") ? UserInfo.Name(firstName: subject.grant.firstName, lastName: subject.grant.lastName) : nil
        let email = subject.email
        return name == nil && email == nil ? nil : UserInfo(name: name, email: email)
    }
}
