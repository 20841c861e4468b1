import Testing

@testable import AppleIDEmulator

@Suite("a seed's problems are named where the seed's author wrote them")
struct SeedValidationTests {
    @Test("merged paths become the seed's paths for its entries (merging puts them last) and the configuration's for the others")
    func paths() {
        let counts = ["teams": (merged: 3, seeded: 1), "apps": (merged: 6, seeded: 1), "apple_ids": (merged: 4, seeded: 2)]
        #expect(EmulatorConfiguration.seedRelative("apps[5].team_id", counts: counts) == "seed apps[0].team_id")
        #expect(EmulatorConfiguration.seedRelative("apps[4].redirect_uris[1]", counts: counts) == "configured apps[4].redirect_uris[1]")
        #expect(EmulatorConfiguration.seedRelative("apple_ids[3].email", counts: counts) == "seed apple_ids[1].email")
        #expect(EmulatorConfiguration.seedRelative("teams[2]", counts: counts) == "seed teams[0]")
        #expect(EmulatorConfiguration.seedRelative("admin_token", counts: counts) == "admin_token")
        #expect(EmulatorConfiguration.seedRelative("apps[x].team_id", counts: counts) == "apps[x].team_id")
    }
}
