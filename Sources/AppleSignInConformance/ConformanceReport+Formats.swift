import JuiceEncodings

extension ConformanceReport {
    /// JUnit XML for CI: one test case per conformance case; FAILED is a `<failure>`, SKIPPED and
    /// INCONCLUSIVE are `<skipped>` with the reason, a WARNING passes with the warning in `<system-out>`.
    public func junit() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let skippedCount = skipped + inconclusive
        xml += #"<testsuites name="juice conformance" tests="\#(cases.count)" failures="\#(failed)">"# + "\n"
        xml +=
            #"  <testsuite name="\#(backend.xmlEscaped)" tests="\#(cases.count)" failures="\#(failed)" errors="0" skipped="\#(skippedCount)">"#
            + "\n"
        xml += #"    <properties><property name="catalog" value="\#(catalog.xmlEscaped)"/></properties>"# + "\n"
        for result in cases {
            xml += #"    <testcase classname="conformance.\#(result.level.rawValue)" name="\#(result.id.xmlEscaped)">"# + "\n"
            let message = "\(result.verdict.rawValue): expected \(result.expect.rawValue), observed \(result.observed): \(result.detail)"
            let body = result.title + "\nfix: " + result.fix + "\nreference: " + result.reference
            switch result.verdict {
            case .failed:
                xml += #"      <failure message="\#(message.xmlEscaped)">\#(body.xmlEscaped)</failure>"# + "\n"
            case .skipped, .inconclusive:
                xml += #"      <skipped message="\#(message.xmlEscaped)"/>"# + "\n"
            case .warning:
                xml += "      <system-out>\((message + "\n" + body).xmlEscaped)</system-out>\n"
            case .passed:
                if result.level == .information { xml += "      <system-out>\(result.detail.xmlEscaped)</system-out>\n" }
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// The readable table for stdout, with the detail, the fix and the reference under each case that did not pass.
    /// What a backend sent is shown, never sent to the terminal: each value is `terminalEscaped` (an escape
    /// sequence, a carriage return or a direction override appears as `\u{1B}` and the like).
    public func table() -> String {
        let ids = cases.map(\.id.terminalEscaped)
        let idWidth = max(4, ids.map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var lines = [
            "Backend: \(backend.terminalEscaped)", "Identity token checked: \(channel.terminalEscaped)", "Catalogue: \(catalog.terminalEscaped)", "",
            "\(pad("CASE", idWidth))  EXPECT  LEVEL        OBSERVED   VERDICT",
        ]
        for (result, id) in zip(cases, ids) {
            lines.append(
                "\(pad(id, idWidth))  \(pad(result.expect.rawValue, 6))  \(pad(result.level.rawValue, 11))  \(pad(result.observed.terminalEscaped, 9))  \(result.verdict.rawValue)"
            )
            if result.verdict != .passed {
                lines.append("\(pad("", idWidth))    \(result.detail.terminalEscaped)")
                if result.verdict != .skipped {
                    lines.append("\(pad("", idWidth))    fix: \(result.fix.terminalEscaped)")
                    lines.append("\(pad("", idWidth))    see: \(result.reference.terminalEscaped)")
                }
            }
        }
        lines.append("")
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `N passed, N failed, N warnings, N inconclusive, N skipped (of N cases)`.
    public var summary: String {
        "\(passed) passed, \(failed) failed, \(warnings) warnings, \(inconclusive) inconclusive, \(skipped) skipped (of \(cases.count) cases)"
    }
}
