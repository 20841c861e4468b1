import Foundation

extension Optional where Wrapped == String {
    /// Whether the value is absent or only whitespace.
    var isBlank: Bool { self?.trimmed.isEmpty ?? true }
}

extension String {
    /// The string without leading and trailing whitespace and newlines.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
