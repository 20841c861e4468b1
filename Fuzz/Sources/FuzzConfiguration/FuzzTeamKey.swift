/// A P-256 key for the fuzz configurations only (`Fuzz/Fixtures/fuzz-team-key.pem`); never a real team's.
enum FuzzTeamKey {
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsguYOLV6o1jhyhRw
        WqGXFX3fyA6jsVagsCfrlNhIFYKhRANCAAT1KEBx1ankUGGe0lRxRFXjle/03FX9
        Sy2b4eMqzNWJ6afAZSxmUWNCnwALouR3dk4FHAIINMImC6a5TAWFKYWY
        -----END PRIVATE KEY-----

        """
}
