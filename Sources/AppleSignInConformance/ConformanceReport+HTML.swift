import JuiceEncodings

extension ConformanceReport {
    /// One self-contained HTML page (inline style, no script, no external asset): readable offline,
    /// attachable to a CI run.
    public func html() -> String {
        var rows = ""
        for result in cases {
            let verdict = result.verdict.rawValue
            rows +=
                "<tr class=\"\(verdict.lowercased())\"><td><code>\(result.id.markupEscaped)</code><br><small>\(result.title.markupEscaped)</small></td>"
            rows += "<td>\(result.expect.rawValue)</td><td>\(result.level.rawValue)</td><td>\(result.observed.markupEscaped)</td>"
            rows += "<td class=\"verdict\">\(verdict)</td><td>\(result.detail.markupEscaped)"
            if result.verdict != .passed && result.verdict != .skipped {
                rows += "<br><b>Fix:</b> \(result.fix.markupEscaped)"
            }
            rows += "<br><small>\(result.reference.markupEscaped)</small></td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>juice conformance: \(backend.markupEscaped)</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
            table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}
            th{background:#f3f3f3}.verdict{font-weight:bold;white-space:nowrap}
            .passed .verdict{color:#176c2e}.failed{background:#fdecea}.failed .verdict{color:#b3261e}
            .warning{background:#fff6e0}.warning .verdict{color:#8a5a00}.inconclusive .verdict{color:#5b4bb7}.skipped{color:#777}
            </style></head><body>
            <h1>juice conformance</h1>
            <p>Backend: <code>\(backend.markupEscaped)</code><br>Identity token checked: \(channel.markupEscaped)<br>Catalogue: \(catalog.markupEscaped)</p>
            <p><b>\(summary.markupEscaped)</b>. Exit status \(exitCode): 0 no case FAILED, 1 at least one FAILED.</p>
            <table><thead><tr><th>Case</th><th>Expect</th><th>Level</th><th>Observed</th><th>Verdict</th><th>Detail, fix, reference</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            </body></html>

            """
    }
}
