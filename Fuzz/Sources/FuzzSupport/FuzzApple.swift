import AppleSignIn
import Foundation

/// The Apple the fuzz targets verify against: one fixed RS256 key (its private half,
/// `Fuzz/Fixtures/fuzz-signing-key.pem`, signed the seed tokens in `Fuzz/Corpus/`) and a frozen clock,
/// so a run is deterministic and a seed token stays valid.
public enum FuzzApple {
    /// The `kid` of the one key.
    public static let keyID = "FUZZKEY001"
    /// The required `iss`.
    public static let issuer = "https://appleid.apple.com"
    /// The accepted client ids.
    public static let audiences = ["com.example.juice", "com.example.juice.web"]
    /// The frozen "now": 2026-09-21T14:13:20Z.
    public static let now = Date(timeIntervalSince1970: 1_790_000_000)
    /// The nonce the targets expect when their flags say a nonce was sent.
    public static let nonce = "fuzz-nonce"
    /// The code the targets say came with the token when their flags ask for a `c_hash` check.
    public static let authorizationCode = "fuzz-code"
    /// The largest clock difference the verifiers allow.
    public static let clockSkew: TimeInterval = 60

    /// The JWKS holding the public half of `Fuzz/Fixtures/fuzz-signing-key.pem`.
    static let jwks = #"""
        {"keys":[{"kty":"RSA","kid":"FUZZKEY001","use":"sig","alg":"RS256","n":"pUSz0s6GzUqROpLo8X0wSOfQ8ko2QjnHa4uAPbClkYA7Wd2KfXwyH6YYCEWY_OBCay0N5f7EbHw6K9TebXN3ptVWXc6fE6BmmlUIo8mkICTLmKTyzgLD3atckTpk04HY8Nx0Fsf_qrZuBFP0o2FYM7c3yPMcTNMjPY-l_IwO60fgFvOq7hs9E8LyggAmYu4xq-LH3lqKh7krPGATsrErlBMILb4-GkPghPfpKdcb80VJ3DsXayv2XXMnfRsaN5AprjBQ_WMbzDRVa0ze-_5hlIf26pX82nHYpMTVbStYVbEBLDhA2C6UXV9S8Rf3fi8sAI6Hyg7Bg3XpYp2y1whiHw","e":"AQAB"}]}
        """#

    /// The key set, fetched once: with the clock frozen it never goes stale, so verification never waits.
    public static let keys: AppleKeySet = {
        guard let keySet = try? JSONWebKeySet(jwks: Array(jwks.utf8)) else { fatalError("the fuzz JWKS does not parse") }
        let keys = AppleKeySet(source: StaticAppleKeySource(keySet: keySet), time: .fixed(now))
        guard runBlocking({ (try? await keys.refresh()) != nil }) else { fatalError("the fuzz key set cannot be loaded") }
        return keys
    }()

    /// A token around `payload` whose signature is not checked by the entry points that take it: the
    /// header names the fuzz key, the signature is 256 zero bytes.
    public static func unsignedToken(payload: some Collection<UInt8>) -> String {
        let header = #"{"alg":"RS256","kid":"FUZZKEY001"}"#
        return base64URL(Array(header.utf8)) + "." + base64URL(Array(payload)) + "." + base64URL([UInt8](repeating: 0, count: 256))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
