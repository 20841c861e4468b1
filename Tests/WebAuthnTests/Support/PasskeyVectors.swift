import Foundation
import JuiceEncodings

@testable import WebAuthn

/// The vectors `Fixtures/make_vectors.py` wrote with python-fido2 and `cryptography` (not our code).
struct PasskeyVectors: Decodable {
    struct Registration: Decodable, CustomTestStringConvertibleName {
        let name: String
        let expect: String
        let requirements: String
        let algorithm: String
        let challenge: String
        let credentialID: String
        let clientDataJSON: String
        let attestationObject: String

        var response: RegistrationResponse {
            get throws(PasskeyError) {
                try RegistrationResponse(
                    credentialID: bytes(credentialID), clientDataJSON: bytes(clientDataJSON), attestationObject: bytes(attestationObject))
            }
        }
    }

    struct Authentication: Decodable, CustomTestStringConvertibleName {
        let name: String
        let expect: String
        let requirements: String
        let registration: String
        let challenge: String
        let credentialID: String
        let clientDataJSON: String
        let authenticatorData: String
        let signature: String
        let userHandle: String?
        let storedSignCount: UInt32
        let storedUserHandle: String

        var response: AuthenticationResponse {
            get throws(PasskeyError) {
                try AuthenticationResponse(
                    credentialID: bytes(credentialID), clientDataJSON: bytes(clientDataJSON),
                    authenticatorData: bytes(authenticatorData), signature: bytes(signature), userHandle: userHandle.map(bytes))
            }
        }
    }

    let rpID: String
    let origins: [String]
    let registrations: [Registration]
    let authentications: [Authentication]

    static let shared: PasskeyVectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/vectors.json")
        do {
            return try JSONDecoder().decode(PasskeyVectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("Tests/WebAuthnTests/Fixtures/vectors.json cannot be read: \(error)")
        }
    }()

    /// The relying party the vectors were made for, with the requirements a vector names.
    func relyingParty(requirements: String) -> PasskeyRelyingParty {
        PasskeyRelyingParty(
            id: rpID, origins: Set(origins),
            requirements: PasskeyRequirements(userVerification: requirements == "uv-required" ? .required : .preferred))
    }

    func registration(named name: String) -> Registration? { registrations.first { $0.name == name } }
}

/// A vector's name is what a test argument shows.
protocol CustomTestStringConvertibleName: CustomStringConvertible { var name: String { get } }
extension CustomTestStringConvertibleName { var description: String { name } }

/// The bytes of a base64url string the generator wrote (an empty array if it is not base64url, which
/// the tests then see as a failure).
func bytes(_ base64URL: String) -> [UInt8] { Base64URL.decode(base64URL) ?? [] }
