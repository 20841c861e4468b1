import Foundation

/// The languages the Apple pages speak, chosen from `Accept-Language`.
enum PageLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"

    /// The BCP 47 tag for `lang` and `Content-Language`.
    var tag: String { rawValue }

    /// The best language for an `Accept-Language` header: highest quality first, English by default.
    /// Any `zh` range except the traditional-script ones (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) picks Simplified Chinese.
    static func preferred(acceptLanguage header: String?) -> PageLanguage {
        guard let header, header.utf8.count <= 1024 else { return .english }
        var ranked: [(language: PageLanguage?, quality: Double, order: Int)] = []
        for (order, entry) in header.split(separator: ",").prefix(32).enumerated() {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            guard quality > 0 else { continue }
            ranked.append((language(forRange: range), quality, order))
        }
        let best = ranked.filter { $0.language != nil }.sorted { ($0.quality, -$0.order) > ($1.quality, -$1.order) }.first
        return best?.language ?? .english
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
