extension EmulatorConfiguration {
    /// The demo Apple ID of development mode: `appleseed@juice.test` / `juice`, Johnny Appleseed.
    public static let demoAppleID = AppleID(email: "appleseed@juice.test", password: "juice", firstName: "Johnny", lastName: "Appleseed")

    /// A one-team, one-app configuration for local development (what `juice serve` generates when it
    /// has no configuration): local redirects allowed, admin endpoints open unless `adminToken` is given.
    ///
    /// ```swift
    /// let key = try TeamKeyGenerator.generate(teamID: "JUICE00001", writingTo: keyURL)
    /// let configuration = EmulatorConfiguration.development(teamID: key.teamID, key: key.configurationKey)
    /// ```
    public static func development(
        teamID: String,
        key: Key,
        bundleID: String = "com.example.apple-samplecode.juice",
        servicesID: String = "com.example.apple-samplecode.juice.web",
        redirectURIs: [String] = ["http://localhost:8080/auth/apple/callback"],
        notificationURL: String? = nil,
        appleIDs: [AppleID] = [demoAppleID],
        adminToken: String? = nil
    ) -> EmulatorConfiguration {
        EmulatorConfiguration(
            adminToken: adminToken,
            teams: [Team(teamID: teamID, keys: [key])],
            apps: [
                App(
                    teamID: teamID, bundleID: bundleID, servicesIDs: [servicesID], redirectURIs: redirectURIs,
                    notificationURL: notificationURL, allowLocalRedirects: true
                )
            ],
            appleIDs: appleIDs
        )
    }
}
