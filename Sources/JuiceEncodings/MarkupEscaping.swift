extension String {
    /// The text escaped for HTML and XML text and attribute values: `& < > " '` as entities, and the
    /// C0 control characters XML 1.0 forbids (all but tab, line feed and carriage return) dropped.
    package var markupEscaped: String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case _ where character.asciiValue.map({ $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == true: continue
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
