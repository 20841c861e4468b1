import Crypto
import Foundation

extension SymmetricKey {
    /// A 256-bit key for one purpose, derived from this secret with HKDF-SHA256 (`purpose` is the
    /// info): keys for different purposes are independent, and every instance derives the same one.
    func derived(for purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: self, info: Data(purpose.utf8), outputByteCount: 32)
    }
}
