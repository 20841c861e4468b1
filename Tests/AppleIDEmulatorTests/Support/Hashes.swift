import Crypto
import Foundation
import JuiceEncodings

/// base64url of the left 16 bytes of SHA-256 (`c_hash`, `at_hash`), computed independently of the emulator.
func sha256LeftHalfBase64URL(_ value: String) -> String {
    Data(SHA256.hash(data: Data(value.utf8)).prefix(16)).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}
