/// One entry of `/auth/keys`, in Apple's shape.
struct JSONWebKey: Sendable, Hashable, Codable {
    var kty = "RSA"
    let kid: String
    var use = "sig"
    var alg = "RS256"
    let n: String
    let e: String
}
