#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A run's verdicts: `{"catalog", "backend", "channel", "cases": [{"id", "title", "expect", "level", "observed",
/// "verdict", "detail", "fix", "reference"}], "passed", "failed", "warnings", "inconclusive", "skipped"}`.
public struct ConformanceReport: Sendable, Codable, Hashable {
    /// One case's verdict.
    public struct CaseResult: Sendable, Codable, Hashable {
        /// The case's id.
        public let id: String
        /// What was sent.
        public let title: String
        /// What a correct backend does.
        public let expect: ConformanceCase.Expectation
        /// Required, recommended or information.
        public let level: ConformanceCase.Level
        /// `accepted`, `refused`, `error` (a 5xx or a step that went wrong), `timeout`, `violation`,
        /// `unknown` (inconclusive) or `skipped`.
        public let observed: String
        /// PASSED, FAILED, WARNING, INCONCLUSIVE or SKIPPED.
        public let verdict: ConformanceVerdict
        /// What the backend answered (status codes, error code), or why the case could not be judged.
        public let detail: String
        /// One line saying what to fix when the verdict is not PASSED.
        public let fix: String
        /// Where the rule comes from (Apple's documentation, a technote, an OpenID Connect or RFC section).
        public let reference: String

        /// Whether the verdict is PASSED.
        public var passed: Bool { verdict == .passed }

        init(_ conformanceCase: ConformanceCase, observation: Observation, baseline: (id: String, result: CaseResult)?) {
            id = conformanceCase.id
            title = conformanceCase.title
            expect = conformanceCase.expect
            level = conformanceCase.level
            observed = observation.word
            (verdict, detail, fix) = ConformanceVerdict.judge(conformanceCase, observation, baseline: baseline)
            reference = conformanceCase.reference
        }
    }

    /// The version of the case catalogue the run played (``ConformanceCatalog/version``).
    public let catalog: String
    /// The backend's base URL.
    public let backend: String
    /// Which identity token the backend relies on (information), from the two channel cases.
    public let channel: String
    /// The verdicts, in the order played.
    public let cases: [CaseResult]
    /// Cases PASSED.
    public let passed: Int
    /// Cases FAILED (required cases the backend got wrong).
    public let failed: Int
    /// Cases with a WARNING.
    public let warnings: Int
    /// Cases INCONCLUSIVE.
    public let inconclusive: Int
    /// Cases SKIPPED.
    public let skipped: Int

    init(backend: String, cases: [CaseResult]) {
        catalog = ConformanceCatalog.version
        self.backend = backend
        self.cases = cases
        passed = cases.filter { $0.verdict == .passed }.count
        failed = cases.filter { $0.verdict == .failed }.count
        warnings = cases.filter { $0.verdict == .warning }.count
        inconclusive = cases.filter { $0.verdict == .inconclusive }.count
        skipped = cases.filter { $0.verdict == .skipped }.count
        channel = Self.channel(cases)
    }

    /// 0 when no case FAILED (warnings, inconclusive and skipped cases do not fail a run), 1 when one
    /// did; 2, a run that could not start, is ``ConformanceStartError``.
    public var exitCode: Int32 { failed == 0 ? 0 : 1 }

    /// The JSON report.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    private static func channel(_ cases: [CaseResult]) -> String {
        let formPost = cases.first { $0.id == ConformanceCatalog.formPostChannel }
        let tokenEndpoint = cases.first { $0.id == ConformanceCatalog.tokenEndpointChannel }
        guard let formPost, let tokenEndpoint, formPost.verdict == .passed, tokenEndpoint.verdict == .passed else {
            return "unknown (the channel cases could not be judged)"
        }
        switch (formPost.observed == "accepted", tokenEndpoint.observed == "accepted") {
        case (false, false): return "both: the form_post id_token and the token endpoint's id_token"
        case (true, false): return "the token endpoint's id_token (the form_post id_token is not checked)"
        case (false, true): return "the form_post id_token (the token endpoint's id_token is not checked)"
        case (true, true): return "neither alone: a forged id_token in one channel signs in when the other is good"
        }
    }
}
