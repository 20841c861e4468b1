#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConformanceCatalog {
    /// The catalogue's version, in every report: it changes whenever a case is added, removed or judged differently.
    public static let version = "2026.11.5"

    /// One case as `--list-cases` shows it.
    struct Entry: Encodable {
        let id: String
        let flow: String
        let checks: String
        let expect: String
        let severity: String
        let fix: String
        let reference: String

        init(_ conformanceCase: ConformanceCase) {
            id = conformanceCase.id
            flow = conformanceCase.flow.rawValue
            checks = conformanceCase.title
            expect = conformanceCase.expect.rawValue
            severity = conformanceCase.level.rawValue
            fix = conformanceCase.hint
            reference = conformanceCase.reference
        }
    }

    /// The catalogue as text: per case its id, flow, severity and expectation, what it checks, and its reference.
    public static func listing() -> String {
        var lines = ["juice conformance catalogue \(version): \(all.count) cases", ""]
        for conformanceCase in all {
            let entry = Entry(conformanceCase)
            lines.append("\(entry.id)  [\(entry.flow), \(entry.severity), \(entry.expect)]")
            lines.append("    checks: \(entry.checks)")
            lines.append("    see: \(entry.reference)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The catalogue as JSON: `{"catalog": version, "cases": [{"id", "flow", "checks", "expect", "severity", "fix", "reference"}]}`.
    public static func listingJSON() throws -> Data {
        struct Listing: Encodable {
            let catalog: String
            let cases: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Listing(catalog: version, cases: all.map(Entry.init)))
    }
}
