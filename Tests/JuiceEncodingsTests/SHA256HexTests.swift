import JuiceEncodings
import Testing

@Suite("sha256Hex: a string's SHA-256 over its UTF-8, as 64 lowercase hex digits")
struct SHA256HexTests {
    @Test(
        "matches the FIPS 180-2 test vectors and hashes UTF-8, not characters",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ])
    func vectors(text: String, digest: String) {
        #expect(sha256Hex(text) == digest)
    }

    @Test("canonically equivalent strings with different UTF-8 hash differently")
    func utf8() {
        #expect(sha256Hex("e\u{301}") != sha256Hex("\u{e9}"))
        #expect(sha256Hex("\u{e9}").utf8.count == 64)
    }
}
