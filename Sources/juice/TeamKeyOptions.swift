import ArgumentParser

/// The team and key a Sign in with Apple client secret is signed for: shared by the commands that sign
/// one (`client-secret`) or check one (`conformance`).
struct TeamKeyOptions: ParsableArguments {
    @Option(name: .customLong("team-id"), help: "The 10-character team id (the client secret's iss).")
    var teamID: String

    @Option(name: .customLong("key-id"), help: "The 10-character id of the team's Sign in with Apple key (the client secret's kid).")
    var keyID: String
}
