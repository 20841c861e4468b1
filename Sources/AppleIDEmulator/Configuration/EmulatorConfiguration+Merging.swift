import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension EmulatorConfiguration {
    /// Reads a seed: teams, apps and Apple IDs in the configuration's JSON shape, to be merged with
    /// ``merging(_:)`` (so it is validated together with the configuration it joins, not alone).
    /// - Throws: ``EmulatorConfigurationError`` for malformed JSON, unknown or mistyped fields, or an `admin_token`.
    public init(seedJSON json: Data) throws(EmulatorConfigurationError) {
        let (seed, problems) = try Self.decoded(json: json)
        var all = problems
        if seed.adminToken != nil { all.append(.init(field: "admin_token", message: "cannot be seeded; it comes from the configuration only")) }
        if !all.isEmpty { throw EmulatorConfigurationError(problems: all) }
        self = seed
    }

    /// This configuration with `seed`'s teams, apps and Apple IDs added; an entry with the same
    /// `team_id`, `bundle_id` or email (case-insensitive) replaces the existing one. The admin token is
    /// never taken from a seed. Call ``validate()`` on the result.
    ///
    /// ```swift
    /// let configuration = try EmulatorConfiguration(json: config).merging(try EmulatorConfiguration(json: seed))
    /// ```
    public func merging(_ seed: EmulatorConfiguration) -> EmulatorConfiguration {
        var merged = self
        for team in seed.teams {
            merged.teams.removeAll { $0.teamID == team.teamID }
            merged.teams.append(team)
        }
        for app in seed.apps {
            merged.apps.removeAll { $0.bundleID == app.bundleID }
            merged.apps.append(app)
        }
        for appleID in seed.appleIDs {
            merged.appleIDs.removeAll { $0.email.lowercased() == appleID.email.lowercased() }
            merged.appleIDs.append(appleID)
        }
        return merged
    }
}
