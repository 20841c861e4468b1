/// Apple-shaped random credentials: `c…` codes, `r…` refresh tokens, `a…` access tokens.
enum Credential {
    static func make(prefix: Character, random: EmulatorRandom) -> String {
        String(prefix) + random.hex(bytes: 16) + ".0." + random.string(length: 4, alphabet: "abcdefghijklmnopqrstuvwxyz")
            + "." + random.string(length: 22, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    }
}
