import AppleSignIn
import FuzzSupport

// Input: the body of Apple's form_post to `/auth/apple/callback`, as the server hands it to
// `AuthorizationResponse(formBody:)` (form-urlencoding, duplicate fields, Apple's error answers, the
// once-only `user` JSON).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormPost(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let response = try AuthorizationResponse(formBody: body)
        fuzzRequire(!response.state.isEmpty, "accepted an answer without state")
        fuzzRequire(!response.code.isEmpty, "accepted an answer without code")
    } catch {
        fuzzRequire(!error.reason.isEmpty, "a refusal without a reason")
    }
    return 0
}
