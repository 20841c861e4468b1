/// The opaque strings Apple issues, in its shape: `c…` authorization codes, `r…` refresh tokens, `a…` access
/// tokens (not a credential in the AuthenticationServices sense, which the word means elsewhere here).
enum OpaqueToken {
    static func make(prefix: Character, random: EmulatorRandom) -> String {
        String(prefix) + random.hex(bytes: 16) + ".0." + random.string(length: 4, alphabet: "abcdefghijklmnopqrstuvwxyz")
            + "." + random.string(length: 22, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    }
}
