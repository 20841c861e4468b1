import JuiceEncodings

extension ConformanceReport {
    /// JUnit XML for CI: one test case per conformance case; a failed required case is a `<failure>`,
    /// a failed recommended one passes with a warning in `<system-out>`.
    public func junit() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="juice conformance" tests="\#(cases.count)" failures="\#(failed)">"# + "\n"
        xml += #"  <testsuite name="\#(backend.markupEscaped)" tests="\#(cases.count)" failures="\#(failed)" errors="0" skipped="0">"# + "\n"
        for result in cases {
            xml += #"    <testcase classname="conformance.\#(result.level.rawValue)" name="\#(result.id.markupEscaped)">"# + "\n"
            let message = "expected \(result.expect.rawValue), observed \(result.observed): \(result.detail)"
            if !result.passed && result.level == .required {
                xml +=
                    #"      <failure message="\#(message.markupEscaped)">\#((result.title + "\nfix: " + result.hint).markupEscaped)</failure>"# + "\n"
            } else if !result.passed {
                xml += "      <system-out>\(("warning: " + message + "\nfix: " + result.hint).markupEscaped)</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// The readable table for stdout, with a one-line fix hint under each failed case.
    public func table() -> String {
        let idWidth = max(4, cases.map(\.id.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var lines = ["Backend: \(backend)", "", "\(pad("CASE", idWidth))  EXPECT  LEVEL        OBSERVED  RESULT"]
        for result in cases {
            let verdict = result.passed ? "pass" : (result.level == .required ? "FAIL" : "warn")
            lines.append(
                "\(pad(result.id, idWidth))  \(pad(result.expect.rawValue, 6))  \(pad(result.level.rawValue, 11))  \(pad(result.observed, 8))  \(verdict)"
            )
            if !result.passed {
                lines.append("\(pad("", idWidth))    \(result.detail)")
                lines.append("\(pad("", idWidth))    fix: \(result.hint)")
            }
        }
        lines.append("")
        lines.append("\(passed) passed, \(failed) failed, \(warnings) warnings (of \(cases.count) cases)")
        return lines.joined(separator: "\n") + "\n"
    }
}
