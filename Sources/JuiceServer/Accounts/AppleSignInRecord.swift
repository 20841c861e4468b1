import AppleSignIn
import Foundation

/// What a verified Apple sign-in brings: the token's claims, the once-only `user` data, and the
/// sealed refresh token from the code exchange.
struct AppleSignInRecord: Sendable, Hashable {
    /// `sub`.
    var subject: String
    /// The client id (`aud`).
    var clientID: String
    /// The token's email, if any.
    var email: String?
    /// Whether the email is a relay address.
    var isPrivateEmail: Bool?
    /// The real-user status, if sent.
    var realUserStatus: RealUserStatus?
    /// Given name from the once-only `user` data (or a device's `fullName`).
    var givenName: String?
    /// Family name, likewise.
    var familyName: String?
    /// The refresh token sealed with ``RefreshTokenCipher``, base64.
    var sealedRefreshToken: String?
    /// When the sign-in happened.
    var at: Date
    /// The token's `transfer_sub` (during the 60 days after an app transfer): the account that had
    /// this transfer identifier (or this `sub`) before the transfer is re-keyed to ``subject``.
    var transferSubject: String? = nil
}
