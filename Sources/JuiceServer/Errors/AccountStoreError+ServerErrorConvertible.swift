import Hummingbird

extension AccountStoreError: ServerErrorConvertible {
    var serverError: ServerError {
        switch self {
        case .usernameTaken:
            ServerError(.usernameTaken, status: .conflict, "this username is taken; choose another or sign in")
        case .appleIDBelongsToAnotherAccount:
            ServerError(
                .appleIDInUse, status: .conflict,
                "this Apple ID already belongs to another Juice account; sign out and sign in with Apple to use that account"
            )
        case .accountHasAnotherAppleID:
            ServerError(.appleIDInUse, status: .conflict, "this Juice account is already linked to another Apple ID")
        case .linkTargetMissing:
            ServerError.unauthorized("the account to link no longer exists")
        case .accountMissing:
            ServerError.internalError()
        case .passwordCredentialMissing:
            ServerError.invalidRequest("this account has no password yet: send a username to add one")
        }
    }
}
