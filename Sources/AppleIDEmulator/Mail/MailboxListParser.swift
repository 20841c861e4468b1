/// Reads the addresses out of an RFC 5322 address header (`From`, §3.4 and §3.6.2): address lists,
/// display names (atoms, quoted strings with escapes, RFC 2047 words), comments (nested, with escapes)
/// and folding white space anywhere between tokens, angle addresses, and groups (`team: a@b, c@d;`).
///
/// The relay uses it to decide whether every mailbox a message claims to come from is a registered
/// source: a value it cannot read whole is refused, never guessed at. It is bounded: at most
/// ``maximumLength`` octets, ``maximumMailboxes`` mailboxes and ``maximumCommentDepth`` nested comments,
/// and it never recurses.
enum MailboxListParser {
    /// The longest header value read, in octets (unfolded).
    static let maximumLength = 4096
    /// The most mailboxes one header may name.
    static let maximumMailboxes = 32
    /// The deepest nesting of comments.
    static let maximumCommentDepth = 16

    /// Why a header value is not a readable address list.
    struct Failure: Error, Equatable, Sendable {
        let reason: String
    }

    /// The addresses (`local@domain`, lowercased) of every mailbox in `value`, groups included, in order.
    /// Throws when the value is empty, malformed, too long, or names too many mailboxes.
    static func addresses(in value: String) throws(Failure) -> [String] {
        guard value.utf8.count <= maximumLength else { throw Failure(reason: "longer than \(maximumLength) octets") }
        var reader = Reader(tokens: try tokens(of: Array(value.utf8)))
        var addresses: [String] = []
        var groupOpen = false
        while let token = reader.peek {
            switch token {
            case .special(UInt8(ascii: ",")):
                reader.advance()  // an empty list element (RFC 5322 §4.4) names nobody
                continue
            case .special(UInt8(ascii: ";")) where groupOpen:
                reader.advance()
                groupOpen = false
                guard reader.peek == nil || reader.peek == .special(UInt8(ascii: ",")) else {
                    throw Failure(reason: "a group must be followed by a comma or the end")
                }
                continue
            default:
                break
            }
            let phrase = reader.phrase()
            switch reader.peek {
            case .special(UInt8(ascii: ":")):
                guard !groupOpen else { throw Failure(reason: "a group cannot contain a group") }
                guard !phrase.isEmpty, phrase.allSatisfy(\.isWord) else { throw Failure(reason: "a group needs a display name") }
                reader.advance()
                groupOpen = true
                continue
            case .special(UInt8(ascii: "<")):
                guard phrase.allSatisfy(\.isWordOrDot) else { throw Failure(reason: "a display name holds only words") }
                reader.advance()
                let address = try addrSpec(&reader, startingWith: [])
                guard reader.peek == .special(UInt8(ascii: ">")) else { throw Failure(reason: "an angle address must end with >") }
                reader.advance()
                addresses.append(address)
            case .special(UInt8(ascii: "@")):
                addresses.append(try addrSpec(&reader, startingWith: phrase))
            default:
                throw Failure(reason: phrase.isEmpty ? "expected a mailbox" : "a display name must be followed by <address>")
            }
            guard addresses.count <= maximumMailboxes else { throw Failure(reason: "names more than \(maximumMailboxes) mailboxes") }
            switch reader.peek {
            case nil, .special(UInt8(ascii: ",")):
                continue
            case .special(UInt8(ascii: ";")) where groupOpen:
                continue
            default:
                throw Failure(reason: "mailboxes must be separated by commas")
            }
        }
        guard !groupOpen else { throw Failure(reason: "a group must end with ;") }
        guard !addresses.isEmpty else { throw Failure(reason: "names no mailbox") }
        return addresses
    }

    /// `local-part "@" domain`, where the local part may already have been read as `localPart`.
    private static func addrSpec(_ reader: inout Reader, startingWith localPart: [Token]) throws(Failure) -> String {
        let local = localPart.isEmpty ? reader.phrase() : localPart
        guard reader.peek == .special(UInt8(ascii: "@")) else { throw Failure(reason: "an address needs an @") }
        reader.advance()
        let domain = reader.phrase(allowingDomainLiteral: true)
        guard let localText = dotted(local, quotedAllowed: true) else { throw Failure(reason: "the local part of an address is malformed") }
        guard let domainText = dotted(domain, quotedAllowed: false) else { throw Failure(reason: "the domain of an address is malformed") }
        let address = (localText + "@" + domainText).lowercased()
        guard MailboxSyntax.isValid(address) else { throw Failure(reason: "unsupported address form") }
        return address
    }

    /// `atom *("." atom)`, or one quoted string when `quotedAllowed`, or one domain literal.
    private static func dotted(_ tokens: [Token], quotedAllowed: Bool) -> String? {
        if tokens.count == 1 {
            switch tokens[0] {
            case .quoted(let text) where quotedAllowed: return "\"" + text + "\""
            case .domainLiteral(let text) where !quotedAllowed: return "[" + text + "]"
            default: break
            }
        }
        var text = ""
        for (index, token) in tokens.enumerated() {
            switch (index % 2, token) {
            case (0, .atom(let atom)): text += atom
            case (1, .special(UInt8(ascii: "."))): text += "."
            default: return nil
            }
        }
        return tokens.count % 2 == 1 ? text : nil
    }
}

extension MailboxListParser {
    /// A lexical unit of the header (white space and comments are dropped between them).
    enum Token: Equatable, Sendable {
        case atom(String)
        case quoted(String)
        case domainLiteral(String)
        case special(UInt8)

        var isWord: Bool {
            switch self {
            case .atom, .quoted: true
            default: false
            }
        }

        /// RFC 5322's obsolete phrase allows a `.` among the words (`J. Smith`).
        var isWordOrDot: Bool { isWord || self == .special(UInt8(ascii: ".")) }
    }

    /// The tokens in order, CFWS removed.
    static func tokens(of bytes: [UInt8]) throws(Failure) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                index += 1
            case UInt8(ascii: "("):
                index = try endOfComment(bytes, from: index)
            case UInt8(ascii: "\""):
                let (text, end) = try delimited(bytes, from: index, closing: UInt8(ascii: "\""), what: "quoted string")
                tokens.append(.quoted(text))
                index = end
            case UInt8(ascii: "["):
                let (text, end) = try delimited(bytes, from: index, closing: UInt8(ascii: "]"), what: "domain literal")
                tokens.append(.domainLiteral(text))
                index = end
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "@"),
                UInt8(ascii: "."):
                tokens.append(.special(byte))
                index += 1
            default:
                guard isAtomText(byte) else { throw Failure(reason: "a character that cannot stand in an address header") }
                var end = index
                while end < bytes.count, isAtomText(bytes[end]) { end += 1 }
                tokens.append(.atom(String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end
            }
        }
        return tokens
    }

    /// RFC 5322 `atext`, plus UTF-8 (RFC 6532).
    private static func isAtomText(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case 0x80...0xFF: true
        default: Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(byte)
        }
    }

    /// The index after the comment opening at `start`; nested comments and `\`-escapes are followed.
    private static func endOfComment(_ bytes: [UInt8], from start: Int) throws(Failure) -> Int {
        var depth = 0
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 1
            case UInt8(ascii: "("):
                depth += 1
                guard depth <= maximumCommentDepth else { throw Failure(reason: "comments nested deeper than \(maximumCommentDepth)") }
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return index + 1 }
            case let byte where byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n"):
                throw Failure(reason: "a control character in a comment")
            default:
                break
            }
            index += 1
        }
        throw Failure(reason: "a comment is not closed")
    }

    /// The text between the delimiter at `start` and `closing`, `\`-escapes undone; and the index after it.
    private static func delimited(_ bytes: [UInt8], from start: Int, closing: UInt8, what: String) throws(Failure) -> (String, Int) {
        var text: [UInt8] = []
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == closing { return (String(decoding: text, as: UTF8.self), index + 1) }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                text.append(bytes[index])
            } else if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                // folding inside the token
            } else {
                guard byte >= 0x20 || byte == UInt8(ascii: "\t") else { throw Failure(reason: "a control character in a \(what)") }
                text.append(byte)
            }
            index += 1
        }
        throw Failure(reason: "a \(what) is not closed")
    }

    /// A cursor over the tokens.
    struct Reader {
        let tokens: [Token]
        private(set) var position = 0

        init(tokens: [Token]) {
            self.tokens = tokens
        }

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        mutating func advance() { position += 1 }

        /// The words, dots (and, for a domain, domain literals) up to the next other special.
        mutating func phrase(allowingDomainLiteral: Bool = false) -> [Token] {
            var words: [Token] = []
            while let token = peek {
                switch token {
                case .atom, .quoted, .special(UInt8(ascii: ".")): words.append(token)
                case .domainLiteral where allowingDomainLiteral: words.append(token)
                default: return words
                }
                advance()
            }
            return words
        }
    }
}
