import JuiceEncodings

extension ConformanceReport {
    /// One self-contained HTML page (inline style, no script, no external asset): readable offline,
    /// attachable to a CI run. Every text from the backend is escaped by Unicode scalar (`htmlEscaped`),
    /// and the page's own Content-Security-Policy allows no script even if something slipped through.
    public func html() -> String {
        var rows = ""
        for result in cases {
            let verdict = result.verdict.rawValue
            rows +=
                "<tr class=\"\(verdict.lowercased())\"><td><code>\(result.id.htmlEscaped)</code><br><small>\(result.title.htmlEscaped)</small></td>"
            rows += "<td>\(result.expect.rawValue)</td><td>\(result.level.rawValue)</td><td>\(result.observed.htmlEscaped)</td>"
            rows += "<td class=\"verdict\">\(verdict)</td><td>\(result.detail.htmlEscaped)"
            if result.verdict != .passed && result.verdict != .skipped {
                rows += "<br><b>Fix:</b> \(result.fix.htmlEscaped)"
            }
            rows += "<br><small>\(result.reference.htmlEscaped)</small></td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
            <title>juice conformance: \(backend.htmlEscaped)</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
            table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}
            th{background:#f3f3f3}.verdict{font-weight:bold;white-space:nowrap}
            .passed .verdict{color:#176c2e}.failed{background:#fdecea}.failed .verdict{color:#b3261e}
            .warning{background:#fff6e0}.warning .verdict{color:#8a5a00}.inconclusive .verdict{color:#5b4bb7}.skipped{color:#777}
            </style></head><body>
            <h1>juice conformance</h1>
            <p>Backend: <code>\(backend.htmlEscaped)</code><br>Identity token checked: \(channel.htmlEscaped)<br>Catalogue: \(catalog.htmlEscaped)</p>
            <p><b>\(summary.htmlEscaped)</b>. Exit status \(exitCode): 0 no case FAILED, 1 at least one FAILED.</p>
            <table><thead><tr><th>Case</th><th>Expect</th><th>Level</th><th>Observed</th><th>Verdict</th><th>Detail, fix, reference</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            </body></html>

            """
    }
}
