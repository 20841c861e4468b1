/// A case's verdict, as the OpenID Foundation's conformance suite words them.
public enum ConformanceVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// The backend did what a correct one does.
    case passed = "PASSED"
    /// A required case: the backend did what a correct one does not (exit status 1).
    case failed = "FAILED"
    /// A recommended case failed, or a hostile input was refused only by a crash (5xx) or a stall.
    case warning = "WARNING"
    /// Nothing can be concluded: the baseline sign-in the case builds on did not succeed, or a step before it failed.
    case inconclusive = "INCONCLUSIVE"
    /// The case does not apply: its endpoint was not given, or the backend does not use what it tests.
    case skipped = "SKIPPED"

    /// Judges one observation. `baseline` is the verdict of the accepting case a refusing case builds on
    /// (`nil` when it has none): a refusal says nothing when that sign-in never worked.
    static func judge(
        _ conformanceCase: ConformanceCase, _ observation: Observation, baseline: (id: String, result: ConformanceReport.CaseResult)?
    ) -> (verdict: ConformanceVerdict, detail: String, fix: String) {
        let fix = conformanceCase.hint
        let detail = observation.detail
        switch observation {
        case .skipped: return (.skipped, detail, fix)
        case .inconclusive: return (.inconclusive, detail, fix)
        case .late: return (.warning, detail, fix)
        default: break
        }
        if conformanceCase.expect == .refuse, let baseline, baseline.result.verdict != .passed {
            return (
                .inconclusive,
                "the baseline sign-in (\(baseline.id)) did not succeed, so this refusal proves nothing: \(baseline.result.detail)",
                "make \(baseline.id) pass first"
            )
        }
        let missed: ConformanceVerdict = conformanceCase.level == .required ? .failed : .warning
        switch (observation, conformanceCase.expect) {
        case (.accepted, .accept), (.refused, .refuse):
            return (.passed, detail, fix)
        case (_, _) where conformanceCase.level == .information:
            return (.passed, detail, fix)
        case (.error, .refuse), (.timeout, .refuse):
            return (
                .warning, "refused, but by a crash or a stall: \(detail)",
                "answer hostile input with a 4xx or your sign-in error page, promptly, never a 5xx or a stall (it hides real outages and may leak a trace)"
            )
        default:
            return (missed, detail, fix)
        }
    }
}
