import AppleIDEmulator

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CasePlayer {
    /// `several-audiences`: one backend, two audiences. The web sign-in (the Services ID) and the native
    /// one (the bundle id) must each have been accepted on their own path, and a native token for a third
    /// client id of the same team must be refused.
    func playAudiences(earlier: [String: ConformanceReport.CaseResult]) async throws -> Observation {
        guard options.startPath != nil, options.nativePath != nil else {
            return .skipped("needs a web start and a native endpoint (--start and --native): the backend has one path")
        }
        guard options.appAudience != options.clientID else {
            return .skipped(
                "one audience: the bundle id is the Services ID (--bundle-id was not given, or equals --client-id), so the web and native "
                    + "tokens name the same client id")
        }
        guard earlier[ConformanceCatalog.webBaseline]?.verdict == .passed else {
            return .inconclusive("the web sign-in (\(ConformanceCatalog.webBaseline)) did not succeed: nothing to compare")
        }
        guard let native = earlier[ConformanceCatalog.nativeBaseline], native.verdict == .passed else {
            let detail = earlier[ConformanceCatalog.nativeBaseline]?.detail ?? "not played"
            return .refused(
                "the web sign-in (aud \(options.clientID)) was accepted but the native one (aud \(options.appAudience)) was not: \(detail)")
        }
        let third = try await playNative(SignInPlan([WrongAudience(audience: .sameTeam)]))
        switch third {
        case .refused:
            return .accepted(
                "aud \(options.clientID) accepted on the web path, aud \(options.appAudience) on the native one; aud \(thirdAudience) refused")
        case .accepted(let detail):
            return .violation("a native token for \(thirdAudience), a client id the backend was not given, was accepted: \(detail)")
        default:
            return third
        }
    }

    /// A client id of the same team that is neither the Services ID nor the bundle id: the app's watchOS
    /// companion, whose id starts with the bundle id (so a prefix check accepts it too).
    var thirdAudience: String { options.appAudience + ".watchkitapp" }
}
