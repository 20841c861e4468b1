import JuiceEncodings

/// HTML escaping for text built outside templates.
enum HTML {
    static func escape(_ text: String) -> String { text.htmlEscaped }
}
