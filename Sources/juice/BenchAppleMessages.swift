/// What `POST /api/auth/nonce` answers: the raw nonce.
struct BenchNonceAnswer: Decodable {
    let nonce: String
}

/// What the emulator's device sheet (`POST /emulator/device/authorize`) answers, as much of it as the
/// app hands on: the identity token, the code, and the once-only name and email.
struct BenchDeviceAnswer: Decodable {
    let identityToken: String
    let authorizationCode: String
    let email: String?
    let fullName: BenchFullName?
}

/// A signed-in answer (`POST /api/auth/apple`, `POST /api/auth/password`, `POST /api/accounts`): the session token.
struct BenchSessionAnswer: Decodable {
    let token: String
}

/// The body of `POST /api/auth/apple`: what the app sends from the device credential.
struct BenchAppleSignInBody: Encodable {
    let identityToken: String
    let authorizationCode: String
    let nonce: String
    /// Left out when the device gave no name.
    let fullName: BenchFullName?
    let email: String?

    init(_ credential: BenchSignIn.DeviceCredential) {
        identityToken = credential.identityToken
        authorizationCode = credential.authorizationCode
        nonce = credential.nonce
        fullName =
            credential.givenName == nil && credential.familyName == nil
            ? nil : BenchFullName(givenName: credential.givenName, familyName: credential.familyName)
        email = credential.email
    }
}

/// A person's name as the device sheet gives it and `POST /api/auth/apple` takes it.
struct BenchFullName: Codable {
    let givenName: String?
    let familyName: String?
}
