import Crypto
import Foundation

/// Builds client secrets by hand, to forge every way one can be wrong.
struct ForgedSecret {
    var alg = "ES256"
    var kid: String? = Fixture.teamA.keyID
    var iss: String? = Fixture.teamA.teamID
    var sub: String? = Fixture.servicesID
    var aud: String? = "https://appleid.apple.com"
    var iat: Double
    var exp: Double
    var key: P256.Signing.PrivateKey = Fixture.teamA.privateKey
    var derSignature = false

    init(now: Date, lifetime: TimeInterval = 3600) {
        iat = now.timeIntervalSince1970.rounded(.down)
        exp = iat + lifetime
    }

    var jwt: String {
        var header: [String: Any] = ["alg": alg]
        if let kid { header["kid"] = kid }
        var claims: [String: Any] = ["iat": Int(iat), "exp": Int(exp)]
        if let iss { claims["iss"] = iss }
        if let sub { claims["sub"] = sub }
        if let aud { claims["aud"] = aud }
        let input =
            Self.encode(try! JSONSerialization.data(withJSONObject: header)) + "." + Self.encode(try! JSONSerialization.data(withJSONObject: claims))
        let signature = try! key.signature(for: Data(input.utf8))
        return input + "." + Self.encode(derSignature ? signature.derRepresentation : signature.rawRepresentation)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
    }
}
