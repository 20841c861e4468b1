import Foundation

/// A run's verdicts: `{"backend", "cases": [{"id", "title", "expect", "level", "observed", "passed",
/// "detail"}], "passed", "failed", "warnings"}`.
public struct ConformanceReport: Sendable, Codable, Hashable {
    /// One case's verdict.
    public struct CaseResult: Sendable, Codable, Hashable {
        public let id: String
        public let title: String
        public let expect: ConformanceCase.Expectation
        public let level: ConformanceCase.Level
        /// `accepted`, `refused`, `error` (a 5xx or a step that went wrong) or `timeout`.
        public let observed: String
        public let passed: Bool
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

    public let backend: String
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
