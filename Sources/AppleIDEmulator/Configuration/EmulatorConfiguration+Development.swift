extension EmulatorConfiguration {
    /// The demo Apple ID of development mode: `appleseed@juice.test` / `juice`, Johnny Appleseed.
    public static let demoAppleID = AppleID(email: "appleseed@juice.test", password: "juice", firstName: "Johnny", lastName: "Appleseed")

    /// The most demo Apple IDs ``demoAppleIDs(count:)`` makes.
    public static let maximumDemoAppleIDs = 10_000

    /// ``demoAppleID`` and `count − 1` more like it: `appleseed+2@juice.test` … `appleseed+COUNT@juice.test`,
    /// same password, Johnny Appleseed 2 …. Development mode makes them with `juice serve --demo-apple-ids`,
    /// so that a load test (`juice bench signin --apple-id-count`) signs in as many people, not one
    /// person many times. `count` is clamped to 1…``maximumDemoAppleIDs``.
    public static func demoAppleIDs(count: Int) -> [AppleID] {
        (1...min(max(1, count), maximumDemoAppleIDs)).map { number in
            guard number > 1 else { return demoAppleID }
            return AppleID(
                email: numberedEmail(demoAppleID.email, number), password: demoAppleID.password, firstName: demoAppleID.firstName,
                lastName: "\(demoAppleID.lastName) \(number)")
        }
    }

    /// The `number`th of a family of plus-addressed emails: `email` itself for 1, then `local+number@domain`.
    public static func numberedEmail(_ email: String, _ number: Int) -> String {
        guard number > 1, let at = email.lastIndex(of: "@") else { return email }
        return "\(email[..<at])+\(number)\(email[at...])"
    }

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
