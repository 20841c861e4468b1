import Foundation

/// A run's verdicts: `{"backend", "cases": [{"id", "title", "expect", "level", "observed", "passed",
/// "detail"}], "passed", "failed", "warnings"}`.
public struct ConformanceReport: Sendable, Codable, Hashable {
    /// One case's verdict.
    public struct CaseResult: Sendable, Codable, Hashable {
        /// The case's id.
        public let id: String
        /// What was sent.
        public let title: String
        /// What a correct backend does.
        public let expect: ConformanceCase.Expectation
        /// Required or recommended.
        public let level: ConformanceCase.Level
        /// `accepted`, `refused`, `error` (a 5xx or a step that went wrong) or `timeout`.
        public let observed: String
        /// Whether the backend did what a correct one does.
        public let passed: Bool
        /// What the backend answered (status codes, error code), or why the case could not be played.
        public let detail: String
        /// What to fix when it failed (shown on stdout, not part of the JSON report).
        public var hint: String = ""

        enum CodingKeys: String, CodingKey {
            case id, title, expect, level, observed, passed, detail
        }

        init(_ conformanceCase: ConformanceCase, observation: Observation) {
            id = conformanceCase.id
            title = conformanceCase.title
            expect = conformanceCase.expect
            level = conformanceCase.level
            observed = observation.word
            passed = observation.passes(conformanceCase.expect)
            detail = observation.detail
            hint = conformanceCase.hint
        }
    }

    /// The backend's base URL.
    public let backend: String
    /// The verdicts, in the order played.
    public let cases: [CaseResult]
    /// Cases that passed.
    public let passed: Int
    /// Required cases that failed.
    public let failed: Int
    /// Recommended cases that failed.
    public let warnings: Int

    init(backend: String, cases: [CaseResult]) {
        self.backend = backend
        self.cases = cases
        passed = cases.filter(\.passed).count
        failed = cases.filter { !$0.passed && $0.level == .required }.count
        warnings = cases.filter { !$0.passed && $0.level == .recommended }.count
    }

    /// 0 when every required case passed, 1 otherwise (2, a run that could not start, is ``ConformanceStartError``).
    public var exitCode: Int32 { failed == 0 ? 0 : 1 }

    /// The JSON report.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
