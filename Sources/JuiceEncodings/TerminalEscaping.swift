extension String {
    /// The text made safe to print on a terminal: every scalar that a terminal would act on instead of
    /// showing is shown as `\u{…}` (its hexadecimal value), so a backend's text cannot move the cursor,
    /// rewrite a line, change the title or colours, or hide text behind a direction override.
    ///
    /// Shown escaped: C0 controls (ESC, BEL, backspace, carriage return; also tab and line feed, so one
    /// value stays on one line), DEL, C1 controls (U+0080–U+009F; U+009B is a one-byte CSI) and the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). A backslash is
    /// doubled, so `\u{1B}` in the output always means an escaped character. Scalars, never
    /// `Character`s: see ``htmlEscaped``.
    ///
    /// ```swift
    /// "ok\u{1B}[2J".terminalEscaped   // "ok\\u{1B}[2J"
    /// ```
    package var terminalEscaped: String {
        replacingScalars { scalar -> String? in
            if scalar == "\\" { return "\\\\" }
            guard Self.isTerminalControl(scalar) else { return nil }
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Whether a terminal acts on `scalar` rather than showing it (see ``terminalEscaped``).
    static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
