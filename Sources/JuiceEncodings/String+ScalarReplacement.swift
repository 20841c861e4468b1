extension String {
    /// The text with every Unicode scalar for which `replacement` answers a string replaced by that string,
    /// the others kept: the one loop of every output rule (``htmlEscaped``, ``xmlEscaped``,
    /// ``terminalEscaped``), which walks scalars, never `Character`s (a grapheme cluster can hide a quote or
    /// a `<` behind a mark).
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
