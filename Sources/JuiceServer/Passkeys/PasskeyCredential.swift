import Foundation
import WebAuthn

/// A passkey registered to an account: what the server keeps to check its assertions.
struct PasskeyCredential: Sendable, Equatable {
    /// The credential id the authenticator chose (1 to 1023 bytes).
    var credentialID: [UInt8]
    /// The account it signs in to.
    var accountID: String
    /// The account's WebAuthn user handle, which a discoverable credential returns.
    var userHandle: [UInt8]
    /// The COSE_Key bytes from the registration.
    var publicKey: [UInt8]
    var algorithm: COSEAlgorithm
    /// The last signature counter seen (0 when the authenticator keeps none).
    var signCount: UInt32
    /// The transports the browser reported (`internal`, `hybrid`, `usb`, …), as hints for later requests.
    var transports: [String]
    /// BE at registration: the credential may be synced; an assertion must say the same.
    var backupEligible: Bool
    /// BS at the last ceremony: the credential is synced now.
    var backedUp: Bool
    /// A name the person can change (by default the date it was added).
    var name: String
    var createdAt: Date
    var lastUsedAt: Date?
    /// The authenticator's AAGUID from the registration (16 bytes; all zero when it keeps its model to
    /// itself), `nil` for a passkey stored before AAGUIDs were kept. ``PasskeyProviders`` names it.
    var aaguid: [UInt8]? = nil
    /// Whether it came by an automatic upgrade (a conditional registration right after a password
    /// sign-in, which may carry no user presence).
    var automatic = false

    /// The name of the passkey's provider (``PasskeyProviders``): "Passkey" when unknown.
    var providerName: String { PasskeyProviders.bundled.name(aaguid: aaguid) }

    /// What the relying party needs to check an assertion with it.
    var registered: RegisteredPasskey {
        RegisteredPasskey(
            credentialID: credentialID, userHandle: userHandle, publicKey: publicKey, signCount: signCount, backupEligible: backupEligible)
    }
}
