extension String {
    /// JSON text made safe to print on a terminal and still the same JSON: every scalar at or above DEL
    /// that a terminal would act on (DEL, the C1 controls U+0080–U+009F, the bidirectional embeddings,
    /// overrides and isolates; see ``terminalEscaped``) is written as a JSON `\uXXXX` escape, which a JSON
    /// reader turns back into the same scalar. C0 controls need nothing here: JSON encoders escape them
    /// already, and they may not stand raw in a string.
    ///
    /// Only for JSON text: such scalars can stand only inside its strings, where a `\u` escape means the same.
    ///
    /// ```swift
    /// #"{"reason":"x\#u{202E}y"}"#.jsonTerminalEscaped   // #"{"reason":"x\u202Ey"}"#
    /// ```
    package var jsonTerminalEscaped: String {
        replacingScalars { scalar -> String? in
            guard scalar.value >= 0x7F, Self.isTerminalControl(scalar) else { return nil }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }
}
