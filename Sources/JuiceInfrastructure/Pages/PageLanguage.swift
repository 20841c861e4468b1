import Foundation

/// The languages the pages speak (Juice's and the emulator's Apple pages), chosen from `Accept-Language`.
package enum PageLanguage: String, Sendable, Hashable, CaseIterable {
    /// English (default).
    case english = "en"
    /// Simplified Chinese.
    case simplifiedChinese = "zh-Hans"

    /// The BCP 47 tag for `lang` and `Content-Language`.
    package var tag: String { rawValue }

    /// The best language for an `Accept-Language` header: highest quality first, English by default.
    /// Any `zh` range except the traditional-script ones (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) picks Simplified Chinese.
    package static func preferred(acceptLanguage header: String?) -> PageLanguage {
        guard let header, header.utf8.count <= 1024 else { return .english }
        var best: (language: PageLanguage, quality: Double, order: Int)?
        for (order, entry) in header.split(separator: ",").prefix(32).enumerated() {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty, let language = language(forRange: range) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            guard quality > 0 else { continue }
            if quality > best?.quality ?? 0 { best = (language, quality, order) }
        }
        return best?.language ?? .english
    }

    /// The language a tag such as `zh-Hans` or `en` names, if supported.
    package init?(tag: String) {
        guard let language = Self.language(forRange: tag.lowercased()) else { return nil }
        self = language
    }

    private static func language(forRange range: String) -> PageLanguage? {
        if range == "en" || range.hasPrefix("en-") { return .english }
        if range == "zh" || range.hasPrefix("zh-") {
            let traditional = ["zh-hant", "zh-tw", "zh-hk", "zh-mo"].contains { range.hasPrefix($0) }
            return traditional ? nil : .simplifiedChinese
        }
        return nil
    }
}
