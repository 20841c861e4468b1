import JuiceEncodings

/// A small, strict JSON parser (RFC 8259) for token headers and payloads.
///
/// Token verification runs on every request, and generic `Codable` decoding costs more than the RSA
/// signature check itself; this parser reads the few hundred bytes of a JWT segment in about a
/// microsecond. It refuses trailing garbage, unpaired surrogates, control characters in strings and
/// nesting deeper than 32 levels.
struct JSONParser {
    struct Failure: Error {}

    /// The document; valid only during ``parse(_:)``, which owns the storage.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses a complete JSON document.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(Failure) {
                let value = try parser.parseValue()
                parser.skipWhitespace()
                guard parser.index == buffer.count else { return .failure(Failure()) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a complete JSON document that must be an object, keeping its members in order.
    static func parseObjectMembers(_ bytes: [UInt8]) throws(Failure) -> ClaimSet {
        let result: Result<ClaimSet, Failure> = bytes.withUnsafeBufferPointer { buffer in
            do throws(Failure) {
                return .success(try parseObjectMembers(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a complete JSON document that must be an object from bytes the caller holds.
    static func parseObjectMembers(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> ClaimSet {
        var parser = JSONParser(buffer)
        parser.skipWhitespace()
        guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else { throw Failure() }
        let members = try parser.parseMembers()
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw Failure() }
        return ClaimSet(members: members)
    }

    /// Parses a complete JSON document from text.
    static func parse(_ text: String) throws(Failure) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw Failure() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default: return try parseNumber()
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Failure() }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            throw Failure()
        }
        index += count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > 32 { throw Failure() }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        let members = try parseMembers()
        return .object(Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Parses `{ … }` into its members in order; duplicate names are ambiguous in a security token and refused.
    private mutating func parseMembers() throws(Failure) -> [ClaimSet.Member] {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [ClaimSet.Member] = []
        members.reserveCapacity(16)
        // The known names seen so far, one bit each; other names are compared with the other names.
        var knownNames: UInt32 = 0
        var otherNameCount = 0
        // Past 64 other names, those seen so far as UTF-8, kept up to date member by member.
        var manyNames: Set<[UInt8]> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Failure() }
            let (name, claim) = try parseName()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Failure() }
            index += 1
            let value = try parseValue()
            if let claim {
                guard knownNames & claim.bit == 0 else { throw Failure() }
                knownNames |= claim.bit
            } else if otherNameCount < 64 {
                for member in members where member.claim == nil && ClaimSet.sameName(member.name, name) { throw Failure() }
                otherNameCount += 1
            } else {
                if manyNames.isEmpty { manyNames = Set(members.lazy.filter { $0.claim == nil }.map { Array($0.name.utf8) }) }
                guard manyNames.insert(Array(name.utf8)).inserted else { throw Failure() }
            }
            members.append(ClaimSet.Member(name: name, value: value, claim: claim))
            skipWhitespace()
            guard index < bytes.count else { throw Failure() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            } else {
                throw Failure()
            }
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw Failure() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw Failure()
            }
        }
    }

    /// Parses a member name. A known name (``ClaimName``) without escapes is recognized from its bytes,
    /// without building a string (its `name` is then empty: the claim is the name); any other name is
    /// parsed as a string and then recognized, so an escaped spelling of a known name is still that name.
    private mutating func parseName() throws(Failure) -> (name: String, claim: ClaimName?) {
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""), let claim = ClaimName(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end])) {
            index = end + 1
            return ("", claim)
        }
        let name = try parseString()
        return (name, ClaimName(name))
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. Whether the string is ASCII is learned in the same pass.
        var allBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let text = allBits < 0x80 ? String(decoding: content, as: UTF8.self) : try validatedUTF8(content)
                index += 1
                return text
            }
            allBits |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Failure() }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try scalars.withUnsafeBufferPointer { buffer throws(Failure) in try validatedUTF8(buffer) }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw Failure() }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw Failure() }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Failure() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw Failure()
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Failure() }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw Failure()
                }
            default:
                if byte < 0x20 { throw Failure() }
                scalars.append(byte)
                index += 1
            }
        }
        throw Failure()
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Failure()
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func validatedUTF8(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        // Nearly every claim is ASCII, which needs no validation (and the generic validating
        // initializer costs a metadata lookup per call).
        var ascii = true
        for byte in buffer where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return String(decoding: buffer, as: UTF8.self) }
        guard let text = String(validating: buffer, as: UTF8.self) else { throw Failure() }
        return text
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw Failure() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        } else {
            throw Failure()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw Failure() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw Failure() }
        }
        if isInteger, index - start <= 18 {
            // Fast path: fits in Int64 without overflow checks beyond 18 digits.
            var value: Int64 = 0
            var position = start
            let negative = bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            while position < index {
                value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return .integer(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw Failure() }
        return .number(value)
    }
}
