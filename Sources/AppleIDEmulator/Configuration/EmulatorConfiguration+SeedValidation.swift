import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension EmulatorConfiguration {
    /// ``validate()`` for the result of ``merging(_:)`` with `seed`, naming each problem where its author
    /// wrote it: in one of the seed's entries by its path in the seed (`seed apps[0].redirect_uris[1]`),
    /// in an entry the configuration already had by its path there (`configured apps[2]…`).
    /// - Throws: ``EmulatorConfigurationError``.
    public func validate(seededWith seed: EmulatorConfiguration) throws(EmulatorConfigurationError) {
        do {
            try validate()
        } catch {
            let counts = [
                "teams": (teams.count, seed.teams.count), "apps": (apps.count, seed.apps.count),
                "apple_ids": (appleIDs.count, seed.appleIDs.count),
            ]
            throw EmulatorConfigurationError(
                problems: error.problems.map { .init(field: Self.seedRelative($0.field, counts: counts), message: $0.message) })
        }
    }

    /// `field` (`apps[5].…`) as a path in the seed or in the configuration: ``merging(_:)`` puts the seed's
    /// entries last, in the seed's order.
    static func seedRelative(_ field: String, counts: [String: (merged: Int, seeded: Int)]) -> String {
        guard let open = field.firstIndex(of: "["), let close = field[open...].firstIndex(of: "]"),
            let (merged, seeded) = counts[String(field[..<open])], let index = Int(field[field.index(after: open)..<close])
        else { return field }
        let list = field[..<open]
        let rest = field[field.index(after: close)...]
        let firstSeeded = merged - seeded
        return index >= firstSeeded ? "seed \(list)[\(index - firstSeeded)]\(rest)" : "configured \(list)[\(index)]\(rest)"
    }
}
