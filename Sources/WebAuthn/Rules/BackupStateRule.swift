/// The BS (backed up) flag may be set only with BE (backup eligible): a credential cannot be backed up if it may not be.
struct BackupStateRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        let data = evidence.authenticatorData
        if data.backedUp, !data.backupEligible { throw PasskeyError(.backupStateInvalid, "the BS flag is set and BE is clear") }
    }
}
