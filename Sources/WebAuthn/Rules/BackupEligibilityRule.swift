/// An assertion's BE flag must be the one recorded at registration: it never changes for a credential.
struct BackupEligibilityRule: PasskeyRule {
    func check(_ evidence: AssertionEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard evidence.authenticatorData.backupEligible == evidence.stored.backupEligible else {
            throw PasskeyError(.backupEligibilityChanged, "the BE flag is not the one recorded at registration")
        }
    }
}
